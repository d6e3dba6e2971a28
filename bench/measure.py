#!/usr/bin/env python3
"""measure.py - run one command and print its cost as one line:

    wall=<s> cpu=<user+sys s> maxrss=<KiB> rc=<status>

cpu and maxrss cover the command and every descendant it waited for
(getrusage of children), so dump's slaves and writer are counted; maxrss
is the largest single process.  Standard output of the command can be
sent to a file with -o (default: /dev/null); stderr is kept in -e.
"""
import argparse
import os
import resource
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", default="/dev/null", help="stdout of the command")
    ap.add_argument("-e", default="/dev/null", help="stderr of the command")
    ap.add_argument("-C", default=None, help="working directory")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(a.o, "wb") as out, open(a.e, "wb") as err:
        t0 = time.monotonic()
        rc = subprocess.call(a.cmd, stdout=out, stderr=err, cwd=a.C)
        wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print("wall=%.3f cpu=%.3f maxrss=%d rc=%d" % (wall, cpu, after.ru_maxrss, rc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
