#!/bin/sh
test_description='dump: a damaged but mountable file system

Small 1 KiB-block images made with mke2fs -d, then broken with debugfs -w
or dd: extents out of logical order or overlapping, block numbers outside
the file system (extent, block map, indirect block, extent index),
damaged directory blocks, colliding inode tables.  Our dump must exit 0,
report every damaged inode on an "  DUMP: Error" line plus a closing
count, and its archive must restore every undamaged file exactly, and at
least every file the archive of dump 0.4b47 restores.'
. "$(dirname "$0")/lib.sh"

UUID=11111111-2222-3333-4444-555555555555

# mkfs KIND IMG [MKE2FS-OPTIONS]: a 4 MiB image of tree/.
mkfs() {
	mf_kind=$1 mf_img=$2
	shift 2
	case "$mf_kind" in
	ext4) mf_opts="-t ext4 -O ^metadata_csum,^64bit" ;;
	ext2) mf_opts="-t ext2" ;;
	esac
	E2FSPROGS_FAKE_TIME=1700000000 mke2fs -q -F $mf_opts -b 1024 -I 256 \
		-U $UUID -E hash_seed=$UUID "$@" -d tree "$mf_img" 4M
}

# dbg IMG CMD...: debugfs -w commands, one per argument.
dbg() {
	dg_img=$1
	shift
	for dg_c
	do
		echo "$dg_c"
	done >dbg.cmds &&
	debugfs -w -f dbg.cmds "$dg_img" >dbg.out 2>&1 &&
	! grep -i "invalid\|error\|not found\|usage" dbg.out
}

# pblk IMG PATH LBLK: the physical block of a logical block.
pblk() {
	debugfs -R "bmap $2 $3" "$1" 2>/dev/null
}

# ino IMG PATH: the inode number of PATH.
ino() {
	debugfs -R "stat $2" "$1" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\) .*/\1/p'
}

# dump_both NAME: NAME.img dumped by ours (the image file) and by 0.4b47
# (through a loop device), each restored -r into a fresh directory.
dump_both() {
	"$DUMP" -0 -f "$1.ours" -D dd "$1.img" </dev/null 2>"$1.err" &&
	grep "DUMP IS DONE" "$1.err" &&
	mkdir "$1.r" &&
	(cd "$1.r" && "$RESTORE" -r -f "../$1.ours" </dev/null >../"$1.rout" 2>&1
	 true) &&
	! grep -i "resync" "$1.rout" &&
	if test_have_prereq ORACLE,LOOP
	then
		db_dev=$(image_attach "$1.img") &&
		{ setsid -w timeout 120 "$ORACLE_DUMP" -0 -f "$1.orc" -D dd \
			"$db_dev" </dev/null 2>"$1.oerr"; true; } &&
		image_detach "$db_dev" &&
		mkdir "$1.o" &&
		(cd "$1.o" && setsid -w timeout 120 "$ORACLE_RESTORE" -r \
			-f "../$1.orc" </dev/null >/dev/null 2>&1
		 true)
	fi
}

# reported NAME INO WHAT: one "  DUMP: Error in inode INO: ...WHAT" line.
reported() {
	grep "^  DUMP: Error in inode $2: .*$3" "$1.err"
}

# summary NAME N: the closing count, before the closing lines.
summary() {
	grep "^  DUMP: $2 damaged inode(s) reported above" "$1.err" &&
	sed -n '/damaged inode(s) reported above/,$p' "$1.err" | grep -q Closing
}

