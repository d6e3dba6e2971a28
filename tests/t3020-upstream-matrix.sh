#!/bin/sh
test_description='dumps of 0.4b47, 0.4b49, 0.4b56 and ours, read by every restore

One ext4 (4 KiB blocks, inline_data) holding what tells the block maps of
0.4b47 and 0.4b49+ apart (helpers/xvtree.py), dumped by each of the four
dumps plain, -z, -j, -y, -b 64 and -M, and as a level 0 + level 1 chain.
Every archive is read by every restore (-r into an empty directory,
compared with the source by manifest):
- our restore: exact on every archive, exit 0, nothing on stderr;
- our archives: exact with 0.4b47, 0.4b49 and 0.4b56 too;
- the upstream pairs: what each one gets wrong is recorded as a known
  upstream defect (0.4b47 cannot read the map of 0.4b49+; 0.4b49+ loses
  inline symbolic links of its own archives).'
. "$(dirname "$0")/lib.sh"

command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID

DUMPERS="47 49 56 our"
VARIANTS="plain z j y b64 M"

# The programs of one version.
dump_of() {
	case $1 in
	47) echo "$ORACLE_DUMP" ;;
	49) echo "$UPSTREAM49/dump" ;;
	56) echo "$UPSTREAM56/dump" ;;
	our) echo "$DUMP" ;;
	esac
}
restore_of() {
	case $1 in
	47) echo "$ORACLE_RESTORE" ;;
	49) echo "$UPSTREAM49/restore" ;;
	56) echo "$UPSTREAM56/restore" ;;
	our) echo "$RESTORE" ;;
	esac
}

# dump_variant VERSION VARIANT: archive VERSION-VARIANT.dump (or the
# volumes VERSION-M.001... for -M) of the device in ./dev.
dump_variant() {
	case $2 in
	plain) o= ;;
	z) o=-z6 ;;
	j) o=-j2 ;;
	y) o=-y ;;
	b64) o="-b 64" ;;
	M) o="-M -B 9000" ;;
	esac
	out=$1-$2.dump
	test $2 = M && out=$1-M.
	"$(dump_of $1)" -0 $o -f $out "$(cat dev)" >$1-$2.dump.err 2>&1
}

# restore_to VERSION ARCHIVE-VARIANT DIR: restore -r of the archive into
# the empty directory DIR, without a terminal; "rc N" into DIR.rc.
restore_to() {
	case $2 in
	*-b64) ro="-b 64" ;;
	*) ro= ;;
	esac
	f=../$2.dump
	case $2 in
	*-M) ro=-M f=../${2%M}M. ;;
	esac
	rm -rf "$3" && mkdir "$3" &&
	(cd "$3" && setsid -w "$(restore_of $1)" -r $ro -f $f </dev/null \
		>../$3.out 2>../$3.err; echo $? >../$3.rc)
}

# differs DIR: the paths whose manifest lines differ from the source's.
differs() {
	manifest "$1" --mtime=s >"$1.man" &&
	diff src.man "$1.man" | sed -n 's/^[<>] \([^	]*\)	.*/\1/p' | sort -u
}

test_expect_success ROOT,LOOP,PYTHON,SETSID 'setup: the image and its manifest' '
	truncate -s 128M src.img &&
	mke2fs -q -t ext4 -b 4096 -I 256 -O inline_data,^metadata_csum src.img &&
	image_mount src.img mnt &&
	"$PYTHON" "$HELPERS/xvtree.py" mnt &&
	manifest mnt --mtime=s >src.man &&
	image_umount mnt &&
	image_attach src.img >dev
'

for d in $DUMPERS
do
	case $d in 47) pre=ORACLE ;; 49) pre=UPSTREAM49 ;; 56) pre=UPSTREAM56 ;; our) pre=OURDUMP ;; esac
	test_expect_success ROOT,LOOP,PYTHON,SETSID,$pre "dump $d: the six archives" '
		for v in $VARIANTS; do dump_variant '$d' $v || return 1; done
	'
done

