#!/bin/sh
test_description='data checksums in every header, restore --verify

Our dump writes the header extension of doc/format.md 2.6 into every
header: the 64-bit dates and the XXH3-64 of the data blocks since the
header before.  restore --verify reads a whole archive (plain,
compressed, several volumes) and verifies it.  A byte flipped in the
data of a file is named, with its inode and byte range, by every mode
that reads it (-r, -x, -i, -C, --verify, -t from a pipe); every other
file is restored exactly and the exit status is non-zero; a file whose
header is lost is named by --verify as restore -r names it.  Bytes
flipped at many places of a real archive are each traced to the right
inode by --verify.  Restores 0.4b47, 0.4b49 and 0.4b56 read our
archives exactly; restore 0.4b47 restores the damaged file silently.
Archives without the extension raise no false alarm: restore -r of
0.4b47'"'"'s archive exits 0, and --verify says it cannot verify it.'
. "$(dirname "$0")/lib.sh"

CMPDUMP="$PYTHON $HELPERS/cmpdump.py"
TAPETOOL=$HELPERS/tapetool
test -x "$TAPETOOL" && test_set_prereq TAPETOOL

if grep -q -- "-DHAVE_LZO=1" "$TOP/Make.rules"
then
	test_set_prereq LZO
fi

# flip ARCHIVE BLOCK [BYTE]: flip one bit of byte BYTE (default 517) of
# tape block BLOCK of ARCHIVE, in place.
flip() {
	"$PYTHON" - "$@" <<-'EOF'
	import sys
	path, block = sys.argv[1], int(sys.argv[2])
	byte = int(sys.argv[3]) if len(sys.argv) > 3 else 517
	with open(path, 'r+b') as f:
	    f.seek(block * 1024 + byte)
	    b = f.read(1)
	    f.seek(block * 1024 + byte)
	    f.write(bytes([b[0] ^ 0x10]))
	EOF
}

# restored DIR ARCHIVE [RESTORE]: restore -r of ARCHIVE into a fresh DIR;
# its stderr in DIR.err, its status in DIR.rc.
restored() {
	rm -rf "$1" && mkdir "$1" &&
	{ (cd "$1" && "${3:-$RESTORE}" -r -f "../$2" >/dev/null 2>"../$1.err");
		echo $? >"$1.rc"; }
}

test_expect_success ROOT,PYTHON,OURDUMP,OURRESTORE 'setup: a tree of files spanning many headers, dumped' '
	mkdir tree tree/d &&
	for i in 1 2 3 4 5 6
	do
		head -c $((i * 300000)) /dev/urandom >tree/f$i || return 1
	done &&
	seq 1 20000 >tree/d/seq && echo small >tree/d/small &&
	truncate -s 3M tree/sparse && echo tail >>tree/sparse &&
	ln -s d/small tree/link &&
	mke2fs -q -t ext4 -d tree fs.img 48M &&
	"$DUMP" -0 -f plain.dump fs.img 2>plain.err &&
	restored ref plain.dump && test "$(cat ref.rc)" = 0 &&
	manifest ref --mtime=s --no-root >ref.man &&
	test $(wc -l <ref.man) = 12 &&
	$CMPDUMP datablocks plain.dump >blocks &&
	ino=$(awk "\$3 == \"file\" { print \$2 }" blocks | sort -n | uniq -c |
		sort -n | tail -n 1 | awk "{ print \$2 }") &&
	test -n "$ino" && echo "$ino" >big.ino &&
	"$RESTORE" -t -f plain.dump >list &&
	awk -F "\t" -v i="$ino" "\$1 + 0 == i { print \$2 }" list >big.name &&
	test $(wc -l <big.name) = 1 && test -f "ref/$(cat big.name)"
'

test_expect_success ROOT,PYTHON,OURDUMP 'every header carries the extension, dates equal to c_date' '
	$CMPDUMP extension plain.dump
'

for z in plain "-z" "-j" "-y" "-b 64"
do
	pre=ROOT,PYTHON,OURDUMP,OURRESTORE
	test "$z" = "-y" && pre=$pre,LZO
	test_expect_success $pre "restore --verify: a whole $z archive verifies" '
		if test "'"$z"'" = plain
		then
			cp plain.dump v.dump
		else
			"$DUMP" -0 '"$z"' -f v.dump fs.img 2>/dev/null
		fi &&
		"$RESTORE" --verify -f v.dump >v.out 2>v.err &&
		! grep -v -x "Dump tape is compressed." v.err &&
		grep -x "Data checksums: [1-9][0-9]* blocks checked, 0 damaged, 0 blocks not covered" v.out &&
		tail -n 1 v.out | grep -x "The archive verifies"
	'
