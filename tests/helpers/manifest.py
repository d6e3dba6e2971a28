#!/usr/bin/env python3
"""tests/helpers/manifest.py DIR [options] - a sorted, comparable listing
of a tree: one line per path (relative to DIR, "." for DIR itself) with
type, permission bits, owner, size, mtime, content hash, link target,
device numbers, hard-link group and xattrs.

Hard-link groups are canonical: every member names the first path of its
group in sort order, so two trees compare equal whatever their inode
numbers. Directory sizes are never listed (they depend on the file
system, not on the content). Ignored on purpose: atime (unless --atime),
ctime, inode numbers, a top-level "restoresymtable" (restore -r writes
it), and the contents of a top-level "lost+found" beyond its own line.

Options:
  --mtime=s|us|ns  mtime precision (default us: restore brings back
                   microseconds); --no-mtime leaves mtime out
  --no-dir-mtime   leave directory mtimes out
  --no-link-mtime  leave symlink mtimes out
  --no-root        leave out the line of DIR itself
  --no-xattrs      leave xattrs out
  --no-owner       leave uid/gid out
  --atime          include atime (same precision as mtime)
  --blocks         include allocated size (st_blocks * 512)
  --exclude=PATH   leave PATH (and below) out; may be repeated
  --list-inline    instead of the manifest, list the regular files whose
                   data sits in the inode (ext4 inline_data flag)
  --list-inline-ino  inode numbers of the files and directories whose
                   data sits in the inode, each followed by f or d
"""
import fcntl
import hashlib
import os
import stat
import sys


def esc(b):
    """Bytes of a name as printable text: non-printing and non-ASCII
    bytes, backslash and whitespace become \\xNN."""
    out = []
    for c in b:
        if 0x21 <= c < 0x7f and c != 0x5c:
            out.append(chr(c))
        else:
            out.append('\\x%02x' % c)
    return ''.join(out)


