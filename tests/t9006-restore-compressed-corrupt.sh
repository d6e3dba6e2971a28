#!/bin/sh
test_description='restore survives damaged compressed archives

Archives written by dump 0.4b47 with -z (zlib), -j (bzip2) and -y (LZO)
are damaged where only compressed archives can be: the 4-byte prefix of a
record (a huge or zero length, an unknown method, a raw record of a wrong
size), garbage inside a compressed payload, truncation inside a payload,
and a plain archive whose volume header claims compression.  restore -r,
-x and -t (file and pipe) must end without a crash, a sanitizer report or
a hang, write nothing outside the target, and -r/-x must say what is wrong.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

# The first record (ntrec = 10 blocks) is raw; the prefix of the second
# record follows it (doc/format.md 11.1).
PREFIX=$((10 * 1024))

# le32 N: N as 4 little-endian bytes in hex, for tapetool poke.
le32() {
	printf '%08x' "$1" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'
}

# prefix_word FILE: the 32-bit prefix of the second record.
prefix_word() {
	od -An -t u4 -j "$PREFIX" -N 4 "$1" | tr -d " "
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: compressed archives of the test tree' '
	hostile_base &&
	"$ORACLE_DUMP" -0 -z2 -f z.dump "$hostile_dev" 2>z.err &&
	"$ORACLE_DUMP" -0 -j2 -f j.dump "$hostile_dev" 2>j.err &&
	"$ORACLE_DUMP" -0 -y -f y.dump "$hostile_dev" 2>y.err &&
	for m in z j y
	do
		w=$(prefix_word $m.dump) &&
		test $((w & 1)) = 1 || return 1
	done
'

cat >scenarios.list <<'EOF'
z-len-huge	"$TAPETOOL" poke z.dump $s.dump $PREFIX $(le32 $((0x0fffffff << 4 | 1)))
z-len-zero	"$TAPETOOL" poke z.dump $s.dump $PREFIX $(le32 1)
z-method	w=$(prefix_word z.dump) && "$TAPETOOL" poke z.dump $s.dump $PREFIX $(le32 $((w | 14)))
z-raw-odd	"$TAPETOOL" poke z.dump $s.dump $PREFIX $(le32 $((5000 << 4)))
z-raw-big	"$TAPETOOL" poke z.dump $s.dump $PREFIX $(le32 $((0x00ffffff << 4)))
z-payload	"$TAPETOOL" poke z.dump $s.dump $((PREFIX + 40)) deadbeefdeadbeefdeadbeef
j-payload	"$TAPETOOL" poke j.dump $s.dump $((PREFIX + 40)) deadbeefdeadbeefdeadbeef
y-payload	"$TAPETOOL" poke y.dump $s.dump $((PREFIX + 40)) deadbeefdeadbeefdeadbeef
y-len-huge	"$TAPETOOL" poke y.dump $s.dump $PREFIX $(le32 $((0x0fffffff << 4 | 5)))
z-trunc	head -c $((PREFIX + 100)) z.dump >$s.dump
j-trunc	head -c $((PREFIX + 100)) j.dump >$s.dump
z-trunc-prefix	head -c $((PREFIX + 2)) z.dump >$s.dump
plain-claims-z	"$TAPETOOL" set base.dump $s.dump 0 c_flags 0x83
EOF

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: damage them' '
	while read -r s cmd
	do
		eval "$cmd" || { echo "cannot build $s" >&2; exit 1; }
	done <scenarios.list
'

MESSAGE='decompress|compress|corrupt|bad|error|short|long|length|size|volume|end[- ]of|not a dump|resync|missing|checksum'

while read -r s cmd
do
	for mode in r x t xp tp
	do
		case $mode in
		[rx]*) check="cat hostile.out hostile.err | grep -E -i '$MESSAGE'" ;;
		*) check=: ;;
		esac
		test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
			"$s: restore ($mode) ends without harm" "
			hostile_run $mode $s.dump && $check
		"
	done
done <scenarios.list

test_done
