#!/bin/sh
test_description='dump -0 of every image kind, read back by restore 0.4b47

For each kind (ext2 ext3 ext4 ext4-1k ext4-inline ext4-csum64): our dump of
the loop device and of the image file; restore 0.4b47 -r gives the source
tree (manifest), -t lists exactly the source paths, -C against the mounted
source finds no difference. Defects of 0.4b47 are reported as known upstream
defects, never as passes. With DUMP=$ORACLE_DUMP the same checks prove
themselves against dump 0.4b47 (its own defects then show as such).'
. "$(dirname "$0")/lib.sh"

# ext4 images get an unwritten extent (helpers/mkimage.sh).
IMAGE_PREALLOC=1
export IMAGE_PREALLOC

# The ext4 variants (ext4-1k ext4-inline ext4-csum64) are checked by
# t2001-dump-matrix-ext4-variants.sh, which runs this script with its own KINDS, so that the
# two halves run side by side under the parallel make check.
KINDS=${KINDS:-ext2 ext3 ext4}
LONGNAME=names/$(printf 'L%.0s' $(seq 1 251)).txt

# dump 0.4b47 writes no microseconds; ours does.
if test_have_prereq DUMP_IS_ORACLE
then
	MT=s
else
	MT=us
fi

# Manifest lines left to the dedicated checks below: big device numbers
# and the names/ directory (restore 0.4b47 garbles the 255-byte name,
# dump 0.4b47 drops it) and, with dump 0.4b47 itself, inline-data files
# and the unwritten extent of prealloc.
known_filter() {
	grep -Ev "^(bigdev|bigblk|names/[^/]*)	" | oracle_inline
}
oracle_inline() {
	if test_have_prereq DUMP_IS_ORACLE
	then
		grep -v -e "^prealloc	" | grep -v -F -f inline.pat || :
	else
		cat
	fi
}

# restore 0.4b47 -C keeps -D in a 64-byte field: a longer path makes every
# file "unable to stat". So it runs inside the mounted source with -D .

# Lines of restore -C that are not differences.
cmp_noise='^Dump   date:|^Dumped from:|^Level 0 dump of|^Label:|^filesys = |^Some files were modified!'
# Differences restore 0.4b47 reports even for a perfect archive: it reads
# no flags of a symlink, it makes devices >= 256 into 0,0 (di_db[0]), and
# it mangles the 255-byte name.
# An inline-data file's archived inode has no inline-data flag (so that
# 0.4b49+ restores take its data blocks, doc/format.md 5.5): restore -C
# says the flag changed.
cmp_quirks='^\./slowlink: flags changed from 0x[0-9a-f]+ to 0x00000000\.$|: flags changed from 0x00000000 to 0x10000000\.$|^\./big(dev|blk): device changed from 0,0 to [0-9]+,[0-9]+\.$|unable to stat \./names/[^L]'
# With dump 0.4b47 itself: its own defects (255-byte name; inline data,
# which it dumps as a hole plus the "system.data" attribute).
cmp_oracle_defects=': tape and disk copies are different$|: file does not have the same number of attributes \([0-9]\) as the tape \([0-9]\)\.$'

# Only ext2 (block maps) and ext4 (extents) carry the 4 GiB sparse file:
# restore 0.4b47 -C reads every hole of it and takes some 30 s per image.
image_size() {
	case "$1" in
	ext2|ext4) echo full ;;
	*) echo nohuge ;;
	esac
}

# The paths of a restore -t listing ("%10d<TAB>./path" lines), sorted.
tlist() {
	grep -a "^ *[0-9][0-9]*	" | cut -f 2- | sort
}

