#!/bin/sh
# tests/helpers/mkimage.sh KIND IMG [full|nohuge|small] - build a populated ext2/3/4
# image for the tests (lib.sh's make_image calls it; needs root).
#
# Two steps: mke2fs -d copies a plain tree (files, directories, symlinks,
# long and non-ASCII names, a big directory and a 20+ MiB random file),
# then a loop mount adds what mke2fs -d cannot make or would not keep
# exactly: device nodes (one with numbers above 255), a FIFO, a socket,
# owners above 65535, setuid/setgid/sticky/000 modes, hard links across
# directories, sparse files, xattrs, inline-data-sized files, fixed times,
# and, with IMAGE_PREALLOC=1 in the environment on ext4 kinds, "prealloc":
# 1 MiB of random data turned into an unwritten extent (fallocate
# --zero-range): it reads as zeros, but the old data is still on disk
# (dump 0.4b47 dumps it; ours must dump a hole). Opt-in, because every
# archive of dump 0.4b47 then carries that defect.
# KIND: ext2 ext3 ext4 ext4-1k ext4-inline ext4-csum64.
# SIZE: "full" (default) has everything; "nohuge" leaves out the sparse
# file of 4 GiB apparent size (restore 0.4b47 -C reads its holes for
# 30 s); "small" also leaves out the 20 MiB file and the 3000-entry
# directory (quick tests).
# UUID, hash seed and mke2fs time are pinned; file contents are seeded,
# so two builds of one kind hold the same data.
set -e
kind=$1 img=$2 size=$3
if test -z "$kind" || test -z "$img"
then
	echo "usage: mkimage.sh KIND IMG [full|nohuge|small]" >&2
	exit 1
fi
IMG_MB=64
case "${size:-full}" in
full|nohuge|small) ;;
*) echo "mkimage.sh: unknown size $size" >&2; exit 1 ;;
esac
case "$kind" in
ext2)        opts="-t ext2 -b 4096 -I 256" ;;
ext3)        opts="-t ext3 -b 2048 -I 256" ;;
ext4)        opts="-t ext4 -b 4096 -I 256 -O ^metadata_csum,^64bit" ;;
ext4-1k)     opts="-t ext4 -b 1024 -I 256 -O ^metadata_csum,^64bit" ;;
ext4-inline) opts="-t ext4 -b 4096 -I 256 -O inline_data,^metadata_csum,^64bit" ;;
ext4-csum64) opts="-t ext4 -b 4096 -I 256 -O metadata_csum,64bit" ;;
*) echo "mkimage.sh: unknown kind $kind" >&2; exit 1 ;;
esac
test "$size" = small && IMG_MB=24

