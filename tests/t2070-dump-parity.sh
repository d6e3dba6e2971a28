#!/bin/sh
test_description='dump and dump 0.4b47 side by side: remote links, messages

A remote output whose remote shell fails never counts as connected: the
dump says "login to HOST as USER failed." (0.4b47 words for a failed
rcmd) and exits 1, with RSH set to a remote shell that fails (status
255, as ssh) or cannot be run, and with RSH unset (a stand-in ssh first in
PATH).  A server that dies before answering is a lost connection, status
3, as in 0.4b47.  (0.4b47 itself needs rcmd and a real host here: not
run side by side.)

Progress: under helpers/fastclock.c (time() runs with the size of the
archive written, 10 KiB a second) both dumps of one big file print
"X.XX% done at N kB/s, finished in H:MM" every five minutes of that
clock; ours counts the blocks written, so its lines come at fixed points
in the middle of the file, at exactly the rate of the clock.

"Dumping DEV (FILESYS) to OUT" comes right after the date line, before
the file system is opened, as in 0.4b47: also when the open fails (an
unlisted device that holds no file system, a path whose file system
cannot be opened).'
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
command -v "$CC" >/dev/null && test_set_prereq CC
# A sanitizer build wants its runtime first among the preloads.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

test_expect_success OURDUMP 'setup: a small file system image, a failing ssh' '
	mkdir -p tree/d && echo hi >tree/d/f &&
	mke2fs -q -F -t ext4 -d tree fs.img 8M &&
	mkdir bin && cat >bin/ssh <<-\EOF &&
	#!/bin/sh
	echo "$@" >"${0%/bin/ssh}/ssh.args"
	echo "ssh: Could not resolve hostname $1" >&2
	exit 255
	EOF
	chmod +x bin/ssh
'

# no_link OUT: the messages of a link that never was.
no_link() {
	grep "login to h as [^ ]* failed\.\$" "$1" &&
	! grep "established" "$1" && ! grep "DUMP IS DONE" "$1"
}

