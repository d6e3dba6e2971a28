#!/bin/sh
# restore-bench.sh - our restore against restore 0.4b47, side by side in one
# run (issue "restore"): -r of a few hundred MB archive into an empty
# directory, and -t of an archive with 200,000 small files.  Both read the
# same archives, made by dump 0.4b47.  RUNS (default 3) alternating runs,
# medians, speed-up = 0.4b47 wall / ours wall, memory ratio = ours / 0.4b47.
# Usage: sh bench/restore-bench.sh [MB] [NFILES]
. "$(dirname "$0")/lib.sh"
bench_need
[ -x "$OUR_RESTORE" ] || { echo "missing $OUR_RESTORE" >&2; exit 1; }
MB=${1:-300}
NFILES=${2:-200000}
echo "building archives in $WORK ..."
bench_tree "$WORK/tree" "$MB"
DEV=$(bench_image "$WORK/fs.img" "$WORK/tree" $((MB + MB / 2 + 64)))
rm -rf "$WORK/tree"
"$REF_DUMP" -0 -f "$WORK/big.dump" "$DEV" 2>/dev/null
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
T=$WORK/target
echo "$RUNS runs each, medians; ours vs restore 0.4b47"
# Our restore flushes the restored data (syncfs) before it reports success;
# 0.4b47 does not, so its run is followed by the same flush to compare the
# time until the data is on disk.
bench_pair "-r ${MB} MB, warm, until on disk" "rm -rf $T; mkdir $T; sync" \
    "cd $T && $OUR_RESTORE -r -f $WORK/big.dump" "cd $T && $REF_RESTORE -r -f $WORK/big.dump && sync -f ."
bench_pair "-t ${NFILES} files" ":" \
    "$OUR_RESTORE -t -f $WORK/many.dump" "$REF_RESTORE -t -f $WORK/many.dump"