for d in $DUMPERS
do
	for v in $VARIANTS
	do
		test_expect_success ROOT,LOOP,PYTHON,SETSID,OURRESTORE "our restore reads the $v archive of dump $d exactly" '
			test -e '$d-$v'.dump || test -e '$d'-M.001 || return 1
			restore_to our '$d-$v' r.our.'$d-$v' &&
			echo 0 >expect.rc && test_cmp expect.rc r.our.'$d-$v'.rc &&
			grep -v "^Dump tape is compressed\.\$" r.our.'$d-$v'.err >err.left
			test_cmp /dev/null err.left &&
			differs r.our.'$d-$v' >wrong &&
			test_cmp /dev/null wrong
		'
	done
done

# restore_all R D: restore R reads every archive of dump D; the paths
# it gets wrong in each go to r.R.D-VARIANT.wrong.
restore_all() {
	for v in $VARIANTS
	do
		restore_to $1 $2-$v r.$1.$2-$v &&
		differs r.$1.$2-$v >r.$1.$2-$v.wrong || return 1
	done
}

# all_exact R D: every archive of dump D came back exact through R.
all_exact() {
	for v in $VARIANTS
	do
		test_cmp /dev/null r.$1.$2-$v.wrong || return 1
	done
}

for d in $DUMPERS
do
	for r in 49 56
	do
		pre=UPSTREAM$r
		test_expect_success ROOT,LOOP,PYTHON,SETSID,$pre "restore 0.4b$r reads every archive of dump $d exactly" '
			restore_all '$r' '$d' && all_exact '$r' '$d'
		'
	done
done

test_expect_success ROOT,LOOP,PYTHON,SETSID,ORACLE,OURDUMP 'restore 0.4b47 reads every archive of our dump exactly' '
	restore_all 47 our && all_exact 47 our
'

# dump 0.4b47 writes inline data as holes plus a system.data attribute
# that its own restore refuses ("Unknown EA index"): those files come
# back as zeros, whatever else is right.
test_known_upstream_defect ROOT,LOOP,PYTHON,SETSID,ORACLE 'restore 0.4b47 loses the inline-data files of its own archives' '
	image_mount "$(cat dev)" mnt ro &&
	manifest mnt --list-inline | sort >inline.list &&
	image_umount mnt &&
	test -s inline.list &&
	restore_all 47 47 &&
	for v in $VARIANTS; do
		sed "/^inline\/d1\$/d" r.47.47-$v.wrong >w &&
		test_cmp inline.list w || return 1
	done
'

# 0.4b47 and earlier take each byte of the 0.4b49+ map for one block:
# every file over 1 KiB comes back wrong, and it exits 0.
for d in 49 56
do
	test_known_upstream_defect ROOT,LOOP,PYTHON,SETSID,ORACLE,UPSTREAM$d "restore 0.4b47 cannot read the map of dump 0.4b$d" '
		restore_all 47 '$d' &&
		for v in $VARIANTS; do
			grep -qx f3m r.47.'$d'-$v.wrong &&
			grep -qx sparse/hs r.47.'$d'-$v.wrong || return 1
		done
	'
done

# ---- the other modes of our restore on the archives of 0.4b49+ -----------
for d in 49 56
do
	test_expect_success ROOT,LOOP,SETSID,OURRESTORE,UPSTREAM$d "restore -t of a 0.4b$d archive lists what 0.4b$d lists" '
		"$UPSTREAM'$d'/restore" -t -f '$d'-plain.dump >t.up 2>t.up.err &&
		"$RESTORE" -t -f '$d'-plain.dump >t.our 2>t.our.err &&
		test_cmp t.up t.our && test_cmp /dev/null t.our.err
	'
	test_expect_success ROOT,LOOP,SETSID,OURRESTORE,UPSTREAM$d "restore -C of a 0.4b$d archive passes, and fails on a changed file" '
		image_mount "$(cat dev)" mnt ro &&
		test_when_finished "image_umount mnt" &&
		"$RESTORE" -C -D "$PWD/mnt" -f '$d'-plain.dump >c.out 2>c.err &&
		test_cmp /dev/null c.err &&
		image_umount mnt &&
		cp --sparse=always src.img chg.img &&
		image_mount chg.img mnt &&
		printf X | dd of=mnt/f3m bs=1 seek=2999000 conv=notrunc 2>/dev/null &&
		image_umount mnt && image_mount chg.img mnt ro &&
		test_must_fail "$RESTORE" -C -D "$PWD/mnt" -f '$d'-plain.dump >c.out 2>c.err &&
		grep -qx "./f3m: tape and disk copies are different" c.err
	'
	test_expect_success ROOT,LOOP,SETSID,OURRESTORE,UPSTREAM$d,PYTHON "restore -x of a subset of a 0.4b$d archive" '
		rm -rf x && mkdir x &&
		(cd x && "$RESTORE" -x -a -o -f ../'$d'-plain.dump ./sparse ./inline/i100 ./misc/xa) &&
		manifest x --mtime=s --no-root | grep -E "^(sparse|inline/i100|misc/xa)[	/]" >x.man &&
		grep -E "^(sparse|inline/i100|misc/xa)[	/]" src.man >x.src &&
		test_cmp x.src x.man
	'
