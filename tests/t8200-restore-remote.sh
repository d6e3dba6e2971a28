#!/bin/sh
test_description='our restore reading host:file through rmt

RSH points at a stand-in for rsh (a Python relay, rmtrelay.py below) that
drops the host and "-l user" arguments, runs the rest and relays both byte
streams, parsing them: it counts the R requests in flight (sent, reply not
yet begun) and can cut the link after a given number of reply bytes, as a
server that dies mid-read.
 - restore -t, -r, -x, -C and -i of archives written by our dump and by
   dump 0.4b47, read through our rmt, rmt 0.4b47 and GNU rmt: listings
   equal the local ones, restored trees have the manifest of the local
   restore;
 - reads are pipelined on a regular file (many R in flight), one at a
   time on a tape (helpers/faketape.c preloaded into the server), where
   -s 2 reaches the second dump file with MTFSF, the block size is found
   from the first record, and a compressed dump needs no -l;
 - a remote FIFO (short replies that are not the end) reads completely;
 - -M volumes host:prefix001... come back with every server (one link per
   volume: GNU rmt exits after C);
 - a server that dies mid-read, or never starts: "Lost connection to
   remote host.", exit 3, no hang; a missing remote file: exit 1.'
. "$(dirname "$0")/lib.sh"

test -x "$ORACLE_RMT" && test_set_prereq RMTORACLE
GNU_RMT=/usr/sbin/rmt-tar
test -x "$GNU_RMT" && test_set_prereq GNURMT
CC=${CC:-cc}
command -v "$CC" >/dev/null && test_set_prereq CC
# Every restore here is bounded: a hang is a failure, not a stuck suite.
LIMIT="timeout 120"
# The fake tape driver is preloaded into rmt; a sanitizer build wants its
# runtime first among the preloads.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS


# The relay, called as: rmtrelay.py host -l user command...
# RELAY_LOG: where "inflight N" (the most R requests in flight) and
# "requests ..." (the request letters, run-length) are written at the end.
# RELAY_CUT: after that many reply bytes, kill the server and drop the
# link.
cat >rmtrelay.py <<\EOF
import os, select, signal, subprocess, sys
args = sys.argv[2:]
if args[:1] == ["-l"]:
    args = args[2:]
srv = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                       bufsize=0)
cut = int(os.environ.get("RELAY_CUT", "0"))
LINES = {b"O": 2, b"C": 1, b"R": 1, b"I": 2, b"i": 2, b"L": 2, b"W": 1,
         b"V": 1, b"S": 0}
req, rep, queue, letters = b"", b"", [], []
inflight = most = sent = 0
def parse_requests():
    global req, inflight, most
    while req:
        c = req[:1]
        n, i = LINES.get(c, 1), 1
        for _ in range(n):
            j = req.find(b"\n", i)
            if j < 0:
                return
            i = j + 1
        if c == b"W":
            size = int(req[1:req.index(b"\n")])
            if len(req) < i + size:
                return
            i += size
        req = req[i:]
        queue.append(c)
        letters.append(c.decode())
        if c == b"R":
            inflight += 1
            most = max(most, inflight)
def parse_replies():
    global rep, inflight
    while queue:
        j = rep.find(b"\n")
        if j < 0:
            return
        line, i = rep[:j], j + 1
        if line[:1] in (b"E", b"F"):
            k = rep.find(b"\n", i)
            if k < 0:
                return
            i = k + 1
        elif queue[0] in (b"R", b"S"):
            if len(rep) < i + int(line[1:]):
                return
            i += int(line[1:])
        rep = rep[i:]
        if queue.pop(0) == b"R":
            inflight -= 1
def report():
    log = os.environ.get("RELAY_LOG")
    if not log:
        return
    runs, prev = [], None
    for c in letters:
        if runs and runs[-1][0] == c:
            runs[-1][1] += 1
        else:
            runs.append([c, 1])
    with open(log, "w") as f:
        f.write("inflight %d\n" % most)
        f.write("requests %s\n" % " ".join("%s%d" % (c, n) for c, n in runs))
