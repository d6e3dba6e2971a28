#!/bin/sh
test_description='restore saves what it can from damaged directories

Archives of dump 0.4b47 are edited with helpers/tapetool so that a
directory has a second name, a directory holds a name twice or an extra
".", an entry names a directory missing from the archive or loops back to
the root, the root directory is missing or a regular file, or the
archive ends after the root directory.  restore -r, -x and -t must skip
only the damaged entries (a name held twice is kept under a name of its
own), say which (directory inode, name, inode) on one line each, restore or list
everything else, and exit 1 so that a script knows the result is
incomplete.  Where restore 0.4b47 copes, it restores the same tree.  An
archive whose directories hold no entry at all is read without a
sanitizer report.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: dump the test tree' '
	hostile_base &&
	root=$(hostile_hdr TS_INODE 2) &&
	zdir=$(hostile_ino zdir) && sub=$(hostile_ino sub) &&
	mfile=$(hostile_ino mfile) && deep=$(hostile_ino deep) &&
	zhdr=$(hostile_hdr TS_INODE "$zdir") &&
	end=$(hostile_hdr TS_END 2048) &&
	test -n "$root" && test -n "$zhdr" && test -n "$end"
'

# An inode number this small file system does not use.
unused=30

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: build the damaged archives' '
	"$TAPETOOL" entry base.dump t1.dump mfile d_ino "$sub" &&
	"$TAPETOOL" entry t1.dump second.dump mfile d_type 4 &&
	"$TAPETOOL" rename base.dump dupname.dump mfile afile &&
	"$TAPETOOL" rename base.dump extradot.dump mfile . &&
	"$TAPETOOL" set base.dump missing.dump "$zhdr" c_inumber $unused &&
	"$TAPETOOL" entry base.dump t2.dump f d_ino 2 &&
	"$TAPETOOL" entry t2.dump loop.dump f d_type 4 &&
	"$TAPETOOL" set base.dump noroot.dump "$root" c_inumber $unused &&
	"$TAPETOOL" truncate noroot.dump noroot-cut.dump "$end" &&
	"$TAPETOOL" truncate base.dump cut.dump $((root + 2)) &&
	"$TAPETOOL" ents second.dump | grep " 4 3 sub$" &&
	"$TAPETOOL" list cut.dump >cut.list &&
	test "$(tail -n 1 cut.list | cut -d" " -f2-3)" = "TS_INODE 2"
'

# expect_lines FILE: every line of stdin is a line of FILE.
expect_lines() {
	while IFS= read -r line
	do
		grep -Fx -e "$line" "$1" >/dev/null ||
		{ echo "missing line: $line" >&2; return 1; }
	done
}

# The lines each archive must give (one per damaged entry).
messages() {
	case $1 in
	second) echo "Directory inode 2: refusing entry \"sub\" (inode $sub): second name of a directory (or a loop)" ;;
	dupname) echo "Directory inode 2: entry \"afile\" (inode $mfile) kept as \"afile.dup-$mfile\": duplicate name" ;;
	extradot) echo "Directory inode 2: refusing entry \".\" (inode $mfile): extra \".\" or \"..\" entry" ;;
	missing) echo "./zdir: directory (inode $zdir) is not on the tape" ;;
	loop) echo "Directory inode $deep: refusing entry \"f\" (inode 2): second name of a directory (or a loop)" ;;
	esac
}

# Files that must come back (or be listed) despite the damage.
survivors() {
	case $1 in
	second) echo "afile big zzz mfile/payload mfile/deep/f zdir/victim" ;;
	dupname) echo "afile afile.dup-$mfile big zzz sub/payload sub/deep/f zdir/victim" ;;
	extradot) echo "afile big zzz sub/payload sub/deep/f zdir/victim" ;;
	missing) echo "afile big zzz mfile sub/payload sub/deep/f" ;;
	loop) echo "afile big zzz mfile sub/payload zdir/victim" ;;
	esac
}

for s in second dupname extradot missing loop
do
	for m in r x
	do
		test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
			"$s: restore -$m restores the rest, names the damage, exits 1" "
			hostile_run $m $s.dump &&
			test \$hostile_rc = 1 &&
			messages $s | expect_lines hostile.err &&
			test \$(messages $s | wc -l) = \$(grep -c -e refusing -e 'not on the tape' -e 'kept as' hostile.err) &&
			for f in \$(survivors $s)
			do
				test -f \"\$BOX/target/\$f\" || return 1
			done &&
			hostile_restored big && hostile_restored zzz
		"
	done
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"$s: restore -t lists the rest, names the same damage, exits 1" "
		hostile_run t $s.dump &&
		test \$hostile_rc = 1 &&
		messages $s | expect_lines hostile.err &&
		for f in \$(survivors $s)
		do
			grep -q \"	\\./\$f\$\" hostile.out || return 1
		done
	"
