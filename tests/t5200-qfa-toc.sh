#!/bin/sh
test_description='QFA position files (-Q, -P) and tables of contents (-A)

dump -Q and dump -A against 0.4b47 for the same file system (byte equal
where they should be; each QFA position really holds its inode header);
restore -Q extracting one file from the middle of a 60 MB archive while
reading far less than all of it, plain and compressed; restore -A
listing and extracting without reading earlier volumes; restore -P
giving the lines of dump -Q (plus one for every other selected inode of
a record); and both programs reading the files of the other.'
. "$(dirname "$0")/lib.sh"

# The position lines of a QFA file (title lines cut).
qlines() {
	tail -n +6 "$1"
}

# "ino vol pos" lines of a QFA file whose record does not hold a TS_INODE
# header of ino (uncompressed archive, or -M prefix for several volumes).
check_positions() {
	"$PYTHON" - "$@" <<-\EOF
	import struct, sys
	qfa, arch = sys.argv[1], sys.argv[2]
	multi = len(sys.argv) > 3
	NFS_MAGIC, TS_INODE = 60012, 2
	lines = open(qfa).read().split("\n")[5:]
	bad = 0
	for line in lines:
	    if not line:
	        continue
	    ino, vol, pos = (int(x) for x in line.split("\t"))
	    name = "%s%03d" % (arch, vol) if multi else arch
	    with open(name, "rb") as f:
	        ntrec = struct.unpack_from("<i", f.read(1024), 896)[0]
	        f.seek(pos)
	        rec = f.read(ntrec * 1024)
	    found = False
	    for b in range(0, len(rec), 1024):
	        typ, = struct.unpack_from("<i", rec, b)
	        inum, = struct.unpack_from("<I", rec, b + 20)
	        magic, = struct.unpack_from("<i", rec, b + 24)
	        if magic == NFS_MAGIC and typ == TS_INODE and inum == ino:
	            found = True
	            break
	    if not found:
	        print("no header of inode %d at %d:%d" % (ino, vol, pos))
	        bad += 1
	sys.exit(1 if bad else 0)
	EOF
}

# Bytes read by a command and its children (rchar of /proc/self/io:
# reaped children are counted in).  Standard input goes to the command.
RCHAR_PY='
import subprocess, sys
def rchar():
    for l in open("/proc/self/io"):
        if l.startswith("rchar:"):
            return int(l.split()[1])
before = rchar()
rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
print(rchar() - before)
sys.exit(rc)
'
rchar_of() {
	"$PYTHON" -c "$RCHAR_PY" "$@"
}

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'setup: a 60 MB file system, archives, QFA and TOC files' '
	mkdir -p tree/d/e tree/d2 &&
	for i in 1 2 3 4 5 6
	do
		dd if=/dev/urandom of=tree/big$i bs=1M count=10 2>/dev/null || return 1
	done &&
	echo hello >tree/d/e/f && echo x >tree/d2/x && echo top >tree/top &&
	ln -s top tree/lnk && mkfifo tree/fifo && ln tree/top tree/d2/hard &&
	truncate -s 100M fs.img &&
	mke2fs -q -F -t ext4 -b 4096 -d tree fs.img &&
	dev=$(image_attach fs.img) && echo "$dev" >dev &&
	"$DUMP" -0 -Q q.ours -A a.ours -f arch.ours "$dev" 2>dump.err &&
	"$ORACLE_DUMP" -0 -Q q.orac -A a.orac -f arch.orac "$dev" 2>/dev/null &&
	"$DUMP" -0 -z -Q qz.ours -A az.ours -f archz.ours "$dev" 2>/dev/null &&
	"$ORACLE_DUMP" -0 -z -Q qz.orac -f archz.orac "$dev" 2>/dev/null &&
	test -s q.ours && test -s a.ours && test -s qz.ours
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'dump -Q/-A messages as 0.4b47' '
	grep "^  DUMP: writing QFA positions to q.ours$" dump.err &&
	sed -n "/Average transfer rate/,\$p" dump.err >tail.actual &&
	sed -n "2,\$p" tail.actual >tail2.actual &&
	printf "  DUMP: Archiving dump to (null)\n  DUMP: DUMP IS DONE\n" >tail.expect &&
	test_cmp tail.expect tail2.actual
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'QFA file: title lines as 0.4b47, positions byte equal' '
	sed -n "1p;2p;4p;5p" q.orac >title.expect &&
	sed -n "1p;2p;4p;5p" q.ours >title.actual &&
	test_cmp title.expect title.actual &&
	test "$(sed -n 1p q.ours)" = 495115637697 &&
	qlines q.orac >pos.expect && qlines q.ours >pos.actual &&
	test $(wc -l <pos.actual) -ge 8 &&
	test_cmp pos.expect pos.actual
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'QFA file: every position holds the header of its inode' '
	check_positions q.ours arch.ours &&
	check_positions q.orac arch.ours &&
	awk -F"	" -v OFS="	" "NR > 5 { \$3 = \$3 + 1 } 1" q.ours >q.off &&
	! check_positions q.off arch.ours >/dev/null
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'QFA date line is the dump date of the archive' '
	"$PYTHON" -c "import struct,sys; print(struct.unpack_from(\"<i\", open(sys.argv[1],\"rb\").read(8), 4)[0])" arch.ours >date.expect &&
	sed -n 3p q.ours >date.actual &&
	test_cmp date.expect date.actual
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'TOC: same blocks as 0.4b47 (cmpdump), volume table in TS_END' '
	test $(stat -c %s a.ours) = $(stat -c %s a.orac) &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp a.orac a.ours &&
	"$PYTHON" -c "
