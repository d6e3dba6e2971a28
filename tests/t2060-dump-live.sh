#!/bin/sh
test_description='dump of a mounted, written file system: what was written is what is archived

A mounted ext4 writes file data past the device page cache, so a dump
that reads the device through that cache can archive bytes an earlier
reader left there, and data not yet written back is not on the disk at
all.  Each case mounts a fresh ext4 read-write, fills the device page
cache with a plain read of the whole device (as any earlier backup or
dd would), rewrites a file in place (synced) and writes a new one (not
synced), dumps, and restores: both files must hold what cat showed at
dump time.  Block sizes 1 KiB and 4 KiB; operand the device or the mount
point; run as root and as a user in group disk.  dump 0.4b47 runs the
same cases: as root it flushes the cache and is right; as a user in
group disk it cannot, and archives the old bytes.'
. "$(dirname "$0")/lib.sh"

disk_gid=$(getent group disk | cut -d: -f3)
test -n "$disk_gid" && test_set_prereq DISKGROUP
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 && test_set_prereq CC

# The mount points live in a directory every user can search (short_dir;
# TMPDIR and the trash directory may be closed), so that a dump run as a
# user in group disk can open them (for syncfs).
mnt_top=
if test_have_prereq ROOT
then
	mnt_top=$(short_dir) || exit 1
fi

# as_user root|disk CMD...: run CMD as root or as uid 34 (backup) with
# only group disk.
as_user() {
	lu_who=$1
	shift
	if test "$lu_who" = root
	then
		"$@"
	else
		setpriv --reuid=34 --regid="$disk_gid" --clear-groups "$@"
	fi
}

# pin_device NAME DEV: hold the whole of DEV (64 MiB) in its page cache
# (pin_cache) until the check ends.  Where a check asserts that
# 0.4b47 reads stale cached bytes, the cached copy must outlive the
# rewrite whatever else runs (a drop_caches between the plain read and
# the dump would let 0.4b47 read the new bytes): drop_caches skips mapped
# pages.
pin_device() {
	pin_cache "$2" 0 67108864 "$PWD/$1.unpin" &&
	test_when_finished "touch $PWD/$1.unpin; wait $pin_pid"
}

# live_case NAME BLOCKSIZE device|mountpoint root|disk DUMP [pin]: the
# whole scenario; leaves NAME.f.want, NAME.g.want and the restored
# NAME.r/.  With "pin" the device's cached copy is held (pin_device).
live_case() {
	lc_name=$1 lc_bs=$2 lc_how=$3 lc_who=$4 lc_dump=$5 lc_pin=${6-}
	lc_mnt=$mnt_top/$lc_name
	truncate -s 64M "$lc_name.img" &&
	mke2fs -q -F -t ext4 -b "$lc_bs" "$lc_name.img" &&
	lc_dev=$(image_attach "$lc_name.img") &&
	image_mount "$lc_dev" "$lc_mnt" &&
	test_when_finished "image_umount $lc_mnt; rmdir $lc_mnt; image_detach $lc_dev" &&
	disk_readable "$lc_dev" &&
	head -c 3145728 /dev/urandom >"$lc_mnt/f" && sync &&
	dd if="$lc_dev" of=/dev/null bs=1M 2>/dev/null &&
	{ test -z "$lc_pin" || pin_device "$lc_name" "$lc_dev"; } &&
	head -c 3145728 /dev/urandom >"$lc_name.new" &&
	dd if="$lc_name.new" of="$lc_mnt/f" bs=64k conv=notrunc 2>/dev/null &&
	sync &&
	head -c 2097152 /dev/urandom >"$lc_mnt/g" &&
	cat "$lc_mnt/f" >"$lc_name.f.want" && cat "$lc_mnt/g" >"$lc_name.g.want" &&
	if test "$lc_how" = device
	then
		lc_operand=$lc_dev
	else
		lc_operand=$lc_mnt
	fi &&
	as_user "$lc_who" "$lc_dump" -0 -f - -D /nonexistent/dumpdates \
		"$lc_operand" >"$lc_name.dump" 2>"$lc_name.err" &&
	grep "DUMP IS DONE" "$lc_name.err" &&
	mkdir "$lc_name.r" &&
	(cd "$lc_name.r" && "$RESTORE" -r -f "../$lc_name.dump")
}

# restored_right NAME: both files came back as they were at dump time.
restored_right() {
	cmp "$1.f.want" "$1.r/f" && cmp "$1.g.want" "$1.r/g"
}

