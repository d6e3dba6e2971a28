#!/bin/sh
test_description='incremental dumps of a subdirectory, recorded with -u

As in dump 0.4b53 and later (0.4b56 is the oracle): -u on a subdirectory
records "<operand> <level> <date>" (the operand as typed, one trailing
slash cut; the first one when several are given), and a level above 0
finds that line and dumps what changed below the subdirectory plus the
directories on the way to it: the same inodes and maps as 0.4b56 from
the same base date.  The level 1 restores on top of the level 0 (restore
-r, ours and 0.4b56s) to the subdirectory as it is now.  A subdirectory
line is never the base of the whole file system, nor the reverse.
0.4b47 refused all of this (t4200 keeps its other refusals).'
. "$(dirname "$0")/lib.sh"

DATE_RE='[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9][0-9][0-9][0-9]'

# lines ERR: the lines of a run's messages that say what it dumps and
# from which base, dates and the names of output and dumpdates masked.
lines() {
	grep -e "Date of" -e "^  DUMP: Dumping" -e WARNING "$1" |
		sed -e "s/$DATE_RE/DATE/g" -e "s/ to [^ ]*\$/ to OUT/" \
		    -e "s/\`[^']*'/\`DD'/"
}

# inodes ARCHIVE: the inode numbers of its TS_INODE records, one a line.
inodes() {
	"$TOP/tests/helpers/tapetool" list "$1" | awk '$2 == "TS_INODE" { print $3 }'
}

# chain RESTORE L0 L1 DIR: restore -r of L0, then of L1, into a new DIR;
# prints the manifest of the subdirectory restored.
chain() {
	rm -rf "$4" && mkdir "$4" &&
	(cd "$4" && "$1" -r -f "../$2" </dev/null >../$4.0.out 2>../$4.0.err;
	 "$1" -r -f "../$3" </dev/null >../$4.1.out 2>../$4.1.err; :) &&
	manifest "$4/p/q/sub" --no-root
}

# The mount point is short (short_dir): c_filesys holds 63 characters
# of "<mnt> (dir /p/q/sub)".  The tree is older than the level 0 by at
# least a second (dates in dumpdates and ctimes count in seconds), and
# the changes newer by as much.
test_expect_success ROOT,LOOP 'setup: a file system with a subdirectory three levels down' '
	truncate -s 16M fs.img && mkfs.ext4 -q -F fs.img &&
	M=$(short_dir)/m && T=$PWD &&
	DEV=$(image_attach fs.img) && image_mount "$DEV" "$M" &&
	S=$M/p/q/sub &&
	mkdir -p "$S/quiet/inner" "$S/deep/d2" "$S/gone" "$M/p/q/side" &&
	echo a >"$S/quiet/qf" && echo b >"$S/quiet/inner/if" &&
	echo c >"$S/deep/d2/cf" && echo d >"$S/gone/x" && echo e >"$S/top" &&
	echo s >"$M/p/q/side/s" && echo r >"$M/rootfile" &&
	sync && sleep 1
'

test_expect_success ROOT,LOOP,OURDUMP 'level 0 -u of a subdirectory: recorded under its name' '
	"$DUMP" -0 -u -D "$T/dd.ours" -f l0.ours "$S/" 2>l0.ours.err &&
	grep "^  DUMP: DUMP IS DONE$" l0.ours.err &&
	grep "^  DUMP: Dumping $DEV ($M (dir /p/q/sub)) to l0.ours$" l0.ours.err &&
	grep -x "$S 0 $DATE_RE +0000" dd.ours && test $(wc -l <dd.ours) = 1 &&
	"$RESTORE" -t -f l0.ours >l0.list &&
	grep "^Level 0 dump of $M (dir /p/q/sub) on .*:$DEV\$" l0.list &&
	grep "	\./p/q/sub/quiet/qf\$" l0.list && ! grep side l0.list
'

