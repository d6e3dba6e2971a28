# tests/lib.sh - the shared library every tests/tNNNN-*.sh sources.
#
# POSIX sh (runs under dash and bash). A script sets test_description,
# sources this file, runs checks with test_expect_success & co. and ends
# with test_done. Output is TAP: "ok N - title", "not ok N - title",
# "ok N # skip ..." and a closing "1..N". Each script runs in its own trash
# directory tests/trash.<script>/ (removed on success, kept on failure or
# with -d). Loop devices and mounts made through image_attach/image_mount
# are undone on exit, also after a failure or an interrupt.
#
# Options: -v (show the commands' output), -i (stop at the first failure),
# -d (keep the trash directory), -x (trace the bodies with set -x).

# ---- environment: make every run alike ---------------------------------
# No controlling terminal, run by hand or by run.sh alike: a program
# under test that asks on /dev/tty must not wait for the developer (the
# checks of a terminal make one with script(1)), and the checks of what
# happens without one must not pass or fail by where they were started.
# With a terminal the script runs again in a session of its own; a
# signal to this shell is passed on to that session.
if test -z "${LIB_OWN_SESSION:-}" && (exec </dev/tty) 2>/dev/null &&
	command -v setsid >/dev/null 2>&1
then
	LIB_OWN_SESSION=1
	export LIB_OWN_SESSION
	# A job of this (non-interactive) shell leads no process group, so
	# setsid makes the session without forking: its id is $!.
	setsid -w sh "$0" "$@" &
	lib_session=$!
	trap 'kill -TERM -$lib_session 2>/dev/null' INT TERM HUP
	while :
	do
		wait $lib_session
		lib_rc=$?
		kill -0 $lib_session 2>/dev/null || exit $lib_rc
	done
fi

LC_ALL=C LANG=C TZ=UTC
export LC_ALL LANG TZ
# RMT names the rmt under test (below); the other variables would change
# what dump and restore do.
lib_rmt=${RMT:-}
unset LANGUAGE LC_CTYPE LC_MESSAGES CDPATH GREP_OPTIONS TAPE RSH RMT
# Knobs of single scripts, a preload (eatmydata makes fsync and syncfs
# no-ops: dump would read a device never written) and readline's own
# settings of the developer are not part of any check.
unset IMAGE_PREALLOC RESTORE_WITH HOSTILE_RESTORE LD_PRELOAD
INPUTRC=/dev/null
export INPUTRC
umask 022
# A program expected to crash (0.4b47 on a hostile archive) would leave
# a core file in the directory a check compares.
ulimit -c 0

test_verbose= test_immediate= test_debug= test_trace=
for test_arg
do
	case "$test_arg" in
	-v|--verbose) test_verbose=t ;;
	-i|--immediate) test_immediate=t ;;
	-d|--debug) test_debug=t ;;
	-x) test_trace=t ;;
	*) echo "lib.sh: unknown option $test_arg" >&2; exit 1 ;;
	esac
done

if test -z "${test_description:-}"
then
	echo "lib.sh: the script must set test_description first" >&2
	exit 1
fi

# Physical paths (pwd -P): the kernel names a mount point below the
# trash directory without the symlinks a checkout path may hold, and
# dump prints it so.
TEST_DIR=$(cd "$(dirname "$0")" && pwd -P)
TOP=${TOP:-$(cd "$TEST_DIR/.." && pwd -P)}
HELPERS=$TOP/tests/helpers
TEST_NAME=$(basename "$0" .sh)
# The binaries under test; overridable so the tests can be proven against
# dump 0.4b47 itself (DUMP=$ORACLE_DUMP sh tests/t2000-...).
DUMP=${DUMP:-$TOP/dump/dump}
RESTORE=${RESTORE:-$TOP/restore/restore}
RMT=${lib_rmt:-$TOP/rmt/rmt}
ORACLE_DUMP=$TOP/tests/oracle/sbin/dump
ORACLE_RESTORE=$TOP/tests/oracle/sbin/restore
ORACLE_RMT=$TOP/tests/oracle/usr/sbin/rmt-dump
# dump 0.4b49 (Debian trixie) and 0.4b56 (forky), run through their own
# suite's loader and libraries (helpers/fetch-upstream.sh).
UPSTREAM49=$TOP/tests/oracle/trixie/bin
UPSTREAM56=$TOP/tests/oracle/forky/bin
PYTHON=${PYTHON:-python3}
export TOP HELPERS DUMP RESTORE RMT ORACLE_DUMP ORACLE_RESTORE ORACLE_RMT PYTHON
export UPSTREAM49 UPSTREAM56