for bs in 1024 4096
do
	for how in device mountpoint
	do
		for who in root disk
		do
			who_needs=
			test $who = root || who_needs=,DISKGROUP,UNPRIV
			test_expect_success ROOT,LOOP,OURDUMP$who_needs \
				"ext4 -b $bs, operand $how, as $who: the new data is archived" "
				live_case ours-$bs-$how-$who $bs $how $who \"\$DUMP\" &&
				restored_right ours-$bs-$how-$who
			"
		done
	done
	test_expect_success ROOT,LOOP,OURDUMP,DISKGROUP,UNPRIV \
		"ext4 -b $bs: the mounted file system is flushed, with a line saying so" "
		grep '^  DUMP: .* is mounted on .*: flushing it to disk first (syncfs)\$' \
			ours-$bs-device-disk.err &&
		grep '^  DUMP: .* is mounted on .*: flushing it to disk first (syncfs)\$' \
			ours-$bs-mountpoint-root.err
	"
	test_expect_success ROOT,LOOP,ORACLE \
		"dump 0.4b47, ext4 -b $bs, as root: the new data is archived" "
		live_case ref-$bs-root $bs device root \"\$ORACLE_DUMP\" &&
		restored_right ref-$bs-root
	"
	test_known_upstream_defect ROOT,LOOP,ORACLE,DISKGROUP,UNPRIV,CC \
		"dump 0.4b47, ext4 -b $bs, as a user in group disk: archives stale bytes" "
		live_case ref-$bs-disk $bs device disk \"\$ORACLE_DUMP\" pin &&
		! restored_right ref-$bs-disk
	"
done

test_expect_success ROOT,LOOP,OURDUMP 'an image file mounted through a loop device is flushed too' '
	truncate -s 64M li.img && mke2fs -q -F -t ext4 li.img &&
	image_mount li.img "$mnt_top/li" &&
	test_when_finished "image_umount $mnt_top/li; rmdir $mnt_top/li" &&
	head -c 2097152 /dev/urandom >"$mnt_top/li/g" &&
	cat "$mnt_top/li/g" >li.want &&
	"$DUMP" -0 -f li.dump -D /nonexistent/dumpdates "$PWD/li.img" 2>li.err &&
	grep "^  DUMP: $PWD/li.img is mounted on $mnt_top/li: flushing" li.err &&
	mkdir li.r && (cd li.r && "$RESTORE" -r -f ../li.dump) &&
	cmp li.want li.r/g
'

# changed_case NAME [DUMP OPTIONS]: dump a mounted ext4 holding a 24 MiB
# file "grow" (more than the pipeline holds) into a reader that stops
# once grow's inode header has gone by; then append to grow, let the
# reader go on.  Leaves NAME.err and the exit status in NAME.rc.
changed_case() {
	cc_name=$1
	shift
	truncate -s 64M "$cc_name.img" && mke2fs -q -F -t ext4 "$cc_name.img" &&
	image_mount "$cc_name.img" "$mnt_top/$cc_name" &&
	test_when_finished "image_umount $mnt_top/$cc_name; rmdir $mnt_top/$cc_name" &&
	head -c 1000 /dev/urandom >"$mnt_top/$cc_name/small" &&
	head -c 25165824 /dev/urandom >"$mnt_top/$cc_name/grow" && sync &&
	cc_ino=$(stat -c %i "$mnt_top/$cc_name/grow") || return 1
	{
		"$DUMP" -0 -f - "$@" "$mnt_top/$cc_name" 2>"$cc_name.err"
		echo $? >"$cc_name.rc"
	} | "$PYTHON" "$HELPERS/pausereader.py" "$cc_ino" "$cc_name.paused" \
		"$cc_name.go" "$cc_name.dump" &
	cc_pid=$!
	while ! test -f "$cc_name.paused"
	do
		# (a reader that ended without pausing fails the check)
		kill -0 $cc_pid 2>/dev/null || break
		sleep 0.1
	done
	head -c 4096 /dev/urandom >>"$mnt_top/$cc_name/grow"
	touch "$cc_name.go"
	wait $cc_pid &&
	grep "^  DUMP: /grow: file changed as we read it\$" "$cc_name.err"
}

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'a file appended to as it is read is reported and counted' '
	changed_case ch -D /nonexistent/dumpdates &&
	test "$(cat ch.rc)" = 0 &&
	test "$(grep -c "file changed as we read it" ch.err)" = 1 &&
	grep "^  DUMP: 1 file(s) changed as we read them\$" ch.err &&
	grep "DUMP IS DONE" ch.err
'

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'with --strict a changed file fails the dump and dumpdates is left alone' '
	: >strict.dd &&
	changed_case st --strict -u -D "$PWD/strict.dd" &&
	test "$(cat st.rc)" = 4 &&
	grep "^  DUMP: --strict: dumpdates is not updated\$" st.err &&
	test ! -s strict.dd
'

test_expect_success ROOT,LOOP,OURDUMP 'an unchanged file system: no changed line, --strict exits 0 and updates dumpdates' '
	truncate -s 64M q.img && mke2fs -q -F -t ext4 q.img &&
	image_mount q.img "$mnt_top/q" &&
	test_when_finished "image_umount $mnt_top/q; rmdir $mnt_top/q" &&
	head -c 3000000 /dev/urandom >"$mnt_top/q/f" && sync &&
	: >q.dd &&
	"$DUMP" -0u --strict -D "$PWD/q.dd" -f q.dump "$mnt_top/q" 2>q.err &&
	! grep "changed as we read" q.err &&
	test -s q.dd
'

test_done
