#!/bin/sh
test_description='restore survives seeded random damage

Deterministic fuzzing with helpers/tapetool: header fields of random
headers set to edge values (with a valid checksum, so restore believes
them), random bytes poked into directory blocks, random blocks garbled.
For every case restore -r, -x and -t must end without a crash, a
sanitizer report or a hang, and nothing outside the target may change.
Set FUZZ_CASES to run more cases (default 40 per kind).'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

FUZZ_CASES=${FUZZ_CASES:-40}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: dump the test tree' '
	hostile_base &&
	"$TAPETOOL" list base.dump | awk "\$2 ~ /^TS_/ { print \$1 }" >headers &&
	"$TAPETOOL" ents base.dump | awk "NR > 1 { print \$2 }" | sort -un >dirblocks &&
	test -s headers && test -s dirblocks
'

# fuzz_pick SEED LIST: one line of LIST chosen by SEED.
fuzz_pick() {
	awk -v seed="$1" 'BEGIN { srand(seed) } { l[NR] = $0 }
		END { print l[int(rand() * NR) + 1] }' "$2"
}

# fuzz_value SEED: an edge value or a random 32-bit one.
fuzz_value() {
	awk -v seed="$1" 'BEGIN {
		srand(seed * 7 + 3)
		n = split("0 1 -1 2 511 512 513 1023 1024 65535 65536 " \
		    "0x7fffffff 0x80000000 0xffffffff", v, " ")
		if (rand() < 0.7)
			print v[int(rand() * n) + 1]
		else
			printf "%d\n", int(rand() * 4294967296)
	}'
}

fields='c_type c_count c_inumber di_size di_mode c_flags c_volume c_tapea
c_ntrec c_extattributes di_nlink c_addr[0] c_addr[1] c_addr[511] c_date
c_magic di_uid'
echo "$fields" | tr " " "\n" | grep . >fields.list

# fuzz_build KIND SEED OUT
fuzz_build() {
	case $1 in
	field)
		blk=$(fuzz_pick "$2" headers) &&
		field=$(fuzz_pick "$(($2 + 1000))" fields.list) &&
		value=$(fuzz_value "$2") &&
		echo "block $blk $field = $value" &&
		"$TAPETOOL" set base.dump "$3" "$blk" "$field" "$value" ;;
	dirbyte)
		blk=$(fuzz_pick "$2" dirblocks) &&
		off=$(awk -v s="$2" "BEGIN { srand(s); print int(rand() * 1020) }") &&
		hex=$(awk -v s="$2" "BEGIN { srand(s * 3 + 1); for (i = 0; i < 4; i++) printf \"%02x\", int(rand() * 256) }") &&
		echo "block $blk byte $off = $hex" &&
		"$TAPETOOL" poke base.dump "$3" $((blk * 1024 + off)) "$hex" ;;
	garble)
		blk=$(fuzz_pick "$2" headers) &&
		echo "block $blk garbled" &&
		"$TAPETOOL" garble base.dump "$3" "$blk" 1 random ;;
	esac
}

for kind in field dirbyte garble
do
	seed=1
	while test $seed -le "$FUZZ_CASES"
	do
		test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
			"$kind $seed: restore -r, -x and -t end without harm" "
			fuzz_build $kind $seed fuzz.dump &&
			hostile_run r fuzz.dump &&
			hostile_run x fuzz.dump &&
			hostile_run t fuzz.dump
		"
		seed=$((seed + 1))
	done
done

test_done
