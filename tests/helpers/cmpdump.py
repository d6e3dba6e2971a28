#!/usr/bin/env python3
"""tests/helpers/cmpdump.py - compare and inspect uncompressed,
single-volume, native (little-endian) dump archives.

  cmpdump.py cmp [--strict] [--allow-inode N]... A B
      Compare two archives of the same unchanged file system, record by
      record. Always ignored: c_date, c_checksum and the dates of the
      header extension (doc/format.md 2.6).
      Unless --strict, also ignored (doc/format.md 2.5, 7.3, 8.1):
        - the header extension (c_spare: zero in 0.4b47's archives);
        - the microsecond fields of the inode times (0.4b47 writes 0);
        - c_tapea (shifts once a record's layout legitimately differs);
        - carried-over bytes: c_addr beyond c_count, c_dinode of TS_TAPE,
          TS_CLRI, TS_BITS (except di_size), TS_ADDR, TS_END and EA
          records, c_count of TS_END, the number of TS_END blocks;
        - EA records holding no entry or only "system.data" (0.4b47 dumps
          empty in-inode EA areas and the inline-data container);
        - stale tail bytes beyond di_size in the last data block of
          directories, symlinks and EA records, and the padding bytes
          after the NUL of each directory entry's name.
      --allow-inode N: inode N may differ in its data layout and contents
      (inline data, unwritten extents: 0.4b47 gets those wrong).
      --allow-ea-inode N: the EA records of inode N may differ (0.4b47
      dumps the "system.data" attribute of inline-data inodes).
      Prints one line per difference; exit 0 when none, 1 otherwise.
      --strict: only c_date, c_checksum and the extension's dates may
      differ (two dumps by the same program of an unchanged file system).

  cmpdump.py inode ARCHIVE INO
      Print the inode image of the first TS_INODE header of INO:
      "mode=0%o size=N db0=N db1=N uid=N gid=N mtime=S.U flags=0x%x".

  cmpdump.py zerotails ARCHIVE
      Check that the bytes after di_size in the data of directories,
      symlinks and EA records are zero (0.4b47 leaves stale bytes there;
      we must not). Prints each offender; exit 1 if any.

  cmpdump.py extension ARCHIVE
      Check the header extension (doc/format.md 2.6) of every header: our
      magic, version 1, 68 bytes, the 64-bit dates equal to c_date and
      c_ddate, the times on the headers of an inode (its mtime's low 32
      bits those of c_dinode), and a data checksum requested on every
      header but the first volume header (its value is checked by
      restore --verify).
      Prints each offender; exit 1 if any.

  cmpdump.py datablocks ARCHIVE
      One line per data block: "BLOCKNO INO KIND", KIND one of file,
      dir, link, ea, map (TS_CLRI/TS_BITS): whose data the block is.

  cmpdump.py names ARCHIVE
      Print every directory entry name of the archive, one per line (raw
      bytes), to check that a name is stored intact.

  cmpdump.py dirents ARCHIVE
      Print every live directory entry but "." and "..", one per line:
      "DIRINO INO HEXNAME", the name's bytes in hex (encrypted names
      may hold any byte, NUL and '/' included).
"""
import struct
import sys

TP_BSIZE = 1024
NFS_MAGIC = 60012
CHECKSUM = 84446
TS_TAPE, TS_INODE, TS_BITS, TS_ADDR, TS_END, TS_CLRI = 1, 2, 3, 4, 5, 6
DR_EXTATTRIBUTES = 0x8000
OFF_DATE, OFF_TAPEA, OFF_INUMBER, OFF_CKSUM = 4, 16, 20, 28
OFF_DINODE, DINODE_LEN = 32, 128
OFF_SIZE = 40
USEC_OFFS = (52, 60, 68)
OFF_COUNT, OFF_ADDR, NADDR = 160, 164, 512
OFF_FLAGS = 888
# The header extension in c_spare (doc/format.md 2.6): its dates follow
# c_date; the rest (magic, flags, data checksum) must match between two
# dumps of ours, and is absent from 0.4b47's archives.
OFF_SPARE, SPARE_LEN = 904, 120
OFF_EXT_DATES, EXT_DATES_LEN = OFF_SPARE + 16, 16
S_IFMT, S_IFDIR, S_IFLNK = 0o170000, 0o040000, 0o120000