for kind in $KINDS
do
	test_expect_success ROOT,LOOP,PYTHON "$kind: setup: image, loop device, source manifest" "
		rm -rf $kind && mkdir $kind && cd $kind &&
		make_image $kind fs.img $(image_size $kind) &&
		dev=\$(image_attach fs.img) && echo \$dev >dev &&
		image_mount \$dev src ro &&
		manifest src --list-inline >inline.list &&
		sed \"s/\\\$/	/\" inline.list >inline.pat && echo /// >>inline.pat &&
		manifest src --mtime=$MT >src.full && known_filter <src.full >src.man &&
		(cd src && find . -print | sort) >src.list
	"

	test_expect_success ROOT,LOOP,OURDUMP "$kind: dump -0 of the loop device" '
		cd '$kind' &&
		"$DUMP" -0 -f dev.dump -D dd "$(cat dev)" 2>dev.err &&
		grep "DUMP IS DONE" dev.err &&
		test $(( $(wc -c <dev.dump) % 10240 )) = 0
	'

	test_expect_success ROOT,LOOP,ORACLE "$kind: restore 0.4b47 -r gives the source tree" '
		cd '$kind' && rm -rf r && mkdir r &&
		(cd r && "$ORACLE_RESTORE" -r -f ../dev.dump) 2>r.err &&
		test -f r/restoresymtable &&
		manifest r --mtime='$MT' >r.full && known_filter <r.full >r.man &&
		test_cmp src.man r.man
	'

	test_expect_success ROOT,LOOP,ORACLE "$kind: restore 0.4b47 -t lists exactly the source paths" '
		cd '$kind' &&
		"$ORACLE_RESTORE" -t -f dev.dump 2>t.err | tlist >t.list &&
		grep -a -v "^\./names/" src.list >expect &&
		grep -a -v "^\./names/" t.list >actual &&
		test_cmp expect actual &&
		grep -a "^\./names/" src.list | grep -a -v "^\./names/L" >names.expect &&
		test $(grep -a -x -F -f names.expect t.list | wc -l) = $(wc -l <names.expect)
	'

	test_expect_success ROOT,LOOP,ORACLE "$kind: restore 0.4b47 -C finds no difference (known quirks aside)" '
		cd '$kind' &&
		{ (cd src && "$ORACLE_RESTORE" -C -f ../dev.dump -D .) >c.out 2>&1; echo $? >c.rc; } &&
		grep -Ev "$cmp_noise" c.out | grep -Ev "$cmp_quirks" >c.rest || :
		if test_have_prereq DUMP_IS_ORACLE
		then
			grep -Ev "$cmp_oracle_defects" c.rest >c.rest2 || :
			mv c.rest2 c.rest
		fi &&
		test_cmp /dev/null c.rest &&
		case $(cat c.rc) in
		0) : ;;
		2) grep -q "compare errors" c.out ;;
		*) false ;;
		esac
	'

	test_known_upstream_defect ROOT,LOOP,ORACLE "$kind: restore 0.4b47 -C reports symlink flags / big devices" '
		cd '$kind' && test "$(cat c.rc)" = 2 &&
		grep -Eq "$cmp_quirks" c.out
	'

	test_known_upstream_defect ROOT,LOOP,ORACLE "$kind: restore 0.4b47 restores devices >= 256 as 0,0" '
		cd '$kind' &&
		grep "^bigdev	chr .* rdev=0,0" r.full && grep "^bigblk	blk .* rdev=0,0" r.full
	'

	# ext4 keeps 300:70000 as i_block[0] = 0 and i_block[1] in the new
	# encoding; the archive copies i_block (doc/format.md 3.2).
	test_expect_success ROOT,LOOP,OURDUMP "$kind: the archive keeps device numbers as the file system stores them" '
		cd '$kind' &&
		"$PYTHON" "$HELPERS/cmpdump.py" inode dev.dump $(stat -c %i src/bigdev) >di &&
		grep " db0=0 db1=$((0x70 | (300 << 8) | ((70000 & ~0xff) << 12))) " di &&
		"$PYTHON" "$HELPERS/cmpdump.py" inode dev.dump $(stat -c %i src/chardev) >di &&
		grep " db0=$(((4 << 8) | 5)) " di
	'

	test_expect_success ROOT,LOOP,ORACLE "$kind: non-ASCII and odd names come back" '
		cd '$kind' &&
		grep -a "^names/" src.full | grep -a -v "^names/L" | oracle_inline >names.man &&
		{ test_have_prereq DUMP_IS_ORACLE || test $(wc -l <names.man) -ge 4; } &&
		test $(grep -a -x -F -f names.man r.full | wc -l) = $(wc -l <names.man)
	'

	test_expect_success ROOT,LOOP,OURDUMP,!DUMP_IS_ORACLE "$kind: the archive stores the 255-byte name intact" '
		cd '$kind' &&
		"$PYTHON" "$HELPERS/cmpdump.py" names dev.dump | grep -a -x -F "${LONGNAME#names/}"
	'

	test_known_upstream_defect ROOT,LOOP,ORACLE "$kind: 0.4b47 loses the 255-byte name (dump drops it, restore mangles it)" '
		cd '$kind' && ! test -e "r/$LONGNAME" && ! grep -a -F "$LONGNAME" t.list
	'

	case "$kind" in
	ext4*)
		test_expect_success ROOT,LOOP,ORACLE,!DUMP_IS_ORACLE "$kind: an unwritten extent comes back as zeros (a hole)" '
			cd '$kind' &&
			test "$(stat -c %s r/prealloc)" = 1048576 &&
			cmp r/prealloc src/prealloc && cmp -n 1048576 r/prealloc /dev/zero
		'
		test_known_upstream_defect ROOT,LOOP,ORACLE,DUMP_IS_ORACLE "$kind: dump 0.4b47 dumps the stale disk data of an unwritten extent" '
			cd '$kind' && cmp -s -n 1048576 src/prealloc /dev/zero &&
			! cmp -s -n 1048576 r/prealloc /dev/zero
		'
		;;
	esac

	if test "$kind" = ext4-inline
	then
		test_expect_success ROOT,LOOP "$kind: the image has inline-data files" '
			cd '$kind' && test $(wc -l <inline.list) -gt 50
		'
		test_expect_success ROOT,LOOP,ORACLE,!DUMP_IS_ORACLE "$kind: inline-data files come back with their bytes" '
			cd '$kind' && grep -v -e "\\\\" -e "^names/" inline.list >plain.list &&
			test $(wc -l <plain.list) -gt 50 &&
			(cd src && tr "\\n" "\\0" <../plain.list | xargs -0 sha256sum) >src.sums &&
			(cd r && tr "\\n" "\\0" <../plain.list | xargs -0 sha256sum) >r.sums &&
			test $(wc -l <src.sums) = $(wc -l <plain.list) &&
			test_cmp src.sums r.sums
		'
		test_known_upstream_defect ROOT,LOOP,ORACLE,DUMP_IS_ORACLE "$kind: dump 0.4b47 turns inline-data files into NUL bytes" '
			cd '$kind' && grep -v -e "\\\\" -e "^names/" inline.list >plain.list && while read -r f
			do
				test "$(tr -d "\\000" <"r/$f" | wc -c)" = 0 &&
				test $(stat -c %s "r/$f") = $(stat -c %s "src/$f") || return 1
			done <plain.list
		'
	fi

	test_expect_success ROOT,LOOP,ORACLE,!DUMP_IS_ORACLE "$kind: dump of the image file itself reads back the same" '
		cd '$kind' &&
		"$DUMP" -0 -f img.dump -D dd "$PWD/fs.img" 2>img.err &&
		grep "DUMP IS DONE" img.err &&
		"$ORACLE_RESTORE" -t -f img.dump 2>/dev/null | tlist >timg.list &&
		test_cmp t.list timg.list &&
		rm -rf ri && mkdir ri && (cd ri && "$ORACLE_RESTORE" -r -f ../img.dump) &&
		manifest ri --mtime='$MT' | known_filter >ri.man &&
		test_cmp src.man ri.man
	'

	test_expect_success ROOT,LOOP "$kind: cleanup" '
		cd '$kind' && image_umount src && image_detach "$(cat dev)" &&
		rm -rf fs.img ./*.dump r ri
	'
done

test_done
