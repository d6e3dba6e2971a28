#!/usr/bin/env python3
"""tests/helpers/zrecords.py - inspect compressed dump archives
(doc/format.md 11), native little-endian writer.

  zrecords.py raw OUT VOLUME...
      Undo the record framing of the volumes (in order: each starts with
      a raw record of c_ntrec blocks, then 4-byte prefix + payload
      records) and write the uncompressed tape-block stream to OUT, so
      that cmpdump.py can compare it.  zlib and bzip2 only.
  zrecords.py check LEVEL VOLUME...
      Check the framing of every volume, and that every compressed
      zlib/bzip2 record is exactly what compress2(level LEVEL) /
      bzip2 block size LEVEL make of its decompressed bytes, that no
      payload is longer than record - 16 bytes, and that raw records are
      stored raw only when they do not compress that well.  Prints
      "records=N compressed=C raw=R method=M"; exit 1 on any problem.
  zrecords.py valid LEVEL VOLUME...
      As check, but for zlib payloads made by another zlib-format codec
      (libdeflate); bzip2 payloads are checked as by check:
      a zlib payload must inflate to its record and carry LEVEL's
      level hint in its header (FLEVEL, as zlib sets it), not equal
      zlib's bytes; a record stored raw must not shrink below 7/8 of the
      record with zlib at LEVEL (the codecs differ by a few per cent).
  zrecords.py sizes VOLUME
      Print the output size of each record of the volume, one per line.
  zrecords.py split LIMIT_KB VOLUME...
      Check where a compressed dump with -B LIMIT_KB switched volumes
      (doc/format.md 10.1, as 0.4b47): a volume ends after record r when
      the bytes of its records up to r-2 plus 3 x (record + 4) reach
      LIMIT_KB KiB, and not at an earlier record.  Every volume but the
      last is checked; exit 1 on any problem.
  zrecords.py volhdr VOLUME...
      Print the fields of each volume's first header that tell where the
      volume starts: type, c_volume, c_tapea, c_firstrec, c_count,
      c_inumber, c_flags, c_ntrec (compressed or not: the first record is
      raw), one line per volume.
"""
import bz2
import struct
import sys
import zlib

TP_BSIZE = 1024
NTREC_OFF = 896


def records(path):
    """Yield (compressed, method, payload) for each framed record, the
    raw first record as (None, None, bytes)."""
    with open(path, 'rb') as f:
        data = f.read()
    ntrec = struct.unpack_from('<i', data, NTREC_OFF)[0]
    rec = ntrec * TP_BSIZE
    yield None, None, data[:rec], rec
    p = rec
    while p < len(data):
        if p + 4 > len(data):
            raise ValueError('%s: truncated prefix at %d' % (path, p))
        w = struct.unpack_from('<I', data, p)[0]
        n = w >> 4
        if p + 4 + n > len(data):
            raise ValueError('%s: truncated payload at %d' % (path, p))
        yield w & 1, (w >> 1) & 7, data[p + 4:p + 4 + n], rec
        p += 4 + n


def unpack(c, m, payload):
    if not c:
        return payload
    if m == 0:
        return zlib.decompress(payload)
    if m == 1:
        return bz2.decompress(payload)
    raise ValueError('cannot decompress method %d here' % m)


def recompress(m, level, raw):
    if m == 0:
        return zlib.compress(raw, level)
    return bz2.compress(raw, level)


def flevel(level):
    """The level hint zlib writes in the second header byte (bits 6-7)."""
    if level < 2:
        return 0
    if level < 6:
        return 1
    return 2 if level == 6 else 3


def main(argv):
    if len(argv) >= 3 and argv[1] == 'raw':
        with open(argv[2], 'wb') as out:
            for vol in argv[3:]:
                for c, m, payload, _ in records(vol):
                    out.write(unpack(c, m, payload))
        return 0
    if len(argv) >= 4 and argv[1] in ('check', 'valid'):
        zexact = argv[1] == 'check'
        level = int(argv[2])
        bad = ncomp = nraw = n = 0
        methods = set()
        for vol in argv[3:]:
            for c, m, payload, rec in records(vol):
                n += 1
                if c is None:
                    if len(payload) != rec:
                        print('%s: short first record' % vol)
                        bad += 1
                    continue
                methods.add(m)
                exact = zexact or m != 0
                if c:
                    ncomp += 1
                    if len(payload) > rec - 16:
                        print('%s: record %d: payload too long' % (vol, n))
                        bad += 1
                    if m in (0, 1):
                        raw = unpack(c, m, payload)
                        if len(raw) % TP_BSIZE or len(raw) > rec:
                            print('%s: record %d: bad size' % (vol, n))
                            bad += 1
                        elif exact and recompress(m, level, raw) != payload:
                            print('%s: record %d: not level %d output'
                                  % (vol, n, level))
                            bad += 1
                        elif not exact and payload[1] >> 6 != flevel(level):
                            print('%s: record %d: level hint %d, not %d'
                                  % (vol, n, payload[1] >> 6, flevel(level)))
                            bad += 1
                else:
                    nraw += 1
                    if len(payload) != rec:
                        print('%s: record %d: raw record of %d bytes'
                              % (vol, n, len(payload)))
                        bad += 1
                    elif m in (0, 1) and \
                            len(recompress(m, level, payload)) <= \
                            (rec - 16 if exact else rec * 7 // 8):
                        print('%s: record %d: stored raw but compresses'
                              % (vol, n))
                        bad += 1
        print('records=%d compressed=%d raw=%d method=%s'
              % (n, ncomp, nraw, ','.join(str(x) for x in sorted(methods))))
        return 1 if bad else 0
    if len(argv) >= 4 and argv[1] == 'split':
        limit = int(argv[2]) * TP_BSIZE
        bad = 0
        for vol in argv[3:-1]:
            sizes = [len(p) + (0 if c is None else 4)
                     for c, m, p, rec in records(vol)]
            rec = sizes[0]
            ahead = 3 * (rec + 4)
            cum = [0]
            for x in sizes:
                cum.append(cum[-1] + x)
            last = len(sizes) - 1

            def switches(r):
                return cum[max(r - 1, 0)] + ahead >= limit
            if not switches(last) or any(switches(r) for r in range(last)):
                print('%s: volume ends after record %d of %d bytes: wrong'
                      % (vol, last, cum[-1]))
                bad += 1
        return 1 if bad else 0
    if len(argv) >= 3 and argv[1] == 'volhdr':
        for vol in argv[2:]:
            with open(vol, 'rb') as f:
                h = f.read(TP_BSIZE)
            t = struct.unpack_from('<i', h, 0)[0]
            vn, tapea, ino = struct.unpack_from('<iII', h, 12)
            count = struct.unpack_from('<i', h, 160)[0]
            flags, firstrec, ntrec = struct.unpack_from('<iii', h, 888)
            print('type=%d volume=%d tapea=%d firstrec=%d count=%d ino=%d '
                  'flags=0x%x ntrec=%d' % (t, vn, tapea, firstrec, count,
                                          ino, flags, ntrec))
        return 0
    if len(argv) == 3 and argv[1] == 'sizes':
        for c, m, payload, _ in records(argv[2]):
            print(len(payload) + (0 if c is None else 4))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
