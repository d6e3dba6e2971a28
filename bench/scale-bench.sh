#!/bin/sh
# scale-bench.sh - dump and restore at scale, side by side in one run:
# an ext4 of NFILES small files (0-2 KiB, 1000 to a directory) and one
# made from a real tree (default /usr), each built once and kept in
# BENCH_CACHE.  For each image, with the page cache dropped before every
# run: a raw read of the device (dd, O_DIRECT), dump to /dev/null and to
# a file (synced) by ours, 0.4b47 and 0.4b56 (when fetched), GNU tar -c;
# then restore -r of an archive by each restore (0.4b56's own archive for
# 0.4b56, 0.4b47's for the others) and tar -x, each into a fresh ext4
# with enough inodes, timed until synced.  Printed: wall, cpu, peak RSS,
# the device's read requests and their mean size (/sys/block/loopN/stat),
# and the ratio ours / other.  One run each (RUNS to change): at this
# scale a run takes from seconds to a minute.
# Usage: sh bench/scale-bench.sh [NFILES] [TREE]
# Environment: BENCH_CACHE (default /var/tmp/dumpbench-cache), RUNS.
. "$(dirname "$0")/lib.sh"
trap 'bench_fresh_fs_done; umount "$WORK/src" 2>/dev/null || :; bench_cleanup' EXIT
bench_need
bench_find_new
NFILES=${1:-1000000}
TREE=${2:-/usr}
RUNS=${RUNS:-1}
CACHE=${BENCH_CACHE:-/var/tmp/dumpbench-cache}
mkdir -p "$CACHE"

