#!/bin/sh
# tests/helpers/loopstress.sh [SECONDS] - churn loop devices beside the
# test suite, until killed or for SECONDS.
#
# The scripts must not depend on which loop device they get, on a device
# number being free again after they detached it, or on what else
# /proc/mounts lists.  This keeps attaching, mounting, unmounting and
# detaching loop devices of its own (on three small ext4 images in a
# scratch directory of its own), one to three of them at a time, so that
# the numbers the kernel hands out, the mount table and the libblkid
# view of each device keep changing under the tests:
#
#     sh tests/helpers/loopstress.sh 600 & make check; kill $!
#
# Everything it attached or mounted is undone when it ends: after
# SECONDS, on SIGTERM, SIGINT or SIGHUP (not on SIGKILL: then
# `losetup -j IMAGE` shows what is left).  Needs root.
set -u
limit=${1:-0}
case "$limit" in
*[!0-9]*|'') echo "usage: loopstress.sh [SECONDS]" >&2; exit 2 ;;
esac
if test "$(id -u)" != 0
then
	echo "loopstress.sh: needs root (losetup, mount)" >&2
	exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/loopstress.XXXXXX") || exit 1
dir=$(cd "$dir" && pwd -P) || exit 1

# undo_all: unmount what is mounted below $dir, detach every loop device
# on one of its images, remove $dir.
undo_all() {
	awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts |
		sort -r | while read -r ua_m
		do
			umount "$ua_m" 2>/dev/null || umount -l "$ua_m" 2>/dev/null
		done
	for ua_img in "$dir"/*.img
	do
		test -f "$ua_img" || continue
		losetup -j "$ua_img" 2>/dev/null | cut -d: -f1 |
			while read -r ua_dev
			do
				losetup -d "$ua_dev" 2>/dev/null
			done
	done
	rm -rf --one-file-system "$dir"
}
finish() {
	trap - EXIT INT TERM HUP
	undo_all
	exit "${1:-0}"
}
trap 'finish $?' EXIT
trap 'finish 130' INT
trap 'finish 143' TERM
trap 'finish 129' HUP

for n in 1 2 3
do
	truncate -s 8M "$dir/s$n.img" &&
	mke2fs -q -F -t ext4 -L "loopstress-$n" "$dir/s$n.img" &&
	mkdir "$dir/m$n" || exit 1
done

started=$(date +%s)
round=0
# held: "N DEV" of the devices attached now (at most 3, one per image).
held=
while :
do
	if test "$limit" != 0 && test $(($(date +%s) - started)) -ge "$limit"
	then
		break
	fi
	round=$((round + 1))
	# Attach the images not held, in a changing order, mount them,
	# write a little, unmount; then let one or two go, so that the next
	# round attaches on other numbers.
	for n in $(( round % 3 + 1 )) $(( (round + 1) % 3 + 1 )) $(( (round + 2) % 3 + 1 ))
	do
		case " $held " in *" $n:"*) continue ;; esac
		dev=$(losetup -f --show "$dir/s$n.img" 2>/dev/null) || continue
		held="$held $n:$dev"
		if mount -t ext4 "$dev" "$dir/m$n" 2>/dev/null
		then
			echo "$round" >"$dir/m$n/round" 2>/dev/null
			umount "$dir/m$n" 2>/dev/null || umount -l "$dir/m$n"
		fi
	done
	keep=
	i=0
	for h in $held
	do
		i=$((i + 1))
		# Keep the one at position (round % 3) + 1 for a round more.
		if test $i = $(( round % 3 + 1 ))
		then
			keep="$keep $h"
		else
			losetup -d "${h#*:}" 2>/dev/null
		fi
	done
	held=$keep
done
finish 0