TRASH_DIRECTORY=$TEST_DIR/trash.$TEST_NAME
# Cleanup state lives outside the trash so a body may empty its cwd.
LIB_STATE=$(mktemp -d "${TMPDIR:-/tmp}/dumptest.$TEST_NAME.XXXXXX") || exit 1
: >"$LIB_STATE/mounts"
: >"$LIB_STATE/loops"
# No libblkid cache at all: a cache, shared or of this script, trusts
# an entry probed less than 2 s before without looking at the device
# again, so a loop device detached and attached to another image within
# that time (by this script, or another one taking and giving back
# numbers) keeps the label of the image before; dump 0.4b47 writes that
# into c_label.  Through /dev/null every lookup probes the device.
BLKID_FILE=/dev/null
export BLKID_FILE
# mke2fs and e2fsck read the administrator's /etc/mke2fs.conf and
# /etc/e2fsck.conf.  Named files that do not exist make them use the
# defaults built into e2fsprogs, so the block size, inode size and
# features of an image do not depend on how this machine is set up.
MKE2FS_CONFIG=$LIB_STATE/none/mke2fs.conf
E2FSCK_CONFIG=$LIB_STATE/none/e2fsck.conf
export MKE2FS_CONFIG E2FSCK_CONFIG
# The interpreter (helpers/python.sh says which; run.sh chose it once
# for a whole run). It goes first in PATH, for the helpers that call
# python3 by name.
case "$PYTHON" in
/*) ;;
*) . "$HELPERS/python.sh"
	lib_py=$(pick_python "$PYTHON") && test -x "$lib_py" && PYTHON=$lib_py ;;
esac
if test -x "$PYTHON"
then
	mkdir "$LIB_STATE/bin" && ln -s "$PYTHON" "$LIB_STATE/bin/python3" &&
	PATH=$LIB_STATE/bin:$PATH && export PATH
fi

test_count=0 test_fail=0 test_success=0 test_skip=0 test_known=0
test_cleanup_cmds=
lib_at_exit=

# ---- output --------------------------------------------------------------
# Without -v a check's output goes to a file of its own, of which a
# failed check shows the end: a failure seen only once, on a CI machine
# whose trash is gone, still says what went wrong.
if test -n "$test_verbose"
then
	exec 4>&2 3>&1
else
	exec 4>/dev/null 3>/dev/null
fi
lib_check_out=$LIB_STATE/check.out

say() { printf '%s\n' "$*"; }

# ---- cleanup of loops and mounts ----------------------------------------
lib_undo_images() {
	# Newest first: a mount sits on a loop device attached just before it.
	if test -s "$LIB_STATE/mounts"
	then
		sort -rn "$LIB_STATE/mounts" | while read -r n dir
		do
			umount "$dir" 2>/dev/null ||
			{ sleep 1; umount "$dir" 2>/dev/null; } ||
			umount -l "$dir" 2>/dev/null
		done
	fi
	: >"$LIB_STATE/mounts"
	if test -s "$LIB_STATE/loops"
	then
		sort -rn "$LIB_STATE/loops" | while read -r n dev
		do
			losetup -d "$dev" 2>/dev/null
		done
	fi
	: >"$LIB_STATE/loops"
}

lib_exit() {
	lib_rc=$?
	trap - EXIT INT TERM HUP
	cd "$TEST_DIR" 2>/dev/null
	test -z "$lib_at_exit" || eval "$lib_at_exit" >&3 2>&4
	lib_undo_images
	lib_remove_short_dirs
	rm -rf "$LIB_STATE"
	exit $lib_rc
}
trap lib_exit EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM HUP PIPE

# ---- prerequisites -------------------------------------------------------
test_set_prereq() {
	lib_prereqs="$lib_prereqs,$1,"
}
lib_prereqs=,

test_have_prereq() {
	lib_missing=
	lib_saved_ifs=$IFS
	IFS=,
	for lib_p in $1
	do
		case "$lib_p" in
		!*)
			# "!NAME": NAME must not be set.
			case "$lib_prereqs" in
			*",${lib_p#!},"*) lib_missing="${lib_missing:+$lib_missing,}$lib_p" ;;
			esac ;;
		*)
			case "$lib_prereqs" in
			*",$lib_p,"*) ;;
			*) lib_missing="${lib_missing:+$lib_missing,}$lib_p" ;;
			esac ;;
		esac
	done
	IFS=$lib_saved_ifs
	test -z "$lib_missing"
}

test "$(id -u)" = 0 && test_set_prereq ROOT
if test "$(id -u)" = 0 && losetup -f >/dev/null 2>&1
then
	test_set_prereq LOOP
fi
test -x "$ORACLE_DUMP" && test -x "$ORACLE_RESTORE" && test_set_prereq ORACLE
test -x "$UPSTREAM49/dump" && test -x "$UPSTREAM49/restore" && test_set_prereq UPSTREAM49
test -x "$UPSTREAM56/dump" && test -x "$UPSTREAM56/restore" && test_set_prereq UPSTREAM56
test -x "$DUMP" && test_set_prereq OURDUMP
test -x "$RESTORE" && test_set_prereq OURRESTORE
test -x "$RMT" && test_set_prereq OURRMT
# The tests of our dump can be proven against dump 0.4b47 itself; checks
# of a 0.4b47 defect then use !DUMP_IS_ORACLE / DUMP_IS_ORACLE pairs.
test -x "$DUMP" && test "$DUMP" -ef "$ORACLE_DUMP" && test_set_prereq DUMP_IS_ORACLE
test -x "$RESTORE" && test "$RESTORE" -ef "$ORACLE_RESTORE" && test_set_prereq RESTORE_IS_ORACLE
command -v "$PYTHON" >/dev/null 2>&1 && test_set_prereq PYTHON
command -v setfattr >/dev/null 2>&1 && test_set_prereq ATTR

# ---- running checks ------------------------------------------------------
test_when_finished() {
	test_cleanup_cmds="$*
$test_cleanup_cmds"
}

# Runs BODY in this shell (so setup checks can set variables for later
# ones), its output hidden unless -v; then the registered cleanups.
# A body runs inside lib_body, so that a "return 1" in it (the usual way
# out of a loop) ends the body, not lib_run before its cleanups.
lib_body() {
	eval "$1"
}

# lib_out CMD...: CMD with its output shown (-v) or kept for lib_failed.
lib_out() {
	if test -n "$test_verbose"
	then
		"$@" >&3 2>&4
	else
		"$@" >>"$lib_check_out" 2>&1
	fi
}

lib_run() {
	test_cleanup_cmds=
	test -z "${TEST_TIMES:-}" || lib_started=$(date +%s%N)
	cd "$TRASH_DIRECTORY" || exit 1
	: >"$lib_check_out"
	if test -n "$test_trace"
	then
		lib_out lib_body "set -x
$1"
		lib_body_rc=$?
		set +x
	else
		lib_out lib_body "$1"
		lib_body_rc=$?
	fi
	if test -n "$test_cleanup_cmds"
	then
		lib_out eval "$test_cleanup_cmds" || lib_body_rc=1
	fi
	cd "$TRASH_DIRECTORY" || exit 1
	# TEST_TIMES=1: how long each check took, to find the slow ones.
	test -z "${TEST_TIMES:-}" ||
		say "# $(( ($(date +%s%N) - lib_started) / 1000000 )) ms: $lib_title"
	return $lib_body_rc
}

lib_args() {
	# Sets lib_req, lib_title, lib_body from [PREREQS] TITLE BODY.
	if test $# = 3
	then
		lib_req=$1 lib_title=$2 lib_body=$3
	elif test $# = 2
	then
		lib_req= lib_title=$1 lib_body=$2
	else
		echo "lib.sh: bug in the test script: need [PREREQS] TITLE BODY" >&2
		exit 1
	fi
}

lib_skip_missing() {
	if test -n "$lib_req" && ! test_have_prereq "$lib_req"
	then
		test_skip=$((test_skip + 1))
		say "ok $test_count # skip $lib_title (missing $lib_missing)"
		return 0
	fi
	return 1
}

lib_failed() {
	test_fail=$((test_fail + 1))
	say "not ok $test_count - $1"
	if test -z "$test_verbose" && test -s "$lib_check_out"
	then
		say "#   the check's output, last 40 lines:"
		tail -n 40 "$lib_check_out" | sed 's/^/#   | /'
	fi
	if test -n "$test_immediate"
	then
		test_debug=t
		say "# stopping at the first failure (-i); trash kept"
		test_done
	fi
}

test_expect_success() {
	lib_args "$@"
	test_count=$((test_count + 1))
	lib_skip_missing && return 0
	if lib_run "$lib_body"
	then
		test_success=$((test_success + 1))
		say "ok $test_count - $lib_title"
	else
		lib_failed "$lib_title"
	fi
}

# A known breakage of ours: reported and counted as a failure either way
# (so it is never hidden), with a note when it no longer breaks.
test_expect_failure() {
	lib_args "$@"
	test_count=$((test_count + 1))
	lib_skip_missing && return 0
	if lib_run "$lib_body"
	then
		test_success=$((test_success + 1))
		say "ok $test_count - $lib_title # TODO known breakage vanished"
	else
		test_known=$((test_known + 1))
		lib_failed "$lib_title # TODO known breakage"
	fi
}

# BODY checks that the defect of dump 0.4b47 shows (and nothing else goes
# wrong); then the check is a skip, never a pass. If BODY fails, something
# unexpected happened: a failure.
test_known_upstream_defect() {
	lib_args "$@"
	test_count=$((test_count + 1))
	lib_skip_missing && return 0
	if lib_run "$lib_body"
	then
		test_skip=$((test_skip + 1))
		say "ok $test_count # skip known upstream defect: $lib_title"
	else
		lib_failed "$lib_title (expected upstream defect did not show as described)"
	fi
}

test_must_fail() {
	"$@"
	lib_rc=$?
	if test $lib_rc = 0
	then
		echo "test_must_fail: command succeeded: $*" >&2
		return 1
	elif test $lib_rc -gt 128 && test $lib_rc -le 192
	then
		echo "test_must_fail: died by signal $((lib_rc - 128)): $*" >&2
		return 1
	elif test $lib_rc = 127 || test $lib_rc = 126
	then
		echo "test_must_fail: command not found or not runnable: $*" >&2
		return 1
	fi
	return 0
}

# test_at_exit CMD: run CMD when the script ends, also after a failure
# or an interrupt, before its mounts and loop devices are undone (newest
# first): for what a script changes beyond one check, e.g. machine-wide
# files it replaced after test_lock_system.
test_at_exit() {
	lib_at_exit="$*
$lib_at_exit"
}

test_cmp() {
	diff -u "$1" "$2"
}

test_done() {
	say "1..$test_count"
	if test "$test_fail" = 0
	then
		say "# passed all $test_success test(s), $test_skip skipped"
		cd "$TEST_DIR" || exit 1
		lib_undo_images
		test -n "$test_debug" ||
			rm -rf "$TRASH_DIRECTORY" ${LIB_TRASH_IMAGE:+"$LIB_TRASH_IMAGE"}
		exit 0
	fi
	say "# failed $test_fail among $test_count test(s)${test_known:+ ($test_known known breakage)}; trash kept in ${LIB_TRASH_IMAGE:-$TRASH_DIRECTORY}"
	exit 1
}

# ---- the machine's shared state ------------------------------------------
# test_lock_system: hold the machine-wide test lock until the script ends.
# A script that changes what the whole machine sees (installed packages,
# /sbin/dump, users, system services) calls it before its first such
# change, so that no two of them run at once: not under the parallel
# `make check`, and not from two work trees on one machine. The lock is
# an flock(1) on a file in /run/lock; the kernel drops it when we exit.
test_lock_system() {
	lib_lockdir=/run/lock
	test -d "$lib_lockdir" && test -w "$lib_lockdir" || lib_lockdir=/tmp
	exec 8>>"$lib_lockdir/dump-tests.system.lock" || return 1
	flock 8
}

# ---- images, loops, mounts, manifests -----------------------------------
# short_dir: print the name of a new empty directory of this script whose
# absolute path is short and free of symlinks, /tmp/dumptest.XXXXXX,
# searchable by every user: for a mount point or file whose name must fit
# a fixed field (the 64 bytes of c_filesys, "<mount point> (dir <path>)";
# rmt 0.4b47's 64-byte request line) or be reached by another user.
# Neither TMPDIR nor the trash directory gives that: both can be long or
# closed.  It is removed when the script ends, after the mounts below it
# are undone; a later run removes one a killed run left (the trash
# directory keeps a link to it).
short_dir() {
	lib_sd=$(mktemp -d /tmp/dumptest.XXXXXX) &&
	lib_sd=$(cd "$lib_sd" && pwd -P) && chmod 755 "$lib_sd" &&
	echo "$lib_sd" >>"$LIB_STATE/shortdirs" &&
	ln -s "$lib_sd" "$TRASH_DIRECTORY/.short.${lib_sd##*.}" &&
	echo "$lib_sd"
}

# lib_remove_short_dirs: remove the short_dir directories (not what may
# still be mounted below one: --one-file-system).
lib_remove_short_dirs() {
	test -s "$LIB_STATE/shortdirs" || return 0
	while read -r lib_sd
	do
		lib_clear_below "$lib_sd"
		rm -rf --one-file-system "$lib_sd"
	done <"$LIB_STATE/shortdirs"
	: >"$LIB_STATE/shortdirs"
}

# lib_clear_below DIR: unmount what is mounted below DIR and detach the
# loop devices of images below it (what a run killed hard left there).
lib_clear_below() {
	awk -v t="$1/" 'index($2, t) == 1 { print $2 }' /proc/self/mounts |
		sort -r | while read -r lib_dir
		do
			umount "$lib_dir" 2>/dev/null || umount -l "$lib_dir" 2>/dev/null
		done
	losetup -a 2>/dev/null | sed -n "s|^\(/dev/loop[0-9]*\): .*(\($1/.*\))\$|\1|p" |
		while read -r lib_dev
		do
			losetup -d "$lib_dev" 2>/dev/null
		done
}

# image_attach IMG: attach IMG read-write to a free loop device, print it.
image_attach() {
	lib_dev=$(losetup -f --show "$1") || return 1
	echo "$(wc -l <"$LIB_STATE/loops") $lib_dev" >>"$LIB_STATE/loops"
	echo "$lib_dev"
}

# image_mount IMG|DEV DIR [MOUNT-OPTIONS]: mount an image (through a loop
# device of ours) or a block device on DIR; MOUNT_DEV is then the device
# (rather than looking it up in /proc/mounts, where DIR shows under its
# physical path).
image_mount() {
	mkdir -p "$2" || return 1
	if test -b "$1"
	then
		lib_src=$1
	else
		lib_src=$(image_attach "$1") || return 1
	fi
	mount ${3:+-o "$3"} "$lib_src" "$2" || return 1
	MOUNT_DEV=$lib_src
	lib_note_mount "$2"
}

# scratch_mount TYPE DIR [MOUNT-OPTIONS]: mount a file system of no
# device (tmpfs, ramfs) on DIR, undone at the script's end, also after an
# interrupt, as image_mount's mounts are.
scratch_mount() {
	mkdir -p "$2" || return 1
	mount -t "$1" ${3:+-o "$3"} "$1" "$2" || return 1
	lib_note_mount "$2"
}

lib_note_mount() {
	echo "$(wc -l <"$LIB_STATE/mounts") $(cd "$1" && pwd)" >>"$LIB_STATE/mounts"
}

# image_umount DIR: undo one image_mount or scratch_mount early (a loop
# stays attached until the end of the script; detach it with
# image_detach if needed).
image_umount() {
	lib_dir=$(cd "$1" && pwd) || return 1
	umount "$lib_dir" || return 1
	grep -v " $lib_dir\$" "$LIB_STATE/mounts" >"$LIB_STATE/mounts.new"
	mv "$LIB_STATE/mounts.new" "$LIB_STATE/mounts"
}

image_detach() {
	losetup -d "$1" || return 1
	grep -v " $1\$" "$LIB_STATE/loops" >"$LIB_STATE/loops.new"
	mv "$LIB_STATE/loops.new" "$LIB_STATE/loops"
}

# disk_readable DEV: DEV readable by group disk (root:disk 0660) for the
# current check only; its group and mode come back with the cleanup.
disk_readable() {
	dr_mode=$(stat -c %a "$1") && dr_group=$(stat -c %g "$1") &&
	test_when_finished "chgrp $dr_group $1; chmod $dr_mode $1" &&
	chgrp disk "$1" && chmod 660 "$1"
}

# no_flush_line: standard input without the line our dump prints before
# it reads a mounted file system ("  DUMP: DEV is mounted on DIR:
# flushing it to disk first (syncfs)"), which 0.4b47 does not print: for
# comparing messages with 0.4b47's.
no_flush_line() {
	grep -v '^  DUMP: .* is mounted on .*: flushing it to disk first (syncfs)$'
}

# manifest DIR [OPTIONS]: sorted listing of the tree (helpers/manifest.py).
manifest() {
	"$PYTHON" "$HELPERS/manifest.py" "$@"
}

# random_image IMG: a 32 MiB ext4 image of "tree" (made here): six files
# of 0.5, 1, ..., 3 MB of random bytes (10.5 MB) and d/one, one byte.
random_image() {
	mkdir tree tree/d &&
	for ri_i in 1 2 3 4 5 6; do
		head -c $((ri_i * 500000)) /dev/urandom >tree/f$ri_i || return 1
	done &&
	head -c 1 /dev/urandom >tree/d/one &&
	mke2fs -q -t ext4 -d tree "$1" 32M
}

# pin_cache DEV OFFSET LENGTH STOPFILE: hold LENGTH bytes of DEV from
# OFFSET in the device's page cache, mapped and locked
# (helpers/pincache.c, built into the trash directory on first use),
# until STOPFILE exists; returns once they are held, the holder's pid in
# $pin_pid.  A check that asserts a buffered reader sees stale bytes sets
# that condition up itself: drop_caches and reclaim skip such pages.
pin_cache() {
	{ test -x "$TRASH_DIRECTORY/pincache" ||
		"${CC:-cc}" -o "$TRASH_DIRECTORY/pincache" "$HELPERS/pincache.c"; } &&
	rm -f "$4" &&
	{ "$TRASH_DIRECTORY/pincache" "$1" "$2" "$3" "$4" >"$4.out" & } &&
	pin_pid=$! &&
	for pc_i in $(seq 100)
	do
		grep -q pinned "$4.out" && return 0
		kill -0 $pin_pid 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

# make_image KIND IMG [full|nohuge|small]: a populated file system image
# (mkimage.sh). Under tests/run.sh each kind is built once per run, in
# TEST_IMAGE_CACHE, and copied from there (2.4 to 4.7 CPU-s a build,
# some 40 builds a run): mkimage.sh pins the UUID, hash seed, times and
# contents, so that a copy holds what a build would. Only the inode
# change times and the superblock's mount fields are those of the first
# build.
make_image() {
	if test -z "${TEST_IMAGE_CACHE:-}" || ! test -d "$TEST_IMAGE_CACHE"
	then
		LIB_STATE=$LIB_STATE sh "$HELPERS/mkimage.sh" "$@"
		return
	fi
	lib_image=$TEST_IMAGE_CACHE/$1-${3:-full}-prealloc${IMAGE_PREALLOC:-0}
	# One builder per kind; the others wait for it and copy.
	(
		flock 9 || exit 1
		test -f "$lib_image.img" && exit 0
		LIB_STATE=$LIB_STATE sh "$HELPERS/mkimage.sh" "$1" "$lib_image.new" "${3:-full}" &&
		mv "$lib_image.new" "$lib_image.img"
	) 9>>"$lib_image.lock" &&
	cp --sparse=always "$lib_image.img" "$2"
}

# The checks restore into the trash directory and compare what they get
# with ext4 trees: it must hold what ext4 holds (XFS, for one, takes no
# device number past a 14-bit major or 18-bit minor).  In a checkout on
# another file system it is, for root, an ext4 of its own: an image
# beside it (LIB_TRASH_IMAGE, no journal, sparse), mounted on it and
# undone with the script's other mounts; kept, as the directory is, when
# a check failed.
LIB_TRASH_IMAGE=
lib_trash_on_ext4() {
	test "$(stat -f -c %T "$TRASH_DIRECTORY")" != ext2/ext3 || return 0
	test "$(id -u)" = 0 && command -v mke2fs >/dev/null 2>&1 &&
		command -v losetup >/dev/null 2>&1 || return 0
	LIB_TRASH_IMAGE=$TRASH_DIRECTORY.ext4
	rm -f "$LIB_TRASH_IMAGE" && truncate -s 256G "$LIB_TRASH_IMAGE" &&
		mke2fs -q -F -t ext4 -O ^has_journal -m 0 -E nodiscard \
			"$LIB_TRASH_IMAGE" &&
		image_mount "$LIB_TRASH_IMAGE" "$TRASH_DIRECTORY" &&
		rmdir "$TRASH_DIRECTORY/lost+found" || {
		echo "lib.sh: cannot make an ext4 for $TRASH_DIRECTORY" >&2
		return 1
	}
}

# lib_trash_image_clear: undo what a run killed hard left of its ext4
# trash: the mount on the trash directory, the loop device, the image.
lib_trash_image_clear() {
	if awk -v t="$TRASH_DIRECTORY" '$2 == t { f = 1 } END { exit !f }' /proc/self/mounts
	then
		umount "$TRASH_DIRECTORY" 2>/dev/null || umount -l "$TRASH_DIRECTORY"
	fi
	test -e "$TRASH_DIRECTORY.ext4" || return 0
	losetup -j "$TRASH_DIRECTORY.ext4" 2>/dev/null | cut -d: -f1 |
		while read -r lib_dev
		do
			losetup -d "$lib_dev" 2>/dev/null
		done
	rm -f "$TRASH_DIRECTORY.ext4"
}

# Cleanup of a previous run (one killed hard may have left its mounts and
# loop devices; they are ours: below our trash directory), then into a
# fresh trash directory.
if test -d "$TRASH_DIRECTORY"
then
	for lib_link in "$TRASH_DIRECTORY"/.short.*
	do
		test -h "$lib_link" || continue
		lib_sd=$(readlink "$lib_link")
		case "$lib_sd" in
		*/dumptest.??????) ;;
		*) continue ;;
		esac
		lib_clear_below "$lib_sd"
		rm -rf --one-file-system "$lib_sd"
	done
	lib_clear_below "$TRASH_DIRECTORY"
	if awk -v t="$TRASH_DIRECTORY/" 'index($2, t) == 1 { f = 1 } END { exit !f }' /proc/self/mounts
	then
		echo "lib.sh: $TRASH_DIRECTORY still has mounts; not removing it" >&2
		exit 1
	fi
