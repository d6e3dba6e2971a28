#!/bin/sh
test_description='dump -0: standard output, record sizes, operand forms, key-letter syntax, non-root

Every archive is read back with restore 0.4b47 (-t listing, -r manifest).'
. "$(dirname "$0")/lib.sh"

if test_have_prereq DUMP_IS_ORACLE
then
	MT=s
else
	MT=us
fi

# The paths of a restore -t listing, sorted. 0.4b47 garbles the 255-byte
# name (its dump drops it, its restore mangles it even from a correct
# archive); t2000 checks that, here names/ is left out.
tlist() {
	grep -a "^ *[0-9][0-9]*	" | cut -f 2- | sort | no_names
}
no_names() {
	grep -a -v "^\./names/"
}

# known_filter: manifest lines 0.4b47 cannot get right (checked in t2000):
# big device numbers, names/; with dump 0.4b47 itself also the unwritten
# extent of prealloc.
known_filter() {
	if test_have_prereq DUMP_IS_ORACLE
	then
		grep -Ev "^(bigdev|bigblk|names/[^/]*|prealloc)	"
	else
		grep -Ev "^(bigdev|bigblk|names/[^/]*)	"
	fi
}

# restore_manifest ARCHIVE DIR: restore 0.4b47 -r into DIR, print its
# manifest through known_filter.
restore_manifest() {
	rm -rf "$2" && mkdir "$2" &&
	(cd "$2" && "$ORACLE_RESTORE" -r -f "$1") >/dev/null 2>&1 &&
	manifest "$2" --mtime=$MT | known_filter
}

# A label and UUID of this run only: other images (other scripts, other
# users of the machine) may carry the fixed ones of make_image.
LABEL=t2010-$$
UUID=$(cat /proc/sys/kernel/random/uuid)

# The mount point is short (short_dir): dump prints it from the header's
# file-system field, 63 characters at most, which a mount point below the
# trash directory of a checkout at a long path would overflow.
test_expect_success ROOT,LOOP,PYTHON 'setup: a small image, attached and mounted read-only' '
	make_image ext4 fs.img small &&
	tune2fs -L "$LABEL" -U "$UUID" fs.img >/dev/null &&
	dev=$(image_attach fs.img) &&
	M=$(short_dir)/src && image_mount "$dev" "$M" ro &&
	manifest "$M" --mtime=$MT | known_filter >src.man &&
	(cd "$M" && find . -print | sort) | no_names >src.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'dump -0 -f file: the reference archive of this script' '
	"$DUMP" -0 -f ref.dump -D dd "$dev" 2>ref.err &&
	grep "DUMP IS DONE" ref.err &&
	"$ORACLE_RESTORE" -t -f ref.dump 2>/dev/null | tlist >ref.list &&
	test_cmp src.list ref.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'dump -f - writes the archive to a pipe' '
	"$DUMP" -0 -f - -D dd "$dev" 2>pipe.err | cat >pipe.dump &&
	grep "DUMP IS DONE" pipe.err &&
	test $(( $(wc -c <pipe.dump) % 10240 )) = 0 &&
	"$ORACLE_RESTORE" -t -f pipe.dump 2>/dev/null | tlist >pipe.list &&
	test_cmp src.list pipe.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'dump -f - into restore 0.4b47 -r -f - gives the source tree' '
	rm -rf rp && mkdir rp &&
	"$DUMP" -0 -f - -D dd "$dev" 2>/dev/null | (cd rp && "$ORACLE_RESTORE" -r -f -) &&
	manifest rp --mtime=$MT | known_filter >rp.man &&
	test_cmp src.man rp.man
'

test_expect_success ROOT,LOOP,OURDUMP 'dump -f -: "to standard output", no "Closing", size line without volumes' '
	grep "^  DUMP: Dumping $dev (.*) to standard output$" pipe.err &&
	! grep "Closing" pipe.err &&
	blocks=$(( $(wc -c <pipe.dump) / 1024 )) &&
	mb=$(awk -v b=$blocks "BEGIN { printf \"%.2f\", b * 1024 / 1048576 }") &&
	grep -x "  DUMP: $blocks blocks ($mb""MB)" pipe.err &&
	! grep "volume(s)" pipe.err
'

test_expect_success ROOT,LOOP,OURDUMP 'dump -f file: the totals match the archive size' '
	blocks=$(( $(wc -c <ref.dump) / 1024 )) &&
	mb=$(awk -v b=$blocks "BEGIN { printf \"%.2f\", b * 1024 / 1048576 }") &&
	grep -x "  DUMP: $blocks blocks ($mb""MB) on 1 volume(s)" ref.err &&
	grep -x "  DUMP: Volume 1 $blocks blocks ($mb""MB)" ref.err
'

