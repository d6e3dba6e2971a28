#!/bin/sh
test_description='restore of a tree 200,000 directories deep

An ext4 with 200,000 directories "d" one inside the other and a file
"f" in the deepest (debugfs, inline-data directories, so that the image
stays small) is dumped by our dump.  Its paths are some 400 KB long,
far beyond PATH_MAX, so restore must work relative to directory
descriptors.  restore -r, -x and -i must finish, with a small stack
and few descriptors (no recursion and no descriptor per level), and
bring back the whole tree: every level, its mode, and the file.  Each
restores into a fresh file system of its own (a loop-mounted image),
which is dropped with its image rather than removed name by name.
Whether the time is linear in the depth is measured, not tested here
(the commit that made it so gives the figures).'
. "$(dirname "$0")/lib.sh"

command -v debugfs >/dev/null 2>&1 && test_set_prereq DEBUGFS

N=200000
P=ROOT,LOOP,OURDUMP,OURRESTORE,DEBUGFS,PYTHON

test_expect_success $P "setup: an archive of $N nested directories" '
	echo deepest >x.txt &&
	awk -v n=$N "BEGIN {
		for (i = 0; i < n; i++) print \"mkdir d\\ncd d\"
		print \"write x.txt f\"
	}" >cmds &&
	mke2fs -q -F -t ext4 -O inline_data,^has_journal -b 1024 -I 256 \
		-N $((N + 2000)) deep.img 80M &&
	debugfs -w -f cmds deep.img >/dev/null 2>debugfs.err &&
	test "$(grep -v "^debugfs " debugfs.err)" = "" &&
	"$DUMP" -0 -z -f deep.dump deep.img 2>dump.err
'

# deep_restore NAME ARGS...: restore ARGS (reading ../deep.dump) in a
# fresh file system mounted on NAME, with a stack of 1 MiB and at most
# 64 descriptors; stdin is ../NAME.in when it exists.  What it says on
# stderr but the compressed-archive notice is left in NAME.msgs.
deep_restore() {
	name=$1 && shift &&
	mke2fs -q -F -t ext4 -O inline_data,^has_journal -b 1024 -I 256 \
		-N $((N + 2000)) "$name.img" 80M &&
	image_mount "$name.img" "$name" &&
	in=/dev/null &&
	if test -f "$name.in"; then in=$PWD/$name.in; fi &&
	(cd "$name" && ulimit -s 1024 && ulimit -n 64 &&
	 exec "$RESTORE" "$@" <"$in") >"$name.out" 2>"$name.err" || {
		cat "$name.err"
		return 1
	}
	grep -v -x "Dump tape is compressed." "$name.err" >"$name.msgs"
	return 0
}

# deep_check NAME: the tree below NAME is the one dumped: one directory
# "d" of mode 755 on each of N levels, and f, with its content, below the
# last.  Walked one directory descriptor at a time (find builds every
# path, which costs the depth squared).
deep_check() {
	"$PYTHON" -c '
import os, stat, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
n = int(sys.argv[2])
top = {"lost+found", "restoresymtable"}
for level in range(n + 1):
    names = sorted(x for x in os.listdir(fd) if level or x not in top)
    if names != (["d"] if level < n else ["f"]):
        sys.exit("level %d holds %s" % (level, names))
    if level == n:
        f = os.open("f", os.O_RDONLY | os.O_NOFOLLOW, dir_fd=fd)
        if os.read(f, 100) != b"deepest\n":
            sys.exit("f differs")
        break
    st = os.stat("d", dir_fd=fd, follow_symlinks=False)
    if not stat.S_ISDIR(st.st_mode) or stat.S_IMODE(st.st_mode) != 0o755:
        sys.exit("level %d: mode %o" % (level + 1, st.st_mode))
    sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW,
                  dir_fd=fd)
    os.close(fd)
    fd = sub
' "$1" $N
}

test_expect_success $P 'restore -r brings the whole tree back' '
	deep_restore r -r -f ../deep.dump &&
	test ! -s r.msgs &&
	deep_check r
'

test_expect_success $P 'restore -x brings the whole tree back' '
	deep_restore x -x -a -o -y -f ../deep.dump &&
	test ! -s x.msgs &&
	deep_check x
'

test_expect_success $P 'restore -i extracts the whole tree' '
	printf "add .\nextract\n1\ny\nquit\n" >i.in &&
	deep_restore i -i -f ../deep.dump &&
	deep_check i
'

test_done