SRC, SRV = 0, srv.stdout.fileno()
fds = [SRC, SRV]
while fds:
    ready = select.select(fds, [], [])[0]
    # requests first: what the client sent together is counted together
    for fd in sorted(ready, key=lambda fd: fd != SRC):
        data = os.read(fd, 1 << 16)
        if fd == SRC:
            if not data:
                fds.remove(SRC)
                srv.stdin.close()
                continue
            req += data
            parse_requests()
            try:
                srv.stdin.write(data)
            except BrokenPipeError:
                pass
            continue
        if not data:
            fds = []
            break
        if cut and sent + len(data) > cut:
            os.write(1, data[:cut - sent])
            srv.send_signal(signal.SIGKILL)
            report()
            os._exit(0)
        sent += len(data)
        rep += data
        parse_replies()
        while data:
            data = data[os.write(1, data):]
report()
srv.wait()
EOF
cat >rsh-relay <<EOF
#!/bin/sh
exec "$PYTHON" "$PWD/rmtrelay.py" "\$@"
EOF
chmod +x rsh-relay
RSH=$PWD/rsh-relay && export RSH

# restore_r NAME DIR REF [OPTS...]: our restore -r of NAME into a fresh
# DIR, its manifest compared with REF.man, the local restore's.
restore_r() {
	name=$1 dir=$2 ref=$3 && shift 3 &&
	rm -rf "$dir" && mkdir "$dir" &&
	(cd "$dir" && $LIMIT "$RESTORE" -r "$@" -f "$name" >../"$dir".out \
		2>../"$dir".err) &&
	manifest "$dir" >"$dir".man && test_cmp "$ref".man "$dir".man
}

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,PYTHON 'setup: image, archives of both dumps, local references' '
	make_image ext4 fs.img small &&
	image_attach fs.img >dev &&
	"$DUMP" -0 -f l.dump $(cat dev) 2>l.err &&
	"$DUMP" -0 -z -b 64 -f z.dump $(cat dev) 2>z.err &&
	"$ORACLE_DUMP" -0 -f o.dump $(cat dev) 2>o.err &&
	"$DUMP" -0 -M -B 1500 -f mv $(cat dev) 2>mv.err &&
	test -s mv002 &&
	mkdir ref refo && (cd ref && "$RESTORE" -r -f ../l.dump) &&
	(cd refo && "$RESTORE" -r -f ../o.dump) &&
	manifest ref >ref.man && manifest refo >refo.man &&
	"$RESTORE" -t -f l.dump >l.list 2>/dev/null &&
	"$RESTORE" -t -f o.dump >o.list 2>/dev/null
'
DEV=$(cat dev 2>/dev/null)

# Remote names are relative to the server's working directory (the trash
# directory; restore_r runs one level below it): rmt 0.4b47 cuts request
# lines at 63 bytes, too short for a long tree path.
for server in ours oracle gnu
do
	case $server in
	ours) srv=$RMT prq=OURRMT ;;
	oracle) srv=$ORACLE_RMT prq=RMTORACLE ;;
	gnu) srv=$GNU_RMT prq=GNURMT ;;
	esac
	test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,PYTHON,$prq "$server rmt: -t lists as from the local files" '
		RMT=$srv $LIMIT "$RESTORE" -t -f localhost:l.dump >t1 2>t1.err &&
		grep "^Connection to localhost established.$" t1.err &&
		test_cmp l.list t1 &&
		RMT=$srv $LIMIT "$RESTORE" -t -f localhost:o.dump >t2 2>t2.err &&
		test_cmp o.list t2
	'
	test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,PYTHON,$prq "$server rmt: -r of our and 0.4b47 archives, -z without -l" '
		RMT=$srv restore_r localhost:../l.dump r-'$server' ref &&
		RMT=$srv restore_r localhost:../o.dump ro-'$server' refo &&
		RMT=$srv restore_r localhost:../z.dump rz-'$server' ref &&
		grep "Dump tape is compressed." rz-'$server'.err
	'
	test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,PYTHON,$prq "$server rmt: -M volumes, one link each" '
		RMT=$srv restore_r localhost:../mv rm-'$server' ref -M &&
		grep -c "^Connection to localhost established.$" rm-'$server'.err >n &&
		echo $(ls mv0* | wc -l) >expect && test_cmp expect n
	'