done

# Never "verified" while wrong: an archive cut inside a large file.
test_expect_success ROOT,LOOP,OURRESTORE,UPSTREAM56 'restore -C and -r of a cut 0.4b56 archive name the file and fail' '
	at=$("$HELPERS/tapetool" list 56-plain.dump |
		awk "\$2 == \"TS_INODE\" && \$5 == 16781312 { print \$1 + 100; exit }") &&
	test -n "$at" &&
	"$HELPERS/tapetool" truncate 56-plain.dump cut.dump $at &&
	image_mount "$(cat dev)" mnt ro &&
	test_when_finished "image_umount mnt" &&
	test_must_fail "$RESTORE" -C -D "$PWD/mnt" -f cut.dump >c.out 2>c.err &&
	grep -qx "./long: blocks missing from the archive, not compared" c.err &&
	rm -rf rc && mkdir rc &&
	(cd rc && test_must_fail "$RESTORE" -r -f ../cut.dump) 2>r.err &&
	grep -qx "Missing blocks at the end of ./long, assuming hole" r.err
'

# ---- level 0 + level 1 chains --------------------------------------------
test_expect_success ROOT,LOOP,PYTHON,ORACLE,UPSTREAM49,UPSTREAM56,OURDUMP 'chains: level 0 by each dump, a change, level 1 by each dump' '
	for d in $DUMPERS; do
		"$(dump_of $d)" -0 -u -D dd.$d -f $d-L0.dump "$(cat dev)" \
			>$d-L0.err 2>&1 || return 1
	done &&
	sleep 1 &&
	image_mount "$(cat dev)" mnt &&
	"$PYTHON" "$HELPERS/xvtree.py" mnt --change &&
	manifest mnt --mtime=s >src1.man &&
	image_umount mnt &&
	for d in $DUMPERS; do
		"$(dump_of $d)" -1 -u -D dd.$d -f $d-L1.dump "$(cat dev)" \
			>$d-L1.err 2>&1 &&
		grep -q "Date of last level 0 dump" $d-L1.err || return 1
	done
'

# chain R D: restore R applies the chain of dump D in r.R.D-chain.
chain() {
	rm -rf r.$1.$2-chain && mkdir r.$1.$2-chain &&
	(cd r.$1.$2-chain &&
	 setsid -w "$(restore_of $1)" -r -f ../$2-L0.dump </dev/null &&
	 setsid -w "$(restore_of $1)" -r -f ../$2-L1.dump </dev/null) \
		>r.$1.$2-chain.out 2>&1 &&
	manifest r.$1.$2-chain --mtime=s >r.$1.$2-chain.man &&
	test_cmp src1.man r.$1.$2-chain.man
}

for d in $DUMPERS
do
	test_expect_success ROOT,LOOP,PYTHON,SETSID,OURRESTORE "our restore applies the chain of dump $d exactly" '
		test -e '$d'-L1.dump && chain our '$d'
	'
	for r in 49 56
	do
		test_expect_success ROOT,LOOP,PYTHON,SETSID,UPSTREAM$r "restore 0.4b$r applies the chain of dump $d exactly" '
			test -e '$d'-L1.dump && chain '$r' '$d'
		'
	done
done
test_expect_success ROOT,LOOP,PYTHON,SETSID,ORACLE 'restore 0.4b47 applies the chain of our dump exactly' '
	test -e our-L1.dump && chain 47 our
'

test_done
