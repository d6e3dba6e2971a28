#!/bin/sh
# restore-bench.sh - our restore against restore 0.4b47 and 0.4b56, side by
# side in one run (issue "restore"): -r of a few hundred MB archive into an
# empty directory, and -t of an archive with 200,000 small files; GNU tar
# -x of the same tree into a fresh and into a used file system as a
# yardstick.  Each line gives the peak RSS of each.  All three read the
# same archives, made by dump 0.4b47 (0.4b47's restore cannot read the
# block map of 0.4b49 and later).  Then our restore of an archive written
# by dump 0.4b56 (runs of blocks in its block map) against our restore of
# our own dump's archive of the same file system.  RUNS (default 3)
# alternating runs, medians, ratios ours/0.4b47 and ours/0.4b56 of wall,
# cpu and peak RSS.  0.4b56 comes from tests/helpers/fetch-upstream.sh
# forky; without it its lines and columns are skipped.
# Usage: sh bench/restore-bench.sh [MB] [NFILES]
. "$(dirname "$0")/lib.sh"
trap 'bench_fresh_fs_done; bench_cleanup' EXIT
bench_need
bench_find_new
[ -x "$OUR_RESTORE" ] || { echo "missing $OUR_RESTORE" >&2; exit 1; }
MB=${1:-300}
NFILES=${2:-200000}
echo "building the -r archive in $WORK ..."
bench_tree "$WORK/tree" "$MB"
DEV=$(bench_image "$WORK/fs.img" "$WORK/tree" $((MB + MB / 2 + 64)))
# the same tree as a GNU tar archive, for the tar -x yardstick
tar -C "$WORK/tree" -cf "$WORK/big.tar" .
rm -rf "$WORK/tree"
"$REF_DUMP" -0 -f "$WORK/big.dump" "$DEV" 2>/dev/null
if [ -n "$HAVE_NEW" ]; then
	"$OUR_DUMP" -0 -f "$WORK/big.ours" "$DEV" 2>/dev/null
	"$NEW_DUMP" -0 -f "$WORK/big.new" "$DEV" 2>/dev/null
fi
T=$WORK/target
M=$WORK/mnt
echo "$RUNS runs each, medians; load: $(cut -d" " -f1-3 /proc/loadavg)"
bench_columns
# Our restore flushes the restored data (syncfs) before it reports success;
# 0.4b47 and 0.4b56 do not, so their runs are followed by the same flush to
# compare the time until the data is on disk.
# "fresh fs": every run restores into a newly made ext4 (journal, loop
# device with direct I/O, so the flush reaches the disk), as after a disk
# loss.  "reused dir": into a directory of the file system holding $WORK,
# emptied by rm -rf before each run.  On a file system without a journal
# (the root file system of some VMs) the second line measures mostly
# ext4's inode allocator: it does not reuse an inode freed less than 60 s
# ago (6 min while its table block is dirty) and steps over every such
# inode, one buffer lookup each, for every file created - after the rm -rf
# of the previous run that costs ~0.5 ms per file, the same for both
# programs (see /proc/fs/jbd2: no entry for the device means no journal).
bench_pair "-r ${MB} MB, fresh fs, until on disk" \
    "bench_fresh_fs $WORK/target.img $M $((MB + MB / 2 + 64)); sync" \
    "cd $M && $OUR_RESTORE -r -f $WORK/big.dump" \
    "cd $M && $REF_RESTORE -r -f $WORK/big.dump && sync -f ." \
    "cd $M && $NEW_RESTORE -r -f $WORK/big.dump && sync -f ."
bench_one "tar -x ${MB} MB, fresh fs, on disk" \
    "bench_fresh_fs $WORK/target.img $M $((MB + MB / 2 + 64)); sync" \
    "cd $M && tar -xf $WORK/big.tar && sync -f ." "$PAIR_OURS_WALL" "$PAIR_REF_WALL" "$PAIR_NEW_WALL"