done

test_expect_success ROOT,LOOP,OURRESTORE,OURRMT,PYTHON 'a file: R requests pipelined, ramping up to a window' '
	RELAY_LOG=$PWD/pipe.log RMT=$RMT $LIMIT "$RESTORE" -r -N -v -f localhost:$PWD/l.dump >pipe.out 2>pipe.err &&
	sed -n "s/^inflight //p" pipe.log >most && test $(cat most) -ge 8 &&
	grep -x "Input is from a remote tape" pipe.out &&
	grep "^requests I1 O1 I1 R[0-9]* C1$" pipe.log
'

test_expect_success ROOT,LOOP,OURRESTORE,OURRMT,PYTHON '-x of a subtree; -C against the mounted file system, as locally' '
	rm -rf x xl && mkdir x xl &&
	(cd x && RMT=$RMT $LIMIT "$RESTORE" -x -a -f localhost:$PWD/../l.dump ./dir 2>../x.err) &&
	(cd xl && "$RESTORE" -x -a -f ../l.dump ./dir 2>/dev/null) &&
	test -d x/dir && ! test -e x/other &&
	manifest x --no-root >x.man && manifest xl --no-root >xl.man && test_cmp xl.man x.man &&
	image_mount "$DEV" mnt ro &&
	test_when_finished "image_umount mnt" &&
	{ "$RESTORE" -C -D mnt -f l.dump >cl.out 2>cl.err; echo $? >cl.rc; } &&
	{ RMT=$RMT $LIMIT "$RESTORE" -C -D mnt -f localhost:$PWD/l.dump >cr.out 2>cr.err;
	  echo $? >cr.rc; } &&
	echo 0 >expect && test_cmp expect cr.rc &&
	test_cmp cl.out cr.out && test_cmp cl.rc cr.rc
'

test_expect_success ROOT,LOOP,OURRESTORE,OURRMT,PYTHON '-i: two extracts, the archive read twice through the link' '
	rm -rf i il && mkdir i il &&
	printf "add dir\nextract\n1\nn\nadd other\nextract\n1\n\nn\nquit\n" >cmds &&
	(cd i && RMT=$RMT $LIMIT "$RESTORE" -i -f localhost:$PWD/../l.dump \
		<../cmds >../i.out 2>../i.err) &&
	(cd il && "$RESTORE" -i -f ../l.dump <../cmds >/dev/null 2>&1) &&
	test -d i/dir && test -d i/other && ! test -e i/names &&
	grep -o "Connection to localhost established." i.err | wc -l >n &&
	echo 2 >expect && test_cmp expect n &&
	manifest i --no-root >i.man && manifest il --no-root >il.man && test_cmp il.man i.man
'

test_expect_success ROOT,LOOP,OURRESTORE,OURRMT,PYTHON 'a remote FIFO: short replies are joined, not taken for the end' '
	mkfifo fifo &&
	{ timeout 120 cat l.dump >fifo & } &&
	test_when_finished "kill $! 2>/dev/null; true" &&
	RMT=$RMT restore_r localhost:$PWD/fifo rf ref
'

test_expect_success CC 'setup: the fake tape driver' '
	"$CC" -shared -fPIC -o fake-tape.so "$HELPERS/faketape.c" -ldl &&
	"$CC" -DFAKETAPE_TOOL -o faketape "$HELPERS/faketape.c" &&
	cat >rmt-tape <<-EOF &&
	#!/bin/sh
	LD_PRELOAD=$PWD/fake-tape.so FAKETAPE_LOG=$PWD/tape.ops exec "\$REAL_RMT" "\$@"
	EOF
	chmod +x rmt-tape
'
test -x "$TRASH_DIRECTORY/rmt-tape" && test_set_prereq FAKETAPE

