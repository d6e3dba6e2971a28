#!/bin/sh
# dump-bench.sh - our dump against dump 0.4b47 and dump 0.4b56, side by
# side in one run (issue "dump, level 0"): level 0 of a few hundred MB ext4
# image to a file and to /dev/null, warm and cold cache, default -b and
# -b 64; then dd of the device and GNU tar of the mounted tree, as
# yardsticks.  Each case runs RUNS times (default 3) alternating
# ours/0.4b47/0.4b56; medians are printed as "ours vs 0.4b47, 0.4b56" with
# the ratios ours/0.4b47 and ours/0.4b56 of wall, cpu and peak RSS.
# 0.4b56 comes from tests/helpers/fetch-upstream.sh forky; without it its
# columns are skipped.  Usage: sh bench/dump-bench.sh [MB]
. "$(dirname "$0")/lib.sh"
MNT=$WORK/mnt
trap 'umount "$MNT" 2>/dev/null || :; bench_cleanup' EXIT
bench_need
bench_find_new
MB=${1:-300}
echo "building a ${MB} MB tree and image in $WORK ..."
bench_tree "$WORK/tree" "$MB"
DEV=$(bench_image "$WORK/fs.img" "$WORK/tree" $((MB + MB / 2 + 64)))
rm -rf "$WORK/tree"
OUT=$WORK/out.dump
# all_cases PREFIX REF [NEW]: every case, ours against the dumps REF
# (and NEW).  (Not "ref", "new": bench_pair sets those names, and the next
# case would run the previous command line.)
all_cases() {
	pre=$1 refdump=$2 newdump=${3:-}
	for b in "" "-b 64"; do
		bl=${b:-default -b}
		# Our dump fsyncs the archive before "DUMP IS DONE"; 0.4b47
		# and 0.4b56 do not.  "file" compares the commands as they
		# are; "file+sync" adds the same flush after theirs, i.e. the
		# time until the archive is on disk.
		bench_pair "${pre}file, warm, $bl" "rm -f $OUT; sync" \
		    "$OUR_DUMP -0 $b -f $OUT $DEV" "$refdump -0 $b -f $OUT $DEV" \
		    "${newdump:+$newdump -0 $b -f $OUT $DEV}"
		bench_pair "${pre}file+sync, warm, $bl" "rm -f $OUT; sync" \
		    "$OUR_DUMP -0 $b -f $OUT $DEV" "$refdump -0 $b -f $OUT $DEV && sync -f $OUT" \
		    "${newdump:+$newdump -0 $b -f $OUT $DEV && sync -f $OUT}"
		bench_pair "${pre}file+sync, cold, $bl" "rm -f $OUT; drop_caches" \
		    "$OUR_DUMP -0 $b -f $OUT $DEV" "$refdump -0 $b -f $OUT $DEV && sync -f $OUT" \
		    "${newdump:+$newdump -0 $b -f $OUT $DEV && sync -f $OUT}"
		bench_pair "${pre}/dev/null, warm, $bl" ":" \
		    "$OUR_DUMP -0 $b -f /dev/null $DEV" "$refdump -0 $b -f /dev/null $DEV" \
		    "${newdump:+$newdump -0 $b -f /dev/null $DEV}"
		bench_pair "${pre}/dev/null, cold, $bl" "drop_caches" \
		    "$OUR_DUMP -0 $b -f /dev/null $DEV" "$refdump -0 $b -f /dev/null $DEV" \
		    "${newdump:+$newdump -0 $b -f /dev/null $DEV}"
	done
}
echo "image: $DEV; $RUNS runs each, medians; load: $(cut -d" " -f1-3 /proc/loadavg)"
bench_columns
all_cases "" "$REF_DUMP" "$NEW_DUMP"
# Yardsticks for the same image, compared with the -b 64 /dev/null lines
# just above: reading the whole device (dd: the disk's speed, what a dump
# cannot beat by much), and GNU tar of the mounted tree.  tar reads no
# file data when its archive is /dev/null, hence the cat.
echo "yardsticks (ours/0.4b47/$NEW_NAME = their -b 64 /dev/null wall / this wall):"
null_line() { # null_line warm|cold: ours, 0.4b47, 0.4b56 medians, -b 64
	bench_pair "(again) /dev/null, $1, -b 64" "$2" \
	    "$OUR_DUMP -0 -b 64 -f /dev/null $DEV" "$REF_DUMP -0 -b 64 -f /dev/null $DEV" \
	    "${NEW_DUMP:+$NEW_DUMP -0 -b 64 -f /dev/null $DEV}"
}
null_line warm ":"
BP_WARM_OURS=$PAIR_OURS_WALL BP_WARM_REF=$PAIR_REF_WALL BP_WARM_NEW=$PAIR_NEW_WALL
bench_one "dd bs=1M of the device, warm" ":" \
    "dd if=$DEV of=/dev/null bs=1M" "$PAIR_OURS_WALL" "$PAIR_REF_WALL" "$PAIR_NEW_WALL"
null_line cold "drop_caches"
bench_one "dd bs=1M of the device, cold" "drop_caches" \
    "dd if=$DEV of=/dev/null bs=1M" "$PAIR_OURS_WALL" "$PAIR_REF_WALL" "$PAIR_NEW_WALL"
mkdir -p "$MNT"
mount -o ro "$DEV" "$MNT"
bench_one "tar -c of the mounted tree, cold" "drop_caches" \
    "tar -C $MNT -cf - . | cat" "$PAIR_OURS_WALL" "$PAIR_REF_WALL" "$PAIR_NEW_WALL"
bench_one "tar -c of the mounted tree, warm" ":" \
    "tar -C $MNT -cf - . | cat" "$BP_WARM_OURS" "$BP_WARM_REF" "$BP_WARM_NEW"
umount "$MNT"
# BASE_DUMP: a dump built from an earlier commit, to show what a change
# costs: the same cases, "ours vs before" (ratio > 1: slower now).
if [ -n "${BASE_DUMP:-}" ]; then
	echo "ours vs BASE_DUMP ($BASE_DUMP), ratio ours/before:"
	PAIR_COLS="ours | before"
	all_cases "before: " "$BASE_DUMP"
fi
echo "load at the end: $(cut -d" " -f1-3 /proc/loadavg)"
