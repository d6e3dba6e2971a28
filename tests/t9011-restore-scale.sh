#!/bin/sh
test_description='restore does work linear in the archive

Step counts, not times: system calls are counted with strace.  Archives of
N and 2N nested directories (made with debugfs, one level at a time, and
dumped by our dump from the image file): restore -r and -x open each new
directory from its parent, so twice the depth costs twice the openat
calls, not four times; restore -C reports a missing subtree once; restore
-t lists every level.  A directory holding more hard links to one file than
the file system allows: the link limit is reported once, the further
links are skipped, and no link walks the path again.  restore -i extracts
a file with L and 2L names in at most 2.25 times the instructions
(callgrind), not 4 times.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

command -v strace >/dev/null 2>&1 && test_set_prereq STRACE
command -v debugfs >/dev/null 2>&1 && test_set_prereq DEBUGFS
# Instruction counts under callgrind (not for a sanitizer build).
command -v valgrind >/dev/null 2>&1 && test -x "$RESTORE" &&
	! grep -q __asan_init "$RESTORE" && test_set_prereq CALLGRIND
# The archive of 65,005 names is made by editing it with tapetool five
# times: seconds in a plain build, more than the script's time limit in
# a sanitizer build, where the two link-limit checks are left out.
test -x "$RESTORE" && ! grep -q __asan_init "$RESTORE" &&
	test_set_prereq UNINSTRUMENTED

N=300

# deep_archive LEVELS: deepLEVELS.dump, LEVELS directories "d" inside one
# another, a file "f" in every tenth.
deep_archive() {
	echo x >x.txt &&
	i=0 &&
	while test $i -lt "$1"
	do
		echo "mkdir d" && echo "cd d" &&
		if test $((i % 10)) = 0
		then
			echo "write x.txt f"
		fi
		i=$((i + 1))
	done >cmds &&
	mke2fs -q -F -t ext4 -b 1024 -N 4096 "deep$1.img" 16M &&
	debugfs -w -f cmds "deep$1.img" >/dev/null 2>debugfs.err &&
	"$DUMP" -0 -f "deep$1.dump" "deep$1.img" 2>dump.err
}

# LeakSanitizer cannot run under ptrace: a sanitizer build is traced
# without it.
traced() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -c -e trace=openat "$@"
}

# openat_count OUT ARGS...: run restore ARGS in a fresh ./tgt under
# strace, leave the number of openat calls in OUT.
openat_count() {
	out=$1 && shift &&
	rm -rf tgt && mkdir tgt &&
	(cd tgt && traced -o ../strace.out "$RESTORE" "$@" </dev/null) &&
	awk '$NF == "openat" { print $4 }' strace.out >"$out" &&
	test -s "$out"
}

# linear A B: count B (at 2N) is at most 2.25 times count A (at N), where
# work quadratic in the depth would give 4 times, and both are a small
# multiple of the depth.
linear() {
	a=$(cat "$1") b=$(cat "$2") &&
	echo "openat: $a at N=$N, $b at 2N" &&
	test "$b" -le $((2 * a + a / 4)) &&
	test "$b" -le $((10 * 2 * N))
}

test_expect_success OURDUMP,OURRESTORE,DEBUGFS 'setup: archives of N and 2N levels' '
	deep_archive $N &&
	deep_archive $((2 * N)) &&
	"$RESTORE" -t -f deep$((2 * N)).dump >list &&
	test "$(grep -c "/d$" list)" = $((2 * N))
'

test_expect_success OURRESTORE,DEBUGFS,STRACE 'restore -r: openat calls grow linearly with the depth' '
	openat_count r1 -r -f ../deep$N.dump &&
	openat_count r2 -r -f ../deep$((2 * N)).dump &&
	linear r1 r2 &&
	test -f "tgt/$(printf "d/%.0s" $(seq 1 $((2 * N - 9))))f"
'

test_expect_success OURRESTORE,DEBUGFS,STRACE 'restore -x: openat calls grow linearly with the depth' '
	openat_count x1 -x -f ../deep$N.dump &&
	openat_count x2 -x -f ../deep$((2 * N)).dump &&
	linear x1 x2
'

test_expect_success OURRESTORE,DEBUGFS 'restore -C: a missing subtree is reported once' '
	rm -rf cmp && mkdir cmp &&
	test_expect_code=0 &&
	"$RESTORE" -C -f deep$((2 * N)).dump -D cmp >c.out 2>c.err ||
	test_expect_code=$? &&
	cat c.err &&
	test $test_expect_code = 2 &&
	test "$(grep -c "unable to stat \./d" c.err)" = 1 &&
	grep "unable to stat \./d: No such file or directory" c.err
'

