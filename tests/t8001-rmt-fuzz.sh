#!/bin/sh
test_description='rmt server under random and hostile request streams

Two generators, each with a fixed seed (RMT_FUZZ_SEED overrides it) and a
bounded number of streams:
 - hostile streams (malformed numbers, absurd counts, overlong lines,
   unknown letters, raw random bytes) go to our rmt alone, under a memory
   limit and a timeout, as an unprivileged user when we are root: every
   run must end with a documented status (0 end of input, 2 bad W, 3 unknown
   letter), print nothing on stderr, and its output must be a sequence of
   well-formed replies ("A<n>\n", with n data bytes after R and S, or
   "E<errno>\n<text>\n");
 - well-formed streams (every request in the forms clients send) go to our
   rmt and to rmt-dump of 0.4b47: replies, status, debug log and the files
   left behind must be identical.'
. "$(dirname "$0")/lib.sh"

test -x "$ORACLE_RMT" && test_set_prereq RMTORACLE

FUZZ_SEED=${RMT_FUZZ_SEED:-8001}
FUZZ_STREAMS=300
# Address space for one rmt run, in KiB: the record cap (16 MiB) and the
# program, with room to spare, but far below what an unbounded buffer
# would need for the counts the generator sends.
FUZZ_VMEM=150000
# A sanitizer build reserves terabytes for its shadow memory: no limit then.
{ ldd "$RMT" 2>/dev/null | grep -q libasan || grep -q -a __asan_init "$RMT"; } 2>/dev/null &&
	FUZZ_VMEM=
FUZZ_TIMEOUT=20

cat >fuzz.py <<\EOF
import os, random, subprocess, sys

mode, rmt, seed, streams = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
oracle = sys.argv[5] if len(sys.argv) > 5 else None
rnd = random.Random(seed)
vmem, tmo = os.environ["FUZZ_VMEM"], int(os.environ["FUZZ_TIMEOUT"])
runas = os.environ.get("FUZZ_RUNAS", "")

def number():
    return rnd.choice(["0", "1", "-1", "5", "1024", "10", "11", "-5", "abc",
        "99999999999999999999", "  7", "7 ", "0x10", "+3", "", "9" * rnd.randint(1, 40),
        str(rnd.randint(-10**6, 10**6)), str(rnd.randint(0, 2**63 - 1))])

def hostile_request():
    c = rnd.choice("OOCLLWWRRIiSsVX\n?!")
    if c == "O":
        path = rnd.choice([b"f", b"new", b"", b"nonexist/x", b"dir", b"/dev/null",
            b"/dev/zero", b"x" * rnd.randint(60, 5000), b"f\0g"])
        flags = rnd.choice([b"0", b"1 O_WRONLY|O_CREAT", b"2 O_RDWR", b"junk", b"",
            b"1 O_WRONLY|O_CREAT|O_TRUNC", b"|" * rnd.randint(1, 9000), b"O_" * 50])
        return b"O" + path + b"\n" + flags + b"\n"
    if c in "LIi":
        return c.encode() + number().encode() + b"\n" + number().encode() + b"\n"
    if c == "W":
        n = rnd.choice([0, 1, 5, 100, 3000, -1, 70000, 2**40, 2**63 - 1])
        body = os.urandom(min(max(n, 0), 100000)) if rnd.random() < 0.8 else b""
        return b"W" + str(n).encode() + b"\n" + body
    if c == "R":
        return b"R" + number().encode() + b"\n"
    if c == "s":
        return b"s" + rnd.choice([b"T", b"B", b"x", b"\n", b""])
    if c in "CV":
        return c.encode() + rnd.choice([b"", b"x", b"y" * 5000]) + b"\n"
    if c == "?":
        return bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 60)))
    if c == "!":
        return b"V" * rnd.randint(1, 20000)
    return c.encode()

def wellformed(out):
    """Can out be cut into replies?  A reply "A<n>\\n" may carry n bytes."""
    seen, todo = set(), [0]
    while todo:
        i = todo.pop()
        if i == len(out):
            return True
        if i in seen or out[i:i + 1] not in (b"A", b"E"):
            continue
        seen.add(i)
        nl = out.find(b"\n", i)
        if nl < 0:
            continue
        num = out[i + 1:nl]
        if not num.lstrip(b"-").isdigit():
            continue
        if out[i:i + 1] == b"E":
            end = out.find(b"\n", nl + 1)
            if end > nl + 1 and 0 < int(num) < 4096:
                todo.append(end + 1)
            continue
        todo.append(nl + 1)
        if int(num) > 0:
            todo.append(nl + 1 + int(num))
    return False

def run(binary, req, cwd, log):
    cmd = "exec %s %s" % (binary, log)
    if vmem:
        cmd = "ulimit -v %s; %s" % (vmem, cmd)
    argv = ["sh", "-c", cmd]
    if runas:
        argv = runas.split() + argv
    return subprocess.run(argv, input=req, capture_output=True, cwd=cwd, timeout=tmo)

