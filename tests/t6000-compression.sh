#!/bin/sh
test_description='dump -z/-j/-y: compressed archives

Record framing of doc/format.md 11: the first record raw, then a 4-byte
prefix and payload per record; a record that does not shrink below
record - 16 bytes is stored raw.  With the default level every bzip2
payload is exactly what bzip2 block size 2 makes of it, and so is every
zlib payload of a zlib build what compress2 level 2 makes of it: our
records equal those of dump 0.4b47 for the same raw record; a libdeflate
build writes valid zlib streams with the level hint of the level
instead; -z6 / -j9 honour the level.  The decompressed stream matches
the one of 0.4b47.  restore 0.4b47 reads our -z, -j and -y archives
(from a file and from standard input) into the tree it restores from our
uncompressed archive, and our restore reads our -z archive and the one
of dump 0.4b47 into the tree it restores from our uncompressed archive.
-Z (zstd, record method 3) is read by our restore; restore 0.4b47 stops
on it with a decompression error and a non-zero exit.  The closing line
adds up.'
. "$(dirname "$0")/lib.sh"

ZREC="$PYTHON $HELPERS/zrecords.py"
CMPDUMP="$PYTHON $HELPERS/cmpdump.py"

if test_have_prereq OURDUMP &&
	! "$DUMP" -0 -z -f /dev/null /nonexistent 2>&1 |
		grep -Eq "not supported|invalid option|illegal option|usage"
then
	test_set_prereq COMPRESS
fi
# Whether this build has LZO (configure found liblzo2; restore 0.4b47
# always has it).
if test_have_prereq COMPRESS && grep -q -- "-DHAVE_LZO=1" "$TOP/Make.rules"
then
	test_set_prereq LZO
fi

# The small image with 2 MiB of random data and a directory of 1000
# files (lib.sh, volume_image): about 480 records, some 300 of them
# stored raw; every case compresses it once or twice, in C and again in
# Python.
test_expect_success ROOT,LOOP,ORACLE,COMPRESS 'setup: image; restore 0.4b47 of our uncompressed archive' '
	volume_image fs.img 2 &&
	dev=$(image_attach fs.img) && echo $dev >dev &&
	"$DUMP" -0 -f plain.dump $dev 2>plain.err &&
	mkdir plain && (cd plain && "$ORACLE_RESTORE" -r -f ../plain.dump) &&
	manifest plain --mtime=s >ref.man &&
	test $(wc -l <ref.man) -gt 1000
'

# -z payloads of a libdeflate build are checked for what they must be
# (zlib streams of the record, with the level hint of the level), not
# for zlib's bytes.
ZCHECK=check
if grep -q -- "-DHAVE_LIBDEFLATE=1" "$TOP/Make.rules"
then
	ZCHECK=valid
fi

# restores ARCHIVE DIR [stdin | RESTORE-OPTIONS]: restore 0.4b47 -r
# into DIR equals ref.man.
restores() {
	rm -rf "$2" && mkdir "$2" &&
	if test "$3" = stdin
	then
		(cd "$2" && "$ORACLE_RESTORE" -r -f - <../"$1" >/dev/null 2>../"$2".err)
	else
		(cd "$2" && "$ORACLE_RESTORE" -r $3 -f ../"$1" >/dev/null 2>../"$2".err)
	fi &&
	manifest "$2" --mtime=s >"$2".man &&
	test_cmp ref.man "$2".man
}

# name|options|method code|level the payloads must be made with (LZO
# payloads are not checked)|options restore 0.4b47 needs (-b: its
# buffer is 32 blocks)
CASES='
z|-z|0|2|
z6|-z6|0|6|
j|-j|1|2|
j9|-j9|1|9|
y|-y|2|2|
zb64|-z -b 64|0|2|-b 64
'