work=$(mktemp -d "${TMPDIR:-/tmp}/mkimage.XXXXXX")
loop= mnt=$work/mnt
cleanup() {
	if test -n "$loop"
	then
		umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
		losetup -d "$loop" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- step 1: the plain tree for mke2fs -d --------------------------------
tree=$work/tree
mkdir -p "$tree/dir/sub/deeper" "$tree/other" "$tree/names" "$tree/links"
printf 'hello world\n' >"$tree/small.txt"
: >"$tree/empty"
printf 'a\n' >"$tree/dir/a.txt"
printf 'bb\n' >"$tree/dir/sub/b.txt"
printf 'ccc\n' >"$tree/dir/sub/deeper/c.txt"
python3 - "$tree" "$size" <<'PY'
import os, random, sys
tree, size = sys.argv[1], sys.argv[2]
rnd = random.Random(20261122)
def put(path, data):
    with open(os.path.join(tree, path), 'wb') as f:
        f.write(data)
put('fivek.bin', rnd.randbytes(5000))
put('onemeg.bin', rnd.randbytes(1 << 20))
put('textlines.txt', b''.join(b'line %d of a text file\n' % i for i in range(4000)))
# 255-byte name (the ext2 maximum) and names that are not ASCII.
put('names/' + 'L' * 251 + '.txt', b'longest name\n')
put(os.fsdecode('names/caf\xc3\xa9-\xe2\x82\xac-\xe6\x97\xa5\xe6\x9c\xac.txt'.encode('latin-1')), b'utf-8 name\n')
put(os.fsdecode(b'names/latin1-\xe9\xe8'), b'not utf-8\n')
put('names/with space and $dollar', b'odd characters\n')
put('names/-leading-dash', b'dash\n')
for i in range(60):
    put('dir/file_with_a_long_name_%d' % i, b'%d\n' % i)
if size != 'small':
    put('random20m.bin', rnd.randbytes(21 * 1024 * 1024 + 123))
    os.mkdir(os.path.join(tree, 'bigdir'))
    for i in range(3100):
        put('bigdir/entry-%05d' % i, b'')
PY
ln -s small.txt "$tree/fastlink"
ln -s "$(printf 'target/%.0s' $(seq 1 30))end" "$tree/slowlink"
ln -s dir/sub "$tree/dirlink"
ln -s nowhere/at/all "$tree/danglinglink"

# ---- step 2: the file system --------------------------------------------
rm -f "$img"
truncate -s "${IMG_MB}M" "$img"
E2FSPROGS_FAKE_TIME=1600000000 mke2fs -q -F $opts -L "test-$kind" \
	-U 2f1c5d7e-1234-4c2b-9a4e-0123456789ab \
	-E hash_seed=6b3a1f0e-5d4c-4b3a-8a9b-aabbccddeeff -d "$tree" "$img"

# ---- step 3: through a loop mount ----------------------------------------
mkdir -p "$mnt"
loop=$(losetup -f --show "$img")
if test -n "$LIB_STATE" && test -d "$LIB_STATE"
then
	# So an interrupted script still detaches it (lib.sh's trap).
	echo "$(wc -l <"$LIB_STATE/loops") $loop" >>"$LIB_STATE/loops"
fi
mount "$loop" "$mnt"
cd "$mnt"

mknod chardev c 4 5
mknod blockdev b 8 1
mknod bigdev c 300 70000
mknod bigblk b 259 1048575
mkfifo fifo
python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('socket')"

printf 'owned by high ids\n' >owned
chown 70000:80000 owned
printf 'setuid\n' >suid; chmod 4751 suid
printf 'setgid\n' >sgid; chmod 2755 sgid
mkdir sticky; chmod 1777 sticky
printf 'no access\n' >mode000; chmod 000 mode000
mkdir dir000; chmod 000 dir000
printf 'all bits\n' >mode7777; chmod 7777 mode7777
chown 65536:65537 dir/a.txt
chown -h 70001:70002 fastlink

# Hard links, also across directories.
printf 'linked\n' >links/one
ln links/one other/two
ln links/one dir/sub/three
ln small.txt links/small-again

# Sparse files: hole at the start, in the middle, at the end, and one
# whose apparent size is above 4 GiB: its last byte lies 8 MiB past 4 GiB,
# in the triple-indirect range of ext2 with 4 KiB blocks (from block
# 12 + 1024 + 1024 * 1024); a little past it, as every byte of its holes
# costs restore 0.4b47 -C time.
SIZE=${size:-full} python3 - <<'PY'
import os
def sparse(name, parts, size):
    with open(name, 'wb') as f:
        for off, data in parts:
            f.seek(off)
            f.write(data)
        f.truncate(size)
sparse('sparse-start', [(1 << 20, b'S' * 5000)], (1 << 20) + 5000)
sparse('sparse-middle', [(0, b'A' * 10), (409600, b'B' * 5000)], 409600 + 5000)
sparse('sparse-end', [(0, b'E' * 8192)], 3 << 20)
if os.environ.get('SIZE', 'full') == 'full':
    huge = (4 << 30) + (8 << 20)
    sparse('sparse-huge', [(0, b'head'), (huge, b'Z')], huge + 1)
sparse('sparse-empty', [], 1 << 20)
PY

case "${IMAGE_PREALLOC:-0}$kind" in
1ext4*)
	python3 -c "import random; open('prealloc','wb').write(random.Random(7).randbytes(1 << 20))"
	sync prealloc
	fallocate --zero-range --offset 0 --length 1048576 prealloc
	;;
esac

if test "$kind" = ext4-inline
then
	# Small enough for the inode body: the kernel stores them inline.
	mkdir inline
	python3 -c "
for n in (1, 20, 59, 60, 100, 150):
    open('inline/f%d' % n, 'wb').write(bytes((i * 7 + 3) % 251 for i in range(n)))"
fi

if command -v setfattr >/dev/null 2>&1
then
	setfattr -n user.comment -v "a short value" small.txt
	setfattr -n user.big -v "$(printf 'v%.0s' $(seq 1 300))" fivek.bin
	setfattr -n user.dir -v dirvalue dir
fi

# Times last (fixed, with sub-second parts; directories after their
# contents), so manifests do not depend on the build time.
python3 - <<'PY'
import os
FILE_NS = 1577961045123456789      # 2020-01-02 10:30:45.123456789
DIR_NS = 1614834367250000000       # 2021-03-04 05:06:07.25
OLD_NS = 978307200 * 10**9         # 2001-01-01 00:00:00
LINK_NS = 946730096500000000       # 2000-01-01 12:34:56.5
dirs = []
for root, dnames, fnames in os.walk('.'):
    if root == './lost+found':
        continue
    for n in fnames + dnames:
        p = os.path.join(root, n)
        if os.path.islink(p):
            os.utime(p, ns=(LINK_NS, LINK_NS), follow_symlinks=False)
        elif os.path.isdir(p):
            if n != 'lost+found' or root != '.':
                dirs.append(p)
        else:
            os.utime(p, ns=(FILE_NS, FILE_NS))
os.utime('small.txt', ns=(OLD_NS, OLD_NS))
for d in sorted(dirs, key=lambda d: -d.count('/')) + ['.']:
    os.utime(d, ns=(DIR_NS, DIR_NS))
PY
cd /
# umount writes the file system back: no machine-wide sync (it would
# wait for every other writer on the machine too).
umount "$mnt"
losetup -d "$loop"
if test -n "$LIB_STATE" && test -d "$LIB_STATE"
then
	grep -v " $loop\$" "$LIB_STATE/loops" >"$LIB_STATE/loops.new" || true
	mv "$LIB_STATE/loops.new" "$LIB_STATE/loops"
fi
loop=