class Record:
    """One header and the data blocks that follow it."""
    def __init__(self, blockno, hdr):
        self.blockno = blockno
        self.hdr = hdr
        self.data = []

    def i32(self, off):
        return struct.unpack_from('<i', self.hdr, off)[0]

    def u32(self, off):
        return struct.unpack_from('<I', self.hdr, off)[0]

    @property
    def type(self):
        return self.i32(0)

    @property
    def ino(self):
        return self.u32(OFF_INUMBER)

    @property
    def count(self):
        return self.i32(OFF_COUNT)

    @property
    def mode(self):
        return struct.unpack_from('<H', self.hdr, OFF_DINODE)[0]

    @property
    def size(self):
        return struct.unpack_from('<Q', self.hdr, OFF_SIZE)[0]

    @property
    def is_ea(self):
        return bool(self.i32(OFF_FLAGS) & DR_EXTATTRIBUTES)


def ndata(rec):
    t, c = rec.type, rec.count
    if c < 0 or c > NADDR:
        raise ValueError('block %d: c_count %d out of range' % (rec.blockno, c))
    if t in (TS_CLRI, TS_BITS):
        return c
    if t in (TS_INODE, TS_ADDR):
        return sum(1 for b in rec.hdr[OFF_ADDR:OFF_ADDR + c] if b)
    return 0


def read_records(path):
    data = open(path, 'rb').read()
    if len(data) % TP_BSIZE:
        raise ValueError('%s: not a whole number of tape blocks' % path)
    recs, i, n = [], 0, len(data) // TP_BSIZE
    while i < n:
        b = data[i * TP_BSIZE:(i + 1) * TP_BSIZE]
        magic = struct.unpack_from('<i', b, 24)[0]
        if magic != NFS_MAGIC or sum(struct.unpack('<256i', b)) % 2**32 != CHECKSUM:
            raise ValueError('%s: block %d is not a valid header' % (path, i))
        rec = Record(i, b)
        k = ndata(rec)
        rec.data = [data[(i + 1 + j) * TP_BSIZE:(i + 2 + j) * TP_BSIZE] for j in range(k)]
        recs.append(rec)
        i += 1 + k
    return recs


def group(recs):
    """Split into units: the volume header, the maps, then each inode with
    its continuation headers (its EA records are units of their own), then
    the TS_END run."""
    units, cur = [], None
    for r in recs:
        if r.type == TS_ADDR and cur is not None:
            cur.append(r)
            continue
        if r.type == TS_END:
            if cur is None or cur[0].type != TS_END:
                cur = []
                units.append(cur)
            cur.append(r)
            continue
        cur = [r]
        units.append(cur)
    return units


def unit_key(u):
    r = u[0]
    return (r.type, r.ino if r.type in (TS_INODE,) else 0, r.is_ea)


EA_INODE_MAGIC, EA_BLOCK_MAGIC = 0xEA020001, 0xEA020000
EA_INDEX_SYSTEM_DATA = 7


def ea_only_system_data(u):
    """True for an EA record with no entries, or whose entries are all
    "system.data" (the inline-data container): nothing a restore could
    set. 0.4b47 dumps such records; we need not."""
    r = u[0]
    if not (r.type == TS_INODE and r.is_ea):
        return False
    blob = b''.join(b for x in u for b in x.data)[:r.size]
    if len(blob) < 4:
        return False
    magic = struct.unpack_from('<I', blob, 0)[0]
    off = 4 if magic == EA_INODE_MAGIC else 32 if magic == EA_BLOCK_MAGIC else None
    if off is None:
        return False
    while off + 16 <= len(blob):
        if struct.unpack_from('<I', blob, off)[0] == 0:
            break
        name_len, name_index = blob[off], blob[off + 1]
        if name_index != EA_INDEX_SYSTEM_DATA:
            return False
        off += (16 + name_len + 3) & ~3
    return True


