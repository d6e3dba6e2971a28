#!/bin/sh
test_description='dump output pipeline: record stream, write sizes, output errors

The writer writes whole records back to back in 1 MiB chunks (the largest
multiple of the record size <= 1 MiB) to files, and at most 128 KiB (or one
record, if larger) at a time into pipes; -f - gives the same stream as a file.
A file output is sent to writeback every 8 MiB and each window, once
waited for on disk (a few windows later, or at the end), is dropped from
the page cache; a failed wait ends the dump like a failed fsync.  End of media, a vanished reader and an unwritable output
each end the dump with one clear message and exit 3 (1 for the open), never
"DUMP IS DONE".'
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 && test_set_prereq STRACE
command -v mke2fs >/dev/null 2>&1 && test_set_prereq MKE2FS
command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID

# LeakSanitizer cannot run under ptrace: the strace checks turn it off
# (the other checks of the sanitizer build keep it).

# The largest multiple of the record size (b KiB) that is <= 1 MiB.
chunk() {
	echo $(( (1048576 / ($1 * 1024)) * $1 * 1024 ))
}

test_expect_success OURDUMP,MKE2FS 'setup: an ext4 image with ~12 MiB of data' '
	random_image img
'

for b in 1 10 64 1024
do
	test_expect_success OURDUMP,MKE2FS "-b $b: file holds whole records, size = blocks reported" "
		\"\$DUMP\" -0 -b $b -f out.$b img 2>err.$b &&
		grep 'DUMP IS DONE' err.$b &&
		size=\$(stat -c %s out.$b) &&
		test \$((size % ($b * 1024))) -eq 0 &&
		blocks=\$(sed -n 's/^  DUMP: Volume 1 \\([0-9]*\\) blocks.*/\\1/p' err.$b) &&
		test \$((blocks * 1024)) -eq \$size
	"

	test_expect_success OURDUMP,MKE2FS,STRACE "-b $b: every write but the last is one full chunk" "
		ASAN_OPTIONS=\"\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}detect_leaks=0\" \\
		strace -ff -qq -y -e trace=write,writev -o trace.$b \"\$DUMP\" -0 -b $b -f out.$b img 2>/dev/null &&
		fd_sizes=\$(cat trace.$b.* | grep '^writev\\{0,1\\}([0-9]*<[^>]*/out\\.$b>,' |
			sed -n 's/^writev\\{0,1\\}(.*= \\([0-9]*\\)\$/\\1/p') &&
		total=0 && n=0 && last= &&
		for s in \$fd_sizes; do
			if test -n \"\$last\"; then test \$last -eq $(chunk $b) || return 1; fi
			last=\$s; total=\$((total + s)); n=\$((n + 1))
		done &&
		test \$n -gt 0 &&
		test \$total -eq \$(stat -c %s out.$b)
	"
done

test_expect_success OURDUMP,MKE2FS '-f - to a pipe: same size as to a file, valid start' '
	"$DUMP" -0 -f - img 2>err.pipe | cat >out.pipe &&
	grep "DUMP IS DONE" err.pipe &&
	! grep "Closing" err.pipe &&
	test $(stat -c %s out.pipe) -eq $(stat -c %s out.10)
'

test_expect_success OURDUMP,MKE2FS,STRACE '-f - to a pipe: no write over 128 KiB, the same size' '
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -e trace=write,writev -o trace.pipe "$DUMP" -0 -f - img 2>/dev/null | { sleep 1; cat; } >out.pipe2 &&
	sizes=$(cat trace.pipe.* | sed -n "s/^writev\{0,1\}(1,.*= \([0-9]*\)\$/\1/p") &&
	n=0 && for s in $sizes; do test $s -le 131072 || return 1; n=$((n + 1)); done &&
	test $n -gt $(($(stat -c %s out.pipe2) / 131072)) &&
	test $(stat -c %s out.pipe2) -eq $(stat -c %s out.pipe)
'

test_expect_success OURDUMP,MKE2FS,ORACLE '-f - stream is read by restore 0.4b47' '
	"$ORACLE_RESTORE" -t -f out.pipe >list 2>/dev/null &&
	grep "/f6\$" list && grep "/d/one\$" list
'

# End of media asks for the next volume on /dev/tty; setsid
# leaves dump without a terminal, so it aborts there as 0.4b47 does.
test_expect_success OURDUMP,MKE2FS,SETSID 'output disk full (/dev/full): End of tape, no terminal, exit 3' '
	test_expect_code_3() { "$@"; test $? -eq 3; } &&
	test_expect_code_3 setsid -w "$DUMP" -0 -f /dev/full img 2>err.full </dev/null &&
	grep "End of tape detected" err.full &&
	grep "Change Volumes: Mount volume #2" err.full &&
	grep "fopen on /dev/tty fails" err.full &&
	! grep "DUMP IS DONE" err.full
