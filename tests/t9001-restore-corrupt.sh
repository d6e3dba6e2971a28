#!/bin/sh
test_description='restore survives corrupt archives

A valid archive of dump 0.4b47 is damaged with helpers/tapetool: a bad
header checksum, a bad magic, a garbage or empty first block, truncation at
a block or in the middle of one, counts, types, inode numbers and sizes out
of range, garbage blocks after a valid header, mangled directory entries and
directory loops.  For each, restore -r, -x and -t must end (no crash, no
hang, nothing written outside the target); -r and -x print a message that
names the problem, and where restore can skip to the next valid header the
files after the damage still come back.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: dump the test tree' '
	hostile_base
'

# name <TAB> message (ERE, case-insensitive; "-" none) <TAB> files that
# must come back with -r and -x ("-" none) <TAB> restore options <TAB>
# tapetool snippet writing $s.dump.  In the snippets: $mf, $big, $zz, $af
# are the header blocks of mfile, big, zzz, afile; $sub that of directory
# sub; $lnk that of symlink lnkfile.
TAB=$(printf '\t')
cat >scenarios.tsv <<'EOF'
badsum	checksum	zzz,big,sub/payload	-	"$TAPETOOL" set -n base.dump $s.dump $mf di_uid 4242
badmagic	resync|incorrect block|not found on tape|skipp|bad header	zzz,big,sub/payload	-	"$TAPETOOL" set base.dump $s.dump $mf c_magic 0
badfirst	not a dump	-	-	"$TAPETOOL" garble base.dump $s.dump 0
empty	not a dump|read error|first record|empty	-	-	: >$s.dump
zeros	not a dump	-	-	"$TAPETOOL" garble base.dump t.dump 0 1 0 && "$TAPETOOL" truncate t.dump $s.dump 1
trunc-mid	volume 2|end[- ]of[- ](tape|file|input|archive|media)|truncat|premature|missing|short|eof	afile	-	"$TAPETOOL" truncate base.dump $s.dump $((big + 40))+512
trunc-hdr	volume 2|end[- ]of[- ](tape|file|input|archive|media)|truncat|premature|missing|short|eof	afile	-	"$TAPETOOL" truncate base.dump $s.dump $((big + 1))
trunc-maps	volume 2|end[- ]of[- ](tape|file|input|archive|media)|truncat|premature|missing|short|eof|list	-	-	"$TAPETOOL" truncate base.dump $s.dump 2
count-big	count|range|resync|incorrect block|bad|invalid|corrupt	zzz,sub/payload	-	"$TAPETOOL" set base.dump $s.dump $big c_count 100000
count-neg	count|range|resync|incorrect block|bad|invalid|corrupt	zzz,sub/payload	-	"$TAPETOOL" set base.dump $s.dump $big c_count -1
garbage-big	resync|incorrect block|skipp|checksum|bad|unexpected	zzz,mfile,sub/payload	-	"$TAPETOOL" insert base.dump $s.dump $big 3
garbage-mfile	resync|incorrect block|skipp|checksum|bad|unexpected	zzz,big,sub/payload	-	"$TAPETOOL" insert base.dump $s.dump $mf 3
garble-run	resync|incorrect block|skipp|checksum|bad|unexpected|not found	zzz	-	"$TAPETOOL" garble base.dump $s.dump $((big + 1)) $((zz - big - 2))
type-bad	unknown|type|bad|resync	zzz,big,sub/payload	-	"$TAPETOOL" set base.dump $s.dump $mf c_type 99
ino-huge	inode|range|bad|resync|expected	zzz,big,sub/payload	-	"$TAPETOOL" set base.dump $s.dump $mf c_inumber 0xffffffff
ino-zero	inode|range|bad|resync|expected	zzz,big,sub/payload	-	"$TAPETOOL" set base.dump $s.dump $mf c_inumber 0
size-huge	too (big|large)|size|range|bad|invalid	zzz,big,sub/payload	-	"$TAPETOOL" set base.dump $s.dump $af di_size 0x4000000000000000
clri-huge	range|too (big|large)|bad|map|removal list|count|corrupt|invalid|not a dump|volume	-	-	"$TAPETOOL" set base.dump $s.dump 1 c_count 0x40000000
dirsize-huge	size|range|bad|mangled|directory|corrupt|invalid	zzz,big	-	"$TAPETOOL" set base.dump $s.dump $sub di_size 0x10000000000
reclen-zero	mangled	-	-v	"$TAPETOOL" entry base.dump $s.dump afile d_reclen 0
reclen-odd	mangled	-	-v	"$TAPETOOL" entry base.dump $s.dump afile d_reclen 13
reclen-huge	mangled	-	-v	"$TAPETOOL" entry base.dump $s.dump afile d_reclen 0xfffc
namlen-big	mangled	-	-v	"$TAPETOOL" entry base.dump $s.dump afile d_namlen 255
dir-loop-root	hard link|loop|cycle|directory	zzz,big	-	"$TAPETOOL" entry base.dump $s.dump deep d_ino 2
dir-loop-self	hard link|loop|cycle|directory	zzz,big	-	"$TAPETOOL" entry base.dump $s.dump deep d_ino $(hostile_ino sub)
dino-huge	inode|range|bad|invalid|corrupt|not found	zzz,big	-	"$TAPETOOL" entry base.dump $s.dump afile d_ino 0x7fffffff
link-hole	unallocated|hole|symbolic link|symlink	-	-	"$TAPETOOL" set base.dump $s.dump $lnk 'c_addr[0]' 0
link-empty	symbolic link|symlink	zzz,big	-v	"$TAPETOOL" set base.dump $s.dump $lnk di_size 0
link-huge	symbolic link|symlink|missing|too long|size	zzz,big	-	"$TAPETOOL" set base.dump $s.dump $lnk di_size 1048576
EOF

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: build the damaged archives' '
	mf=$(hostile_hdr TS_INODE $(hostile_ino mfile)) &&
	big=$(hostile_hdr TS_INODE $(hostile_ino big)) &&
	zz=$(hostile_hdr TS_INODE $(hostile_ino zzz)) &&
	af=$(hostile_hdr TS_INODE $(hostile_ino afile)) &&
	sub=$(hostile_hdr TS_INODE $(hostile_ino sub)) &&
	lnk=$(hostile_hdr TS_INODE $(hostile_ino lnkfile)) &&
	test -n "$mf" && test -n "$big" && test -n "$zz" && test -n "$af" &&
	test -n "$sub" && test -n "$lnk" && test "$zz" -gt "$big" &&
	while IFS=$TAB read -r s re files opts cmd
	do
		eval "$cmd" || { echo "cannot build $s" >&2; exit 1; }
	done <scenarios.tsv
