#!/bin/sh
# media-bench.sh - compressed dumps, ours against dump 0.4b47 side by side
# in one run: -z6 and -j level 0 dumps of a compressible tree
# (about half random bytes, half text: words, log lines, numbers).
#
#  1. to a file: wall, cpu, output size, compression ratio (dump's
#     "Wrote ...kB uncompressed" over the file size);
#  2. compress only: to /dev/null, which gives C, the time the
#     compression alone takes;
#  3. to a slow device: through a pipe into bench/ratereader.c (built
#     here), which takes RATE bytes/s and no more.  RATE defaults to our
#     compressed output rate S/C, where C and the device time D = S/RATE
#     are equal: the hardest case, since only a dump that compresses
#     while the device writes gets near max(C, D) instead of C + D.
#     Each implementation meets the same device; its D is its own output
#     size over RATE.  Target: ours within 10% of max(C, D).
#
# dump 0.4b47 ignores the level (doc/format.md 11.3: -zN and -jN are always level 2),
# so its "-z6" is zlib level 2 while ours is level 6: smaller output for
# more cpu.  The -z2 row compares like with like; -j is level 2 on both.
#
# The tree comes in two layouts (LAYOUT):
#   mixed   random and text files of 1-4 MiB alternate in each directory,
#           so compression and output rates vary file by file, as on a
#           real disk: what the target is measured on;
#   phased  all the random bytes first (four large files), then all the
#           text: the device is the bottleneck for the first half and
#           the compression for the second, and only a buffer holding a
#           good part of the first half's output could overlap the two.
#
# Usage: sh bench/media-bench.sh [MB]   (default 200)
# Environment (besides lib.sh's RUNS, BENCH_WORK, BENCH_KEEP):
#   LAYOUT        mixed (default) or phased, see above
#   CODECS        dump options to compare (default "-z6 -z2 -j")
#   RATE          device rate in bytes/s instead of our S/C
#   RATE_FACTORS  device rates as multiples of RATE (default "1";
#                 e.g. "0.5 1 2" adds a device-bound and a cpu-bound row)
#   PIPE_SIZE     capacity of the pipe into the device (ratereader -p;
#                 default the kernel's 64 KiB)
. "$(dirname "$0")/lib.sh"
bench_need
MB=${1:-200}
CODECS=${CODECS:-"-z6 -z2 -j"}
PIPE_SIZE=${PIPE_SIZE:-}
RATE_FACTORS=${RATE_FACTORS:-1}
LAYOUT=${LAYOUT:-mixed}
case $LAYOUT in mixed|phased) ;; *) echo "LAYOUT must be mixed or phased" >&2; exit 2 ;; esac
RR=$WORK/ratereader
${CC:-cc} -O2 -o "$RR" "$BENCH_DIR/ratereader.c"

