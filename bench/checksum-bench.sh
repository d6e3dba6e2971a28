#!/bin/sh
# checksum-bench.sh - what the data checksums of the header extension
# (doc/format.md 2.6) cost: our dump and restore against the same
# programs built from a commit before them (BASE_DUMP, BASE_RESTORE),
# side by side in one run, alternating, medians of RUNS; ratio
# "with sums / before".  Cases: dump to a file (warm and cold, plain
# and -z), restore -r of each one's own archive into a fresh ext4 until
# on disk (ours checks every block), and restore --verify of our
# archive against restore -t of the archive before through a pipe, which
# reads the whole stream without checking it (the yardstick the verify
# mode must keep up with).
# Usage: BASE_DUMP=... BASE_RESTORE=... sh bench/checksum-bench.sh [MB]
# (a base: git worktree add /tmp/base COMMIT && make -C /tmp/base)
. "$(dirname "$0")/lib.sh"
trap 'bench_fresh_fs_done; bench_cleanup' EXIT
bench_need
[ -x "${BASE_DUMP:-}" ] && [ -x "${BASE_RESTORE:-}" ] || {
	echo "set BASE_DUMP and BASE_RESTORE to a dump and restore from before the checksums" >&2
	exit 1
}
MB=${1:-500}
HAVE_NEW=''
PAIR_COLS="with sums | before"
echo "building a ${MB} MB tree in $WORK ..."
bench_tree "$WORK/tree" "$MB"
DEV=$(bench_image "$WORK/fs.img" "$WORK/tree" $((MB + MB / 2 + 64)))
rm -rf "$WORK/tree"
M=$WORK/mnt
echo "$RUNS runs each, medians; load: $(cut -d" " -f1-3 /proc/loadavg)"
echo "ours (with sums) vs before ($BASE_DUMP), ratio with/before:"
bench_pair "dump -0 to a file, warm" ":" \
    "$OUR_DUMP -0 -f $WORK/a.ours $DEV" "$BASE_DUMP -0 -f $WORK/a.base $DEV"
bench_pair "dump -0 to a file, cold" "drop_caches" \
    "$OUR_DUMP -0 -f $WORK/a.ours $DEV" "$BASE_DUMP -0 -f $WORK/a.base $DEV"
bench_pair "dump -0 -z to a file, warm" ":" \
    "$OUR_DUMP -0 -z -f $WORK/z.ours $DEV" "$BASE_DUMP -0 -z -f $WORK/z.base $DEV"
bench_pair "restore -r ${MB} MB, fresh fs, until on disk" \
    "bench_fresh_fs $WORK/target.img $M $((MB + MB / 2 + 64)); sync" \
    "cd $M && $OUR_RESTORE -r -f $WORK/a.ours" \
    "cd $M && $BASE_RESTORE -r -f $WORK/a.base"
bench_pair "restore -r of -z, fresh fs, until on disk" \
    "bench_fresh_fs $WORK/target.img $M $((MB + MB / 2 + 64)); sync" \
    "cd $M && $OUR_RESTORE -r -f $WORK/z.ours" \
    "cd $M && $BASE_RESTORE -r -f $WORK/z.base"
bench_fresh_fs_done
rm -f "$WORK/target.img"
PAIR_COLS="--verify | -t of a pipe, before"
echo "restore --verify of our archive vs restore -t (before) reading the whole archive from a pipe, warm:"
bench_pair "--verify vs -t of a pipe" ":" \
    "$OUR_RESTORE --verify -f $WORK/a.ours" \
    "cat $WORK/a.base | $BASE_RESTORE -t -f -"
bench_pair "--verify vs -t of a pipe, -z" ":" \
    "$OUR_RESTORE --verify -f $WORK/z.ours" \
    "cat $WORK/z.base | $BASE_RESTORE -t -f -"
PAIR_COLS="--verify | -t of a pipe"
echo "both ours: --verify vs -t reading the whole archive from a pipe (checking it too), warm:"
bench_pair "--verify vs our -t of a pipe" ":" \
    "$OUR_RESTORE --verify -f $WORK/a.ours" \
    "cat $WORK/a.ours | $OUR_RESTORE -t -f -"
echo "load at the end: $(cut -d" " -f1-3 /proc/loadavg)"