'

# hostile_check MODE NAME RE FILES OPTS
hostile_check() {
	hc_opts=
	test "$5" = - || hc_opts=$5
	hostile_run "$1" "$2.dump" $hc_opts || return 1
	if test "$1" = t || test "$1" = tp
	then
		return 0
	fi
	if test "$3" != -
	then
		cat hostile.out hostile.err >hostile.all &&
		grep -E -i -e "$3" hostile.all >/dev/null || {
			echo "no message matching /$3/" >&2
			return 1
		}
	fi
	test "$4" = - && return 0
	for hc_f in $(echo "$4" | tr , " ")
	do
		hostile_restored "$hc_f" || return 1
	done
}

while IFS=$TAB read -r s re files opts cmd
do
	for mode in r x t xp tp
	do
		case $mode in
		r) what="restore -r ends, says so and recovers" ;;
		x) what="restore -x ends, says so and recovers" ;;
		t) what="restore -t ends without harm" ;;
		xp) what="restore -x -f - ends, says so and recovers" ;;
		tp) what="restore -t -f - ends without harm" ;;
		esac
		test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
			"$s: $what" "hostile_check $mode $s '$re' '$files' '$opts'"
	done
done <scenarios.tsv

# Input that is not an archive at all fails with status 1, in every mode.
for s in badfirst empty zeros
do
	for mode in r x t tp
	do
		test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
			"$s: restore ($mode) exits 1" "
			hostile_run $mode $s.dump && test \$hostile_rc = 1
		"
	done
done

test_done
