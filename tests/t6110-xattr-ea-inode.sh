#!/bin/sh
test_description='extended attributes whose values live in EA inodes

An ext4 image with ea_inode gets values of 5000 to 65000 bytes, which
the kernel keeps in EA inodes: one beside a small value on a file, three
on one file (two sharing their EA inode with another file), one on a
directory, and on a file whose in-inode area and EA block are both full
of small values one in each.  Our dump and 0.4b56 dump it; our restore
brings every value back from both archives onto an ea_inode ext4, and
-C passes, then names a value that changed.  Restores 0.4b47, 0.4b49
and 0.4b56 read our archive without a message and set every other
attribute (0.4b56 dump'"'"'s own form makes them all abort).  An ext4
without ea_inode cannot hold the values: each is reported, exit 1.  A
damaged value record is reported, exit 1.'
. "$(dirname "$0")/lib.sh"

P=ROOT,LOOP,OURDUMP,OURRESTORE,ATTR,PYTHON

# newfs IMG DIR [MKE2FS-OPTIONS]: a fresh ext4 (ea_inode) mounted on DIR.
newfs() {
	truncate -s 64M "$1" &&
	mke2fs -q -F -t ext4 -b 4096 -I 256 ${3:-"-O ea_inode"} "$1" &&
	image_mount "$1" "$2"
}
# xlist DIR [NAMES-TO-LEAVE-OUT]: path, name, length and hash of every
# attribute under DIR.
xlist() {
	"$PYTHON" - "$1" "${2:-}" <<'EOF'
import hashlib, os, re, sys
top, leave = sys.argv[1], sys.argv[2]
for dp, dns, fns in sorted(os.walk(top)):
    dns[:] = sorted(d for d in dns if d != "lost+found")
    for n in [dp] + [os.path.join(dp, f) for f in sorted(fns)]:
        rel = os.path.relpath(n, top)
        if rel == "restoresymtable":
            continue
        for a in sorted(os.listxattr(n, follow_symlinks=False)):
            if leave and re.fullmatch(leave, a):
                continue
            v = os.getxattr(n, a, follow_symlinks=False)
            print(rel, a, len(v), hashlib.sha256(v).hexdigest()[:16])
EOF
}
# fill DIR: the values.
fill() {
	"$PYTHON" - "$1" <<'EOF'
import os, random, sys
os.chdir(sys.argv[1])
rnd = random.Random(6110)
def val(n):
    return bytes(rnd.randrange(256) for _ in range(n))
shared = val(5000)
for f in ("r", "s", "b", "plain"):
    open(f, "w").write(f + "\n")
os.mkdir("d")
os.setxattr("r", "user.huge", shared)
os.setxattr("r", "user.small", b"hello")
os.setxattr("s", "user.big64", val(65000))
os.setxattr("s", "user.b8", val(8192))
os.setxattr("s", "trusted.t4", shared)
os.setxattr("d", "user.dirval", b"D" * 6000)
for i in range(8):
    os.setxattr("b", "user.fill%d" % i, b"v%d" % i * 20)
os.setxattr("b", "user.large1", bytes(range(256)) * 20)
os.setxattr("b", "trusted.large2", b"L" * 7000)
os.setxattr("plain", "user.p", b"plain value")
EOF
}
BIG='user\.huge|user\.big64|user\.b8|trusted\.t4|user\.dirval|user\.large1|trusted\.large2'

test_expect_success $P 'setup: values in EA inodes, dumped by ours and 0.4b56' '
	newfs src.img src && srcdev=$MOUNT_DEV &&
	fill src && xlist src >src.x &&
	test "$(grep -c " 65000 " src.x)" = 1 &&
	test "$(wc -l <src.x)" = 17 &&
	image_umount src &&
	debugfs -R "stat /s" "$srcdev" 2>/dev/null >s.stat &&
	grep "^  user.big64 (65000)" s.stat &&
	"$DUMP" -0 -f ours.dump "$srcdev" 2>ours.err &&
	if test_have_prereq UPSTREAM56
	then
		"$UPSTREAM56/dump" -0 -f b56.dump "$srcdev" 2>b56.err
	fi
'

# restore_into NAME RESTORE ARCHIVE [MKE2FS-OPTIONS]: restore -r onto a
# fresh ext4 NAME, its messages in NAME.err, its exit status in rc.
restore_into() {
	newfs $1.img $1 "${4:-}" || return 1
	(cd $1 && "$2" -r -y -f ../$3) >$1.out 2>$1.err
	rc=$?
}

test_expect_success $P 'our dump -> our restore: every value, exit 0' '
	restore_into oo "$RESTORE" ours.dump && test "$rc" = 0 &&
	test_cmp /dev/null oo.err &&
	xlist oo >oo.x && test_cmp src.x oo.x &&
	test "$(cat oo/r)" = r && test "$(cat oo/plain)" = plain
'

test_expect_success $P,UPSTREAM56 'dump 0.4b56 -> our restore: every value, exit 0' '
	restore_into fo "$RESTORE" b56.dump && test "$rc" = 0 &&
	test_cmp /dev/null fo.err &&
	xlist fo >fo.x && test_cmp src.x fo.x
'

test_expect_success $P 'our archive: no EA inode as a file, no payload over 4 KiB' '
	"$HELPERS/tapetool" list ours.dump >ours.list &&
	! grep "^[0-9]* TS_INODE 1[5-9] .* 0100600 0x2 " ours.list &&
	awk "\$NF == \"EA\" && \$5 > 4096 { bad = 1 } END { exit bad }" ours.list &&
	test "$(awk "\$NF == \"EA\" && \$5 == 8" ours.list | wc -l)" = 7
