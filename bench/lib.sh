# bench/lib.sh - shared pieces of the benchmark scripts: finding the
# binaries (ours, dump 0.4b47 and, when fetched, dump 0.4b56), building a
# test file system, running a command N times alternating between
# implementations and printing the medians side by side with ratios.
# Benchmarks print figures; they never pass or fail on a timing.
# Environment: RUNS (runs per side, default 3), BENCH_WORK (work
# directory), BENCH_KEEP (keep it), BENCH_VERBOSE (print every run, not
# only the medians), NEW_DUMP/NEW_RESTORE (0.4b56; empty: skip it).
set -eu
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$BENCH_DIR/.." && pwd)
OUR_DUMP=${OUR_DUMP:-$TOP/dump/dump}
OUR_RESTORE=${OUR_RESTORE:-$TOP/restore/restore}
REF_DUMP=${REF_DUMP:-$TOP/tests/oracle/sbin/dump}
REF_RESTORE=${REF_RESTORE:-$TOP/tests/oracle/sbin/restore}
# dump 0.4b56 (Debian forky): wrappers written by
# tests/helpers/fetch-upstream.sh forky that run it with forky's own
# loader and libraries.  Never fetched here (a whole suite's libraries);
# without it the 0.4b56 columns are left out.
NEW_DUMP=${NEW_DUMP-$TOP/tests/oracle/forky/bin/dump}
NEW_RESTORE=${NEW_RESTORE-$TOP/tests/oracle/forky/bin/restore}
HAVE_NEW='' NEW_NAME=0.4b56
RUNS=${RUNS:-3}
WORK=${BENCH_WORK:-$(mktemp -d /var/tmp/dumpbench.XXXXXX)}

# Loop devices we attached, one per line: bench_image runs inside $(...),
# so a shell variable would not survive it.
LOOPS_FILE=$WORK/.loops
: > "$LOOPS_FILE"

bench_cleanup() {
	while read -r l; do losetup -d "$l" 2>/dev/null || :; done < "$LOOPS_FILE"
	[ -n "${BENCH_KEEP:-}" ] || rm -rf "$WORK"
}
# A signal ends the script through its EXIT trap (which the scripts
# extend): a trap that returned would let the script carry on without
# its work directory.
trap bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bench_need() {
	[ "$(id -u)" = 0 ] || { echo "benchmarks need root (loop devices, drop_caches)" >&2; exit 1; }
	[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }
	[ -x "$REF_DUMP" ] || sh "$TOP/tests/helpers/fetch-oracle.sh" >/dev/null
	for b in "$OUR_DUMP" "$REF_DUMP"; do
		[ -x "$b" ] || { echo "missing $b: build first (make)" >&2; exit 1; }
	done
}

# bench_find_new: for the scripts with 0.4b56 columns: HAVE_NEW=1 and
# NEW_NAME (its version, "0.4b56") when NEW_DUMP and NEW_RESTORE run;
# otherwise a line saying the columns are skipped - never a failure.
bench_find_new() {
	HAVE_NEW='' NEW_NAME=0.4b56
	if [ -z "$NEW_DUMP" ] || [ -z "$NEW_RESTORE" ]; then
		echo "NEW_DUMP/NEW_RESTORE empty: the 0.4b56 columns are skipped"
		return 0
	fi
	v=
	[ ! -x "$NEW_DUMP" ] || [ ! -x "$NEW_RESTORE" ] ||
	    v=$("$NEW_DUMP" 2>&1 | sed -n '1s/^dump \(0\.[0-9a-z]*\) .*/\1/p')
	if [ -z "$v" ] || ! "$NEW_RESTORE" 2>&1 | grep -q '^restore 0\.'; then
		echo "dump 0.4b56 not found or not running ($NEW_DUMP;" \
		    "sh tests/helpers/fetch-upstream.sh forky): the 0.4b56 columns are skipped"
		return 0
	fi
	HAVE_NEW=1 NEW_NAME=$v
}

# bench_columns: what the columns of the bench_pair lines below are.
bench_columns() {
	if [ -n "$HAVE_NEW" ]; then
		echo "columns: ours vs 0.4b47, $NEW_NAME; ratios ours/0.4b47, ours/$NEW_NAME (below 1: ours faster, smaller)"
	else
		echo "columns: ours vs 0.4b47; ratio ours/0.4b47 (below 1: ours faster, smaller)"
	fi
}

