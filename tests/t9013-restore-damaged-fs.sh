#!/bin/sh
test_description='restore keeps the data of a damaged file system

A small ext4 is damaged with debugfs and a byte patch of a directory
block, as e2fsprogs damages its test images (f_dup_de, f_dup_de_crypt,
f_dir_bad_mode, f_orphan_dotdot_ft), then dumped by dump 0.4b47: two
entries of one directory with the same name (also once cut at a NUL
byte), a directory whose inode says it is a regular file, and one whose
inode says it is a character device, each holding further files and
directories.  restore -r and -x must keep every file that has a name
(a clashing name gets a name of its own, reported), restore an inode
named as a directory as what it is on the archive, name each inode and
directory it cannot place, leave no empty directory behind, and exit 1.
0.4b47 keeps both files of a clash too.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

P=ROOT,LOOP,ORACLE,PYTHON,TAPETOOL

# ino PATH: the inode number of PATH in fs.img.
ino() {
	debugfs -R "stat $1" fs.img 2>/dev/null |
	sed -n "s/^Inode: \([0-9]*\) .*/\1/p"
}

# patch_name DIR OLD NEW: replace the name OLD in the first block of
# directory DIR of fs.img by NEW (as many bytes; \0 for a NUL).
patch_name() {
	blk=$(debugfs -R "bmap $1 0" fs.img 2>/dev/null) &&
	test -n "$blk" &&
	"$PYTHON" -c '
import sys
img, blk, old, new = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
old = old.encode().replace(b"\\0", b"\0")
new = new.encode().replace(b"\\0", b"\0")
assert len(old) == len(new)
with open(img, "r+b") as f:
    f.seek(blk * 1024)
    b = f.read(1024)
    i = b.index(old)
    f.seek(blk * 1024 + i)
    f.write(new)
' fs.img "$blk" "$2" "$3"
}

test_expect_success $P 'setup: a damaged file system, dumped' '
	mkdir -p src/dup src/crypt src/bad/sd src/cdev/s1 src/cdev/s2 src/ok &&
	echo first >src/dup/one && echo second >src/dup/two &&
	echo plain >src/crypt/abc && echo cipher >src/crypt/abcx &&
	echo inner >src/bad/inner && echo deep >src/bad/sd/deep &&
	echo s1 >src/cdev/s1/f && echo fine >src/ok/fine &&
	mke2fs -q -F -t ext4 -b 1024 -O ^metadata_csum,^dir_index \
		-d src fs.img 8M &&
	two=$(ino /dup/two) && abcx=$(ino /crypt/abcx) &&
	bad=$(ino /bad) && inner=$(ino /bad/inner) &&
	sd=$(ino /bad/sd) && deep=$(ino /bad/sd/deep) &&
	cdev=$(ino /cdev) && s1=$(ino /cdev/s1) && s2=$(ino /cdev/s2) &&
	f=$(ino /cdev/s1/f) &&
	patch_name /dup two one &&
	patch_name /crypt abcx "abc\\0" &&
	debugfs -w -R "sif /bad mode 0100644" fs.img &&
	debugfs -w -R "sif /cdev mode 020644" fs.img &&
	debugfs -R "ls /dup" fs.img >dup.ls && test "$(grep -c "one" dup.ls)" = 1 &&
	dev=$(image_attach fs.img) &&
	"$ORACLE_DUMP" -0 -f fs.dump "$dev" 2>dump.err &&
	"$TAPETOOL" ents fs.dump >ents &&
	test "$(awk "\$7 == \"one\"" ents | wc -l)" = 2 &&
	BOX=$(pwd)/box && hostile_reset_box && hostile_snapshot >box.before
'

# The lines -r and -x must give, in any order.
expected() {
	cat <<-EOF
	Directory inode $(ino /dup): entry "one" (inode $two) kept as "one.dup-$two": duplicate name
	Directory inode $(ino /crypt): entry "abc\\000" (inode $abcx) kept as "abc.dup-$abcx": NUL inside the name, and a duplicate name
	Directory inode $sd has no name reached from the root: left out, with its entries
	Directory inode $s1 has no name reached from the root: left out, with its entries
	Directory inode $s2 has no name reached from the root: left out, with its entries
	./bad: directory (inode $bad) is not on the tape
	./cdev: directory (inode $cdev) is not on the tape
	./bad: inode $bad on tape has mode 0100644; restored as that
	./cdev: inode $cdev on tape has mode 020644; restored as that
	Inode $inner (mode 0100644) has no name reached from the root: not restored
	Inode $deep (mode 0100644) has no name reached from the root: not restored
	Inode $f (mode 0100644) has no name reached from the root: not restored
	EOF
}

# The file contents that come back: every file with a name (bad, the
# image of a directory, aside).
contents() {
	(cd "$1" && find . -type f ! -name restoresymtable ! -name bad -exec cat {} + | sort)
}

for m in r x
do
	test_expect_success $P,OURRESTORE \
		"restore -$m keeps every named file, names the rest, exits 1" "
		hostile_run $m fs.dump &&
		test \$hostile_rc = 1 &&
		expected | sort >expected.err &&
		grep -v -e '^set owner/mode' -e '^\$' hostile.err | sort >actual.err &&
		test_cmp expected.err actual.err &&
		printf '%s\n' cipher fine first plain second >expected.data &&
		contents \"\$BOX/target\" >actual.data &&
		test_cmp expected.data actual.data &&
		test \"\$(cat \"\$BOX/target/dup/one.dup-$two\")\" = second &&
		test -f \"\$BOX/target/bad\" && test -c \"\$BOX/target/cdev\"
	"

	test_expect_success $P,OURRESTORE \
		"restore -$m leaves no directory it did not restore" "
		hostile_run $m fs.dump &&
		find \"\$BOX/target\" -type d -empty ! -name lost+found >empty &&
		test_cmp /dev/null empty
	"
done

test_expect_success $P,OURRESTORE 'restore -t lists the name kept for a clash' '
	hostile_run t fs.dump &&
	test $hostile_rc = 1 &&
	grep "^ *$two	\./dup/one\.dup-$two\$" hostile.out &&
	grep "^ *$abcx	\./crypt/abc\.dup-$abcx\$" hostile.out
'

test_expect_success $P 'restore 0.4b47 -r keeps both files of a clash too' '
	oracle_run r fs.dump &&
	contents "$BOX/target/dup" >oracle.dup &&
	printf "%s\n" first second >expected.dup &&
	test_cmp expected.dup oracle.dup
'

test_done
