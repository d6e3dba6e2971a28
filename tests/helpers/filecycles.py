#!/usr/bin/env python3
"""filecycles.py OBJECT... - circles of source files that call each other.

Reads the symbol tables of the built objects with nm(1): file A calls
file B when A.o needs a function that B.o defines (shared variables are
not counted: reading a setting is no call).  Prints every group of two or more files that reach each other
through such uses, one per line, "circle: a.c b.c c.c", with one symbol
of each use inside the group below it.  Exit status 1 when there is a
circle, 0 when there is none.

Give the objects of one program at a time (e.g. dump/*.o): names are
matched across all the objects given.  A call through a function
pointer is no use: a lower layer that calls a hook registered by the
upper one makes no circle.
"""
import subprocess
import sys


def symbols(obj):
    """(defined, needed) global symbol names of one object."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            needed.add(name)
        elif kind == "T":
            defined.add(name)
    return defined, needed


def circles(edges):
    """Strongly connected groups of two or more nodes (Tarjan)."""
    index, low, stack, on, groups = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return groups


def main(objects):
    table = {o[:-2] + ".c": symbols(o) for o in objects}
    home = {}
    for src, (defined, _) in table.items():
        for name in defined:
            home.setdefault(name, src)
    edges = {}
    for src, (_, needed) in table.items():
        for name in sorted(needed):
            dst = home.get(name)
            if dst and dst != src:
                edges.setdefault(src, {}).setdefault(dst, name)
    groups = circles(edges)
    for group in groups:
        print("circle: " + " ".join(group))
        for a in group:
            for b, name in sorted(edges.get(a, {}).items()):
                if b in group:
                    print("    %s -> %s (%s)" % (a, b, name))
    return 1 if groups else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