def fmt_time(ns, prec):
    sec, frac = divmod(ns, 10**9)
    if prec == 's':
        return '%d' % sec
    if prec == 'us':
        return '%d.%06d' % (sec, frac // 1000)
    return '%d.%09d' % (sec, frac)


WINDOW = 1 << 16


def content_hash(path, size):
    """sha256 over the file's non-zero 64 KiB windows, each prefixed with
    its index, plus the size. Reading only the data extents (SEEK_DATA)
    keeps a 4 GiB sparse file cheap, and since all-zero windows are left
    out, a hole and written zeros hash alike: restore may fill either."""
    windows = {}
    with open(path, 'rb') as f:
        fd = f.fileno()
        pos = 0
        while pos < size:
            try:
                data = os.lseek(fd, pos, os.SEEK_DATA)
            except OSError:
                break
            if data >= size:
                break
            try:
                hole = min(os.lseek(fd, data, os.SEEK_HOLE), size)
            except OSError:
                hole = size
            os.lseek(fd, data, os.SEEK_SET)
            pos = data
            while pos < hole:
                w, off = divmod(pos, WINDOW)
                n = min(WINDOW - off, hole - pos)
                chunk = os.read(fd, n)
                if not chunk:
                    raise IOError('short read in %s' % path)
                buf = windows.get(w)
                if buf is None:
                    buf = windows[w] = bytearray(WINDOW)
                buf[off:off + len(chunk)] = chunk
                pos += len(chunk)
    h = hashlib.sha256(b'size %d\n' % size)
    zero = bytes(WINDOW)
    for w in sorted(windows):
        if windows[w] != zero:
            h.update(b'%d\n' % w)
            h.update(windows[w])
    return h.hexdigest()


def xattrs(path):
    try:
        names = os.listxattr(path, follow_symlinks=False)
    except OSError:
        return []
    out = []
    for n in sorted(names):
        try:
            v = os.getxattr(path, n, follow_symlinks=False)
        except OSError:
            continue
        out.append('%s=%s' % (n, hashlib.sha256(v).hexdigest()[:16]))
    return out


FS_IOC_GETFLAGS = 0x80086601
EXT4_INLINE_DATA_FL = 0x10000000


def is_inline(path):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        buf = fcntl.ioctl(fd, FS_IOC_GETFLAGS, b'\0' * 8)
    except OSError:
        return False
    finally:
        os.close(fd)
    return bool(int.from_bytes(buf[:4], sys.byteorder) & EXT4_INLINE_DATA_FL)


# Options without a value: the setting each one makes.
FLAG_OPTIONS = {
    '--no-mtime': ('mtime', None),
    '--no-dir-mtime': ('dir_mtime', False),
    '--no-link-mtime': ('link_mtime', False),
    '--no-root': ('root', False),
    '--no-xattrs': ('xattrs', False),
    '--no-owner': ('owner', False),
    '--atime': ('atime', True),
    '--blocks': ('blocks', True),
    '--list-inline': ('list_inline', 'path'),
    '--list-inline-ino': ('list_inline', 'ino'),
}


def main(argv):
    opts = {'mtime': 'us', 'dir_mtime': True, 'link_mtime': True,
            'root': True, 'xattrs': True, 'owner': True, 'atime': False,
            'blocks': False}
    excludes = []
    top = None
    for a in argv:
        if a.startswith('--mtime='):
            opts['mtime'] = a.split('=', 1)[1]
            if opts['mtime'] not in ('s', 'us', 'ns'):
                sys.exit('manifest: --mtime takes s, us or ns')
        elif a in FLAG_OPTIONS:
            key, value = FLAG_OPTIONS[a]
            opts[key] = value
        elif a.startswith('--exclude='):
            excludes.append(os.fsencode(a.split('=', 1)[1]).strip(b'/'))
        elif a.startswith('-'):
            sys.exit('manifest: unknown option %s' % a)
        elif top is None:
            top = os.fsencode(a)
        else:
            sys.exit('usage: manifest.py DIR [options]')
    if top is None:
        sys.exit('usage: manifest.py DIR [options]')

    entries = []        # (relpath bytes, lstat)
    for root, dnames, fnames in os.walk(top):
        rel_root = os.path.relpath(root, top)
        if rel_root == b'.':
            if opts['root']:
                entries.append((b'.', os.lstat(root)))
        for n in dnames + fnames:
            rel = n if rel_root == b'.' else os.path.join(rel_root, n)
            if rel_root == b'.' and n == b'restoresymtable':
                continue
            if any(rel == e or rel.startswith(e + b'/') for e in excludes):
                continue
            entries.append((rel, os.lstat(os.path.join(root, n))))
        # Do not descend into excluded or lost+found directories.
        keep = []
        for d in dnames:
            rel = d if rel_root == b'.' else os.path.join(rel_root, d)
            if rel == b'lost+found':
                continue
            if any(rel == e or rel.startswith(e + b'/') for e in excludes):
                continue
            if os.path.islink(os.path.join(root, d)):
                continue
            keep.append(d)
        dnames[:] = keep
    entries.sort(key=lambda e: e[0])

    groups = {}
    for rel, st in entries:
        if not stat.S_ISDIR(st.st_mode) and st.st_nlink > 1:
            groups.setdefault((st.st_dev, st.st_ino), rel)

    if opts.get('list_inline'):
        by_ino = opts['list_inline'] == 'ino'
        for rel, st in entries:
            reg = stat.S_ISREG(st.st_mode)
            if not (reg or (by_ino and stat.S_ISDIR(st.st_mode))):
                continue
            if not is_inline(os.path.join(top, rel)):
                continue
            if by_ino:
                sys.stdout.write('%d %s\n' % (st.st_ino, 'f' if reg else 'd'))
            else:
                sys.stdout.write('%s\n' % esc(rel))
        return 0

    for rel, st in entries:
        path = os.path.join(top, rel)
        m = st.st_mode
        fields = []
        if stat.S_ISREG(m):
            kind = 'file'
        elif stat.S_ISDIR(m):
            kind = 'dir'
        elif stat.S_ISLNK(m):
            kind = 'symlink'
        elif stat.S_ISCHR(m):
            kind = 'chr'
        elif stat.S_ISBLK(m):
            kind = 'blk'
        elif stat.S_ISFIFO(m):
            kind = 'fifo'
        elif stat.S_ISSOCK(m):
            kind = 'sock'
        else:
            kind = 'unknown'
        fields.append(kind)
        fields.append('%04o' % stat.S_IMODE(m))
        if opts['owner']:
            fields.append('%d:%d' % (st.st_uid, st.st_gid))
        if kind in ('file', 'symlink'):
            fields.append('size=%d' % st.st_size)
        if opts['blocks'] and kind == 'file':
            fields.append('alloc=%d' % (st.st_blocks * 512))
        if opts['mtime'] and not (kind == 'dir' and not opts['dir_mtime']) \
                and not (kind == 'symlink' and not opts['link_mtime']):
            fields.append('mtime=%s' % fmt_time(st.st_mtime_ns, opts['mtime']))
        if opts['atime'] and opts['mtime']:
            fields.append('atime=%s' % fmt_time(st.st_atime_ns, opts['mtime']))
        if kind == 'file':
            fields.append('sha256=%s' % content_hash(path, st.st_size))
        elif kind == 'symlink':
            fields.append('-> %s' % esc(os.readlink(path)))
        elif kind in ('chr', 'blk'):
            fields.append('rdev=%d,%d' % (os.major(st.st_rdev), os.minor(st.st_rdev)))
        key = (st.st_dev, st.st_ino)
        if kind != 'dir' and key in groups:
            fields.append('link=%s' % esc(groups[key]))
        if opts['xattrs']:
            fields.extend('xattr:%s' % x for x in xattrs(path))
        sys.stdout.write('%s\t%s\n' % (esc(rel), ' '.join(fields)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
