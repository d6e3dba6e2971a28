#!/bin/sh
test_description='dump -0 of files and directories of a mounted file system

A subset dump (dump.8, DESCRIPTION) names files and
directories of one mounted ext2/3/4 file system.  The archive holds them
(directories recursively) plus the directories on the way from the root.
Its header reads "<mount point> (dir <path>)"; the inode maps, the
estimate, the records and the listing equal those of dump 0.4b47 for
the same operands; restoring it, with our restore and with 0.4b47s,
gives exactly the named subset.  Refusals (files of another file system,
missing files, extra operands after a whole file system) print the
0.4b47 messages and exit 1 before any output; so do a level above 0 and
-u with --use-blockdev-for-dumpdates, in 0.4b56s words (levels above 0
and -u without it: t4210).'
. "$(dirname "$0")/lib.sh"

CMPDUMP="$PYTHON $HELPERS/cmpdump.py"

# mask: dates in messages and listings, the name of the program, and the
# line 0.4b47 does not print (no_flush_line).
mask() {
	no_flush_line | sed -e 's/[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9][0-9][0-9][0-9]/DATE/g' \
	    -e "s|^$DUMP:|dump:|" -e "s|^$ORACLE_DUMP:|dump:|" \
	    -e "s/\.ours\$/.OUT/" -e "s/\.ref\$/.OUT/" \
	    -e "s/\.ours)\$/.OUT)/" -e "s/\.ref)\$/.OUT)/" \
	    -e "s/^  DUMP: finished in .*/  DUMP: finished in TIME/" \
	    -e "s/^  DUMP: Average transfer rate: .*/  DUMP: Average transfer rate: RATE/" |
	grep -v -e "^  DUMP: Volume [0-9]* took " -e "^  DUMP: Volume [0-9]* transfer rate: "
}

# subset_manifest MNT REL...: the manifest restoring the subset REL... of
# MNT must give: the named paths, everything below the named
# directories, the directories on the way, nothing else.
subset_manifest() {
	"$PYTHON" - "$HELPERS/manifest.py" "$@" <<-\EOF
	import os, subprocess, sys
	tool, top = sys.argv[1], os.fsencode(sys.argv[2])
	named = {os.fsencode(p).strip(b"/") for p in sys.argv[3:]}
	ups = {b"."}
	for p in named:
	    while b"/" in p:
	        p = p.rsplit(b"/", 1)[0]
	        ups.add(p)
	excl = []
	for d in sorted(ups):
	    for n in os.listdir(os.path.join(top, d)):
	        rel = n if d == b"." else d + b"/" + n
	        if rel not in named and rel not in ups:
	            excl.append(b"--exclude=" + rel)
	sys.stdout.flush()
	sys.exit(subprocess.call([sys.executable, tool, top, b"--no-root"] + excl))
	EOF
}

# both_dumps NAME ARGS...: the same subset dump by ours and by 0.4b47.
both_dumps() {
	name=$1 && shift &&
	"$DUMP" -0 -D dd -f $name.ours "$@" 2>$name.ours.err &&
	"$ORACLE_DUMP" -0 -D dd -f $name.ref "$@" 2>$name.ref.err
}

# restored_manifest RESTORE ARCHIVE DIR [NAME...]: restore -r ARCHIVE
# (or -x -o of the NAMEs) into DIR, print its manifest.
restored_manifest() {
	rst=$1 arch=$2 dir=$3 && shift 3 &&
	rm -rf "$dir" && mkdir "$dir" &&
	if test $# = 0
	then
		(cd "$dir" && "$rst" -r -f "../$arch" </dev/null \
			>../$dir.out 2>../$dir.err)
	else
		(cd "$dir" && "$rst" -x -o -f "../$arch" "$@" </dev/null \
			>../$dir.out 2>../$dir.err)
	fi &&
	manifest "$dir" --no-root --exclude=restoresymtable
}

# Restore 0.4b47 mangles the 255-byte name (its name buffer is too
# short), so its checks leave out the line of that file, found by its
# content hash in the expected manifest (file $1) under whatever name.
drop_longname() {
	sum=$(sed -n "s/^names\/LLLLLLLLLL[^	]*	.* sha256=\([0-9a-f]*\).*/\1/p" "$1") &&
	test -n "$sum" && grep -v "sha256=$sum" "$2"
}

