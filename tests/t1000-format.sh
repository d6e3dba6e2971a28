#!/bin/sh
test_description='header codec: checksum, classification, byte swapping (common/spcl.c)'
. "$(dirname "$0")/lib.sh"

SPCLTOOL=$TOP/tests/helpers/spcltool
test -x "$SPCLTOOL" && test_set_prereq SPCLTOOL

# hdr FILE OFFSET HEX...: write bytes at OFFSET of a 1024-byte block.
hdr() {
	python3 - "$@" <<-\PY
	import sys
	path, off, data = sys.argv[1], int(sys.argv[2], 0), bytes.fromhex(''.join(sys.argv[3:]))
	try:
	    b = bytearray(open(path, 'rb').read())
	except FileNotFoundError:
	    b = bytearray(1024)
	b[off:off + len(data)] = data
	open(path, 'wb').write(b)
	PY
}
str_hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# field FILE OFFSET: the little-endian int32 at OFFSET, in hex.
field() { od -An -tx4 -j "$2" -N 4 "$1" | tr -d ' '; }

test_expect_success SPCLTOOL,PYTHON 'setup: a TS_INODE header of a dump 0.4b47 archive' '
	hdr ex 0x00 02000000 eee6026b 00000000 01000000 &&
	hdr ex 0x10 1f000000 0c000000 6cea0000 00000000 &&
	hdr ex 0x20 a4810200 00000000 0c000000 00000000 &&
	hdr ex 0x30 80c84f3a 00000000 80c84f3a 00000000 &&
	hdr ex 0x40 ece6026b 00000000 0af30100 04000000 &&
	hdr ex 0x50 00000000 00000000 01000000 11080000 &&
	hdr ex 0x80 00000000 00000800 08000000 4ffee659 &&
	hdr ex 0xa0 04000000 01010101 &&
	hdr ex 676 $(str_hex testlbl) &&
	hdr ex 696 $(str_hex "an unlisted file system") &&
	hdr ex 760 $(str_hex /dev/loop4) &&
	hdr ex 824 $(str_hex vm) &&
	hdr ex 888 02000000 00000000 0a000000 &&
	test $(wc -c <ex) = 1024
'

test_expect_success SPCLTOOL 'the checksum of the worked example is reproduced' '
	"$SPCLTOOL" setsum <ex >ex.sum &&
	test "$(field ex.sum 28)" = 1d6fc7d1 &&
	"$SPCLTOOL" check <ex.sum >kind && echo native >expect && test_cmp expect kind
'

test_expect_success SPCLTOOL 'the block sums to 84446 mod 2^32' '
	"$SPCLTOOL" sum <ex.sum >sums && test "$(cut -d" " -f1 sums)" = 84446
'

test_expect_success SPCLTOOL 'the TS_TAPE volume header of a dump 0.4b47 archive' '
	hdr vol 0x00 01000000 eee6026b 00000000 01000000 &&
	hdr vol 0x18 6cea0000 &&
	hdr vol 0xa0 01000000 &&
	hdr vol 676 $(str_hex testlbl) &&
	hdr vol 696 $(str_hex "an unlisted file system") &&
	hdr vol 760 $(str_hex /dev/loop4) &&
	hdr vol 824 $(str_hex vm) &&
	hdr vol 888 03000000 00000000 0a000000 &&
	"$SPCLTOOL" setsum <vol >vol.sum &&
	test "$(field vol.sum 28)" = 5806bc13
'

test_expect_success SPCLTOOL 'one flipped bit is a bad checksum' '
	cp ex.sum bad && hdr bad 0x200 01 &&
	"$SPCLTOOL" check <bad >kind && echo bad-checksum >expect && test_cmp expect kind
'

test_expect_success SPCLTOOL 'a block without the magic is not a header' '
	cp ex.sum nomagic && hdr nomagic 24 00000000 &&
	"$SPCLTOOL" check <nomagic >kind && echo not-header >expect && test_cmp expect kind
'

test_expect_success SPCLTOOL 'a header written in the other byte order is recognised' '
	"$SPCLTOOL" foreign <ex.sum >ex.be &&
	"$SPCLTOOL" check <ex.be >kind && echo swapped >expect && test_cmp expect kind &&
	"$SPCLTOOL" check -s <ex.be >kind && test_cmp expect kind &&
	"$SPCLTOOL" check -s <ex.sum >kind && echo native >expect && test_cmp expect kind
'

test_expect_success SPCLTOOL 'the swap follows doc/format.md 12' '
	test "$(od -An -tx1 -j 24 -N 4 ex.be | tr -d " ")" = 0000ea6c &&
	test "$(od -An -tx1 -j 32 -N 2 ex.be | tr -d " ")" = 81a4 &&
	test "$(od -An -tx1 -j 40 -N 8 ex.be | tr -d " ")" = 000000000000000c &&
	test "$(od -An -tx1 -j 164 -N 4 ex.be | tr -d " ")" = 01010101 &&
	test "$(od -An -c -j 676 -N 7 ex.be | tr -d " ")" = testlbl &&
	test "$(od -An -tx1 -j 896 -N 4 ex.be | tr -d " ")" = 0000000a
'

test_expect_success SPCLTOOL 'swapping twice gives the block back' '
	"$SPCLTOOL" swap <ex.sum >ex.sw && ! cmp -s ex.sum ex.sw &&
	"$SPCLTOOL" swap <ex.sw >ex.back && cmp ex.sum ex.back
'

test_expect_success SPCLTOOL 'the swapped sum of a swapped header is 84446' '
	"$SPCLTOOL" sum <ex.be >sums && test "$(cut -d" " -f2 sums)" = 84446
'

test_expect_success SPCLTOOL 'a short block is refused' '
	head -c 1000 ex.sum >short && test_must_fail "$SPCLTOOL" check <short 2>err &&
	grep "short block" err
'

test_expect_success ROOT,LOOP,ORACLE,SPCLTOOL 'every header of a dump 0.4b47 archive has a valid checksum' '
	make_image ext4 fs.img small &&
	dev=$(image_attach fs.img) &&
	"$ORACLE_DUMP" -0 -f o.dump -D dd "$dev" 2>err &&
	"$SPCLTOOL" walk o.dump >walk &&
	head -n 1 walk | grep "^block=0 type=1 tapea=0" &&
	grep -c "type=2 " walk >inodes && test $(cat inodes) -gt 50 &&
	tail -n 1 walk | grep "type=5" &&
	test $(( $(wc -c <o.dump) % 10240 )) = 0
'

test_expect_success SPCLTOOL 'walk stops at a corrupt header' '
	test -f o.dump || return 0
	cp o.dump c.dump &&
	printf "\377" | dd of=c.dump bs=1 seek=$((9 * 1024 + 700)) conv=notrunc 2>/dev/null &&
	test_must_fail "$SPCLTOOL" walk c.dump >/dev/null 2>err &&
	grep "block 9: bad-checksum" err
'

test_done