import struct, sys
for f in sys.argv[1:]:
    d = open(f, \"rb\").read()
    print(f.split(\".\")[0], struct.unpack_from(\"<4I\", d, len(d) - 1024 + 164))
" a.orac arch.orac >inos.expect &&
	"$PYTHON" -c "
import struct, sys
for f in sys.argv[1:]:
    d = open(f, \"rb\").read()
    print(f.split(\".\")[0], struct.unpack_from(\"<4I\", d, len(d) - 1024 + 164))
" a.ours arch.ours >inos.actual &&
	test_cmp inos.expect inos.actual &&
	grep "(0, 2, 0, 0)" inos.actual
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -t -A lists what restore -t lists, plus the volume table' '
	"$RESTORE" -t -f arch.ours >t.plain 2>/dev/null &&
	"$RESTORE" -t -A a.ours >t.toc 2>t.toc.err &&
	test_cmp /dev/null t.toc.err &&
	grep -v "^Starting inode\|^	Volume" t.toc >t.toc.names &&
	test_cmp t.plain t.toc.names &&
	grep "^Starting inode numbers by volume:$" t.toc &&
	grep "^	Volume 1: 2$" t.toc &&
	"$ORACLE_RESTORE" -t -A a.ours >t.toc.orac 2>/dev/null &&
	test_cmp t.toc.orac t.toc &&
	"$RESTORE" -t -A a.orac >t.toc2 2>/dev/null &&
	"$ORACLE_RESTORE" -t -A a.orac >t.toc2.orac 2>/dev/null &&
	test_cmp t.toc2.orac t.toc2
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -t -Q: names as -t, with each inode position' '
	"$RESTORE" -t -Q q.ours -f arch.ours >tq.out 2>tq.err &&
	grep "^reading QFA positions from q.ours$" tq.err &&
	grep -a "^ *[0-9]" t.plain | cut -f1,2 >n.expect &&
	grep -a "^ *[0-9]" tq.out | cut -f1,4 >n.actual &&
	test_cmp n.expect n.actual &&
	ino=$(qlines q.ours | sed -n 3p | cut -f1) &&
	pos=$(qlines q.ours | sed -n 3p | cut -f3) &&
	grep "^ *$ino	1	$pos	\./" tq.out
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -x -Q reads far less than the whole archive' '
	size=$(stat -c %s arch.ours) &&
	mkdir xq && (cd xq && rchar_of "$RESTORE" -x -Q ../q.ours -f ../arch.ours ./big4 >../rq) &&
	cmp tree/big4 xq/big4 && test ! -e xq/big5 &&
	mkdir xf && (cd xf && rchar_of "$RESTORE" -x -a -f ../arch.ours ./big4 >../rf) &&
	cmp tree/big4 xf/big4 &&
	echo "archive $size, read with -Q $(cat rq), without $(cat rf)" &&
	test $(cat rf) -ge $((size / 2)) &&
	test $(cat rq) -lt $((size / 4))
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -x -Q of a compressed archive, ours and 0.4b47s' '
	size=$(stat -c %s archz.ours) &&
	mkdir xz && (cd xz && rchar_of "$RESTORE" -x -Q ../qz.ours -f ../archz.ours ./big4 ./d/e/f >../rz) &&
	cmp tree/big4 xz/big4 && test "$(cat xz/d/e/f)" = hello &&
	test $(cat rz) -lt $((size / 4)) &&
	mkdir xz2 && (cd xz2 && "$RESTORE" -x -Q ../qz.orac -f ../archz.orac ./big3 2>/dev/null) &&
	cmp tree/big3 xz2/big3 &&
	mkdir xz3 && (cd xz3 && "$ORACLE_RESTORE" -x -Q ../qz.ours -f ../archz.ours ./big5 </dev/null >/dev/null 2>&1) &&
	cmp tree/big5 xz3/big5
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'QFA files cross over: 0.4b47 restore with ours, ours with 0.4b47s' '
	mkdir c1 && (cd c1 && "$ORACLE_RESTORE" -x -Q ../q.ours -f ../arch.ours ./big2 ./d2 </dev/null >/dev/null 2>&1) &&
	cmp tree/big2 c1/big2 && cmp tree/d2/hard c1/d2/hard &&
	mkdir c2 && (cd c2 && "$RESTORE" -x -Q ../q.orac -f ../arch.orac ./big6 ./lnk 2>/dev/null) &&
	cmp tree/big6 c2/big6 && test "$(readlink c2/lnk)" = top &&
	mkdir c4 && (cd c4 && "$RESTORE" -x -A ../a.orac -f ../arch.orac ./big1 ./fifo 2>/dev/null) &&
	cmp tree/big1 c4/big1 && test -p c4/fifo
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -i with -A, and with -Q, extracts what was added' '
	mkdir i1 && (cd i1 && printf "add big3\nadd d\nextract\nquit\n" |
		"$RESTORE" -i -o -A ../a.ours -f ../arch.ours >/dev/null 2>../i1.err) &&
	cmp tree/big3 i1/big3 && test "$(cat i1/d/e/f)" = hello &&
	! grep "not found on tape\|not restored" i1.err &&
	mkdir i2 && (cd i2 && printf "add big5\nextract\nquit\n" |
		rchar_of "$RESTORE" -i -o -Q ../q.ours -f ../arch.ours >../ri) &&
	cmp tree/big5 i2/big5 &&
	test $(cat ri) -lt $(($(stat -c %s arch.ours) / 4))
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore -P gives the lines of dump -Q, plus the inodes sharing a record' '
	"$RESTORE" -P p.ours -f arch.ours 2>p.err &&
	grep "^writing QFA positions to p.ours$" p.err &&
	sed -n 1,5p q.ours >ph.expect && sed -n 1,5p p.ours >ph.actual &&
	test_cmp ph.expect ph.actual &&
	qlines p.ours >pl && qlines q.ours >ql &&
	comm -13 pl ql >missing && test_cmp /dev/null missing &&
	test $(wc -l <pl) -gt $(wc -l <ql) &&
	check_positions p.ours arch.ours &&
	"$RESTORE" -P pz.ours -f archz.ours 2>/dev/null &&
	qlines pz.ours >pzl && qlines qz.ours >qzl &&
	comm -13 pzl qzl >missing.z && test_cmp /dev/null missing.z &&
	"$RESTORE" -P p.orac -f arch.orac ./big3 ./d 2>/dev/null &&
	qlines p.orac | cut -f1 >psel &&
	test $(wc -l <psel) = 2 &&
	mkdir px && (cd px && "$ORACLE_RESTORE" -x -Q ../p.ours -f ../arch.ours ./big3 </dev/null >/dev/null 2>&1) &&
	cmp tree/big3 px/big3
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE 'multi-volume: -Q equal to 0.4b47, -A goes straight to the last volume' '
	dev=$(cat dev) &&
	mkdir mv mvo &&
	"$DUMP" -0 -M -B 20000 -Q qm.ours -A am.ours -f mv/v "$dev" 2>/dev/null &&
	"$ORACLE_DUMP" -0 -M -B 20000 -Q qm.orac -A am.orac -f mvo/v "$dev" 2>/dev/null &&
	test -f mv/v004 &&
	qlines qm.orac >qm.expect && qlines qm.ours >qm.actual &&
	test_cmp qm.expect qm.actual &&
	check_positions qm.ours mv/v multi &&
	"$ORACLE_RESTORE" -t -A am.ours | sed -n "/^Starting/,/^ /p" >vt.expect &&
	"$RESTORE" -t -A am.ours | sed -n "/^Starting/,/^ /p" >vt.actual &&
	test_cmp vt.expect vt.actual &&
	grep "^	Volume 4: " vt.actual &&
	mkdir c3 && (cd c3 && "$ORACLE_RESTORE" -x -A ../am.ours -M -f ../mv/v ./big6 </dev/null >/dev/null 2>&1) &&
	cmp tree/big6 c3/big6 &&
	mkdir hide && mv mv/v001 mv/v002 hide/ &&
	mkdir m1 && (cd m1 && "$RESTORE" -x -A ../am.ours -M -f ../mv/v ./big6 </dev/null 2>../m1.err) &&
	cmp tree/big6 m1/big6 &&
	mkdir m2 && (cd m2 && "$RESTORE" -x -A ../am.ours -Q ../qm.ours -M -f ../mv/v ./big6 </dev/null 2>/dev/null) &&
	cmp tree/big6 m2/big6 &&
	mv hide/* mv/ &&
	mkdir m3 && (cd m3 && "$RESTORE" -x -Q ../qm.ours -M -f ../mv/v ./big2 ./big6 </dev/null 2>/dev/null) &&
	cmp tree/big2 m3/big2 && cmp tree/big6 m3/big6
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'restore refuses -A/-Q where 0.4b47 does, and a wrong QFA file' '
	test_must_fail "$RESTORE" -r -Q q.ours -f arch.ours 2>e1 &&
	grep "Q option is not valid for r command" e1 &&
	test_must_fail "$RESTORE" -C -A a.ours -f arch.ours 2>e2 &&
	grep "A option is not valid for C command" e2 &&
	test_must_fail "$RESTORE" -x -m -Q q.ours -f arch.ours 2>e3 &&
	grep "m and Q options are mutually exclusive" e3 &&
	test_must_fail "$RESTORE" -t -Q /etc/passwd -f arch.ours 2>e4 &&
	grep "not requested format of -- /etc/passwd" e4 &&
	sed "3s/.*/12345/" q.ours >q.baddate &&
	test_must_fail "$RESTORE" -t -Q q.baddate -f arch.ours >/dev/null 2>e5 &&
	grep "different QFA/dumpdates detected" e5 &&
	test_must_fail "$RESTORE" -t -Q nothere -f arch.ours 2>e6 &&
	grep "can.t open file for reading -- nothere" e6
'

test_expect_success ROOT,LOOP,OURDUMP 'dump: unwritable -A exits 1 at start-up, unwritable -Q aborts' '
	dev=$(cat dev) &&
	"$DUMP" -0 -A nodir/toc -f x.dump "$dev" 2>ea; test $? = 1 &&
	grep "Cannot open nodir/toc for writing" ea && test ! -e x.dump &&
	"$DUMP" -0 -Q nodir/q -f x.dump "$dev" 2>eq; test $? = 3 &&
	grep "can.t open tapeposfile" eq
'

test_done