test_expect_success ROOT,LOOP,UPSTREAM56 'level 0 -u of a subdirectory by 0.4b56: the same line and messages' '
	"$UPSTREAM56/dump" -0 -u -D "$T/dd.56" -f l0.56 "$S/" 2>l0.56.err &&
	grep -x "$S 0 $DATE_RE +0000" dd.56 && test $(wc -l <dd.56) = 1 &&
	lines l0.ours.err >m.ours && lines l0.56.err >m.56 &&
	test_cmp m.56 m.ours
'

test_expect_success ROOT,LOOP,OURDUMP 'level 1 -u: based on the level 0 line, adds its own' '
	: changes a second after the level 0, below sub, beside it, above it &&
	sleep 1 &&
	echo more >>"$S/deep/d2/cf" && rm -r "$S/gone" && echo n >"$S/new" &&
	mv "$S/top" "$S/deep/top2" && echo t >"$M/p/q/side/t" &&
	echo r2 >>"$M/rootfile" && sync &&
	{ test ! -e dd.56 || cp dd.56 dd.x; } &&
	"$DUMP" -1 -u -D "$T/dd.ours" -f l1.ours "$S" 2>l1.ours.err &&
	d0=$(sed -n "s|^$S 0 \\($DATE_RE\\) +0000\$|\\1|p" dd.ours) &&
	grep "^  DUMP: Date of last level 0 dump: $d0\$" l1.ours.err &&
	! grep WARNING l1.ours.err &&
	grep -x "$S 1 $DATE_RE +0000" dd.ours && test $(wc -l <dd.ours) = 2 &&
	"$RESTORE" -t -f l1.ours >l1.list &&
	grep "^Level 1 dump of $M (dir /p/q/sub) on .*:$DEV\$" l1.list
'

test_expect_success ROOT,LOOP,OURDUMP 'level 1: what changed below the subdirectory and the directories to it' '
	ino() { stat -c %i "$@"; } &&
	{ echo 2 && ino "$M/p" "$M/p/q" "$S" "$S/deep" "$S/deep/d2" \
		"$S/deep/d2/cf" "$S/deep/top2" "$S/new"; } | sort -n >expect &&
	inodes l1.ours | sort -n >actual &&
	test_cmp expect actual
'

test_expect_success ROOT,LOOP,OURDUMP,UPSTREAM56 'level 1 from the same base: the same inodes and maps as 0.4b56' '
	"$UPSTREAM56/dump" -1 -u -D "$T/dd.56" -f l1.56 "$S" 2>l1.56.err &&
	"$DUMP" -1 -u -D "$T/dd.x" -f l1.x "$S" 2>l1.x.err &&
	lines l1.56.err >m.56 && lines l1.x.err >m.ours &&
	test_cmp m.56 m.ours &&
	sed "s/$DATE_RE/DATE/" dd.56 >expect && sed "s/$DATE_RE/DATE/" dd.x >actual &&
	test_cmp expect actual &&
	inodes l1.56 >expect && inodes l1.x >actual && test_cmp expect actual &&
	"$PYTHON" - l1.56 l1.x <<-\EOF
	import struct, sys
	def maps(path):
	    b = open(path, "rb").read()
	    out, blk = [], 1
	    while True:
	        typ, cnt = struct.unpack_from("<i", b, blk * 1024)[0], \
	            struct.unpack_from("<i", b, blk * 1024 + 160)[0]
	        if typ not in (3, 6):
	            return out
	        out.append((typ, b[(blk + 1) * 1024:(blk + 1 + cnt) * 1024]))
	        blk += 1 + cnt
	a, b = maps(sys.argv[1]), maps(sys.argv[2])
	sys.exit(0 if len(a) == 2 and a == b else 1)
	EOF
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,PYTHON 'our restore -r of level 0 then 1 gives the subdirectory as it is now' '
	manifest "$S" --no-root >expect &&
	chain "$RESTORE" l0.ours l1.ours r.ours >actual &&
	test_cmp expect actual &&
	! test -e r.ours/p/q/side/s && ! test -e r.ours/rootfile
'