def numbered_keys(units):
    """unit_key plus an occurrence number (an inode may have two EA
    records), so every unit of an archive has its own key."""
    seen, keys = {}, []
    for u in units:
        k = unit_key(u)
        n = seen.get(k, 0)
        seen[k] = n + 1
        keys.append(k + (n,))
    return keys


def masked_header(r, first, strict):
    h = bytearray(r.hdr)
    for off in (OFF_DATE, OFF_CKSUM):
        h[off:off + 4] = b'\0' * 4
    h[OFF_EXT_DATES:OFF_EXT_DATES + EXT_DATES_LEN] = bytes(EXT_DATES_LEN)
    if strict:
        return h
    h[OFF_SPARE:OFF_SPARE + SPARE_LEN] = bytes(SPARE_LEN)
    for off in USEC_OFFS:
        h[off:off + 4] = b'\0' * 4
    h[OFF_TAPEA:OFF_TAPEA + 4] = b'\0' * 4
    c = max(0, min(r.count, NADDR))
    t = r.type
    if t in (TS_TAPE, TS_CLRI, TS_BITS, TS_END):
        c = 0
    h[OFF_ADDR + c:OFF_ADDR + NADDR] = bytes(NADDR - c)
    carried = t in (TS_TAPE, TS_ADDR, TS_END) or r.is_ea or \
        (t in (TS_CLRI, TS_BITS))
    if carried:
        keep_size = t in (TS_CLRI, TS_BITS) or r.is_ea
        size = h[OFF_SIZE:OFF_SIZE + 8]
        h[OFF_DINODE:OFF_DINODE + DINODE_LEN] = bytes(DINODE_LEN)
        if keep_size:
            h[OFF_SIZE:OFF_SIZE + 8] = size
    if t == TS_END:
        h[OFF_COUNT:OFF_COUNT + 4] = b'\0' * 4
        h[OFF_INUMBER:OFF_INUMBER + 4] = b'\0' * 4
    return h


def clear_dirent_padding(blob):
    """Zero the bytes between each entry's name NUL and its d_reclen end
    (dump 0.4b47 leaves stale memory there)."""
    b = bytearray(blob)
    off = 0
    while off + 8 <= len(b):
        reclen, namlen = struct.unpack_from('<H', b, off + 4)[0], b[off + 7]
        if reclen < 8 or reclen % 4 or off + reclen > len(b):
            break
        start = off + 8 + namlen + 1
        if start < off + reclen:
            b[start:off + reclen] = bytes(off + reclen - start)
        off += reclen
    return bytes(b)


def unit_data(u, strict):
    """The data bytes of a unit, with stale tails cut to di_size for the
    record kinds whose tails are unspecified."""
    blob = b''.join(b for r in u for b in r.data)
    r = u[0]
    if not strict and r.type == TS_INODE:
        kind = r.mode & S_IFMT
        if r.is_ea or kind in (S_IFDIR, S_IFLNK):
            blob = blob[:r.size]
        if kind == S_IFDIR and not r.is_ea:
            blob = clear_dirent_padding(blob)
    return blob


def diff_offsets(a, b):
    return [o for o in range(min(len(a), len(b))) if a[o] != b[o]]