fi
lib_trash_image_clear
rm -rf "$TRASH_DIRECTORY"
mkdir -p "$TRASH_DIRECTORY" || exit 1
lib_trash_on_ext4 || exit 1
cd "$TRASH_DIRECTORY" || exit 1
# Every restore (0.4b47's, 0.4b49's and 0.4b56's too) names its temporary
# files in $TMPDIR after the dump date: scripts running at once, or a
# second work tree, dump in the same second and would share those names.
# Each script gets a directory of its own, open to the users some checks
# run as (sticky, as /tmp).
mkdir -p "$TRASH_DIRECTORY/tmp" && chmod 1777 "$TRASH_DIRECTORY/tmp" &&
	TMPDIR=$TRASH_DIRECTORY/tmp && export TMPDIR || exit 1

# UNPRIV: an unprivileged user (nobody, 65534) can reach the trash
# directory and run the programs under test.  Checks that run something
# as another user need it: a checkout below a directory closed to others
# (a home of mode 0700, a mktemp -d) is the developer's choice, not a
# defect, and those checks are skipped there.
if test "$(id -u)" = 0 && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		sh -c 'cd "$1" && test -x "$2" && test -x "$3"' sh \
		"$TRASH_DIRECTORY" "$DUMP" "$RESTORE" 2>/dev/null