test_expect_success ORACLE,OURRESTORE,DEBUGFS 'restore -C: 0.4b47 reports the same first line' '
	rm -rf cmp && mkdir cmp &&
	{ "$ORACLE_RESTORE" -C -f deep$N.dump -D cmp >oc.out 2>oc.err; test $? = 2; } &&
	grep "unable to stat \./d: No such file or directory" oc.err
'

# A directory a/b/c/d/e holds f and 64999 more names of it (ext4's limit
# of 65000 links), and five files g0..g4 whose entries are then edited to
# name f too: five names more than the target file system allows (and
# the inodes of g0..g4, left without a name, are reported).
test_expect_success ROOT,LOOP,OURDUMP,PYTHON,TAPETOOL,UNINSTRUMENTED 'setup: a file with more names than ext4 allows' '
	mke2fs -q -F -t ext4 -b 4096 -N 1024 links.img 32M &&
	dev=$(image_attach links.img) &&
	mkdir src &&
	image_mount "$dev" src &&
	mkdir -p src/a/b/c/d/e &&
	echo data >src/a/b/c/d/e/f &&
	for i in 0 1 2 3 4; do echo $i >src/a/b/c/d/e/g$i || return 1; done &&
	"$PYTHON" -c "
import os, sys
d = sys.argv[1]
for i in range(64999):
    os.link(d + \"/f\", d + \"/l%05d\" % i)
" src/a/b/c/d/e &&
	f=$(stat -c %i src/a/b/c/d/e/f) &&
	image_umount src &&
	"$DUMP" -0 -f l0.dump "$dev" 2>dump.err &&
	for i in 0 1 2 3 4
	do
		"$TAPETOOL" entry l$i.dump l$((i + 1)).dump g$i d_ino "$f" ||
		return 1
	done &&
	mv l5.dump links.dump &&
	"$RESTORE" -t -f links.dump >links.list &&
	test "$(grep -c "^ *$f	" links.list)" = 65005
'

test_expect_success ROOT,LOOP,OURRESTORE,TAPETOOL,STRACE,UNINSTRUMENTED 'restore -r: the link limit is reported once, no link walks the path' '
	mke2fs -q -F -t ext4 -b 4096 -N 1024 target.img 32M &&
	tdev=$(image_attach target.img) &&
	mkdir tmnt &&
	image_mount "$tdev" tmnt &&
	mkdir tmnt/t &&
	{ (cd tmnt/t && traced -o ../../links.strace \
		"$RESTORE" -r -f ../../links.dump 2>../../links.err); test $? = 1; } &&
	cat links.err &&
	test "$(grep -c "Too many links" links.err)" = 1 &&
	test "$(grep -c "has no name reached from the root: not restored" links.err)" = 5 &&
	test "$(wc -l <links.err)" = 6 &&
	grep "cannot link to \./a/b/c/d/e/[^;]*; the further names of inode $f are not made: Too many links" links.err &&
	test "$(ls tmnt/t/a/b/c/d/e | wc -l)" = 65000 &&
	o=$(awk "\$NF == \"openat\" { print \$4 }" links.strace) &&
	echo "openat: $o" &&
	test "$o" -lt 1000
'

# links_archive L: linksL.dump, a file with L more names in the root
# (debugfs ln, the directory expanded as it fills).
links_archive() {
	echo x >x.txt &&
	echo "write x.txt f" >lcmds &&
	i=0 &&
	while test $i -lt "$1"
	do
		if test $((i % 40)) = 0
		then
			echo "expand /"
		fi
		echo "ln f l$i"
		i=$((i + 1))
	done >>lcmds &&
	mke2fs -q -F -t ext4 -O ^dir_index -b 1024 -N 256 "li$1.img" 8M &&
	debugfs -w -f lcmds "li$1.img" >/dev/null 2>debugfs.err &&
	"$DUMP" -0 -f "links$1.dump" "li$1.img" 2>dump.err
}

# insns OUT ARCHIVE: instructions of restore -i extracting everything.
insns() {
	rm -rf it && mkdir it &&
	(cd it && printf "add .\nextract\n1\nn\nquit\n" |
	 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$RESTORE" -i -f "../$2" 2>../callgrind.err >/dev/null) &&
	sed -n "s/^==[0-9]*== Collected : //p" callgrind.err >"$1" &&
	test -s "$1"
}

test_expect_success OURDUMP,OURRESTORE,DEBUGFS,CALLGRIND 'restore -i: extract is linear in the names of an inode' '
	links_archive 1000 &&
	links_archive 2000 &&
	insns i1 links1000.dump &&
	test "$(ls it | wc -l)" = 1002 &&
	insns i2 links2000.dump &&
	test "$(ls it | wc -l)" = 2002 &&
	a=$(cat i1) b=$(cat i2) &&
	echo "instructions: $a at 1000 names, $b at 2000" &&
	test "$b" -le $((2 * a + a / 4))
'

test_done