lib_ifs=$IFS
IFS='
'
for line in $CASES
do
	IFS=$lib_ifs
	name=${line%%|*} rest=${line#*|}
	opts=${rest%%|*} rest=${rest#*|}
	code=${rest%%|*} rest=${rest#*|}
	level=${rest%%|*} ropts=${rest#*|}
	prereq=ROOT,LOOP,COMPRESS
	test $name = y && prereq=$prereq,LZO

	test_expect_success $prereq "$name ($opts): framing, method $code, payloads at level $level" '
		"$DUMP" -0 '"$opts"' -f '$name'.dump $(cat dev) 2>'$name'.err &&
		$ZREC $ZCHECK '$level' '$name'.dump >'$name'.check &&
		cat '$name'.check &&
		grep " method='$code'\$" '$name'.check &&
		! grep " compressed=0 " '$name'.check
	'

	test_expect_success $prereq,ORACLE "$name: restore 0.4b47 reads it" '
		restores '$name'.dump r'$name' "'"$ropts"'"
	'
done
IFS=$lib_ifs

test_expect_success ROOT,LOOP,COMPRESS '-z: every header says DR_COMPRESSED; the stream is our uncompressed one' '
	$ZREC raw z.raw z.dump &&
	test $(stat -c %s z.raw) -eq $(stat -c %s plain.dump) &&
	"$PYTHON" -c "
import struct, sys
d = open(\"z.raw\", \"rb\").read()
bad = 0
for off in range(0, len(d), 1024):
    if struct.unpack_from(\"<i\", d, off + 24)[0] == 60012 and not struct.unpack_from(\"<i\", d, off + 888)[0] & 0x80:
        bad += 1
sys.exit(1 if bad else 0)
"
'

test_expect_success ROOT,LOOP,ORACLE,COMPRESS '-z: decompressed, our stream equals the one of 0.4b47 -z' '
	"$ORACLE_DUMP" -0 -z -f oz.dump $(cat dev) 2>oz.err &&
	$ZREC check 2 oz.dump &&
	$ZREC raw oz.raw oz.dump &&
	$ZREC raw z.raw z.dump &&
	"$ORACLE_DUMP" -0 -f oplain.dump $(cat dev) 2>oplain.err &&
	$CMPDUMP cmp oplain.dump plain.dump >plain.cmp 2>&1; plainrc=$? &&
	$CMPDUMP cmp oz.raw z.raw >z.cmp 2>&1; zrc=$? &&
	test $plainrc -eq $zrc && test_cmp plain.cmp z.cmp
'

# ours_restores ARCHIVE DIR: our restore -r into DIR, then DIR.man.
ours_restores() {
	rm -rf "$2" && mkdir "$2" &&
	(cd "$2" && "$RESTORE" -r -f ../"$1" >/dev/null 2>../"$2".err) &&
	manifest "$2" --mtime=s >"$2".man
}

# The references are what our restore makes of the uncompressed archive
# of the same dump program: 0.4b47 dumps 255-byte names wrongly.
test_expect_success ROOT,LOOP,ORACLE,COMPRESS,OURRESTORE 'our restore reads our -z archive and the one of 0.4b47 -z' '
	ours_restores plain.dump ourplain &&
	ours_restores oplain.dump ouroplain &&
	test $(wc -l <ouroplain.man) -gt 1000 &&
	for z in z z6 zb64
	do
		ours_restores $z.dump our$z &&
		test_cmp ourplain.man our$z.man || return 1
	done &&
	ours_restores oz.dump ouroz &&
	test_cmp ouroplain.man ouroz.man
'

# -Z (zstd, method 3) is ours only: restore 0.4b47 must not take such an
# archive for a good one.
if test_have_prereq COMPRESS && grep -q -- "-DHAVE_ZSTD=1" "$TOP/Make.rules"
then
	test_set_prereq ZSTD
fi

test_expect_success ROOT,LOOP,ZSTD,OURRESTORE '-Z, -Z9: framing, method 3; our restore reads them' '
	test_must_fail "$DUMP" -0 -Z20 -f Z20.dump $(cat dev) 2>Z20.err &&
	grep "compress level must be between 1 and 19" Z20.err &&
	for z in Z Z9
	do
		"$DUMP" -0 -$z -f $z.dump $(cat dev) 2>$z.err &&
		$ZREC check 3 $z.dump >$z.check &&
		grep " method=3\$" $z.check &&
		! grep " compressed=0 " $z.check &&
		ours_restores $z.dump our$z &&
		test_cmp ourplain.man our$z.man || return 1
	done &&
	grep "^  DUMP: Compressing output at transformation level 3 (zstd)\$" Z.err &&
	grep "^  DUMP: Compressing output at transformation level 9 (zstd)\$" Z9.err &&
	test $(stat -c %s Z9.dump) -lt $(stat -c %s Z.dump)
'

test_expect_success ROOT,LOOP,ORACLE,ZSTD '-Z: restore 0.4b47 fails on it (decompression error, non-zero exit)' '
	rm -rf oZ && mkdir oZ &&
	(cd oZ && "$ORACLE_RESTORE" -r -f ../Z.dump </dev/null >../oZ.out 2>../oZ.err; echo $? >../oZ.rc) &&
	cat oZ.err && test $(cat oZ.rc) -ne 0 &&
	grep "decompression error" oZ.err
'

test_known_upstream_defect ROOT,LOOP,ORACLE,COMPRESS 'dump 0.4b47 ignores the level: -z6 payloads are level 2' '
	"$ORACLE_DUMP" -0 -z6 -f oz6.dump $(cat dev) 2>oz6.err &&
	$ZREC check 2 oz6.dump && ! $ZREC check 6 oz6.dump >/dev/null
'

test_expect_success ROOT,LOOP,ORACLE,COMPRESS '-j: restore 0.4b47 reads it from standard input' '
	restores j.dump rjstdin stdin
'

test_expect_success ROOT,LOOP,ORACLE,COMPRESS '-z to a pipe: restore 0.4b47 reads the stream' '
	rm -rf rpipe && mkdir rpipe &&
	"$DUMP" -0 -z -f - $(cat dev) 2>pipe.err |
		(cd rpipe && "$ORACLE_RESTORE" -r -f - >/dev/null 2>../rpipe.err) &&
	manifest rpipe --mtime=s >rpipe.man &&
	test_cmp ref.man rpipe.man
'

test_expect_success ROOT,LOOP,COMPRESS 'closing line: Wrote <blocks>kB uncompressed, <bytes/1024>kB compressed, ratio' '
	blocks=$(sed -n "s/.* \([0-9]*\) blocks (.*MB) on 1 volume(s)$/\1/p" z.err) &&
	ckb=$(( $(stat -c %s z.dump) / 1024 )) &&
	ratio=$(awk -v u=$blocks -v c=$ckb "BEGIN { printf \"%1.3f\", 0.0005 + u / c }") &&
	grep "^  DUMP: Wrote ${blocks}kB uncompressed, ${ckb}kB compressed, $ratio:1\$" z.err &&
	grep "^  DUMP: Compressing output at transformation level 2 (zlib)\$" z.err &&
	grep "level 9 (bzlib)\$" j9.err
'

test_expect_success ROOT,LOOP,COMPRESS 'incompressible records (random file data) are stored raw' '
	grep " raw=[1-9][0-9]* " z.check && grep " raw=[1-9][0-9]* " j.check
'

test_done