# media_tree DIR MB LAYOUT: half incompressible (files of random bytes),
# half text-like (files of words and log lines drawn from a fixed
# vocabulary; seeded, so every run builds the same text), laid out as
# LAYOUT says.  zlib -6 shrinks the text part to about a third.
media_tree() {
	python3 - "$1" "$2" "$3" <<'PY'
import os, random, sys
root, mb, layout = sys.argv[1], int(sys.argv[2]), sys.argv[3]
MiB = 1024 * 1024
rnd = random.Random(5)
half = mb * MiB // 2
urandom = open("/dev/urandom", "rb")
def write_random(path, n):
    with open(path, "wb") as f:
        while n:
            k = min(n, 4 * MiB)
            f.write(urandom.read(k))
            n -= k
# Words of common syllables, drawn with Zipf weights, as in prose.
syl = ["th", "e", "in", "an", "re", "on", "at", "en", "er", "es", "or",
       "te", "ti", "is", "it", "al", "ar", "st", "to", "nt", "ng", "se",
       "ha", "ou", "io", "le", "ve", "co", "me", "de", "hi", "ri", "ro",
       "ic", "ne", "ea", "ra", "ce", "li", "ch", "ll", "be", "ma", "si"]
vocab = ["".join(rnd.choices(syl, k=rnd.randint(1, 4))) for _ in range(8000)]
zipf = []
acc = 0.0
for k in range(len(vocab)):
    acc += 1.0 / (k + 1)
    zipf.append(acc)
def words(k):
    return " ".join(rnd.choices(vocab, cum_weights=zipf, k=k))
svc = ["sshd", "cron", "kernel", "nginx", "postfix", "dump", "systemd"]
def text_block(n):
    out, size, t = [], 0, 1795000000 + rnd.randint(0, 10**6)
    while size < n:
        if rnd.random() < 0.4:
            t += rnd.randint(0, 90)
            line = "2026-11-%02d %05d %s[%d]: %s %d\n" % (
                1 + t % 28, t % 86400, rnd.choice(svc), rnd.randint(100, 65000),
                words(rnd.randint(3, 12)),
                rnd.randint(0, 10**9))
        else:
            line = words(rnd.randint(4, 16)).capitalize() + ".\n"
        out.append(line)
        size += len(line)
    return "".join(out).encode()
def write_text(path, n):
    with open(path, "wb") as f:
        f.write(text_block(n))
if layout == "phased":
    os.makedirs(os.path.join(root, "random"))
    for i in range(4):
        write_random(os.path.join(root, "random", "r%d.bin" % i), half // 4)
    left, i = half, 0
    while left > 0:
        n = int(min(left, (8 if i < 4 else rnd.randint(1, 16) / 8) * MiB))
        sub = os.path.join(root, "text", "d%02d" % (i // 50))
        os.makedirs(sub, exist_ok=True)
        write_text(os.path.join(sub, "t%04d.txt" % i), n)
        left -= n
        i += 1
else:
    # one random file, then one text file, ...: 1-4 MiB each
    rleft, tleft, i = half, half, 0
    while rleft > 0 or tleft > 0:
        sub = os.path.join(root, "d%02d" % (i // 40))
        os.makedirs(sub, exist_ok=True)
        n = rnd.randint(4, 16) * MiB // 4
        if i % 2 == 0 and rleft > 0 or tleft <= 0:
            n = min(n, rleft)
            write_random(os.path.join(sub, "f%04d.bin" % i), n)
            rleft -= n
        else:
            n = min(n, tleft)
            write_text(os.path.join(sub, "f%04d.txt" % i), n)
            tleft -= n
        i += 1
PY
}

# wrote ERRFILE: "uncompressed-kB" from dump's closing line
# "Wrote NkB uncompressed, NkB compressed, R:1".
wrote() {
	sed -n 's/.*Wrote \([0-9]*\)kB uncompressed.*/\1/p' "$1" | tail -n 1
}

# devstat ERRFILE: "first-byte-s idle-s" from ratereader -v (last run).
devstat() {
	sed -n 's/^ratereader: .*first byte after \([0-9.]*\) s, idle \([0-9.]*\) s$/\1 \2/p' "$1" |
		tail -n 1 | grep . || echo "0 0"
}

# done_ok ERRFILE LABEL: warn if the last run's dump did not finish.
done_ok() {
	grep -q "DUMP IS DONE" "$1" || { echo "$2: dump did not finish:"; tail -n 3 "$1"; }
}

echo "building a ${MB} MB $LAYOUT tree (half random, half text) and image in $WORK ..."
media_tree "$WORK/tree" "$MB" "$LAYOUT"
DEV=$(bench_image "$WORK/fs.img" "$WORK/tree" $((MB + MB / 2 + 64)))
rm -rf "$WORK/tree"
OUT=$WORK/out.dump
echo "image: $DEV; $RUNS runs each, medians; ours vs dump 0.4b47; load: $(cut -d" " -f1-3 /proc/loadavg)"
echo "(\"file\" adds a sync -f after 0.4b47, which does not fsync; ours does;"
echo " 0.4b47 compresses at level 2 whatever the option says)"
: > "$WORK/table"

for z in $CODECS; do
	# 1. to a file; the size is taken inside the timed command, before
	# the next run removes the file.
	bench_pair "$z, file" "rm -f $OUT; sync" \
	    "$OUR_DUMP -0 $z -f $OUT $DEV && stat -c %s $OUT > $WORK/size.ours" \
	    "$REF_DUMP -0 $z -f $OUT $DEV && sync -f $OUT && stat -c %s $OUT > $WORK/size.ref"
	done_ok "$WORK/ours.err" "ours $z"; done_ok "$WORK/ref.err" "0.4b47 $z"
	fw_o=$ow fw_r=$rw fc_o=$oc fc_r=$rc
	s_o=$(cat "$WORK/size.ours") s_r=$(cat "$WORK/size.ref")
	u_o=$(wrote "$WORK/ours.err") u_r=$(wrote "$WORK/ref.err")

	# 2. compression alone.
	bench_pair "$z, /dev/null (C)" ":" \
	    "$OUR_DUMP -0 $z -f /dev/null $DEV" "$REF_DUMP -0 $z -f /dev/null $DEV"
	c_o=$ow c_r=$rw cc_o=$oc cc_r=$rc

	echo "$z file $fw_o $fw_r $fc_o $fc_r $s_o $s_r ${u_o:-0} ${u_r:-0}" >> "$WORK/table"

	# 3. a device as fast as our compression (times RATE_FACTORS).
	base=${RATE:-$(awk -v s="$s_o" -v c="$c_o" 'BEGIN { printf "%.0f", s / c }')}
	for f in $RATE_FACTORS; do
		r=$(awk -v b="$base" -v f="$f" 'BEGIN { printf "%.0f", b * f }')
		rl=$(awk -v r="$r" 'BEGIN { printf "%.1f MB/s", r / 1e6 }')
		bench_pair "$z, pipe to $rl device" ":" \
		    "$OUR_DUMP -0 $z -f - $DEV | $RR -v ${PIPE_SIZE:+-p $PIPE_SIZE} $r 2>$WORK/rr.ours" \
		    "$REF_DUMP -0 $z -f - $DEV | $RR -v ${PIPE_SIZE:+-p $PIPE_SIZE} $r 2>$WORK/rr.ref"
		done_ok "$WORK/ours.err" "ours $z device"; done_ok "$WORK/ref.err" "0.4b47 $z device"
		echo "$z dev $r $c_o $c_r $s_o $s_r $ow $rw $oc $rc $(devstat "$WORK/rr.ours") $(devstat "$WORK/rr.ref")" >> "$WORK/table"
	done
done

echo
echo "Compressed dump to a file (medians; ratio = uncompressed / output size):"
awk '$2 == "file" {
	printf "  %-4s  %-7s %8s %8s %9s %8s\n", "", "", "wall s", "cpu s", "output MB", "ratio"
	printf "  %-4s  %-7s %8.2f %8.2f %9.1f %7.2f:1\n", $1, "ours", $3, $5, $7 / 1e6, ($7 > 0 ? $9 * 1024 / $7 : 0)
	printf "  %-4s  %-7s %8.2f %8.2f %9.1f %7.2f:1\n", $1, "0.4b47", $4, $6, $8 / 1e6, ($8 > 0 ? $10 * 1024 / $8 : 0)
	printf "  %-4s  ours/0.4b47: wall %.2fx, cpu %.2fx, size %.3fx\n", $1, ($4 > 0 ? $3 / $4 : 0), ($6 > 0 ? $5 / $6 : 0), ($8 > 0 ? $7 / $8 : 0)
}' "$WORK/table"
echo
echo "Slow device: C = compress-only wall (to /dev/null), D = output size / device rate;"
echo "ideal = max(C, D) (compression overlaps the device), serial = C + D; target wall <= 1.10 x ideal;"
echo "1st = first byte at the device, idle = device waiting for data (both from the last run)"
printf "  %-4s %-7s %9s %7s %7s %7s %7s %7s %7s %6s %6s %9s\n" "" "" "rate MB/s" "C s" "D s" "ideal" "serial" "wall" "cpu" "1st" "idle" "wall/ideal"
awk '$2 == "dev" {
	r = $3
	for (k = 0; k < 2; k++) {
		c = k ? $5 : $4; s = k ? $7 : $6; w = k ? $9 : $8; u = k ? $11 : $10
		f = k ? $14 : $12; i = k ? $15 : $13
		d = s / r; m = (c > d ? c : d)
		q = (m > 0 ? w / m : 0)
		printf "  %-4s %-7s %9.1f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %6.2f %6.2f %8.2fx %s\n", $1, (k ? "0.4b47" : "ours"),
		    r / 1e6, c, d, m, c + d, w, u, f, i, q, (k ? "" : (q <= 1.10 ? "ok" : "MISSED"))
	}
}' "$WORK/table"
echo "load at the end: $(cut -d" " -f1-3 /proc/loadavg) (on a busy machine wall times carry the noise of the others)"
