#!/bin/sh
# remote-bench.sh - dump to a remote file through rmt over a link with
# latency: our dump (pipelined W requests with our rmt) against
# dump 0.4b47 run as rdump, both writing through our rmt, side by side at
# 0, 2 and 10 ms round trip.  The link is bench/delayline.c (built here):
# it relays both byte streams, holding every chunk half the round trip in
# each direction, and is started by an RSH stand-in that drops the host
# and "-l user" arguments.  0.4b47 waits for each reply, so at 10 ms it
# needs about 10 ms per 10 KiB record: use a small MB and RUNS=1 to keep
# the run short.  Then restore -r of that archive read back through the
# same link: ours (R requests kept in flight on a remote file) against
# restore 0.4b47 (one R32768 at a time).  Usage: sh bench/remote-bench.sh [MB]
. "$(dirname "$0")/lib.sh"
bench_need
MB=${1:-100}
OUR_RMT=${OUR_RMT:-$TOP/rmt/rmt}
[ -x "$OUR_RMT" ] || { echo "missing $OUR_RMT: build first (make)" >&2; exit 1; }
${CC:-cc} -O2 -pthread -o "$WORK/delayline" "$BENCH_DIR/delayline.c"
cat > "$WORK/rsh" <<EOS
#!/bin/sh
shift
if [ "\$1" = "-l" ]; then shift 2; fi
exec "$WORK/delayline" "\$DELAY_MS" "\$@"
EOS
chmod +x "$WORK/rsh"
echo "building a ${MB} MB tree and image in $WORK ..."
bench_tree "$WORK/tree" "$MB"
DEV=$(bench_image "$WORK/fs.img" "$WORK/tree" $((MB + MB / 2 + 64)))
rm -rf "$WORK/tree"
OUT=$WORK/out.dump
export RSH="$WORK/rsh" RMT="$OUR_RMT"
echo "image: $DEV; $RUNS runs each, medians; ours vs dump 0.4b47 (rdump), both to our rmt"
for rtt in 0 2 10; do
	DELAY_MS=$(awk -v r="$rtt" 'BEGIN { print r / 2 }')
	export DELAY_MS
	bench_pair "remote file, rtt ${rtt} ms" "rm -f $OUT; sync" \
	    "$OUR_DUMP -0 -f localhost:$OUT $DEV" "$REF_DUMP -0 -f localhost:$OUT $DEV"
done

# restore -r through the link: the archive as our dump wrote it (locally,
# so both restores read the same bytes), a fresh target each run.
ARCH=$WORK/arch.dump
$OUR_DUMP -0 -f "$ARCH" "$DEV" 2>/dev/null
mkdir -p "$WORK/tmp"
export TMPDIR="$WORK/tmp"
for rtt in 0 2 10; do
	DELAY_MS=$(awk -v r="$rtt" 'BEGIN { print r / 2 }')
	export DELAY_MS
	bench_pair "restore -r remote, rtt ${rtt} ms" \
	    "rm -rf $WORK/rr; mkdir $WORK/rr" \
	    "cd $WORK/rr && $OUR_RESTORE -r -f localhost:$ARCH" \
	    "cd $WORK/rr && $REF_RESTORE -r -f localhost:$ARCH"
done