def cmp_archives(pa, pb, strict, allowed, ea_allowed=frozenset()):
    ua, ub = group(read_records(pa)), group(read_records(pb))
    if not strict:
        ua = [u for u in ua if not ea_only_system_data(u)]
        ub = [u for u in ub if not ea_only_system_data(u)]
    out = []
    ka, kb = numbered_keys(ua), numbered_keys(ub)
    if ka != kb:
        sa, sb = set(ka), set(kb)
        for k in sorted(sa - sb):
            if k[1] in allowed or (k[2] and k[1] in ea_allowed):
                continue
            out.append('only in %s: type %d inode %d%s' % (pa, k[0], k[1], ' EA' if k[2] else ''))
        for k in sorted(sb - sa):
            if k[1] in allowed or (k[2] and k[1] in ea_allowed):
                continue
            out.append('only in %s: type %d inode %d%s' % (pb, k[0], k[1], ' EA' if k[2] else ''))
    mb = dict(zip(kb, ub))
    for k, u in zip(ka, ua):
        v = mb.get(k)
        if v is None:
            continue
        what = 'type %d inode %d%s' % (k[0], k[1], ' EA' if k[2] else '')
        if k[0] == TS_END:
            if strict and len(u) != len(v):
                out.append('%s: %d vs %d TS_END blocks' % (what, len(u), len(v)))
            if masked_header(u[0], True, strict) != masked_header(v[0], True, strict):
                out.append('%s: TS_END header differs at %s' % (
                    what, diff_offsets(masked_header(u[0], True, strict), masked_header(v[0], True, strict))[:12]))
            continue
        if k[1] in allowed or (k[2] and k[1] in ea_allowed):
            continue
        if len(u) != len(v):
            out.append('%s: %d vs %d headers' % (what, len(u), len(v)))
        for i, (ra, rb) in enumerate(zip(u, v)):
            ha, hb = masked_header(ra, i == 0, strict), masked_header(rb, i == 0, strict)
            if ha != hb:
                out.append('%s: header %d (blocks %d/%d) differs at offsets %s' % (
                    what, i, ra.blockno, rb.blockno, diff_offsets(ha, hb)[:12]))
        da, db = unit_data(u, strict), unit_data(v, strict)
        if da != db:
            d = diff_offsets(da, db)
            first = d[0] if d else min(len(da), len(db))
            out.append('%s: data differs (%d vs %d bytes, first at byte %d)' % (
                what, len(da), len(db), first))
    for line in out:
        print(line)
    return 1 if out else 0


def show_inode(path, ino):
    for r in read_records(path):
        if r.type == TS_INODE and r.ino == ino and not r.is_ea:
            h = r.hdr
            mode = struct.unpack_from('<H', h, 32)[0]
            db0, db1 = struct.unpack_from('<II', h, 72)
            uid, gid = struct.unpack_from('<II', h, 144)
            msec, musec = struct.unpack_from('<II', h, 56)
            flags = struct.unpack_from('<I', h, 132)[0]
            print('mode=0%o size=%d db0=%d db1=%d uid=%d gid=%d mtime=%d.%06d flags=0x%x' % (
                mode, r.size, db0, db1, uid, gid, msec, musec, flags))
            return 0
    print('inode %d not found' % ino, file=sys.stderr)
    return 1


def dir_entries(path):
    """Every live entry of every directory of the archive, in archive
    order: (directory inode, entry inode, name bytes as archived)."""
    for u in group(read_records(path)):
        r = u[0]
        if r.type != TS_INODE or r.is_ea or (r.mode & S_IFMT) != S_IFDIR:
            continue
        blob = b''.join(b for x in u for b in x.data)[:r.size]
        off = 0
        while off + 8 <= len(blob):
            ino, reclen, dtype, namlen = struct.unpack_from('<IHBB', blob, off)
            if reclen < 8 or reclen % 4:
                break
            if ino:
                yield r.ino, ino, blob[off + 8:off + 8 + namlen]
            off += reclen


def show_names(path):
    out = sys.stdout.buffer
    for _, _, name in dir_entries(path):
        out.write(name + b'\n')
    return 0


def show_dirents(path):
    """One line per live entry of every directory but "." and "..":
    "DIRINO INO HEXNAME", the name's bytes exactly as archived."""
    for dino, ino, name in dir_entries(path):
        if name not in (b'.', b'..'):
            print('%d %d %s' % (dino, ino, name.hex()))
    return 0


def zero_tails(path):
    bad = 0
    for u in group(read_records(path)):
        r = u[0]
        if r.type != TS_INODE:
            continue
        kind = r.mode & S_IFMT
        if not (r.is_ea or kind in (S_IFDIR, S_IFLNK)):
            continue
        blob = b''.join(b for x in u for b in x.data)
        tail = blob[r.size:]
        if tail.strip(b'\0'):
            print('inode %d%s: non-zero bytes after di_size %d' % (
                r.ino, ' EA' if r.is_ea else '', r.size))
            bad = 1
    return bad


