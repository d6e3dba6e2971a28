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

# Every case is set up in one awk run here, not in three or four per
# case: srand(SEED) makes the same choices in one process as in several.
fields='c_type c_count c_inumber di_size di_mode c_flags c_volume c_tapea
c_ntrec c_extattributes di_nlink c_addr[0] c_addr[1] c_addr[511] c_date
c_magic di_uid'
echo "$fields" | tr " " "\n" | grep . >fields.list

# fuzz_cases N: for each kind and seed 1..N, a function fuzz_KIND_SEED
# that says what it damages and makes fuzz.dump from base.dump:
#   field: a header block (seed), a field (seed + 1000), an edge value or
#	a random 32-bit one (seed * 7 + 3);
#   dirbyte: a directory block and a byte offset (seed), 4 random bytes
#	(seed * 3 + 1);
#   garble: a header block (seed), garbled with random bytes.
fuzz_cases() {
	awk -v n="$1" '
	FILENAME == ARGV[1] { h[++nh] = $0; next }
	FILENAME == ARGV[2] { d[++nd] = $0; next }
	{ f[++nf] = $0 }
	function pick(seed, a, na) { srand(seed); return a[int(rand() * na) + 1] }
	END {
		nv = split("0 1 -1 2 511 512 513 1023 1024 65535 65536 " \
		    "0x7fffffff 0x80000000 0xffffffff", v, " ")
		for (s = 1; s <= n; s++) {
			blk = pick(s, h, nh)
			field = pick(s + 1000, f, nf)
			srand(s * 7 + 3)
			if (rand() < 0.7)
				val = v[int(rand() * nv) + 1]
			else
				val = sprintf("%d", int(rand() * 4294967296))
			printf "fuzz_field_%d() { echo \"block %d %s = %s\" && " \
			    "\"$TAPETOOL\" set base.dump fuzz.dump %d \"%s\" %s; }\n",
			    s, blk, field, val, blk, field, val
			blk = pick(s, d, nd)
			srand(s)
			off = int(rand() * 1020)
			srand(s * 3 + 1)
			hex = ""
			for (i = 0; i < 4; i++)
				hex = hex sprintf("%02x", int(rand() * 256))
			printf "fuzz_dirbyte_%d() { echo \"block %d byte %d = %s\" && " \
			    "\"$TAPETOOL\" poke base.dump fuzz.dump %d %s; }\n",
			    s, blk, off, hex, blk * 1024 + off, hex
			blk = pick(s, h, nh)
			printf "fuzz_garble_%d() { echo \"block %d garbled\" && " \
			    "\"$TAPETOOL\" garble base.dump fuzz.dump %d 1 random; }\n",
			    s, blk, blk
		}
	}' headers dirblocks fields.list
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: dump the test tree' '
	hostile_base &&
	"$TAPETOOL" list base.dump | awk "\$2 ~ /^TS_/ { print \$1 }" >headers &&
	"$TAPETOOL" ents base.dump | awk "NR > 1 { print \$2 }" | sort -un >dirblocks &&
	test -s headers && test -s dirblocks &&
	fuzz_cases "$FUZZ_CASES" >cases.sh
'

test -f cases.sh && . ./cases.sh

for kind in field dirbyte garble
do
	seed=1
	while test $seed -le "$FUZZ_CASES"
	do
		test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
			"$kind $seed: restore -r, -x and -t end without harm" "
			fuzz_${kind}_$seed &&
			hostile_run r fuzz.dump && hostile_run x fuzz.dump &&
			hostile_run t fuzz.dump
		"
		seed=$((seed + 1))
	done
done

test_done