done

test_expect_success ROOT,PYTHON,OURDUMP,OURRESTORE 'restore --verify: compressed volumes of a size limit (-M -B) verify' '
	"$DUMP" -0 -z -M -B 900 -f mv. fs.img 2>mv.err &&
	test -f mv.003 &&
	"$RESTORE" --verify -M -f mv. >mv.out 2>mv.verr &&
	grep -x "Data checksums: [1-9][0-9]* blocks checked, 0 damaged, 0 blocks not covered" mv.out &&
	tail -n 1 mv.out | grep -x "The archive verifies"
'

test_expect_success ROOT,PYTHON,OURDUMP,OURRESTORE 'a byte flipped in volume 2: --verify names the inode, exit 1' '
	"$DUMP" -0 -M -B 4000 -f pv. fs.img 2>/dev/null && test -f pv.002 &&
	: the volume header, then data of the file it interrupted: c_count of them &&
	left=$("$PYTHON" -c "import struct,sys; print(struct.unpack_from(\"<i\", open(sys.argv[1], \"rb\").read(1024), 160)[0])" pv.002) &&
	test "$left" -gt 1 && flip pv.002 1 &&
	test_must_fail "$RESTORE" --verify -M -f pv. >pv.out 2>pv.err &&
	grep "^Data checksum error: inode [0-9]* (\./[a-z0-9/]*), bytes [0-9]*-[0-9]*\$" pv.err &&
	grep -x "VERIFY FAILED" pv.out
'

# The damaged archive: one bit of one block of the biggest file.
test_expect_success ROOT,PYTHON,OURRESTORE 'setup: a bit flipped in the data of one file' '
	ino=$(cat big.ino) &&
	blk=$(awk -v i=$ino "\$2 == i { n++; if (n == 300) print \$1 }" blocks) &&
	test -n "$blk" && cp plain.dump bad.dump && flip bad.dump $blk &&
	echo "Data checksum error: inode $ino ($(cat big.name)), bytes " >expect.prefix
'

# names ERR: ERR has the one checksum error of the damaged file.
names() {
	grep "^Data checksum error" "$1" >got.lines &&
	test $(wc -l <got.lines) = 1 &&
	grep -F "$(cat expect.prefix)" got.lines
}

# rest_exact DIR: DIR holds every file of ref but the damaged one exactly.
rest_exact() {
	re_rel=$(sed "s|^\./||" big.name) &&
	manifest "$1" --mtime=s --no-root | awk -F "\t" -v r="$re_rel" "\$1 != r" >rest.man &&
	awk -F "\t" -v r="$re_rel" "\$1 != r" ref.man >want.man &&
	test $(wc -l <want.man) = 11 &&
	test_cmp want.man rest.man
}

test_expect_success ROOT,PYTHON,OURRESTORE 'restore -r: the damaged file named, the others exact, exit 1' '
	restored r bad.dump && test "$(cat r.rc)" = 1 &&
	names r.err && rest_exact r
'

test_expect_success ROOT,PYTHON,OURRESTORE 'restore -x of the file and another: the file named, exit 1' '
	rm -rf x && mkdir x &&
	(cd x && test_must_fail "$RESTORE" -x -a -o -f ../bad.dump "$(cat ../big.name)" ./d) 2>x.err &&
	names x.err && test -f x/d/seq && cmp x/d/seq tree/d/seq
'

test_expect_success ROOT,PYTHON,OURRESTORE 'restore -i: extract of the file names it, exit 1' '
	rm -rf i && mkdir i &&
	(cd i && printf "add %s\nextract\nquit\n" "$(cat ../big.name)" |
		test_must_fail "$RESTORE" -i -a -o -f ../bad.dump) >i.out 2>&1 &&
	names i.out
'

test_expect_success ROOT,PYTHON,OURRESTORE 'restore -C against the source: the file named, compare errors' '
	test_must_fail "$RESTORE" -C -D "$PWD/ref" -f bad.dump >c.out 2>c.err &&
	names c.err && grep "^Some files were modified!  [1-9][0-9]* compare errors" c.out
'

test_expect_success ROOT,PYTHON,OURRESTORE 'restore -t from a pipe checks what it drains: inode named, exit 1' '
	cat bad.dump | test_must_fail "$RESTORE" -t -f - >t.out 2>t.err &&
	grep -x "Data checksum error: inode $(cat big.ino), bytes [0-9]*-[0-9]*" t.err &&
	cat plain.dump | "$RESTORE" -t -f - >t2.out 2>t2.err && ! test -s t2.err