def fixture(d):
    os.makedirs(d + "/dir", exist_ok=True)
    with open(d + "/f", "wb") as f:
        f.write(b"0123456789abcdef" * 700)
    os.chmod(d, 0o777)

def hostile():
    fixture("box")
    bad = 0
    for n in range(streams):
        req = b"".join(hostile_request() for _ in range(rnd.randint(1, 12)))
        try:
            p = run(rmt, req, "box", "rmt.log")
        except subprocess.TimeoutExpired:
            print("stream %d: timed out" % n); bad += 1; continue
        if p.returncode not in (0, 2, 3) or p.stderr or not wellformed(p.stdout):
            bad += 1
            print("stream %d: status %d, stderr %r, replies %r" %
                  (n, p.returncode, p.stderr[:300], p.stdout[:300]))
            with open("failed.%d.req" % n, "wb") as f:
                f.write(req)
    print("%d hostile streams, %d bad" % (streams, bad))
    return bad == 0

def valid_request():
    c = rnd.choice("OOCLLWWRRIiSsV")
    if c == "O":
        return (b"O" + rnd.choice([b"f", b"new", b"nonexist/x", b"dir"]) + b"\n" +
            rnd.choice([b"0 O_RDONLY", b"1 O_WRONLY|O_CREAT|O_TRUNC", b"2 O_RDWR",
                        b"1 O_WRONLY|O_APPEND", b"0", b"2", b"66",
                        b"1 O_WRONLY|O_CREAT|O_EXCL"]) + b"\n")
    if c == "L":
        return (b"L" + str(rnd.randint(-3, 20000)).encode() + b"\n" +
                rnd.choice(b"0 1 2 3 10 11 -1 7".split()) + b"\n")
    if c in "Ii":
        return (c.encode() + str(rnd.randint(-2, 12)).encode() + b"\n" +
                str(rnd.randint(0, 3)).encode() + b"\n")
    if c == "W":
        n = rnd.choice([1, 5, 100, 1024, 3000, 10240, 65536])
        return b"W" + str(n).encode() + b"\n" + os.urandom(n)
    if c == "R":
        return b"R" + str(rnd.choice([0, 1, 16, 1024, 5000, 10240, 70000])).encode() + b"\n"
    if c == "s":
        return b"s" + rnd.choice([b"T", b"B", b"x", b"b"])
    if c == "S":
        return b"S"
    if c == "V":
        return b"V" + rnd.choice([b"", b"0", b"abc"]) + b"\n"
    return b"C\n"

def snapshot(d):
    return {f: open(os.path.join(d, f), "rb").read()
            for f in sorted(os.listdir(d)) if os.path.isfile(os.path.join(d, f))}

def differential():
    import shutil
    bad = 0
    for n in range(streams):
        req = b"".join(valid_request() for _ in range(rnd.randint(1, 15)))
        res = []
        for name, binary in (("ref", oracle), ("our", rmt)):
            shutil.rmtree(name, ignore_errors=True)
            fixture(name)
            p = run(binary, req, name, "../%s.log" % name)
            with open(name + ".log", "rb") as f:
                res.append((p.returncode, p.stdout, f.read(), snapshot(name)))
        if res[0] != res[1]:
            bad += 1
            print("stream %d differs: %r" % (n, req[:200]))
            with open("differs.%d.req" % n, "wb") as f:
                f.write(req)
    print("%d well-formed streams, %d differ" % (streams, bad))
    return bad == 0

sys.exit(0 if (hostile() if mode == "hostile" else differential()) else 1)
EOF

test_expect_success OURRMT,PYTHON 'hostile streams: documented exits, well-formed replies, bounded memory' '
	runas= &&
	if test_have_prereq UNPRIV
	then
		runas="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi &&
	FUZZ_VMEM=$FUZZ_VMEM FUZZ_TIMEOUT=$FUZZ_TIMEOUT FUZZ_RUNAS="$runas" \
	"$PYTHON" fuzz.py hostile "$RMT" "$FUZZ_SEED" "$FUZZ_STREAMS" >hostile.out &&
	cat hostile.out &&
	grep "^$FUZZ_STREAMS hostile streams, 0 bad$" hostile.out
'

test_expect_success OURRMT,RMTORACLE,PYTHON 'well-formed streams: same replies, log and files as 0.4b47' '
	FUZZ_VMEM=$FUZZ_VMEM FUZZ_TIMEOUT=$FUZZ_TIMEOUT \
	"$PYTHON" fuzz.py valid "$RMT" "$FUZZ_SEED" "$FUZZ_STREAMS" "$ORACLE_RMT" >valid.out &&
	cat valid.out &&
	grep "^$FUZZ_STREAMS well-formed streams, 0 differ$" valid.out
'

test_done