'

# Five windows: the writer waits for the first two while it writes the
# last ones, and for the rest at the end.
test_expect_success OURDUMP,MKE2FS 'setup: an image with ~48 MiB of data (five writeback windows)' '
	mkdir tree30 &&
	for i in 1 2 3 4 5; do
		head -c 10000000 /dev/urandom >tree30/f$i || return 1
	done &&
	mke2fs -q -t ext4 -d tree30 img30 72M
'

# The writer's sync_file_range/fadvise64/fsync calls on out30, one per
# line as "call offset length flags".
output_calls() {
	cat trace30.* |
		sed -n "s/^\(sync_file_range\|fadvise64\)([0-9]*<[^>]*\/out30>, \([0-9]*\), \([0-9]*\), \([A-Z_|]*\)) = 0\$/\1 \2 \3 \4/p; s/^fsync([0-9]*<[^>]*\/out30>) = 0\$/fsync/p"
}

test_expect_success OURDUMP,MKE2FS,STRACE 'file output: each window is dropped from the cache only once waited for on disk' '
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -y -e trace=sync_file_range,fadvise64,fsync -o trace30 \
		"$DUMP" -0 -b 64 -f out30 img30 2>err30 &&
	grep "DUMP IS DONE" err30 &&
	output_calls >calls30 &&
	cat calls30 &&
	grep -c "^fadvise64 .* POSIX_FADV_DONTNEED\$" calls30 >ndrop &&
	test $(cat ndrop) -ge 2 &&
	dropped=0 &&
	while read -r call off len flags
	do
		case $call in
		fadvise64)
			grep -q "^sync_file_range $off $len SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE|SYNC_FILE_RANGE_WAIT_AFTER\$" calls30 &&
			test $off -eq $dropped || return 1
			dropped=$((off + len)) ;;
		esac
	done <calls30 &&
	test $dropped -le $(stat -c %s out30) &&
	test "$(tail -n 1 calls30)" = fsync &&
	: a wait during the dump ends before the window started last but one &&
	awk "\$1 == \"sync_file_range\" && \$4 == \"SYNC_FILE_RANGE_WRITE\" {
		if (recent) bad = 1; cur = \$2
	} \$4 ~ /WAIT_AFTER/ { recent = \$2 + \$3 >= cur }
	END { exit bad }" calls30
'

# The waits lag some windows behind the writing, so they are not at a
# fixed place: inject the EIO into the sync_file_range call that was the
# first wait in the run above (during the dump), then into the last one
# (at its end).
for which in first last
do
	test_expect_success OURDUMP,MKE2FS,STRACE,SETSID "a failed wait for writeback ($which): Cannot flush output, exit 3" '
		test_expect_code_3() { "$@"; test $? -eq 3; } &&
		grep "^sync_file_range " calls30 |
			grep -n "SYNC_FILE_RANGE_WAIT_BEFORE" | sed "s/:.*//" >waits30 &&
		if test '$which' = first; then nth=$(head -n 1 waits30); else nth=$(tail -n 1 waits30); fi &&
		test -n "$nth" &&
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		test_expect_code_3 setsid -w strace -f -qq -o /dev/null \
			-e trace=sync_file_range -e inject=sync_file_range:error=EIO:when=$nth \
			"$DUMP" -0 -b 64 -f out30e img30 2>err30e </dev/null &&
		cat err30e &&
		grep "Cannot flush output \"out30e\": Input/output error" err30e &&
		! grep "DUMP IS DONE" err30e
	'
done

test_expect_success OURDUMP,MKE2FS 'reader goes away: Broken pipe, exit 3' '
	{ "$DUMP" -0 -f - img 2>err.epipe; echo $? >rc.epipe; } | head -c 1000 >/dev/null &&
	test $(cat rc.epipe) -eq 3 &&
	grep "Broken pipe" err.epipe &&
	! grep "DUMP IS DONE" err.epipe
'

test_expect_success OURDUMP,MKE2FS 'unwritable output: Cannot open output, non-zero exit' '
	test_must_fail "$DUMP" -0 -f nodir/out img 2>err.open &&
	grep "Cannot open output \"nodir/out\": No such file or directory" err.open &&
	! grep "DUMP IS DONE" err.open
'

test_expect_success OURDUMP,MKE2FS,ROOT,SETSID 'regular file on a full file system: End of tape, no terminal, exit 3' '
	scratch_mount tmpfs small size=2m &&
	test_when_finished "image_umount small" &&
	test_expect_code_3() { "$@"; test $? -eq 3; } &&
	test_expect_code_3 setsid -w "$DUMP" -0 -f small/out img 2>err.enospc </dev/null &&
	grep "End of tape detected" err.enospc &&
	grep "Change Volumes: Mount volume #2" err.enospc &&
	! grep "DUMP IS DONE" err.enospc
'

test_done
