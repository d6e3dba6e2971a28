#!/bin/sh
test_description='our dump to host:file through rmt (pipelined)

RSH points at a local stand-in for rsh that drops the host and "-l user"
arguments and runs the rest; RMT at our rmt (which grants strict writes,
so dump keeps a window of W requests in flight) or at rmt 0.4b47 (which
does not: one W at a time).
 - the remote archive equals a local dump of the same unmounted device,
   c_date and checksums aside, with either server, and restore 0.4b47
   reads it;
 - the session with our rmt really is pipelined (I-7337 probe granted, many
   W requests before the first reply is needed) and the one with rmt
   0.4b47 survives the probe;
 - -M to a remote prefix, and end of media on the server (ENOSPC on a
   small full file system) with the next volume named after a comma:
   both restore completely;
 - GNU rmt (which exits after C) works, a fresh link per volume;
 - a server that dies: "Lost connection to remote host.", exit 3;
 - a bad remote user name: "invalid user name", exit 1.'
. "$(dirname "$0")/lib.sh"

test -x "$ORACLE_RMT" && test_set_prereq RMTORACLE
GNU_RMT=/usr/sbin/rmt-tar
test -x "$GNU_RMT" && test_set_prereq GNURMT

# Stand-in for rsh, called as: RSH host -l user command...
cat >rsh-exec <<\EOF_RSH
#!/bin/sh
shift
if test "$1" = "-l"; then shift 2; fi
exec "$@"
EOF_RSH
cat >rmt-log <<\EOF_RMT
#!/bin/sh
exec "$REAL_RMT" "$RMT_LOG"
EOF_RMT
chmod +x rsh-exec rmt-log
RSH=$PWD/rsh-exec && export RSH

restores_like() {	# restores_like ARCHIVE-OR-PREFIX DIR [-M]
	rm -rf "$2" && mkdir "$2" &&
	(cd "$2" && "$ORACLE_RESTORE" -r $3 -f "../$1" >/dev/null 2>../"$2".err) &&
	manifest "$2" --mtime=s >"$2".man &&
	test_cmp ref.man "$2".man
}

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRMT 'setup: image, local dump, what restore 0.4b47 makes of it' '
	make_image ext4 fs.img small &&
	image_attach fs.img >dev &&
	"$DUMP" -0 -f l.dump $(cat dev) 2>l.err &&
	mkdir ref && (cd ref && "$ORACLE_RESTORE" -r -f ../l.dump >/dev/null 2>&1) &&
	manifest ref --mtime=s >ref.man
'
DEV=$(cat dev 2>/dev/null)

# Remote names relative to the trash directory (the rsh stand-in keeps the
# working directory): rmt 0.4b47 cuts request lines at 63 bytes, and a
# deep checkout would otherwise push the absolute path past that.
for server in ours oracle
do
	test "$server" = ours && srv=$RMT prq=OURRMT || srv=$ORACLE_RMT prq=RMTORACLE
	test_expect_success ROOT,LOOP,ORACLE,OURDUMP,$prq "to host:file through $server rmt: the local archive, restorable" '
		RMT=$srv "$DUMP" -0 -f localhost:r-'$server'.dump "$DEV" 2>r.err &&
		grep "Connection to localhost established." r.err &&
		grep "DUMP IS DONE" r.err &&
		"$PYTHON" "$HELPERS/cmpdump.py" cmp --strict l.dump r-'$server'.dump &&
		"$ORACLE_RESTORE" -t -f r-'$server'.dump >t.list 2>&1 &&
		"$ORACLE_RESTORE" -t -f l.dump >l.list 2>&1 &&
		grep -v "date:" l.list >l.nd && grep -v "date:" t.list >t.nd &&
		test_cmp l.nd t.nd &&
		restores_like r-'$server'.dump rr
	'
	test_expect_success ROOT,LOOP,ORACLE,OURDUMP,$prq "compressed (-z) through $server rmt restores" '
		RMT=$srv "$DUMP" -0 -z -f localhost:z-'$server'.dump "$DEV" 2>z.err &&
		restores_like z-'$server'.dump zr
	'
done

test_expect_success ROOT,LOOP,OURDUMP,OURRMT 'our rmt grants strict writes: W requests are pipelined' '
	REAL_RMT=$RMT RMT_LOG=$PWD/ours.log RMT=$PWD/rmt-log \
		"$DUMP" -0 -f localhost:$PWD/p.dump "$DEV" 2>p.err &&
	head -2 ours.log >probe &&
	printf "rmtd: I -7337 1\nrmtd: A 1\n" >expect && test_cmp expect probe &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp --strict l.dump p.dump &&
	grep -c "^rmtd: W" ours.log >nw && test $(cat nw) -gt 10
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,RMTORACLE 'rmt 0.4b47 refuses the probe harmlessly (one W at a time)' '
	REAL_RMT=$ORACLE_RMT RMT_LOG=$PWD/ref.log RMT=$PWD/rmt-log \
		"$DUMP" -0 -f localhost:q.dump "$DEV" 2>q.err &&
	grep "DUMP IS DONE" q.err &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp --strict l.dump q.dump
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,GNURMT 'GNU rmt (exits after C): -M, a fresh link per volume, restores' '
	RMT=$GNU_RMT "$DUMP" -0 -f localhost:$PWD/g.dump "$DEV" 2>g.err &&
	grep "DUMP IS DONE" g.err &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp --strict l.dump g.dump &&
	RMT=$GNU_RMT "$DUMP" -0 -M -B 1500 -f localhost:$PWD/gm "$DEV" 2>gm.err &&
	grep "DUMP IS DONE" gm.err &&
	test -s gm002 &&
	restores_like gm gmr -M
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRMT '-M to a remote prefix restores completely' '
	RMT=$RMT "$DUMP" -0 -M -B 1500 -f localhost:$PWD/mv "$DEV" 2>mv.err &&
	test -s mv001 && test -s mv002 &&
	restores_like mv mvr -M
'

for z in none -z
do
	test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRMT "ENOSPC on the server ($z): continues on the next volume, restores" '
		dd if=/dev/zero of=small.img bs=1M count=2 2>/dev/null &&
		mke2fs -q -F -t ext2 -m 0 small.img &&
		image_mount small.img small &&
		test_when_finished "image_umount small" &&
		dd if=/dev/zero of=small/fill bs=1k count=1300 2>/dev/null &&
		zopt= && test '$z' = none || zopt='$z' &&
		rm -f eb &&
		RMT=$RMT "$DUMP" -0 $zopt -f localhost:$PWD/small/a,$PWD/eb "$DEV" 2>eom.err &&
		grep "End of tape detected" eom.err &&
		grep "on 2 volume(s)" eom.err &&
		cp small/a e.001 && cp eb e.002 && rm -f small/a &&
		restores_like e. er -M
	'
done

test_expect_success ROOT,LOOP,OURDUMP 'a server that dies: Lost connection, exit 3' '
	{ RMT=/bin/false "$DUMP" -0 -f localhost:$PWD/x.dump "$DEV" 2>lost.err; echo $? >rc; } &&
	test $(cat rc) = 3 &&
	grep "Lost connection to remote host." lost.err
'

test_expect_success OURDUMP 'bad remote user name: exit 1' '
	{ "$DUMP" -0 -f "a.b@localhost:x" /nonexistent 2>user.err; echo $? >rc; } &&
	test $(cat rc) = 1 &&
	grep "invalid user name a.b" user.err
'

test_done