then
	test_set_prereq UNPRIV
fi

# XFS: mkfs.xfs is installed and the kernel mounts XFS (loading its
# module if need be).
if command -v mkfs.xfs >/dev/null 2>&1 &&
	{ grep -qw xfs /proc/filesystems || modprobe -q xfs 2>/dev/null; } &&
	grep -qw xfs /proc/filesystems
then
	test_set_prereq XFS
fi

# volume_image IMG MB: make_image's "small" ext4 image plus what makes
# many volumes, for the multi-volume tests at a fraction of the cost of
# the full image: bigfile.bin, MB MiB of random data, and longdir/ with
# 1000 empty files of 60-byte names (about 70 KiB of directory blocks,
# as the full image's 3100-entry directory, in a third of the inodes).
# debugfs writes both in one run, without a loop device or a mount,
# after resize2fs has grown the 24 MiB image by MB MiB.
volume_image() {
	make_image ext4 "$1" small &&
	truncate -s $(($2 + 24))M "$1" && resize2fs -f "$1" >/dev/null 2>&1 &&
	head -c $(($2 * 1048576)) /dev/urandom >"$1.big" && : >"$1.empty" &&
	{
		echo "write $1.big bigfile.bin" && echo "mkdir longdir" &&
		vi_i=0 &&
		while test $vi_i -lt 1000
		do
			printf 'write %s longdir/%058d.e\n' "$1.empty" $vi_i
			vi_i=$((vi_i + 1))
		done
	} >"$1.cmds" &&
	debugfs -w -f "$1.cmds" "$1" >/dev/null 2>"$1.err" &&
	! grep -v "^debugfs [0-9]" "$1.err" &&
	rm -f "$1.big" "$1.empty" "$1.cmds" "$1.err"
}