test_expect_success OURDUMP 'dump -f h:file, RSH fails (255): login failed, status 1' '
	RSH=$PWD/bin/ssh && export RSH &&
	test_when_finished "unset RSH" &&
	{ "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err; echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err &&
	grep "^  DUMP: login to" err
'

test_expect_success OURDUMP 'dump -f h:file, RSH unset: ssh is used, no false connection' '
	{ PATH=$PWD/bin:$PATH "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err
	  echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err &&
	grep "^ssh: Could not resolve hostname h\$" err &&
	grep "^h -l [^ ]* [^ ]*rmt" ssh.args
'

test_expect_success OURRESTORE 'restore -f h:file, RSH fails (255): login failed, status 1' '
	{ RSH=$PWD/bin/ssh "$RESTORE" -t -f h:/nonexistent/x >out 2>err
	  echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err && test_cmp /dev/null out
'

test_expect_success OURDUMP 'dump -f h:file, RSH cannot be run: login failed, status 1' '
	{ RSH=$PWD/nonexistent "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err
	  echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err && grep "cannot exec" err
'

test_expect_success OURDUMP 'dump -f h:file, rmt dies at once: lost connection, status 3 as 0.4b47' '
	{ RSH=false "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err
	  echo $? >rc; } &&
	echo 3 | test_cmp - rc &&
	grep "^  DUMP: Lost connection to remote host\.\$" err &&
	! grep "login to" err
'

# 0.4b47 prints the libext2fs error of the open without "  DUMP: ";
# ours prints the same words with it, for log parsers.
for what in zero badmagic
do
	test_expect_success ROOT,LOOP,OURDUMP,ORACLE "dump of a $what device: libext2fs error with the DUMP prefix" '
		if test '$what' = zero
		then
			truncate -s 4M '$what'.img
		else
			cp fs.img '$what'.img &&
			printf "\\377\\377" | dd of='$what'.img bs=1 seek=1080 conv=notrunc 2>/dev/null
		fi &&
		dev=$(image_attach '$what'.img) &&
		{ "$ORACLE_DUMP" -0 -f /dev/null "$dev" 2>o.err; echo $? >o.rc; } &&
		{ "$DUMP" -0 -f /dev/null "$dev" 2>u.err; echo $? >u.rc; } &&
		test_cmp o.rc u.rc &&
		grep "^$dev: Bad magic number in super-block while opening filesystem\$" o.err >o.line &&
		grep "^  DUMP: $dev: Bad magic number" u.err | sed "s/^  DUMP: //" >u.line &&
		test_cmp o.line u.line
	'
done

# fast DUMP OUT ERR: DUMP of $bigdev to OUT, its clock run by OUT's size.
fast() {
	rm -f "$2" &&
	env LD_PRELOAD="$TRASH_DIRECTORY/fastclock.so" \
		FASTCLOCK_FILE="$TRASH_DIRECTORY/$2" FASTCLOCK_BYTES=10240 \
		"$1" -0 -f "$2" -D dd "$bigdev" 2>"$3"
}

# progress ERR: the percentages of the progress lines, one a line.
progress() {
	sed -n "s/^  DUMP: \([0-9]*\.[0-9][0-9]\)% done at [0-9]* kB\/s, finished in [0-9]*:[0-5][0-9]\$/\1/p" "$1"
}

test_expect_success ROOT,LOOP,CC 'setup: one big file, the clock shim' '
	"$CC" -shared -fPIC -o fastclock.so "$HELPERS/fastclock.c" &&
	mkdir big && head -c 22000000 /dev/urandom >big/f && echo x >big/g &&
	mke2fs -q -F -t ext4 -d big big.img 40M &&
	bigdev=$(image_attach big.img)
'

test_expect_success ROOT,LOOP,CC,ORACLE 'progress lines: 0.4b47 prints them in the middle of a big file' '
	fast "$ORACLE_DUMP" o.dump o.err &&
	grep "DUMP IS DONE" o.err &&
	progress o.err >o.pct &&
	test $(wc -l <o.pct) -ge 5 &&
	test $(grep -c "% done" o.err) = $(wc -l <o.pct)
'

test_expect_success ROOT,LOOP,CC,OURDUMP 'progress lines: ours, at the blocks written' '
	fast "$DUMP" u.dump u.err &&
	grep "DUMP IS DONE" u.err &&
	progress u.err >u.pct &&
	test $(grep -c "% done" u.err) = $(wc -l <u.pct) &&
	est=$(sed -n "s/^  DUMP: estimated \([0-9]*\) blocks\.\$/\1/p" u.err) &&
	total=$(sed -n "s/^  DUMP: \([0-9]*\) blocks (.*) on 1 volume(s)\$/\1/p" u.err) &&
	test "$total" = $(($(wc -c <u.dump) / 1024)) &&
	# 21 MB at 10 KiB a second: a line every 300 s, 7 in all; each
	# says 10 kB/s (the blocks it counts reached the file), they grow
	# by 300 s of blocks at least and stay below the total and 100%
	test $(wc -l <u.pct) = 7 &&
	grep "% done at 10 kB/s, " u.err >rate &&
	test $(wc -l <rate) = 7 &&
	awk -v est="$est" -v total="$total" "
		{ b = \$1 * (est + 11) / 100 }
		b > total || \$1 >= 100 || b < prev + 3000 - 30 { bad = 1 }
		{ prev = b }
		END { exit bad }" u.pct
'

test_expect_success ROOT,LOOP,CC,ORACLE,OURDUMP 'progress lines: the same words as 0.4b47' '
	shape() {
		grep "% done" "$1" | sed "s/[0-9][0-9]*/N/g" | sort -u
	} &&
	shape o.err >o.shape && shape u.err >u.shape &&
	echo "  DUMP: N.N% done at N kB/s, finished in N:N" >expect &&
	test_cmp expect o.shape && test_cmp expect u.shape
'

# opening OUT: the lines up to the label or the abort, dates masked,
# without our flush line and our prefix on the libext2fs error.
opening() {
	no_flush_line <"$1" |
	sed -e "s/: [A-Z][a-z][a-z] [A-Z][a-z][a-z] .*/: DATE/" \
	    -e "s/^  DUMP: \(.*: Bad magic number in super-block while opening filesystem\)\$/\1/" |
	sed "/^  DUMP: Label: /q; /^  DUMP: Cannot open /q; /^  DUMP: The ENTIRE dump is aborted/q"
}

# both OPERAND NAME: 0.4b47 and ours dump OPERAND; their opening lines.
both() {
	{ "$ORACLE_DUMP" -0 -f /dev/null -D "$PWD/none.dd" "$1" 2>$2.o.err
	  echo $? >$2.o.rc; } &&
	{ "$DUMP" -0 -f /dev/null -D "$PWD/none.dd" "$1" 2>$2.u.err
	  echo $? >$2.u.rc; } &&
	opening $2.o.err >$2.o.open && opening $2.u.err >$2.u.open
}

test_expect_success ROOT,LOOP,CC,ORACLE,OURDUMP 'Dumping line: an unlisted device, as 0.4b47' '
	both "$bigdev" unl &&
	test_cmp unl.o.open unl.u.open &&
	sed -n 3p unl.u.open | grep "^  DUMP: Dumping $bigdev (an unlisted file system) to /dev/null\$"
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'Dumping line: an unlisted device without a file system, before the error' '
	truncate -s 4M nofs.img && nodev=$(image_attach nofs.img) &&
	both "$nodev" nofs &&
	test_cmp nofs.o.open nofs.u.open &&
	sed -n 3p nofs.u.open | grep "^  DUMP: Dumping $nodev (an unlisted file system) to /dev/null\$" &&
	sed -n 4p nofs.u.open | grep "^$nodev: Bad magic number" &&
	test_cmp nofs.o.rc nofs.u.rc
'

# The mount point is short (short_dir): the line shows the header's
# file-system field, 63 characters at most, which a mount point below the
# trash directory of a checkout at a long path would overflow; this one
# fits whole, "(dir /f)" and all.
test_expect_success ROOT,LOOP,CC,ORACLE,OURDUMP 'Dumping line: a mounted device and a directory in it, as 0.4b47' '
	M=$(short_dir)/mnt && image_mount "$bigdev" "$M" ro &&
	test_when_finished "image_umount $M" &&
	both "$bigdev" mdev && test_cmp mdev.o.open mdev.u.open &&
	sed -n 3p mdev.u.open | grep -Fx "  DUMP: Dumping $bigdev ($M) to /dev/null" &&
	both "$M/f" mfile && test_cmp mfile.o.open mfile.u.open &&
	sed -n 3p mfile.u.open | grep -Fx "  DUMP: Dumping $bigdev ($M (dir /f)) to /dev/null"
'

test_expect_success ROOT,ORACLE,OURDUMP 'Dumping line: a path that does not exist, before the open, as 0.4b47' '
	both /nonexistent/x nx &&
	sed -n 3p nx.o.open >o.line && sed -n 3p nx.u.open >u.line &&
	grep "^  DUMP: Dumping .* (/ (dir nonexistent/x)) to /dev/null\$" o.line &&
	test_cmp o.line u.line
'

test_expect_success ROOT,OURDUMP 'Dumping line: an image file, right after the date' '
	"$DUMP" -0 -f /dev/null -D "$PWD/none.dd" "$PWD/fs.img" 2>img.err &&
	opening img.err >img.open &&
	sed -n 3p img.open | grep "^  DUMP: Dumping $PWD/fs.img (an unlisted file system) to /dev/null\$" &&
	sed -n 4p img.open | grep "^  DUMP: Label: "
'

test_done