# bench_tree DIR MB: a tree of about MB megabytes: a few large files,
# medium files and many small ones, incompressible content.
bench_tree() {
	python3 - "$1" "$2" <<'PY'
import os, sys
root, mb = sys.argv[1], int(sys.argv[2])
rnd = open("/dev/urandom", "rb")
os.makedirs(root, exist_ok=True)
big = mb * 6 // 10
for i in range(4):
    with open(os.path.join(root, "big%d.bin" % i), "wb") as f:
        f.write(rnd.read(big * 1024 * 1024 // 4))
med = os.path.join(root, "medium"); os.makedirs(med, exist_ok=True)
for i in range(mb * 3 // 10):
    with open(os.path.join(med, "m%04d" % i), "wb") as f:
        f.write(rnd.read(1024 * 1024))
small = os.path.join(root, "small")
n = mb * 100 // 10
for i in range(n):
    d = os.path.join(small, "d%03d" % (i // 500)); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%05d" % i), "wb") as f:
        f.write(rnd.read(1 + (i * 7919) % 8192))
PY
}

# bench_image IMG TREE SIZE_MB [MKE2FS_ARGS...]: ext4 image from TREE,
# attached; prints the loop device.
bench_image() {
	img=$1 tree=$2 size=$3
	shift 3
	mke2fs -q -F -t ext4 -b 4096 "$@" -d "$tree" "$img" "${size}M" >/dev/null
	dev=$(losetup -f --show "$img")
	echo "$dev" >> "$LOOPS_FILE"
	echo "$dev"
}

drop_caches() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# measure ERRFILE CMD: run CMD (stdout to /dev/null, stderr to ERRFILE) and
# print "wall=S cpu=S maxrss=KiB rc=N".  GNU time is the parent, so cpu
# (user+sys) covers every process CMD waited for - dump's slaves and
# writer included - and maxrss is the largest of them.
measure() {
	/usr/bin/time -o "$WORK/time.out" -f "%e %U %S %M %x" \
	    sh -c "$2" > /dev/null 2> "$1" || :
	awk '{ printf "wall=%s cpu=%.2f maxrss=%s rc=%s\n", $1, $2 + $3, $4, $5 }' "$WORK/time.out"
}

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

field() { # field NAME < "wall=.. cpu=.." lines
	sed -n "s/.*$1=\([0-9.]*\).*/\1/p"
}

# bench_pair LABEL PREP OURS_CMD REF_CMD [NEW_CMD]: run each RUNS times,
# alternating, PREP before each run (e.g. drop_caches or removing the last
# output), and print medians and the ratios ours/ref (and ours/new) of
# wall, cpu and peak RSS: below 1, ours is faster or smaller.  NEW_CMD
# (dump 0.4b56) runs only when bench_need found it.  PAIR_COLS names the
# columns of BENCH_VERBOSE's listing.  Sets ow rw nw, oc rc nc (wall and
# cpu medians: media-bench.sh reads them) and PAIR_*_WALL.
PAIR_COLS=
bench_pair() {
	label=$1 prep=$2 ours=$3 ref=$4 new=
	[ -z "$HAVE_NEW" ] || new=${5:-}
	: > "$WORK/ours.txt"; : > "$WORK/ref.txt"; : > "$WORK/new.txt"
	i=0
	while [ $i -lt "$RUNS" ]; do
		eval "$prep"
		measure "$WORK/ours.err" "$ours" >> "$WORK/ours.txt"
		eval "$prep"
		measure "$WORK/ref.err" "$ref" >> "$WORK/ref.txt"
		if [ -n "$new" ]; then
			eval "$prep"
			measure "$WORK/new.err" "$new" >> "$WORK/new.txt"
		fi
		i=$((i + 1))
	done
	if grep -qv 'rc=0' "$WORK/ours.txt" "$WORK/ref.txt" "$WORK/new.txt"; then
		echo "$label: a run failed:"; cat "$WORK/ours.txt" "$WORK/ref.txt" "$WORK/new.txt"
		tail -n 3 "$WORK/ours.err" "$WORK/ref.err"
		[ -z "$new" ] || tail -n 3 "$WORK/new.err"
	fi
	if [ -n "${BENCH_VERBOSE:-}" ]; then
		cols=${PAIR_COLS:-"ours | 0.4b47${new:+ | $NEW_NAME}"}
		echo "$label, every run ($cols):"
		if [ -n "$new" ]; then
			paste -d "|" "$WORK/ours.txt" "$WORK/ref.txt" "$WORK/new.txt"
		else
			paste -d "|" "$WORK/ours.txt" "$WORK/ref.txt"
		fi | sed 's/^/    /; s/|/ | /g'
	fi
	ow=$(field wall < "$WORK/ours.txt" | median); rw=$(field wall < "$WORK/ref.txt" | median)
	oc=$(field cpu < "$WORK/ours.txt" | median); rc=$(field cpu < "$WORK/ref.txt" | median)
	om=$(field maxrss < "$WORK/ours.txt" | median); rm_=$(field maxrss < "$WORK/ref.txt" | median)
	nw='' nc='' nm=''
	if [ -n "$new" ]; then
		nw=$(field wall < "$WORK/new.txt" | median)
		nc=$(field cpu < "$WORK/new.txt" | median)
		nm=$(field maxrss < "$WORK/new.txt" | median)
	fi
	# for a later bench_one line to compare with
	PAIR_OURS_WALL=$ow PAIR_REF_WALL=$rw PAIR_NEW_WALL=$nw
	awk -v l="$label" -v ow="$ow" -v rw="$rw" -v nw="$nw" -v oc="$oc" -v rc="$rc" -v nc="$nc" \
	    -v om="$om" -v rm="$rm_" -v nm="$nm" '
	function r(a, b) { return b > 0 ? a / b : 0 }
	BEGIN {
		if (nw == "") {
			printf "%-34s wall %6.2fs vs %6.2fs (%4.2fx)  cpu %6.2fs vs %6.2fs (%4.2fx)  maxrss %6d vs %6d KiB (%4.2fx)\n",
			    l, ow, rw, r(ow, rw), oc, rc, r(oc, rc), om, rm, r(om, rm)
		} else {
			printf "%-34s wall %6.2fs vs %6.2fs, %6.2fs (%4.2fx, %4.2fx)  cpu %6.2fs vs %6.2fs, %6.2fs (%4.2fx, %4.2fx)  maxrss %6d vs %6d, %6d KiB (%4.2fx, %4.2fx)\n",
			    l, ow, rw, nw, r(ow, rw), r(ow, nw), oc, rc, nc, r(oc, rc), r(oc, nc), om, rm, nm, r(om, rm), r(om, nm)
		}
	}'
}

# bench_one LABEL PREP CMD [OURS_WALL REF_WALL [NEW_WALL]]: another
# program (tar, dd) run RUNS times, PREP before each; prints its medians
# and, given the medians of a bench_pair line, how ours, 0.4b47 (and
# 0.4b56) compare with it (their wall / its wall: 2.00x = twice as long).
bench_one() {
	label=$1 prep=$2 cmd=$3 ow=${4:-} rw=${5:-} nw=${6:-}
	: > "$WORK/one.txt"
	i=0
	while [ $i -lt "$RUNS" ]; do
		eval "$prep"
		measure "$WORK/one.err" "$cmd" >> "$WORK/one.txt"
		i=$((i + 1))
	done
	if grep -qv 'rc=0' "$WORK/one.txt"; then
		echo "$label: a run failed:"; cat "$WORK/one.txt"
		tail -n 3 "$WORK/one.err"
	fi
	if [ -n "${BENCH_VERBOSE:-}" ]; then
		echo "$label, every run:"
		sed 's/^/    /' "$WORK/one.txt"
	fi
	w=$(field wall < "$WORK/one.txt" | median)
	c=$(field cpu < "$WORK/one.txt" | median)
	m=$(field maxrss < "$WORK/one.txt" | median)
	awk -v l="$label" -v w="$w" -v c="$c" -v m="$m" -v ow="$ow" -v rw="$rw" -v nw="$nw" -v nn="$NEW_NAME" 'BEGIN {
		printf "%-34s wall %6.2fs  cpu %6.2fs  maxrss %6d KiB", l, w, c, m
		if (ow != "" && w > 0) {
			printf "   ours %5.2fx, 0.4b47 %5.2fx", ow / w, rw / w
			if (nw != "")
				printf ", %s %5.2fx", nn, nw / w
			printf " its wall"
		}
		printf "\n" }'
}

# bench_fresh_fs IMG MNT SIZE_MB: (re)make an empty ext4 file system in
# IMG, attach it with direct I/O - so that a flush reaches the disk, not
# the page cache of the image file - and mount it on MNT.  The previous
# one, if any, is unmounted and detached first; bench_fresh_fs_done undoes
# the last one (call it from the script's exit trap).  Inode tables and
# journal are written by mke2fs, so no lazy-init thread runs during a
# measured run.
FRESH_LOOP=
FRESH_MNT=
bench_fresh_fs() {
	bench_fresh_fs_done
	rm -f "$1"
	mke2fs -q -F -t ext4 -E lazy_itable_init=0,lazy_journal_init=0 \
	    ${4:+-N "$4"} "$1" "${3}M" >/dev/null
	FRESH_LOOP=$(losetup -f --show --direct-io=on "$1" 2>/dev/null ||
	    losetup -f --show "$1")
	echo "$FRESH_LOOP" >> "$LOOPS_FILE"
	mkdir -p "$2"
	mount "$FRESH_LOOP" "$2"
	FRESH_MNT=$2
}

bench_fresh_fs_done() {
	[ -n "$FRESH_LOOP" ] || return 0
	umount "$FRESH_MNT" 2>/dev/null || :
	losetup -d "$FRESH_LOOP" 2>/dev/null || :
	FRESH_LOOP=
}