# "used fs": a new file system into which our restore restored the tree,
# then rm -rf of it and a sync: freed inodes and blocks, as on a disk
# that is restored to again.
used_fs() {
	bench_fresh_fs $WORK/target.img $M $((MB + MB / 2 + 64)) &&
	(cd $M && $OUR_RESTORE -r -f $WORK/big.dump 2>/dev/null) &&
	rm -rf $M/* && sync
}
bench_pair "-r ${MB} MB, used fs, until on disk" "used_fs" \
    "cd $M && $OUR_RESTORE -r -f $WORK/big.dump" \
    "cd $M && $REF_RESTORE -r -f $WORK/big.dump && sync -f ." \
    "cd $M && $NEW_RESTORE -r -f $WORK/big.dump && sync -f ."
bench_one "tar -x ${MB} MB, used fs, on disk" "used_fs" \
    "cd $M && tar -xf $WORK/big.tar && sync -f ." "$PAIR_OURS_WALL" "$PAIR_REF_WALL" "$PAIR_NEW_WALL"
# Archives of dump 0.4b49 and later map a file's blocks in runs (two
# bytes for up to 16384 blocks, so one header covers up to 4 GiB; see
# doc/format.md) instead of a byte a block, as 0.4b47 and ours do.  Our
# restore of each, same tree, fresh fs each run: the ratio is 0.4b56's
# archive / ours (above 1: 0.4b56's restores slower).
if [ -n "$HAVE_NEW" ]; then
	echo "our restore of $NEW_NAME's archive vs of our dump's, same tree; ratio $NEW_NAME's / ours:"
	PAIR_COLS="$NEW_NAME's archive | our archive"
	bench_pair "-r of $NEW_NAME's archive vs ours" \
	    "bench_fresh_fs $WORK/target.img $M $((MB + MB / 2 + 64)); sync" \
	    "cd $M && $OUR_RESTORE -r -f $WORK/big.new" \
	    "cd $M && $OUR_RESTORE -r -f $WORK/big.ours"
	PAIR_COLS=
fi
bench_fresh_fs_done
rm -f "$WORK/target.img"
bench_pair "-r ${MB} MB, reused dir, until on disk" "rm -rf $T; mkdir $T; sync" \
    "cd $T && $OUR_RESTORE -r -f $WORK/big.dump" "cd $T && $REF_RESTORE -r -f $WORK/big.dump && sync -f ." \
    "cd $T && $NEW_RESTORE -r -f $WORK/big.dump && sync -f ."
# The -t archive is made only now: right after creating and dumping
# 200,000 files, -r runs were slower and erratic for both restores
# (0.4b47 0.67-1.41 s instead of 0.62-0.74 s).
echo "building the -t archive ..."
python3 - "$WORK/many" "$NFILES" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "d%04d" % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(d)
    with open(os.path.join(d, "file-%06d" % i), "w") as f:
        f.write("%d\n" % i)
PY
DEV2=$(bench_image "$WORK/many.img" "$WORK/many" 1200 -N $((NFILES + NFILES / 10 + 1000)))
rm -rf "$WORK/many"
"$REF_DUMP" -0 -f "$WORK/many.dump" "$DEV2" 2>/dev/null
bench_pair "-t ${NFILES} files" ":" \
    "$OUR_RESTORE -t -f $WORK/many.dump" "$REF_RESTORE -t -f $WORK/many.dump" \
    "$NEW_RESTORE -t -f $WORK/many.dump"
if [ -n "$HAVE_NEW" ]; then
	"$OUR_DUMP" -0 -f "$WORK/many.ours" "$DEV2" 2>/dev/null
	"$NEW_DUMP" -0 -f "$WORK/many.new" "$DEV2" 2>/dev/null
	PAIR_COLS="$NEW_NAME's archive | our archive"
	echo "our restore of $NEW_NAME's archive vs of our dump's; ratio $NEW_NAME's / ours:"
	bench_pair "-t of $NEW_NAME's archive vs ours" ":" \
	    "$OUR_RESTORE -t -f $WORK/many.new" "$OUR_RESTORE -t -f $WORK/many.ours"
	PAIR_COLS=
fi
echo "load at the end: $(cut -d" " -f1-3 /proc/loadavg)"
