#!/usr/bin/env python3
"""tests/helpers/xvtree.py DIR [--change] - fill DIR (a mounted ext4 with
4 KiB blocks and inline_data) with what tells the block maps of dump
0.4b47 and 0.4b49+ apart: files whose sizes end on and around run and
header boundaries, sparse files whose holes cross them, runs longer than
the longest a header can hold, inline-data files and links of each size
class, attributes in the inode and in an EA block, hard links.
Contents are seeded: two calls make the same tree.  With --change: the
changes a level 1 then carries (new, grown, removed, renamed, chmod)."""
import os
import random
import sys

KIB = 1024
rng = random.Random(4049)


def data(n):
    return rng.getrandbits(8 * n).to_bytes(n, "little") if n else b""


def put(path, n):
    with open(path, "wb") as f:
        f.write(data(n))


def sparse(path, size, pieces):
    """pieces: (offset, length) of data; the rest is hole."""
    with open(path, "wb") as f:
        for off, n in pieces:
            f.seek(off)
            f.write(data(n))
        f.truncate(size)


def build(d):
    for name, n in (("f1", 1), ("f1k", KIB), ("f4097", 4097),
                    ("f511k", 511 * KIB), ("f512k", 512 * KIB),
                    ("f513k", 513 * KIB), ("f3m", 3000000)):
        put(os.path.join(d, name), n)
    # One data run longer than a header's longest (16 MiB + 4 KiB),
    # compressible so that -j stays quick.
    with open(os.path.join(d, "long"), "wb") as f:
        for i in range(4097):
            f.write((b"%08d" % i) * 512)
    s = os.path.join(d, "sparse")
    os.mkdir(s)
    sparse(os.path.join(s, "h512"), 525288, [(524288, 1000)])
    sparse(os.path.join(s, "edge"), 1048676, [(520192, 8192)])
    sparse(os.path.join(s, "hs"), 1056768, [(1048576, 8192)])
    sparse(os.path.join(s, "he"), 2097152, [(0, 4096)])
    sparse(os.path.join(s, "alt"), 2101248,
           [(i * 8192, 4096) for i in range(257)])
    sparse(os.path.join(s, "hm"), 2105344, [(0, 4096), (2101248, 4096)])
    sparse(os.path.join(s, "allhole"), 100 << 20, [])
    sparse(os.path.join(s, "g1"), 1 << 30,
           [(i * (64 << 20), 4096) for i in range(16)])
    sparse(os.path.join(s, "strad"), 200 * 135168,
           [(i * 135168, 4096) for i in range(200)])
    i = os.path.join(d, "inline")
    os.mkdir(i)
    for n in (0, 1, 59, 60, 61, 100, 130, 150, 200, 4000):
        put(os.path.join(i, "i%d" % n), n)
    os.mkdir(os.path.join(i, "d1"))
    for k in (1, 2, 3):
        put(os.path.join(i, "d1", "s%d" % k), k)
    os.symlink("t" * 100, os.path.join(i, "sl_100"))
    os.symlink("short", os.path.join(i, "sl_short"))
    os.setxattr(os.path.join(i, "i59"), "user.tag", b"inline")
    m = os.path.join(d, "misc")
    os.mkdir(m)
    put(os.path.join(m, "xa"), 5000)
    for k, v in (("user.a", b"1"), ("user.b", b"two"),
                 ("trusted.t", b"tt"), ("security.s", b"ss")):
        os.setxattr(os.path.join(m, "xa"), k, v)
    put(os.path.join(m, "xbig"), 100)
    os.setxattr(os.path.join(m, "xbig"), "user.big", b"v" * 3000)
    put(os.path.join(m, "hl1"), 7000)
    os.mkdir(os.path.join(m, "hd"))
    os.link(os.path.join(m, "hl1"), os.path.join(m, "hd", "hl2"))
    for p in sorted(os.listdir(d)):
        os.utime(os.path.join(d, p), (1700000000, 1700000000),
                 follow_symlinks=False)


def change(d):
    put(os.path.join(d, "new5k"), 5000)
    with open(os.path.join(d, "f4097"), "ab") as f:
        f.write(data(70000))
    os.unlink(os.path.join(d, "f1"))
    os.rename(os.path.join(d, "f3m"), os.path.join(d, "misc", "f3m.moved"))
    os.chmod(os.path.join(d, "f1k"), 0o600)
    os.mkdir(os.path.join(d, "newdir"))
    put(os.path.join(d, "newdir", "i70"), 70)


if __name__ == "__main__":
    (change if sys.argv[2:] == ["--change"] else build)(sys.argv[1])