for b in 1 10 32 64 1024
do
	test_expect_success ROOT,LOOP,OURDUMP,ORACLE "dump -b $b: whole records of $b KiB, c_ntrec $b, readable" '
		"$DUMP" -0 -b '$b' -f b'$b'.dump -D dd "$dev" 2>b'$b'.err &&
		grep "DUMP IS DONE" b'$b'.err &&
		grep "^  DUMP: Writing '$b' Kilobyte records$" b'$b'.err &&
		test $(( $(wc -c <b'$b'.dump) % ('$b' * 1024) )) = 0 &&
		test "$(od -An -td4 -j 896 -N 4 b'$b'.dump | tr -d " ")" = '$b' &&
		"$ORACLE_RESTORE" -t -b '$b' -f b'$b'.dump 2>/dev/null | tlist >b'$b'.list &&
		test_cmp src.list b'$b'.list
	'
done

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'dump -b 64 and -b 1024: restore -r gives the source tree' '
	restore_manifest "$PWD/b64.dump" r64 >r64.man && test_cmp src.man r64.man &&
	restore_manifest "$PWD/b1024.dump" r1024 >r1024.man && test_cmp src.man r1024.man
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'dump -b 64 to a pipe' '
	"$DUMP" -0 -b 64 -f - -D dd "$dev" 2>/dev/null | cat >p64.dump &&
	test $(( $(wc -c <p64.dump) % 65536 )) = 0 &&
	"$ORACLE_RESTORE" -t -f p64.dump 2>/dev/null | tlist >p64.list &&
	test_cmp src.list p64.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'key-letter form: dump 0usfD 1048576 FILE DUMPDATES DEVICE' '
	rm -f kd &&
	"$DUMP" 0usfD 1048576 key.dump kd "$dev" 2>key.err &&
	grep "DUMP IS DONE" key.err &&
	grep "^$dev 0 [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* [0-9]* [-+][0-9][0-9][0-9][0-9]$" kd &&
	"$ORACLE_RESTORE" -t -f key.dump 2>/dev/null | tlist >key.list &&
	test_cmp src.list key.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'key-letter form as Amanda sends it: dump 0usf 1048576 - DEVICE' '
	"$DUMP" 0usfD 1048576 - kd2 "$dev" 2>key2.err >key2.dump &&
	grep "DUMP IS DONE" key2.err &&
	blocks=$(( $(wc -c <key2.dump) / 1024 )) &&
	mb=$(awk -v b=$blocks "BEGIN { printf \"%.2f\", b * 1024 / 1048576 }") &&
	grep -x "  DUMP: $blocks blocks ($mb""MB)" key2.err &&
	"$ORACLE_RESTORE" -t -f key2.dump 2>/dev/null | tlist >key2.list &&
	test_cmp src.list key2.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'operand LABEL= and UUID= name the device' '
	"$DUMP" -0 -f lbl.dump -D dd "LABEL=$LABEL" 2>lbl.err &&
	grep "^  DUMP: Dumping $dev " lbl.err &&
	grep "DUMP IS DONE" lbl.err &&
	"$ORACLE_RESTORE" -t -f lbl.dump 2>/dev/null | tlist >lbl.list &&
	test_cmp src.list lbl.list &&
	"$DUMP" -0 -f uuid.dump -D dd "UUID=$UUID" 2>uuid.err &&
	grep "^  DUMP: Dumping $dev " uuid.err &&
	grep "DUMP IS DONE" uuid.err
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE 'operand: the mount point of the mounted file system' '
	"$DUMP" -0 -f mp.dump -D dd "$M" 2>mp.err &&
	grep "DUMP IS DONE" mp.err &&
	grep "^  DUMP: Dumping $dev ($M) to mp.dump$" mp.err &&
	"$ORACLE_RESTORE" -t -f mp.dump 2>/dev/null | tlist >mp.list &&
	test_cmp src.list mp.list
'

test_expect_success ROOT,LOOP,OURDUMP,ORACLE,!DUMP_IS_ORACLE 'operand: the image file itself (unmounted copy)' '
	cp fs.img copy.img &&
	"$DUMP" -0 -f img.dump -D dd "$PWD/copy.img" 2>img.err &&
	grep "DUMP IS DONE" img.err &&
	restore_manifest "$PWD/img.dump" ri >ri.man && test_cmp src.man ri.man
'

test_expect_success ROOT,UNPRIV,LOOP,OURDUMP,ORACLE 'a user in group disk (not root) can dump a readable device' '
	disk_gid=$(getent group disk | cut -d: -f3) && test -n "$disk_gid" &&
	disk_readable "$dev" &&
	setpriv --reuid 65534 --regid "$disk_gid" --clear-groups \
		"$DUMP" -0 -f - -D /nonexistent/dumpdates "$dev" >user.dump 2>user.err &&
	grep "DUMP IS DONE" user.err &&
	"$ORACLE_RESTORE" -t -f user.dump 2>/dev/null | tlist >user.list &&
	test_cmp src.list user.list
'

test_done