# The file system is mounted at a short path of its own (short_dir): the
# header's file-system field holds 63 characters of "<mnt> (dir <path>)",
# and a mount point below TMPDIR or the trash directory, both as long as
# the user or the checkout makes them, would cut the names the checks
# look for.  DEV is its loop device.
test_expect_success ROOT,LOOP,PYTHON 'setup: a populated ext4 file system, mounted' '
	make_image ext4 fs.img small &&
	M=$(short_dir)/m && T=$PWD &&
	DEV=$(image_attach fs.img) && image_mount "$DEV" "$M" && ln -s "$M" mnt &&
	(cd mnt && mkdir -p nd/deep && echo q >nd/q && echo z >nd/deep/z &&
	 chattr +d nd nd/q && ln -s ../dir nd/up) &&
	sync && : >dd
'

test_expect_success ROOT,LOOP,OURDUMP 'refused with --use-blockdev-for-dumpdates: a level above 0, before reading dumpdates' '
	test_must_fail "$DUMP" -1 -u --use-blockdev-for-dumpdates -D nodd \
		-f x.dump "$M/dir" 2>err &&
	mask <err >actual &&
	cat >expect <<-\EOF &&
	  DUMP: Only level 0 dumps are allowed on a subdirectory when writing the blockdev to dumpdates
	  DUMP: The ENTIRE dump is aborted.
	EOF
	test_cmp expect actual &&
	! test -e x.dump && ! test -e nodd
'

test_expect_success ROOT,LOOP,OURDUMP 'refused with --use-blockdev-for-dumpdates: -u at level 0' '
	test_must_fail "$DUMP" -0 -u --use-blockdev-for-dumpdates -D nodd \
		-f x.dump "$M/dir" "$M/small.txt" 2>err &&
	cat >expect <<-\EOF &&
	  DUMP: You can'"'"'t update the dumpdates file when writing the blockdev to dumpdates and dumping a subdirectory
	  DUMP: The ENTIRE dump is aborted.
	EOF
	test_cmp expect err &&
	! test -e x.dump && ! test -e nodd
'

test_expect_success ROOT,LOOP,OURDUMP 'refused: more operands after a whole file system' '
	test_must_fail "$DUMP" -0 -D dd -f x.dump "$M" "$M/dir" "$M/other" 2>err &&
	cat >expect <<-EOF &&
	Unknown arguments to dump: $M/dir $M/other
	  DUMP: The ENTIRE dump is aborted.
	EOF
	test_cmp expect err &&
	! test -e x.dump
'

# "elsewhere" is a file system of the test's own too: what the trash
# directory is on (ext4, tmpfs, another) is not for the test to know,
# and dump 0.4b47 takes a file on any but ext2/3/4 for one of "/".
test_expect_success ROOT,LOOP,OURDUMP 'refused in pass I: a file of another file system, a missing file' '
	truncate -s 4M else.img && mkfs.ext4 -q -F else.img &&
	image_mount else.img elsewhere && echo x >elsewhere/x &&
	test_must_fail "$DUMP" -0 -D dd -f x.dump "$M/dir" "$PWD/elsewhere/x" 2>err1 &&
	test_must_fail "$DUMP" -0 -D dd -f x.dump "$M/dir" "$M/no/such" 2>err2 &&
	test_must_fail "$DUMP" -0 -D dd -f x.dump "$M/nothere" 2>err3 &&
	tail -n 3 err1 >actual1 && tail -n 3 err2 >actual2 && tail -n 3 err3 >actual3 &&
	printf "%s\n" "  DUMP: mapping (Pass I) [regular files]" \
		"  DUMP: Files are not on same file system ($PWD/elsewhere/x)." \
		"  DUMP: The ENTIRE dump is aborted." >expect1 &&
	printf "%s\n" "  DUMP: mapping (Pass I) [regular files]" \
		"  DUMP: File cannot be accessed ($M/no/such)." \
		"  DUMP: The ENTIRE dump is aborted." >expect2 &&
	printf "%s\n" "  DUMP: mapping (Pass I) [regular files]" \
		"  DUMP: File cannot be accessed ($M/nothere)." \
		"  DUMP: The ENTIRE dump is aborted." >expect3 &&
	test_cmp expect1 actual1 && test_cmp expect2 actual2 &&
	test_cmp expect3 actual3 &&
	grep "^  DUMP: Dumping $DEV ($M (dir /nothere)) to x.dump$" err3 &&
	! test -e x.dump
'