'

test_expect_success ROOT,PYTHON,OURRESTORE 'restore --verify: the file named, summary, exit 1' '
	test_must_fail "$RESTORE" --verify -f bad.dump >v.out 2>v.err &&
	names v.err &&
	grep -x "Data checksums: [0-9]* blocks checked, 1 damaged, 0 blocks not covered" v.out &&
	tail -n 1 v.out | grep -x "VERIFY FAILED"
'

test_expect_success ROOT,PYTHON,OURRESTORE,TAPETOOL 'a file whose header is lost: --verify names it, exit 1' '
	ino=$(cat big.ino) &&
	first=$(awk -v i=$ino "\$2 == i { print \$1; exit }" blocks) &&
	"$TAPETOOL" garble plain.dump lost.dump $((first - 1)) 1 &&
	test_must_fail "$RESTORE" --verify -f lost.dump >l.out 2>l.err &&
	grep -x "$(cat big.name): (inode $ino) not found on tape" l.err &&
	grep -x "1 files named in the directories are not on the archive" l.out &&
	tail -n 1 l.out | grep -x "VERIFY FAILED"
'

test_known_upstream_defect ROOT,PYTHON,ORACLE 'restore 0.4b47 restores the damaged file silently, exit 0' '
	restored o bad.dump "$ORACLE_RESTORE" && test "$(cat o.rc)" = 0 &&
	! cmp "o/$(cat big.name)" "ref/$(cat big.name)" && rest_exact o
'

# Random flips: blocks drawn with a fixed seed from every kind of data
# (file, directory, map, link target ...), one byte each.
test_expect_success ROOT,PYTHON,OURRESTORE 'restore --verify traces a byte flipped anywhere in the data to its inode' '
	"$PYTHON" -c "
import random
lines = open(\"blocks\").read().split(\"\\n\")[:-1]
rnd = random.Random(6300)
for line in rnd.sample(lines, 40):
    print(line, rnd.randrange(1024))
" >picks &&
	test $(wc -l <picks) = 40 &&
	while read blk ino kind byte
	do
		cp plain.dump f.dump && flip f.dump $blk $byte &&
		{ "$RESTORE" --verify -f f.dump >f.out 2>f.err; rc=$?; } &&
		test $rc = 1 &&
		case $kind in
		map) grep "^Data checksum error: the map of " f.err ;;
		*) grep "^Data checksum error: inode $ino[ ,]" f.err ;;
		esac || { echo "block $blk ($kind of inode $ino), byte $byte: not found"; cat f.err; return 1; }
	done <picks
'

test_expect_success ROOT,PYTHON,OURRESTORE,LZO 'a byte flipped in an LZO record: caught, exit 1' '
	"$DUMP" -0 -y -f y.dump fs.img 2>/dev/null &&
	size=$(stat -c %s y.dump) &&
	cp y.dump ybad.dump && flip ybad.dump $((size / 2048)) 300 &&
	test_must_fail "$RESTORE" --verify -f ybad.dump >y.out 2>y.err &&
	grep -x "VERIFY FAILED" y.out && test -s y.err
'

for v in 47 49 56
do
	case $v in
	47) pre=ORACLE r='$ORACLE_RESTORE' ;;
	*) pre=UPSTREAM$v r="\$UPSTREAM$v/restore" ;;
	esac
	test_expect_success ROOT,PYTHON,$pre "restore 0.4b$v -r of our archive: exact" '
		restored u'$v' plain.dump "'"$r"'" && test "$(cat u'$v'.rc)" = 0 &&
		manifest u'$v' --mtime=s --no-root >u'$v'.man &&
		test_cmp ref.man u'$v'.man
	'
done

test_expect_success ROOT,LOOP,PYTHON,ORACLE,OURRESTORE 'an archive of dump 0.4b47: no false alarm; --verify cannot verify it' '
	dev=$(image_attach fs.img) &&
	"$ORACLE_DUMP" -0 -f old.dump "$dev" 2>/dev/null &&
	restored old old.dump && test "$(cat old.rc)" = 0 &&
	! grep "checksum" old.err &&
	test_must_fail "$RESTORE" --verify -f old.dump >old.out 2>old.verr &&
	grep -x "Data checksums: 0 blocks checked, 0 damaged, [1-9][0-9]* blocks not covered" old.out &&
	grep "^The archive carries no data checksums" old.out &&
	! test -s old.verr
'

test_done