# small_image IMG: NFILES files of 0-2 KiB, made once.
small_image() {
	[ -f "$1" ] && return 0
	echo "building $1 ($NFILES files) ..."
	rm -rf "$WORK/smalltree"
	python3 - "$WORK/smalltree" "$NFILES" <<'PY'
import os, random, sys
top, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(42)
blob = os.urandom(4096)
for i in range(n):
    if i % 1000 == 0:
        d = os.path.join(top, "d%05d" % (i // 1000))
        os.makedirs(d)
    k = rnd.randint(0, 2048)
    with open(os.path.join(d, "f%04d" % (i % 1000)), "wb") as f:
        f.write(blob[i % 2048:i % 2048 + k])
PY
	mb=$((NFILES * 6 / 1000 + 256))
	mke2fs -q -F -t ext4 -b 4096 -N $((NFILES + NFILES / 10 + 1000)) \
	    -d "$WORK/smalltree" "$1.new" "${mb}M" && mv "$1.new" "$1"
	rm -rf "$WORK/smalltree"
}

# tree_image IMG: TREE copied into an ext4, made once.
tree_image() {
	[ -f "$1" ] && return 0
	echo "building $1 from $TREE ..."
	kb=$(du -sk -x "$TREE" | cut -f1)
	mb=$((kb * 13 / 10 / 1024 + 256))
	mke2fs -q -F -t ext4 -b 4096 -d "$TREE" "$1.new" "${mb}M" &&
	    mv "$1.new" "$1"
}

# reads DEV: "requests sectors" read from DEV so far.
reads() {
	awk '{ print $1, $3 }' "/sys/block/${1#/dev/}/stat"
}

# run LABEL DEV PREP CMD: RUNS runs of CMD after PREP (run in this shell,
# so that it may call lib.sh) and a cache drop; prints one line with the
# median wall and cpu, peak RSS, and the read requests of DEV in the
# last run.  Sets LAST_WALL.
run() {
	label=$1 dev=$2 prep=$3 cmd=$4
	: > "$WORK/walls"
	: > "$WORK/cpus"
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		eval "$prep"
		drop_caches
		r0=$(reads "$dev")
		m=$(measure "$WORK/err" "$cmd")
		r1=$(reads "$dev")
		echo "$m" | sed 's/.*wall=\([^ ]*\).*/\1/' >> "$WORK/walls"
		echo "$m" | sed 's/.*cpu=\([^ ]*\).*/\1/' >> "$WORK/cpus"
		rss=$(echo "$m" | sed 's/.*maxrss=\([^ ]*\).*/\1/')
		rc=$(echo "$m" | sed 's/.*rc=\([^ ]*\).*/\1/')
	done
	LAST_WALL=$(median < "$WORK/walls")
	set -- $r0 $r1
	req=$(($3 - $1)) kib=$((($4 - $2) / 2))
	printf "  %-34s wall %7.2f s  cpu %7.2f s  rss %7d KiB  reads %8d of %6d KiB%s\n" \
	    "$label" "$LAST_WALL" "$(median < "$WORK/cpus")" "$rss" "$req" \
	    "$((kib / (req > 0 ? req : 1)))" "$( [ "$rc" = 0 ] || echo "  (exit $rc)")"
}

ratio() { # ratio NAME A B: "NAME a/b"
	awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { if (b > 0) printf "    ours/%s: %.2f\n", n, a / b }'
}

bench_image_set() { # name img
	name=$1 img=$2
	dev=$(losetup -f --show --direct-io=on "$img" 2>/dev/null || losetup -f --show "$img")
	echo "$dev" >> "$LOOPS_FILE"
	inodes=$(dumpe2fs -h "$dev" 2>/dev/null | awk -F: '/^Inode count/ { print $2 + 0 }')
	mb=$(( $(stat -c %s "$img") / 1048576 + 256 ))
	echo "== $name: $img ($(du -sh "$img" | cut -f1) used)"
	run "raw read (dd, O_DIRECT)" "$dev" : "dd if=$dev of=/dev/null bs=1M iflag=direct"
	dumps="0.4b47:$REF_DUMP"
	[ -z "$HAVE_NEW" ] || dumps="$dumps 0.4b56:$NEW_DUMP"
	for out in /dev/null file; do
		o=/dev/null sync_cmd=
		[ $out = /dev/null ] || o="$WORK/a.dump" sync_cmd=" && sync -f $WORK"
		run "dump ours -> $out" "$dev" "rm -f $WORK/a.dump" "$OUR_DUMP -0 -f $o $dev$sync_cmd"
		ours=$LAST_WALL
		for d in $dumps; do
			run "dump ${d%%:*} -> $out" "$dev" "rm -f $WORK/a.dump" "${d#*:} -0 -f $o $dev$sync_cmd"
			ratio "${d%%:*}" "$ours" "$LAST_WALL"
		done
	done
	mkdir -p "$WORK/src"
	mount -o ro "$dev" "$WORK/src"
	run "tar -c -> file" "$dev" "rm -f $WORK/a.tar" "tar -C $WORK/src -cf $WORK/a.tar . && sync -f $WORK"
	umount "$WORK/src"
	# Each upstream restore reads its own dump's archive; ours reads
	# the same one, and 0.4b47's archive for the tar -x ratio.
	restores="0.4b47:$REF_DUMP:$REF_RESTORE"
	[ -z "$HAVE_NEW" ] ||
	    restores="$restores 0.4b56:$NEW_DUMP:$NEW_RESTORE"
	fresh="bench_fresh_fs $WORK/target.img $WORK/mnt $mb $inodes"
	for r in $restores; do
		v=${r%%:*} rest=${r#*:}
		"${rest%%:*}" -0 -f "$WORK/$v.dump" "$dev" 2>/dev/null
		run "restore -r ours ($v archive)" "$dev" "$fresh" "cd $WORK/mnt && $OUR_RESTORE -r -f $WORK/$v.dump && sync -f ."
		ours_v=$LAST_WALL
		[ $v = 0.4b56 ] || ours=$ours_v
		run "restore -r $v" "$dev" "$fresh" "cd $WORK/mnt && ${rest#*:} -r -f $WORK/$v.dump && sync -f ."
		ratio $v "$ours_v" "$LAST_WALL"
	done
	run "tar -x" "$dev" "$fresh" "cd $WORK/mnt && tar -xf $WORK/a.tar && sync -f ."
	ratio "tar -x" "$ours" "$LAST_WALL"
	bench_fresh_fs_done
	rm -f "$WORK/target.img" "$WORK"/*.dump "$WORK/a.tar"
}

echo "machine: $(nproc) cpus, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(uname -r); load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
small_image "$CACHE/small-$NFILES.img"
tree_image "$CACHE/tree.img"
for set in "small-$NFILES" tree; do
	bench_image_set "$set" "$CACHE/$set.img"
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