test_expect_success ROOT,LOOP,ORACLE,OURDUMP 'refusals: the same messages and status as dump 0.4b47' '
	for args in "-0 $M $M/dir" \
		"-0 $M/dir $PWD/elsewhere/x" "-0 $M/dir $M/no/such" \
		"-0 $M/nothere"
	do
		rc=0 && "$DUMP" $args -D dd -f x.dump 2>e.ours || rc=$? &&
		orc=0 && "$ORACLE_DUMP" $args -D dd -f x.dump 2>e.ref || orc=$? &&
		echo "$args: $rc" >>st.ours && echo "$args: $orc" >>st.ref &&
		mask <e.ours >>m.ours && mask <e.ref >>m.ref || return 1
	done &&
	test_cmp st.ref st.ours &&
	test_cmp m.ref m.ours &&
	! test -e x.dump
'

test_expect_success ROOT,LOOP,OURDUMP 'the header names mount point, path and device' '
	"$DUMP" -0 -D dd -f h.dump "$M/dir/sub" "$M/small.txt" 2>h.err &&
	grep "^  DUMP: Dumping $DEV ($M (dir /dir/sub)) to h.dump$" h.err &&
	"$RESTORE" -t -f h.dump >h.list &&
	grep "^Level 0 dump of $M (dir /dir/sub) on .*:$DEV$" h.list
'

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'directories and files: the named subset comes back (restore -x of the names)' '
	"$DUMP" -0 -D dd -f s1.dump "$M/links" "$M/other" "$M/dir" "$M/small.txt" \
		"$M/fifo" "$M/sparse-middle" "$M/names/" 2>s1.err &&
	subset_manifest "$M" links other dir small.txt fifo sparse-middle names >expect1 &&
	cut -f1 expect1 >paths &&
	grep -x other/two paths && grep -x dir/sub/deeper/c.txt paths &&
	! grep -x fivek.bin paths &&
	restored_manifest "$RESTORE" s1.dump x1 ./links ./other ./dir ./small.txt \
		./fifo ./sparse-middle ./names >actual &&
	test_cmp expect1 actual
'

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'a deep directory and a file in another one: the way up is there, nothing beside it' '
	"$DUMP" -0 -D dd -f s2.dump "$M/dir/sub/deeper" "$M/dir/a.txt" 2>s2.err &&
	subset_manifest "$M" dir/sub/deeper dir/a.txt >expect2 &&
	restored_manifest "$RESTORE" s2.dump x2 ./dir/sub/deeper ./dir/a.txt >actual &&
	test_cmp expect2 actual &&
	cut -f1 actual >paths &&
	grep -x dir/sub paths && ! grep -x dir/sub/b.txt paths &&
	"$RESTORE" -t -f s2.dump >s2.list &&
	test $(grep -c "	\./" s2.list) = 5 &&
	grep "	\.$" s2.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE,PYTHON 'restore 0.4b47 -r rebuilds exactly the subset from our archives' '
	restored_manifest "$ORACLE_RESTORE" s1.dump o1 >actual1 &&
	drop_longname expect1 expect1 >expect1.short &&
	drop_longname expect1 actual1 >actual1.short &&
	test $(wc -l <expect1.short) = $(($(wc -l <expect1) - 1)) &&
	test_cmp expect1.short actual1.short &&
	restored_manifest "$ORACLE_RESTORE" s2.dump o2 >actual2 &&
	test_cmp expect2 actual2 &&
	grep "^\./lost+found: (inode 11) not found on tape$" o2.err
'