EXT_MAGIC, EXT_DATASUM, EXT_DATES, EXT_TIMES = b'dmpX', 0x1, 0x2, 0x4
EXT_SIZE = 68


def check_extension(path):
    bad = 0
    for k, r in enumerate(read_records(path)):
        e = r.hdr[OFF_SPARE:OFF_SPARE + SPARE_LEN]
        flags = struct.unpack_from('<H', e, 6)[0]
        date, ddate = struct.unpack_from('<qq', e, 16)
        want = EXT_DATES | (0 if k == 0 else EXT_DATASUM)
        if r.type in (TS_INODE, TS_ADDR) and not r.is_ea:
            want |= EXT_TIMES
        problems = []
        if e[0:4] != EXT_MAGIC or e[4] != 1 or e[5] != EXT_SIZE:
            problems.append('no extension (%s)' % e[0:6].hex())
        elif flags != want:
            problems.append('flags 0x%x, not 0x%x' % (flags, want))
        elif date != r.i32(OFF_DATE) or ddate != r.i32(8):
            problems.append('dates %d %d, not %d %d' % (
                date, ddate, r.i32(OFF_DATE), r.i32(8)))
        elif want & EXT_TIMES and struct.unpack_from('<qqq', e, 32)[1] & 0xffffffff != r.u32(OFF_DINODE + 24):
            problems.append('mtime not that of c_dinode')
        elif any(e[EXT_SIZE:]) or (not want & EXT_TIMES and any(e[32:EXT_SIZE])):
            problems.append('bytes after the extension')
        for p in problems:
            print('header at block %d (type %d, inode %d): %s' % (
                r.blockno, r.type, r.ino, p))
            bad = 1
    return bad


def data_blocks(path):
    for r in read_records(path):
        if r.type in (TS_CLRI, TS_BITS):
            kind = 'map'
        elif r.is_ea:
            kind = 'ea'
        elif (r.mode & S_IFMT) == S_IFDIR:
            kind = 'dir'
        elif (r.mode & S_IFMT) == S_IFLNK:
            kind = 'link'
        else:
            kind = 'file'
        for j in range(len(r.data)):
            print('%d %d %s' % (r.blockno + 1 + j, r.ino, kind))
    return 0


def main(argv):
    if not argv:
        sys.exit(__doc__)
    cmd, args = argv[0], argv[1:]
    if cmd == 'cmp':
        strict, allowed, ea_allowed, files = False, set(), set(), []
        i = 0
        while i < len(args):
            if args[i] == '--strict':
                strict = True
            elif args[i] == '--allow-inode':
                i += 1
                allowed.add(int(args[i]))
            elif args[i] == '--allow-ea-inode':
                i += 1
                ea_allowed.add(int(args[i]))
            else:
                files.append(args[i])
            i += 1
        if len(files) != 2:
            sys.exit('usage: cmpdump.py cmp [--strict] [--allow-inode N] [--allow-ea-inode N]... A B')
        return cmp_archives(files[0], files[1], strict, allowed, ea_allowed)
    if cmd == 'inode' and len(args) == 2:
        return show_inode(args[0], int(args[1]))
    if cmd == 'zerotails' and len(args) == 1:
        return zero_tails(args[0])
    if cmd == 'extension' and len(args) == 1:
        return check_extension(args[0])
    if cmd == 'datablocks' and len(args) == 1:
        return data_blocks(args[0])
    if cmd == 'names' and len(args) == 1:
        return show_names(args[0])
    if cmd == 'dirents' and len(args) == 1:
        return show_dirents(args[0])
    sys.exit(__doc__)


if __name__ == '__main__':
    try:
        sys.exit(main(sys.argv[1:]))
    except ValueError as e:
        print('cmpdump: %s' % e, file=sys.stderr)
        sys.exit(2)
