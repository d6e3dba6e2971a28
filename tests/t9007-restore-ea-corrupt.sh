#!/bin/sh
test_description='restore survives damaged extended-attribute records

A file with user attributes and an ACL is dumped by dump 0.4b47: it gets
an in-inode EA record and an EA-block record.  Their payloads carry no
checksum, so they are damaged freely: garbage, value offsets and sizes
out of range, an overlong name, an unknown name index, no terminating
entry, an EA header announcing a huge payload, plus seeded random bytes.
restore -r, -x and -t must end without a crash, a sanitizer report or a
hang, set nothing outside the target, and still restore the other files.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

EA_FUZZ=${EA_FUZZ:-20}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,ATTR 'setup: dump a file with attributes' '
	mkdir -p ea-src &&
	echo data >ea-src/xf &&
	setfattr -n user.test -v hello ea-src/xf &&
	setfattr -n user.big -v "$(printf "x%.0s" $(seq 1 300))" ea-src/xf &&
	setfacl -m u:1234:rw ea-src/xf &&
	echo "last file" >ea-src/zzz &&
	BOX=$(pwd)/box && hostile_reset_box &&
	mke2fs -q -F -t ext4 -b 1024 -I 256 -O ^metadata_csum -d ea-src ea.img 8M &&
	dev=$(image_attach ea.img) &&
	"$ORACLE_DUMP" -0 -f base.dump "$dev" 2>dump.err &&
	hostile_snapshot >box.before &&
	"$TAPETOOL" list base.dump | awk "\$9 == \"EA\" { print \$1 }" >ea.headers &&
	test "$(wc -l <ea.headers)" = 2
'

# In-inode payload: magic, then entries at 4.  EA block: 32-byte header,
# entries at 32.  Entry: name_len, name_index, value_offs (2), value_inum
# (4), value_size (4), hash (4), name.
cat >scenarios.list <<'EOF'
ibody-garbage	"$TAPETOOL" garble base.dump $s.dump $ib
block-garbage	"$TAPETOOL" garble base.dump $s.dump $bb
ibody-offs	"$TAPETOOL" poke base.dump $s.dump $((ib * 1024 + 6)) f0ff
ibody-size	"$TAPETOOL" poke base.dump $s.dump $((ib * 1024 + 12)) ffffff7f
ibody-namelen	"$TAPETOOL" poke base.dump $s.dump $((ib * 1024 + 4)) ff
ibody-index	"$TAPETOOL" poke base.dump $s.dump $((ib * 1024 + 5)) 63
ibody-noend	"$TAPETOOL" garble base.dump t.dump $ib 1 1 && "$TAPETOOL" poke t.dump $s.dump $((ib * 1024)) 010002ea
block-offs	"$TAPETOOL" poke base.dump $s.dump $((bb * 1024 + 34)) f0ff
block-size	"$TAPETOOL" poke base.dump $s.dump $((bb * 1024 + 40)) ffffff7f
block-namelen	"$TAPETOOL" poke base.dump $s.dump $((bb * 1024 + 32)) ff
block-noend	"$TAPETOOL" garble base.dump t.dump $bb 1 1 && "$TAPETOOL" poke t.dump $s.dump $((bb * 1024)) 000002ea
hdr-size	"$TAPETOOL" set base.dump $s.dump $ih di_size 1048576
hdr-size-zero	"$TAPETOOL" set base.dump $s.dump $bh di_size 0
hdr-count	"$TAPETOOL" set base.dump $s.dump $bh c_count 0
EOF
seed=1
while test $seed -le "$EA_FUZZ"
do
	echo "fuzz-$seed	ea_fuzz $seed \$s.dump" >>scenarios.list
	seed=$((seed + 1))
done

# ea_fuzz SEED OUT: 4 random bytes at a random offset of one EA payload.
ea_fuzz() {
	awk -v s="$1" -v a="$ib" -v b="$bb" 'BEGIN {
		srand(s * 7919)
		blk = rand() < 0.5 ? a : b
		printf "%d ", blk * 1024 + int(rand() * 300)
		for (i = 0; i < 4; i++)
			printf "%02x", int(rand() * 256)
		print ""
	}' >fuzz.args &&
	read -r off hex <fuzz.args &&
	echo "EA fuzz: byte $off = $hex" &&
	"$TAPETOOL" poke base.dump "$2" "$off" "$hex"
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,ATTR 'setup: damage the EA records' '
	ih=$(sed -n 1p ea.headers) && bh=$(sed -n 2p ea.headers) &&
	ib=$((ih + 1)) && bb=$((bh + 1)) &&
	while read -r s cmd
	do
		eval "$cmd" || { echo "cannot build $s" >&2; exit 1; }
	done <scenarios.list
'

# ea_restored: the file without damage came back.
ea_restored() {
	cmp ea-src/zzz "$BOX/target/zzz" && test -f "$BOX/target/xf"
}

while read -r s cmd
do
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,ATTR,OURRESTORE \
		"$s: restore -r, -x and -t end without harm" "
		hostile_run r $s.dump && ea_restored &&
		hostile_run x $s.dump && ea_restored &&
		hostile_run t $s.dump
	"
done <scenarios.list

# doc/format.md 8.3: restore takes at most XATTR_MAXSIZE bytes of EA.
test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,ATTR,OURRESTORE \
	'an EA record announcing 1 MiB is refused with a message' '
	hostile_run r hdr-size.dump &&
	grep -i "EA size too big\|too big\|too large" hostile.err
'

test_known_upstream_defect ROOT,LOOP,ORACLE,TAPETOOL,ATTR \
	'restore 0.4b47 aborts on an EA value size out of range' '
	! oracle_run r ibody-size.dump &&
	test "$hostile_rc" -ge 128
'

test_done