# restore -r makes an empty 0700 directory for every directory entry
# of the archive whose inode is not on it (the root of a subset dump
# lists all its entries) and exits 1 over the "not found on tape" names;
# restore 0.4b47 makes none of them and exits 0.
test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON 'our restore -r rebuilds exactly the subset' '
	restored_manifest "$RESTORE" s1.dump r1 >actual1 &&
	test_cmp expect1 actual1 &&
	restored_manifest "$RESTORE" s2.dump r2 >actual2 &&
	test_cmp expect2 actual2
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE,PYTHON 'the archives equal those of dump 0.4b47, record by record' '
	both_dumps c1 "$M/links" "$M/other" "$M/dir" "$M/small.txt" "$M/fifo" &&
	$CMPDUMP cmp c1.ref c1.ours &&
	both_dumps c2 "$M/dir/sub/deeper" "$M/dir/a.txt" "$M/dirlink" &&
	$CMPDUMP cmp c2.ref c2.ours &&
	both_dumps c3 "$M/sparse-start" &&
	$CMPDUMP cmp c3.ref c3.ours
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'listings and messages equal those of dump 0.4b47' '
	for n in c1 c2 c3
	do
		"$RESTORE" -t -f $n.ours 2>/dev/null | mask >$n.ours.list &&
		"$RESTORE" -t -f $n.ref 2>/dev/null | mask >$n.ref.list &&
		test_cmp $n.ref.list $n.ours.list &&
		mask <$n.ours.err >$n.ours.m && mask <$n.ref.err >$n.ref.m &&
		test_cmp $n.ref.m $n.ours.m || return 1
	done &&
	grep "^[ 0-9]*	\./dirlink$" c2.ours.list &&
	! grep "/fivek.bin$" c1.ours.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'nodump (-h 0) and -e inside the subset: -v lines in 0.4b47 order, same archive' '
	ino=$(stat -c %i "$M/dir/sub") &&
	both_dumps v1 -v -h 0 -e "$ino" "$M/nd" "$M/dir" &&
	mask <v1.ours.err >v1.ours.m && mask <v1.ref.err >v1.ref.m &&
	test_cmp v1.ref.m v1.ours.m &&
	grep "Excluding inode $(stat -c %i "$M/nd") (nodump attribute)" v1.ours.m &&
	"$RESTORE" -t -f v1.ours >v1.list &&
	! grep "	\./nd" v1.list && ! grep "	\./dir/sub" v1.list &&
	grep "	\./dir/a.txt$" v1.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'the size estimate (-S) equals 0.4b47s' '
	for args in "$M/dir" "$M/links $M/other $M/small.txt" "$M/nd/q $M/sparse-end"
	do
		"$DUMP" -0 -S -D dd $args >>S.ours 2>/dev/null &&
		"$ORACLE_DUMP" -0 -S -D dd $args >>S.ref 2>/dev/null || return 1
	done &&
	test_cmp S.ref S.ours
'

test_expect_success ROOT,LOOP,OURDUMP 'a symlink as first operand is followed, as a later one it is dumped itself' '
	"$DUMP" -0 -D dd -f l1.dump "$M/dirlink" 2>l1.err &&
	grep "($M (dir /dir/sub))" l1.err &&
	"$RESTORE" -t -f l1.dump >l1.list &&
	grep "	\./dir/sub/b.txt$" l1.list && ! grep "dirlink" l1.list &&
	"$DUMP" -0 -D dd -f l2.dump "$M/small.txt" "$M/dirlink" 2>l2.err &&
	"$RESTORE" -t -f l2.dump >l2.list &&
	grep "	\./dirlink$" l2.list && ! grep "b.txt" l2.list
'

test_expect_success ROOT,LOOP,OURDUMP 'relative names are taken from the current directory' '
	(cd "$M" && "$DUMP" -0 -D "$T/dd" -f "$T/rel.dump" dir/sub ./small.txt) 2>rel.err &&
	"$RESTORE" -t -f rel.dump >rel.list &&
	grep "	\./dir/sub/b.txt$" rel.list && grep "	\./small.txt$" rel.list &&
	! grep "a.txt" rel.list
'

# libext2fs makes up the ".." entry of an inline-data directory without
# flagging it: taken for an entry it pulled the parent into a subset,
# and below an excluded directory it excluded the root itself.
test_expect_success ROOT,LOOP,OURDUMP 'inline-data directories: ".." is no entry (subset walk, nodump)' '
	truncate -s 16M in.img && mkfs.ext4 -q -F -O inline_data,^metadata_csum in.img &&
	idev=$(image_attach in.img) && image_mount "$idev" imnt &&
	mkdir -p imnt/d/e imnt/other imnt/nd && echo f >imnt/d/e/f && echo z >imnt/nd/z &&
	chattr +d imnt/nd && sync &&
	"$DUMP" -0 -D dd -f in1.dump "$PWD/imnt/d" 2>in1.err &&
	"$RESTORE" -t -f in1.dump >in1.list &&
	grep "	\./d/e/f$" in1.list && ! grep -e "other" -e "lost+found" in1.list &&
	"$DUMP" -0 -h 0 -D dd -f in2.dump "$idev" 2>in2.err &&
	"$RESTORE" -t -f in2.dump >in2.list &&
	grep "	\.$" in2.list && grep "	\./d/e/f$" in2.list && ! grep "	\./nd" in2.list
'

test_known_upstream_defect ROOT,LOOP,ORACLE 'dump 0.4b47 looks up garbage for a relative second operand' '
	(cd "$M" && "$ORACLE_DUMP" -0 -D "$T/dd" -f "$T/relref.dump" dir/sub ./small.txt) \
		2>relref.err
	grep "while translating" relref.err && ! grep "DUMP IS DONE" relref.err
'

test_done
