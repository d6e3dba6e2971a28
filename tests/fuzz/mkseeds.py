#!/usr/bin/env python3
"""mkseeds.py ARCHIVE... - seed inputs for fuzz_dirs, fuzz_ea and
fuzz_zrecord cut from real archives (see tests/README, Fuzzing).

For each archive (native byte order, made by dump -b 10) writes into
corpus/dirs/, corpus/ea/ and corpus/zrecord/ (beside this script):
  dirs: flags byte 0, then each directory of pass III as
        <ino u32 le><len u16 le><image>
  ea:   flags byte 0, then one EA record's payload per file
  zrecord (compressed archives): flags byte 0, c_date u32 le, then the
        archive after its first 10 KiB record
"""
import os
import struct
import sys

TP = 1024
NTREC = 10
here = os.path.dirname(os.path.abspath(__file__))


def headers(data):
    """(offset, type, ino, mode, size, count, addr, flags) of each header
    found by walking c_count data blocks (uncompressed archives)."""
    off = 0
    while off + TP <= len(data):
        blk = data[off:off + TP]
        magic, = struct.unpack_from('<i', blk, 24)
        if magic != 60012 or sum(struct.unpack('<256I', blk)) % 2**32 != 84446:
            off += TP
            continue
        ctype, = struct.unpack_from('<i', blk, 0)
        ino, = struct.unpack_from('<I', blk, 20)
        mode, = struct.unpack_from('<H', blk, 32)
        size, = struct.unpack_from('<Q', blk, 40)
        count, = struct.unpack_from('<i', blk, 160)
        addr = blk[164:164 + 512]
        flags, = struct.unpack_from('<i', blk, 888)
        yield off, ctype, ino, mode, size, count, addr, flags
        nblk = count if ctype in (1, 3, 6) else \
            sum(1 for i in range(count) if addr[i])
        if ctype == 5:
            return
        off += TP * (1 + nblk)


def body(data, off, count, addr, size):
    out = b''
    p = off + TP
    for i in range(count):
        if addr[i]:
            out += data[p:p + TP]
            p += TP
        else:
            out += b'\0' * TP
    return out[:size]


def write(kind, name, blob):
    d = os.path.join(here, 'corpus', kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(blob)


for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    base = os.path.basename(path)
    flags, = struct.unpack_from('<i', data, 888)
    if flags & 0x80:
        date, = struct.unpack_from('<i', data, 4)
        write('zrecord', base, b'\0' + struct.pack('<i', date) +
              data[NTREC * TP:])
        continue
    dirs = b'\0'
    nea = 0
    for off, ctype, ino, mode, size, count, addr, hflags in headers(data):
        if ctype != 2:
            continue
        if hflags & 0x8000:
            write('ea', '%s-%d-%d' % (base, ino, nea),
                  b'\0' + body(data, off, count, addr, size))
            nea += 1
        elif mode & 0o170000 == 0o040000:
            img = body(data, off, count, addr, size)
            dirs += struct.pack('<IH', ino, len(img)) + img
    write('dirs', base, dirs)
