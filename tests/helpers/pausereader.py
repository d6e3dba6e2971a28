#!/usr/bin/env python3
"""pausereader.py INO PAUSED GO OUT - read an uncompressed archive from
standard input into OUT; after the TS_INODE header of inode INO has
arrived (so dump has read that inode), create the file PAUSED and stop
reading until the file GO exists, then read the rest.  Lets a test
change a file at a known point of a dump: after dump read its inode and
before the dump can have finished with it."""
import os
import struct
import sys
import time

TP_BSIZE = 1024
TS_INODE = 2
NFS_MAGIC = 60012


def main():
    ino, paused, go, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    src = sys.stdin.buffer
    seen = False
    with open(out, "wb") as f:
        while True:
            block = src.read(TP_BSIZE)
            if not block:
                break
            f.write(block)
            if seen or len(block) < TP_BSIZE:
                continue
            ctype, = struct.unpack_from("<i", block, 0)
            inumber, magic = struct.unpack_from("<Ii", block, 0x14)
            if ctype == TS_INODE and inumber == ino and magic == NFS_MAGIC:
                seen = True
                open(paused, "w").close()
                while not os.path.exists(go):
                    time.sleep(0.05)
    return 0 if seen else 1


if __name__ == "__main__":
    sys.exit(main())