'

# Restores 0.4b47, 0.4b49 and 0.4b56 set all the other attributes.
grep -Ev " ($BIG) " src.x >small.x
for v in 47 49 56
do
	case $v in
	47) pre=ORACLE r=$ORACLE_RESTORE ;;
	49) pre=UPSTREAM49 r=$UPSTREAM49/restore ;;
	56) pre=UPSTREAM56 r=$UPSTREAM56/restore ;;
	esac
	test_expect_success $P,$pre "our dump -> restore 0.4b$v: the other attributes, no harm" "
		restore_into u$v '$r' ours.dump && test \$rc = 0 &&
		test \"\$(grep -v 'lost+found: File exists' u$v.err)\" = '' &&
		xlist u$v >u$v.x && test_cmp small.x u$v.x &&
		test \"\$(cat u$v/b)\" = b && test \"\$(cat u$v/s)\" = s
	"
done

# Why our dump does not write 0.4b56's form: its restores overrun a buffer.
test_known_upstream_defect $P,ORACLE,UPSTREAM56 \
	'dump 0.4b56 -> restore 0.4b47 aborts on an EA-inode entry' '
	restore_into ab "$ORACLE_RESTORE" b56.dump &&
	test "$rc" -ge 128 && grep "buffer overflow" ab.err
'

test_expect_success $P 'restore -C of both archives passes, then names a changed value' '
	image_mount src.img src &&
	"$RESTORE" -C -D src -f ours.dump >c1.out 2>c1.err &&
	test_cmp /dev/null c1.err &&
	if test_have_prereq UPSTREAM56
	then
		"$RESTORE" -C -D src -f b56.dump >c2.out 2>c2.err &&
		test_cmp /dev/null c2.err
	fi &&
	"$PYTHON" -c "import os; os.setxattr(\"src/s\", \"user.big64\", b\"y\" * 65000)" &&
	test_when_finished "image_umount src" &&
	test_must_fail "$RESTORE" -C -D src -f ours.dump >c3.out 2>c3.err &&
	grep "^\./s: EA user.big64 value changed from .* on tape to y" c3.err &&
	test "$(wc -l <c3.err)" = 1 &&
	if test_have_prereq UPSTREAM56
	then
		test_must_fail "$RESTORE" -C -D src -f b56.dump >c4.out 2>c4.err &&
		test_cmp c3.err c4.err
	fi
'

test_expect_success $P 'an ext4 without ea_inode: each value reported, others set, exit 1' '
	restore_into pl "$RESTORE" ours.dump "-O ^ea_inode" && test "$rc" = 1 &&
	test "$(grep -c "EA set .* failed: No space left on device\$" pl.err)" = 7 &&
	test "$(wc -l <pl.err)" = 7 &&
	grep "^restore: \./d: EA set user\.dirval:D\{64\}\.\.\. failed: " pl.err &&
	xlist pl >pl.x && test_cmp small.x pl.x
'

# only_ea_damage ERR: besides the line about the record, ERR says only
# that its data does not match its checksum (doc/format.md 2.6).
only_ea_damage() {
	grep -x "Data checksum error: the extended attributes of inode [0-9]*" "$1" &&
	test "$(wc -l <"$1")" = 2
}

test_expect_success $P 'a damaged value record is reported, the rest restored, exit 1' '
	blk=$(awk "\$NF == \"EA\" && \$5 == 8 { print \$1; exit }" ours.list) &&
	# the value size of the entry in the tail: 1 KiB on, 32 + 8 bytes in
	"$HELPERS/tapetool" poke ours.dump bad1.dump $(((blk + 2) * 1024 + 40)) ffffff7f &&
	"$HELPERS/tapetool" poke ours.dump bad2.dump $(((blk + 2) * 1024)) 12345678 &&
	restore_into bad1 "$RESTORE" bad1.dump && test "$rc" = 1 &&
	grep "^\./d: malformed EA entry at offset 32\$" bad1.err &&
	only_ea_damage bad1.err &&
	xlist bad1 "user\.dirval" >bad1.x && grep -v " user\.dirval " src.x >src1.x &&
	test_cmp src1.x bad1.x &&
	restore_into bad2 "$RESTORE" bad2.dump && test "$rc" = 1 &&
	grep "^EA record of inode [0-9]*: 6144 bytes after its payload not understood\$" bad2.err &&
	only_ea_damage bad2.err
'

test_done