test_expect_success ROOT,LOOP,OURDUMP,UPSTREAM56,PYTHON 'restore 0.4b56 -r of our level 0 then 1: the same' '
	manifest "$S" --no-root >expect &&
	chain "$UPSTREAM56/restore" l0.ours l1.ours r.56 >actual &&
	test_cmp expect actual
'

test_expect_success ROOT,LOOP,OURRESTORE,UPSTREAM56,PYTHON 'our restore -r of 0.4b56s level 0 then 1: the same' '
	manifest "$S" --no-root --mtime=s >expect &&
	chain "$RESTORE" l0.56 l1.56 r.x >/dev/null &&
	manifest "r.x/p/q/sub" --no-root --mtime=s >actual &&
	test_cmp expect actual
'

test_expect_success ROOT,LOOP,OURDUMP 'a subdirectory line is no base for the file system, nor the reverse' '
	"$DUMP" -1 -D "$T/dd.ours" -f w.ours "$M" 2>w.err &&
	grep "^  DUMP: WARNING: There is no inferior level dump on this filesystem\$" w.err &&
	grep "^  DUMP: Date of this level 0 dump: " w.err &&
	"$DUMP" -0 -u -D "$T/dd.fs" -f w0.ours "$M" 2>w0.err &&
	"$DUMP" -1 -D "$T/dd.fs" -f s1.ours "$S" 2>s1.err &&
	grep "^  DUMP: WARNING: Assuming a level 0 dump by default\$" s1.err &&
	"$DUMP" -1 -D "$T/dd.fs" -f s2.ours "$M/p" 2>s2.err &&
	grep "^  DUMP: WARNING: Assuming a level 0 dump by default\$" s2.err
'

test_expect_success ROOT,LOOP,OURDUMP,UPSTREAM56 'several operands: keyed by the first, as by 0.4b56' '
	"$DUMP" -0 -u -D "$T/dd2.ours" -f /dev/null "$S" "$M/rootfile" 2>/dev/null &&
	"$DUMP" -1 -u -D "$T/dd2.ours" -f /dev/null "$S" "$M/rootfile" 2>t1.ours.err &&
	"$UPSTREAM56/dump" -0 -u -D "$T/dd2.56" -f /dev/null "$S" "$M/rootfile" 2>/dev/null &&
	"$UPSTREAM56/dump" -1 -u -D "$T/dd2.56" -f /dev/null "$S" "$M/rootfile" 2>t1.56.err &&
	sed "s/$DATE_RE/DATE/" dd2.56 >expect && sed "s/$DATE_RE/DATE/" dd2.ours >actual &&
	test_cmp expect actual &&
	printf "%s\n" "$S 0 DATE +0000" "$S 1 DATE +0000" >expect &&
	test_cmp expect actual &&
	lines t1.56.err >m.56 && lines t1.ours.err >m.ours &&
	test_cmp m.56 m.ours
'

test_expect_success ROOT,LOOP,OURDUMP,UPSTREAM56 '--use-blockdev-for-dumpdates: 0.4b56s refusals and status; level 0 without -u dumps' '
	for args in "-1" "-1 -u" "-0 -u" "-3 -u"
	do
		rc=0 && "$DUMP" $args --use-blockdev-for-dumpdates -D "$T/dd3" \
			-f b.ours "$S" 2>b.ours.err || rc=$? &&
		orc=0 && "$UPSTREAM56/dump" $args --use-blockdev-for-dumpdates \
			-D "$T/dd3" -f b.56 "$S" 2>b.56.err || orc=$? &&
		echo "$args: $rc" >>st.ours && echo "$args: $orc" >>st.56 &&
		cat b.ours.err >>e.ours &&
		sed "s/ *\$//" b.56.err >>e.56 || return 1
	done &&
	test_cmp st.56 st.ours && test_cmp e.56 e.ours &&
	! test -e dd3 && ! test -e b.ours &&
	"$DUMP" -0 --use-blockdev-for-dumpdates -D "$T/dd3" -f b.ours "$S" 2>b.err &&
	grep "^  DUMP: DUMP IS DONE\$" b.err
'

test_done