for server in ours oracle
do
	test "$server" = ours && srv=$RMT prq=OURRMT || srv=$ORACLE_RMT prq=RMTORACLE
	test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON,FAKETAPE,$prq "a tape through $server rmt: one R at a time, -s 2, block size" '
		rm -f nst.tape* st.tape* tape.ops && : >nst.tape &&
		REAL_RMT=$srv RMT=$PWD/rmt-tape "$DUMP" -0 -f localhost:nst.tape "$DEV" 2>d1.err &&
		REAL_RMT=$srv RMT=$PWD/rmt-tape "$DUMP" -0 -z -b 64 -f localhost:nst.tape "$DEV" 2>d2.err &&
		./faketape ls nst.tape | grep -c fm >fms && echo 2 >expect && test_cmp expect fms &&
		cp nst.tape st.tape && : >tape.ops &&
		REAL_RMT=$srv RMT=$PWD/rmt-tape RELAY_LOG=$PWD/tape.log restore_r localhost:../st.tape rt1 ref -v &&
		grep "^Input is from a remote tape$" rt1.out &&
		grep "^Tape block size is 10$" rt1.out &&
		grep "^inflight 1$" tape.log &&
		REAL_RMT=$srv RMT=$PWD/rmt-tape restore_r localhost:../st.tape rt2 ref -v -s 2 &&
		grep "^Tape block size is 64$" rt2.out &&
		grep "Dump tape is compressed." rt2.err &&
		grep "^op 1 1$" tape.ops
	'
done

test_expect_success ROOT,LOOP,OURRESTORE,OURRMT,PYTHON 'a regular remote file has one dump file: -s 2 refused, exit 1' '
	{ RMT=$RMT $LIMIT "$RESTORE" -t -s 2 -f localhost:$PWD/l.dump >/dev/null 2>s.err; echo $? >rc; } &&
	echo 1 >expect && test_cmp expect rc &&
	grep "holds only one dump file" s.err
'

test_expect_success ROOT,LOOP,OURRESTORE,OURRMT,PYTHON 'rrestore is restore; a read error on the server is reported, exit 1' '
	ln -s "$RESTORE" rrestore &&
	RMT=$RMT $LIMIT ./rrestore -t -f localhost:$PWD/l.dump >rr.list 2>rr.err &&
	test_cmp l.list rr.list &&
	{ RMT=$RMT $LIMIT "$RESTORE" -t -f localhost:$PWD/ref >/dev/null 2>dir.err; echo $? >rc; } &&
	echo 1 >expect && test_cmp expect rc &&
	grep "read error on localhost:.*/ref: Is a directory" dir.err
'

test_expect_success ROOT,LOOP,OURRESTORE,OURRMT,PYTHON 'a server that dies mid-read: Lost connection, exit 3' '
	rm -rf cut && mkdir cut &&
	{ (cd cut && RELAY_CUT=300000 RMT=$RMT $LIMIT "$RESTORE" -r -f localhost:$PWD/../l.dump \
		>/dev/null 2>../cut.err); echo $? >rc; } &&
	echo 3 >expect && test_cmp expect rc &&
	grep "^Lost connection to remote host.$" cut.err
'

test_expect_success ROOT,LOOP,OURRESTORE,PYTHON 'a server that never starts: Lost connection, exit 3' '
	{ RMT=/bin/false $LIMIT "$RESTORE" -t -f localhost:$PWD/l.dump >/dev/null 2>false.err; echo $? >rc; } &&
	echo 3 >expect && test_cmp expect rc &&
	grep "^Lost connection to remote host.$" false.err
'

test_expect_success OURRESTORE,OURRMT,PYTHON 'a missing remote file: exit 1; a bad user name: exit 1' '
	{ RMT=$RMT $LIMIT "$RESTORE" -t -f localhost:$PWD/nothing >/dev/null 2>miss.err; echo $? >rc; } &&
	echo 1 >expect && test_cmp expect rc &&
	grep "cannot open localhost:.*/nothing: No such file or directory" miss.err &&
	{ $LIMIT "$RESTORE" -t -f a.b@localhost:x >/dev/null 2>user.err; echo $? >rc; } &&
	test_cmp expect rc && grep "^invalid user name a.b$" user.err
'

test_done