done

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
	'a second name is neither listed nor restored' '
	hostile_run t second.dump &&
	! grep "	\./sub" hostile.out &&
	hostile_run r second.dump &&
	! test -e "$BOX/target/sub"
'

# Side by side with 0.4b47 where it copes: the same files come back.
for c in "r second" "r extradot" "x extradot" "r loop"
do
	set -- $c
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"$2: restore -$1 restores the tree 0.4b47 restores" "
		oracle_run $1 $2.dump &&
		manifest \"\$BOX/target\" >oracle.manifest &&
		hostile_run $1 $2.dump &&
		manifest \"\$BOX/target\" >ours.manifest &&
		test_cmp oracle.manifest ours.manifest
	"
done

for m in r x t
do
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"no root directory: restore -$m says so and exits 1" "
		hostile_run $m noroot.dump &&
		test \$hostile_rc = 1 &&
		test \"\$(cat hostile.err)\" = 'Root directory is not on tape'
	"
done

for m in r x
do
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"no root directory: restore -$m reads on to the end (and finds it cut)" "
		hostile_run $m noroot-cut.dump &&
		test \$hostile_rc = 1 &&
		grep -Fx 'Root directory is not on tape' hostile.err &&
		grep 'the archive is truncated' hostile.err
	"
done

# The root inode comes as a regular file: nothing has a name, and -C,
# like the others, must say so rather than compare "." as a file.
test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: a root inode that is a file' '
	"$TAPETOOL" set base.dump rootfile.dump "$root" di_mode 0100644 &&
	"$TAPETOOL" list rootfile.dump | grep "^$root TS_INODE 2 .* 0100644 "
'

rootfile_says="Root directory is not on tape
.: named as a directory but inode 2 on tape has mode 0100644; not"

for m in r x t
do
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"root inode a file: restore -$m says so and exits 1" "
		hostile_run $m rootfile.dump &&
		test \$hostile_rc = 1 &&
		grep -Fx 'Root directory is not on tape' hostile.err
	"
done

# rootfile_compare [USER]: restore -C of rootfile.dump against the
# source tree, as root or as USER; status in rc, stderr in C.err.
rootfile_compare() {
	rc=0 &&
	chmod a+r rootfile.dump &&
	${1:+setpriv --reuid=$1 --regid=$1 --clear-groups} \
		setsid -w timeout -s KILL "$HOSTILE_TIMEOUT" \
		"$RESTORE" -C -f rootfile.dump -D src >C.out 2>C.err || rc=$?
	cat C.err &&
	test $rc = 1 &&
	test "$(cat C.err)" = "$rootfile_says compared"
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
	'root inode a file: restore -C says so and exits 1' '
	rootfile_compare
'

test_expect_success ROOT,UNPRIV,LOOP,ORACLE,TAPETOOL,OURRESTORE \
	'root inode a file: restore -C as another user says so and exits 1' '
	rootfile_compare 65534
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
	'root inode a file: restore -r names the clash' '
	hostile_run r rootfile.dump &&
	test "$(cat hostile.err)" = "$rootfile_says restored"
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL \
	'no root directory: 0.4b47 -x warns in the same words and goes on' '
	oracle_run x noroot.dump &&
	grep -Fx "Root directory is not on tape" hostile.err
'

for m in r x t
do
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"cut after the root directory: restore -$m says truncated, exits 1" "
		hostile_run $m cut.dump &&
		test \$hostile_rc = 1 &&
		grep -Fx 'Input ended before the end-of-dump record: the archive is truncated' hostile.err
	"
done

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL \
	'cut after the root directory: 0.4b47 -t fails too' '
	oracle_run t cut.dump &&
	test $hostile_rc = 1
'

# A file system whose only directory is an empty root: no directory entry
# at all reaches the list of entries.
test_expect_success ROOT,LOOP,ORACLE 'setup: dump an empty root directory' '
	mkdir empty &&
	mke2fs -q -F -t ext4 -b 1024 -O ^metadata_csum -d empty e.img 4M &&
	debugfs -w -R "rmdir lost+found" e.img &&
	debugfs -R "ls -l /" e.img >e.ls &&
	! grep lost+found e.ls &&
	e_dev=$(image_attach e.img) &&
	"$ORACLE_DUMP" -0 -f empty.dump "$e_dev" 2>e.err
'

for m in r x t
do
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"empty root directory: restore -$m succeeds" "
		hostile_run $m empty.dump &&
		test \$hostile_rc = 0 &&
		! test -s hostile.err
	"
done

test_done
