#!/bin/sh
# scripts/demo.sh - the README's first command (`make demo`): make a small
# ext4 image from the bundled sample/ tree, dump it with our dump (its
# messages shown as they come), restore the archive with our restore -r
# into an empty directory (dump 0.4b47's restore until ours is built),
# and compare the two trees. Needs root (device nodes, owners); no loop
# device: our dump reads the image file directly. Cleans up after itself.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
DUMP=${DUMP:-$top/dump/dump}
RESTORE=${RESTORE:-$top/restore/restore}
if ! test -x "$DUMP"
then
	echo "demo: $DUMP is not built; run make first" >&2
	exit 1
fi
if ! test -x "$RESTORE"
then
	sh "$top/tests/helpers/fetch-oracle.sh"
	RESTORE=$top/tests/oracle/sbin/restore
	echo "demo: our restore is not built yet; using dump 0.4b47's restore"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dump-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LC_ALL=C TZ=UTC

step() { printf '\n=== %s\n' "$*"; }

step "1. an ext4 image from sample/ (mke2fs -d), plus special files"
cp -a "$top/sample" "$work/tree"
mkfifo "$work/tree/a-fifo"
mknod "$work/tree/a-char-device" c 1 3
chown 1234:5678 "$work/tree/docs/notes.txt"
chmod 4750 "$work/tree/src/hello.c"
head -c 3000000 /dev/urandom >"$work/tree/random.bin"
truncate -s 8M "$work/fs.img"
mke2fs -q -F -t ext4 -L demo -d "$work/tree" "$work/fs.img"
echo "image: $work/fs.img (8 MiB)"

step "2. dump -0 of the image into an archive"
"$DUMP" -0 -f "$work/demo.dump" -D "$work/dumpdates" "$work/fs.img" 2>&1
ls -l "$work/demo.dump"

step "3. restore -r into an empty directory ($(basename "$RESTORE") $RESTORE)"
mkdir "$work/restored"
(cd "$work/restored" && "$RESTORE" -r -f "$work/demo.dump" 2>&1)
rm -f "$work/restored/restoresymtable"

# Seconds: mke2fs -d copies whole-second times only.
step "4. compare the trees (type, mode, owner, size, mtime, content, links)"
python3 "$top/tests/helpers/manifest.py" "$work/tree" --no-root --mtime=s >"$work/expect"
python3 "$top/tests/helpers/manifest.py" "$work/restored" --no-root --mtime=s \
	--exclude=lost+found >"$work/actual"
if diff -u "$work/expect" "$work/actual"
then
	echo "demo: the restored tree equals the sample ($(wc -l <"$work/expect") entries)."
else
	echo "demo: the restored tree differs from the sample (diff above)." >&2
	exit 1
fi