# exact NAME SKIP...: every file of tree/ but the SKIP ones is restored
# exactly; and every file 0.4b47's archive restores exactly, ours does
# too (ref/ holds the right content where it differs from tree/).
exact() {
	ex_name=$1
	shift
	(cd tree && find . -type f) | sed 's|^\./||' | sort >files &&
	for ex_f in "$@"
	do
		echo "$ex_f"
	done | sort >skip &&
	comm -23 files skip >want &&
	while read -r ex_f
	do
		cmp "tree/$ex_f" "$ex_name.r/$ex_f" || return 1
	done <want &&
	if test -d "$ex_name.o"
	then
		while read -r ex_f
		do
			ex_ref=tree/$ex_f
			test -f "ref/$ex_f" && ex_ref=ref/$ex_f
			if cmp -s "$ex_ref" "$ex_name.o/$ex_f"
			then
				cmp "$ex_ref" "$ex_name.r/$ex_f" || return 1
			fi
		done <files
	fi
}

test_expect_success PYTHON 'setup: the tree' '
	mkdir tree tree/d tree/big_d ref &&
	"$PYTHON" -c "
import random
r = random.Random(2200)
def data(n):
    return bytes(r.getrandbits(8) for _ in range(n))
def put(p, n):
    open(p, \"wb\").write(data(n))
put(\"tree/big\", 300000)
put(\"tree/small\", 5000)
open(\"tree/hi\", \"w\").write(\"hello\\n\")
for i in range(1, 6):
    put(\"tree/d/f%d\" % i, 3000)
for i in range(1, 61):
    open(\"tree/big_d/file_with_a_longish_name_number_%d\" % i,
         \"w\").write(\"%d\\n\" % i)
# Sparse: ten 2-block extents, more than the inode holds (depth 1).
with open(\"tree/many\", \"wb\") as f:
    for b in range(0, 40, 4):
        f.seek(b * 1024)
        f.write(data(2048))
# 300 one-block extents: four leaf blocks below the inode.
with open(\"tree/huge\", \"wb\") as f:
    for b in range(0, 600, 2):
        f.seek(b * 1024)
        f.write(data(1024))
"
'

test_expect_success ROOT 'extents out of logical order: the file is right, and reported' '
	mkfs ext4 ooo.img &&
	p=$(pblk ooo.img /big 0) && test -n "$p" &&
	test "$(pblk ooo.img /big 292)" = $((p + 292)) &&
	dbg ooo.img "set_inode_field /big block[0] 0x0003F30A" \
		"set_inode_field /big block[3] 100" \
		"set_inode_field /big block[4] 100" \
		"set_inode_field /big block[5] $((p + 100))" \
		"set_inode_field /big block[6] 0" \
		"set_inode_field /big block[7] 100" \
		"set_inode_field /big block[8] $p" \
		"set_inode_field /big block[9] 200" \
		"set_inode_field /big block[10] 93" \
		"set_inode_field /big block[11] $((p + 200))" &&
	debugfs -R "stat /big" ooo.img 2>/dev/null |
		grep "(100-199):$((p + 100))-.*(0-99):$p-" &&
	dump_both ooo &&
	reported ooo "$(ino ooo.img /big)" "out of logical order" &&
	summary ooo 1 &&
	exact ooo
'

test_expect_success ROOT 'overlapping extents: no resync, the blocks libext2fs reads' '
	mkfs ext4 ovl.img &&
	p=$(pblk ovl.img /big 0) &&
	dbg ovl.img "set_inode_field /big block[0] 0x0002F30A" \
		"set_inode_field /big block[3] 0" \
		"set_inode_field /big block[4] 150" \
		"set_inode_field /big block[5] $p" \
		"set_inode_field /big block[6] 100" \
		"set_inode_field /big block[7] 193" \
		"set_inode_field /big block[8] $((p + 200))" &&
	debugfs -R "dump /big ref/big" ovl.img &&
	! cmp -s ref/big tree/big &&
	dump_both ovl &&
	reported ovl "$(ino ovl.img /big)" "extents overlap" &&
	summary ovl 1 &&
	cmp ref/big ovl.r/big &&
	exact ovl big &&
	rm ref/big
'

test_expect_success ROOT 'ext4: extents and an extent index outside the file system' '
	mkfs ext4 rng4.img &&
	dbg rng4.img "set_inode_field /small block[5] 0x00ffff00" \
		"set_inode_field /hi block[5] 0" \
		"set_inode_field /many block[4] 0x00fffff0" &&
	dump_both rng4 &&
	for f in small hi many
	do
		grep "^  DUMP: Error in inode $(ino rng4.img /$f): " rng4.err ||
		return 1
	done &&
	test "$(grep -c "^  DUMP: Error in inode" rng4.err)" = 3 &&
	summary rng4 3 &&
	test "$(wc -c <rng4.r/small)" = 5000 &&
	cmp rng4.r/small /dev/zero 2>&1 | grep EOF &&
	exact rng4 small hi many
'

# leaf IMG PATH N: "first-logical-block leaf-block" of index entry N
# (1-based) of the inode's extent root.
leaf() {
	debugfs -R "ex $2" "$1" 2>/dev/null |
		awk -v n="$3" '$1 == "0/" && $3 == n "/" { print $5, $8 }'
}

test_expect_success ROOT 'extent tree: unreadable nodes cost only the extents below them' '
	mkfs ext4 etb.img &&
	set -- $(leaf etb.img /huge 2) && l2=$1 &&
	set -- $(leaf etb.img /huge 3) && b3=$2 &&
	set -- $(leaf etb.img /huge 4) && l4=$1 &&
	test -n "$l2" && test -n "$b3" && test -n "$l4" &&
	# Index entry 2 points outside; leaf 3 loses its header.
	dbg etb.img "set_inode_field /huge block[7] 0x00fffff0" &&
	dd if=/dev/zero of=etb.img bs=1 seek=$((b3 * 1024)) count=12 \
		conv=notrunc &&
	dump_both etb &&
	reported etb "$(ino etb.img /huge)" "2 extent tree node(s) unreadable" &&
	summary etb 1 &&
	exact etb huge &&
	cmp -n $((l2 * 1024)) tree/huge etb.r/huge &&
	cmp -i $((l4 * 1024)) tree/huge etb.r/huge &&
	cmp -n $(((l4 - l2) * 1024)) -i $((l2 * 1024)) /dev/zero etb.r/huge
'

test_expect_success ROOT 'block map: data and indirect blocks outside the file system' '
	mkfs ext2 rng2.img &&
	p=$(pblk rng2.img /small 0) &&
	test "$(pblk rng2.img /small 4)" = $((p + 4)) &&
	# After a failed lseek 0.4b47 reads on from where it was, which
	# would give the right block 1 by luck: block 0 moves away first.
	dbg rng2.img "set_inode_field /big block[0] 0x00ffffff" \
		"set_inode_field /big block[IND] 0x00fffff0" \
		"set_inode_field /small block[0] $((p + 4))" \
		"set_inode_field /small block[1] 5000" &&
	dump_both rng2 &&
	reported rng2 "$(ino rng2.img /big)" "outside the file system" &&
	reported rng2 "$(ino rng2.img /small)" "outside the file system" &&
	summary rng2 2 &&
	exact rng2 big small &&
	# The blocks below the double indirect block stay in place.
	cmp -i $((268 * 1024)) tree/big rng2.r/big &&
	cmp -n 1024 /dev/zero rng2.r/big &&
	cmp -n $((256 * 1024)) -i $((12 * 1024)) /dev/zero rng2.r/big
'

test_expect_success ROOT 'directories: a damaged block costs its own entries only' '
	mkfs ext4 dir.img &&
	b=$(pblk dir.img /big_d 1) && test "$b" -gt 0 &&
	lost=$(dd if=dir.img bs=1024 skip=$b count=1 2>/dev/null |
	       grep -ao file_with_a_longish_name_number_ | wc -l) &&
	test "$lost" -gt 0 && test "$lost" -lt 60 &&
	printf "\\003\\000" |
		dd of=dir.img bs=1 seek=$((b * 1024 + 4)) conv=notrunc &&
	dbg dir.img "set_inode_field /d block[5] 0x00ffff00" &&
	dump_both dir &&
	reported dir "$(ino dir.img /big_d)" "directory block 1 damaged" &&
	reported dir "$(ino dir.img /d)" "outside the file system" &&
	summary dir 2 &&
	test "$(ls dir.r/big_d | wc -l)" = $((60 - lost)) &&
	for f in dir.r/big_d/*
	do
		cmp "$f" "tree/big_d/${f##*/}" || return 1
	done &&
	exact dir $(cd tree && echo big_d/* d/*)
'

test_expect_success ROOT 'directories: an incremental dump still finds the changed file' '
	f=$(ls dir.r/big_d | head -n 1) && test -n "$f" &&
	cp dir.img inc.img &&
	dbg inc.img "set_inode_field /big_d/$f ctime 2000000000" &&
	"$DUMP" -1 -T "Wed Jan  1 00:00:00 2031" -f inc.ours inc.img \
		</dev/null 2>inc.err &&
	reported inc "$(ino inc.img /big_d)" "directory block 1 damaged" &&
	"$RESTORE" -t -f inc.ours >inc.list &&
	grep "	\./big_d/$f\$" inc.list
'

test_expect_success ROOT,LOOP 'directories: a subset dump keeps the entries past a damaged block' '
	cp dir.img sub.img &&
	image_mount sub.img submnt ro,noload &&
	"$DUMP" -0 -f sub.ours submnt/big_d </dev/null 2>sub.err &&
	grep "DUMP IS DONE" sub.err &&
	reported sub "$(ino sub.img /big_d)" "directory block 1 damaged" &&
	"$RESTORE" -t -f sub.ours >sub.list &&
	test "$(grep -c "	\./big_d/file_with_a_longish_name_number_" sub.list)" = \
		"$(ls dir.r/big_d | wc -l)"
'

test_expect_success ROOT 'colliding inode tables: the later group is skipped' '
	mkfs ext4 col.img -g 1024 -N 128 -O ^flex_bg,^resize_inode &&
	cp col.img colbase.img &&
	t0=$(dumpe2fs col.img 2>/dev/null |
	     sed -n "s/^  Inode table at \\([0-9]*\\)-.*/\\1/p" | head -n 1) &&
	test -n "$t0" &&
	dbg col.img "set_bg 2 inode_table $t0" "set_bg 2 checksum calc" &&
	dump_both col &&
	grep "^  DUMP: Error in the inode table of group 2: it overlaps that of group 0; inodes 65-96 skipped" col.err &&
	grep "^  DUMP: [1-9][0-9]* damaged inode(s) reported above" col.err &&
	skip= &&
	for f in $(cd tree && find . -type f | sed "s|^\\./||")
	do
		i=$(ino colbase.img "/$f") || return 1
		if test "$i" -ge 65 && test "$i" -le 96
		then
			skip="$skip $f"
		fi
	done &&
	test -n "$skip" &&
	exact col $skip
'

test_expect_success ROOT 'a clean image: no damage line, no count' '
	mkfs ext4 clean.img &&
	"$DUMP" -0 -f clean.ours -D dd clean.img </dev/null 2>clean.err &&
	! grep "Error\|damaged" clean.err
'

test_expect_success ROOT,!DUMP_IS_ORACLE '--strict: damage fails the dump (4), dumpdates is left alone' '
	: >strict.dd &&
	"$DUMP" -0u --strict -f strict.ours -D "$PWD/strict.dd" ooo.img \
		</dev/null 2>strict.err
	test $? = 4 &&
	grep "DUMP IS DONE" strict.err &&
	grep "^  DUMP: --strict: dumpdates is not updated\$" strict.err &&
	test ! -s strict.dd &&
	"$DUMP" -0u --strict -f clean2.ours -D "$PWD/strict.dd" clean.img \
		</dev/null 2>clean2.err &&
	test -s strict.dd
'

test_done
