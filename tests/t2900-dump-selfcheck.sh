#!/bin/sh
test_description='dump master self-checks: defined bytes, identity with dump 0.4b47, options

Two dumps of an unchanged file system differ only in c_date, the header
checksums and the dates of the header extension (doc/format.md 2.6: its
data checksums are equal). Against dump 0.4b47 on the same loop device
the archive is identical record by record, the extension aside, except
where 0.4b47 leaves bytes undefined
(doc/format.md 2.5, 7.3, 8.1: carried-over header fields, tails of directory,
symlink and EA blocks), except the microseconds we add, and except the
directory holding the 255-byte name, which 0.4b47 corrupts. Also: -S
estimate equals 0.4b47, the old key-letter form, -f - closing line,
dumpdates -u line, bad input.'
. "$(dirname "$0")/lib.sh"

# Semantic comparison of two archives (blocks and records): prints
# "DIFFERENT <key>..." for every inode (or TS_ type) whose records differ.
cat >cmp.py <<'EOF'
import struct, sys
def blocks(p):
    d = open(p, 'rb').read()
    return [d[i:i + 1024] for i in range(0, len(d), 1024)]
def is_hdr(b):
    return (len(b) == 1024 and struct.unpack_from('<i', b, 24)[0] == 60012
            and sum(struct.unpack('<256i', b)) % 2**32 == 84446)
def norm(b):
    m = bytearray(b)
    # c_date, c_ddate, c_tapea, c_checksum, the three tv_usec fields
    for o in (4, 8, 16, 28, 52, 60, 68):
        m[o:o + 4] = bytes(4)
    # our header extension (doc/format.md 2.6); zero in 0.4b47's
    m[904:1024] = bytes(120)
    t, cnt = struct.unpack_from('<i', b, 0)[0], struct.unpack_from('<i', b, 160)[0]
    if t in (2, 4):
        m[164 + max(cnt, 0):676] = bytes(512 - max(cnt, 0))
    else:
        m[32:676] = bytes(644)
    return bytes(m)
def walk(bl):
    recs, key, i, off = {}, None, 0, 0
    while i < len(bl):
        h = bl[i]
        if not is_hdr(h):
            recs.setdefault('junk', []).append(h); i += 1; continue
        t, ino = struct.unpack_from('<i', h, 0)[0], struct.unpack_from('<I', h, 20)[0]
        size, cnt = struct.unpack_from('<Q', h, 40)[0], struct.unpack_from('<i', h, 160)[0]
        isdir = (struct.unpack_from('<H', h, 32)[0] & 0xF000) == 0x4000 and not (struct.unpack_from('<i', h, 888)[0] & 0x8000)
        key = ino if t in (2, 4) else 'T%d' % t
        if t == 2: off = 0
        r = recs.setdefault(key, []); r.append(norm(h)); i += 1
        if t in (3, 6):
            r.extend(bl[i:i + cnt]); i += cnt; continue
        if t not in (2, 4): continue
        for k in range(cnt):
            if h[164 + k]:
                v = max(0, min(1024, size - off)); d = bl[i]; i += 1
                if isdir:
                    o, es = 0, []
                    while o + 8 <= v:
                        e = struct.unpack_from('<IHBB', d, o); es.append((o,) + e + (d[o + 8:o + 8 + e[3]],))
                        if e[1] == 0: break
                        o += e[1]
                    r.append(repr(es))
                else:
                    r.append(d[:v])
            off += 1024
    return recs
a, b = walk(blocks(sys.argv[1])), walk(blocks(sys.argv[2]))
keys = list(a) + [k for k in b if k not in a]
print(' '.join(['DIFFERENT'] + [str(k) for k in keys if k not in ('T5',) and a.get(k) != b.get(k)]))
EOF

# same_but_dates A B: the archives differ at most in c_date and checksums.
cat >dates.py <<'EOF'
import sys
a = open(sys.argv[1], "rb").read(); b = open(sys.argv[2], "rb").read()
assert len(a) == len(b), "sizes differ"
offs = set(i % 1024 for i in range(len(a)) if a[i] != b[i])
# c_date, c_checksum, and the dates of the header extension
assert offs <= set(range(4, 8)) | set(range(28, 32)) | set(range(920, 936)), sorted(offs)
EOF
same_but_dates() {
	"$PYTHON" dates.py "$1" "$2"
}

test_expect_success ROOT 'setup: images' '
	make_image ext4 e4.img small &&
	make_image ext4-1k e1k.img small &&
	make_image ext2 e2.img small
'

test_expect_success ROOT,OURDUMP,PYTHON 'two dumps of an unchanged image differ only in c_date and checksums' '
	"$DUMP" -0 -f a.dump -D dd e4.img 2>a.err &&
	sleep 1 &&
	"$DUMP" -0 -f b.dump -D dd e4.img 2>b.err &&
	same_but_dates a.dump b.dump &&
	! cmp a.dump b.dump >/dev/null
'

# -L for both: 0.4b47 takes the label from the blkid cache, which may
# still describe an image attached earlier to the same loop device.
for kind in e4 e1k e2
do
	test_expect_success ROOT,LOOP,ORACLE,OURDUMP,PYTHON "$kind: archive equals dump 0.4b47 record by record (undefined bytes aside)" '
		dev=$(image_attach '$kind'.img) &&
		"$ORACLE_DUMP" -0 -L check -f ref.dump -D dd "$dev" 2>ref.err &&
		"$DUMP" -0 -L check -f our.dump -D dd "$dev" 2>our.err &&
		names=$(debugfs -R "stat /names" '$kind'.img 2>/dev/null | sed -n "s/^Inode: \([0-9]*\).*/\1/p") &&
		echo "DIFFERENT $names" >expect &&
		"$PYTHON" cmp.py ref.dump our.dump >actual &&
		test_cmp expect actual &&
		"$ORACLE_DUMP" -0 -S -D dd "$dev" >ref.S 2>/dev/null &&
		"$DUMP" -0 -S -D dd "$dev" >our.S 2>/dev/null &&
		test_cmp ref.S our.S &&
		sed -n "s/.*estimated \([0-9]*\) blocks.*/\1/p" ref.err >ref.est &&
		sed -n "s/.*estimated \([0-9]*\) blocks.*/\1/p" our.err >our.est &&
		test_cmp ref.est our.est &&
		image_detach "$dev"
	'
done

test_expect_success ROOT,LOOP,ORACLE,OURDUMP,PYTHON 'incremental (and -m): same base date, estimate, records and dumpdates as dump 0.4b47' '
	cp e2.img inc.img &&
	dev=$(image_attach inc.img) &&
	"$ORACLE_DUMP" -0 -u -D dd.ref -f /dev/null "$dev" 2>/dev/null &&
	"$DUMP" -0 -u -D dd.our -f /dev/null "$dev" 2>/dev/null &&
	sed "s/ 0 .*/ 0 DATE/" dd.ref >expect && sed "s/ 0 .*/ 0 DATE/" dd.our >actual &&
	test_cmp expect actual &&
	sleep 1 &&
	image_mount "$dev" mnt &&
	echo changed >>mnt/names/-leading-dash && mkdir mnt/newdir && echo n >mnt/newdir/f &&
	big=$(find mnt -type f -size +100k | head -n 1) && test -n "$big" && chmod 600 "$big" &&
	image_umount mnt &&
	cp dd.ref dd.our &&
	TZ=IST-5:30 "$ORACLE_DUMP" -1 -u -L check -D dd.ref -f ref1.dump "$dev" 2>ref1.err &&
	TZ=IST-5:30 "$DUMP" -1 -u -L check -D dd.our -f our1.dump "$dev" 2>our1.err &&
	grep "Date of last level 0 dump" our1.err &&
	sed -n "s/.*Date of last level/&/p" ref1.err >expect &&
	sed -n "s/.*Date of last level/&/p" our1.err >actual &&
	test_cmp expect actual &&
	names=$(debugfs -R "stat /names" inc.img 2>/dev/null | sed -n "s/^Inode: \([0-9]*\).*/\1/p") &&
	echo "DIFFERENT $names" >expect &&
	"$PYTHON" cmp.py ref1.dump our1.dump >actual &&
	test_cmp expect actual &&
	grep "estimated" ref1.err >expect && grep "estimated" our1.err >actual &&
	test_cmp expect actual &&
	"$ORACLE_DUMP" -1 -m -L check -D dd.ref -f refm.dump "$dev" 2>refm.err &&
	"$DUMP" -1 -m -L check -D dd.our -f ourm.dump "$dev" 2>ourm.err &&
	"$PYTHON" -c "import struct,sys; d=open(\"ourm.dump\",\"rb\").read(); sys.exit(not any(struct.unpack_from(\"<i\",d,i+888)[0] & 0x100 for i in range(0,len(d),1024) if struct.unpack_from(\"<i\",d,i+24)[0]==60012))" &&
	echo "DIFFERENT $names" >expect &&
	"$PYTHON" cmp.py refm.dump ourm.dump >actual &&
	test_cmp expect actual &&
	sed "s/:[0-9][0-9] 20/:SS 20/" dd.ref >expect && sed "s/:[0-9][0-9] 20/:SS 20/" dd.our >actual &&
	test_cmp expect actual &&
	grep " 1 .* +0530\$" dd.our &&
	image_detach "$dev"
'

# ea.py DUMP: every EA record's entries as "ino index name" lines.
cat >ea.py <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
i = 0
while i + 1024 <= len(d):
    h = d[i:i + 1024]; i += 1024
    if struct.unpack_from('<i', h, 24)[0] != 60012: continue
    t, ino = struct.unpack_from('<i', h, 0)[0], struct.unpack_from('<I', h, 20)[0]
    cnt, flags = struct.unpack_from('<i', h, 160)[0], struct.unpack_from('<i', h, 888)[0]
    if t not in (2, 4): continue
    n = cnt if flags & 0x8000 else sum(1 for k in range(cnt) if h[164 + k])
    p = d[i:i + 1024 * n]; i += 1024 * n
    if not flags & 0x8000: continue
    magic = struct.unpack_from('<I', p, 0)[0]
    o = 4 if magic == 0xEA020001 else 32
    while o + 16 <= len(p) and struct.unpack_from('<I', p, o)[0] != 0:
        nl, idx = p[o], p[o + 1]
        print(ino, idx, p[o + 16:o + 16 + nl].decode('latin-1'))
        o += (nl + 16 + 3) & ~3
EOF

# holes.py DUMP INO: the c_addr bytes of inode INO's data headers.
cat >holes.py <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read(); want = int(sys.argv[2]); out = []
for i in range(0, len(d), 1024):
    h = d[i:i + 1024]
    if (struct.unpack_from('<i', h, 24)[0] == 60012 and struct.unpack_from('<i', h, 0)[0] in (2, 4)
            and struct.unpack_from('<I', h, 20)[0] == want and not struct.unpack_from('<i', h, 888)[0] & 0x8000):
        out.append(h[164:164 + struct.unpack_from('<i', h, 160)[0]])
print(b''.join(out).hex())
EOF

test_expect_success ROOT,LOOP,OURDUMP,PYTHON 'unwritten (preallocated) extents are dumped as holes' '
	cp e4.img pre.img &&
	image_mount pre.img pmnt &&
	head -c 65536 /dev/urandom >pmnt/stale && rm pmnt/stale && sync &&
	fallocate -l 40960 pmnt/pre.bin &&
	printf x | dd of=pmnt/pre.bin bs=1 seek=20480 conv=notrunc 2>/dev/null &&
	ino=$(stat -c %i pmnt/pre.bin) &&
	image_umount pmnt &&
	"$DUMP" -0 -f pre.dump -D dd pre.img 2>pre.err &&
	"$PYTHON" holes.py pre.dump $ino >actual &&
	# 10 fs blocks, 4 slots each: only block 5 (slots 20-23) was written.
	printf "%040d01010101%032d\n" 0 0 >expect &&
	test_cmp expect actual
'

test_expect_success ROOT,OURDUMP,PYTHON 'inline data: no system.data entry in any EA record' '
	make_image ext4-inline inl.img small &&
	"$DUMP" -0 -f inl.dump -D dd inl.img 2>inl.err &&
	"$PYTHON" ea.py inl.dump >ea.list &&
	test -s ea.list &&
	! grep "^[0-9]* 7 data\$" ea.list
'

test_expect_success ORACLE,OURDUMP '-W / -w report equals dump 0.4b47 (loop devices of other tests aside)' '
	printf "%s\n" "LABEL=x 0 Sun Nov 22 13:02:14 2026 +0000" "/ 1 Sun Nov 22 13:02:14 2026 +0000" \
		"zzz 5 Sun Nov 22 13:02:14 2026 +0000" "zzz 6 Sun Nov 23 13:02:14 2026 -0500" \
		"bad Sun Nov 1 13:02:14 2026 +0000" "lost 1 Sun Nov 22 13:02:14 2026 +0000" >ddW &&
	"$ORACLE_DUMP" -D ddW -W 2>&1 | grep -v "^  */dev/loop" >expect &&
	"$DUMP" -D ddW -W 2>&1 | grep -v "^  */dev/loop" >actual &&
	test_cmp expect actual &&
	"$ORACLE_DUMP" -D ddW -w >expect 2>&1 &&
	"$DUMP" -D ddW -w >actual 2>&1 &&
	test_cmp expect actual &&
	"$ORACLE_DUMP" -W -D ddW 2>&1 | grep -v "^  */dev/loop" >expect &&
	"$DUMP" -W -D ddW 2>&1 | grep -v "^  */dev/loop" >actual &&
	test_cmp expect actual
'

test_expect_success ROOT,OURDUMP,PYTHON 'Amanda'\''s key-letter form (0usf 1048576 -) equals getopt form; -f - closing line' '
	"$DUMP" 0usf 1048576 - e2.img -D dd2 >k.dump 2>k.err &&
	"$DUMP" -0 -u -f - -D dd3 e2.img >g.dump 2>g.err &&
	same_but_dates k.dump g.dump &&
	grep "Dumping e2.img (an unlisted file system) to standard output" k.err &&
	grep -E "^  DUMP: [0-9]+ blocks \([0-9]+\.[0-9][0-9]MB\)\$" k.err &&
	! grep "volume(s)" k.err &&
	grep "DUMP IS DONE" k.err &&
	grep -E "^e2\.img 0 [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4} [+-][0-9]{4}\$" dd2
'

test_expect_success OURDUMP 'bad input: one message, non-zero exit, never DUMP IS DONE' '
	test_must_fail "$DUMP" -0 -f /dev/null -D dd /nonexistent/device 2>e1 &&
	! grep "DUMP IS DONE" e1 &&
	test_must_fail "$DUMP" -0 -b 2000 -f /dev/null e2.img 2>e3 &&
	grep "Please choose a blocksize <= 1024kB" e3 &&
	test_must_fail "$DUMP" -0 -b 0 -f /dev/null e2.img 2>e4 &&
	grep "number of blocks per write must be between 1 and 1048576" e4 &&
	test_must_fail "$DUMP" -K e2.img 2>e5 &&
	grep "usage:" e5 &&
	test_must_fail "$DUMP" -0 -f /nonexistent/dir/x -D dd e2.img 2>e6 &&
	! grep "DUMP IS DONE" e6
'

# A file of zeros on a tmpfs of the check's own: on an ext4 that dump
# can read (the trash directory's may be) it would be a file to archive.
test_expect_success ROOT,OURDUMP 'bad input: a file of zeros is no file system' '
	scratch_mount tmpfs nofs size=2m &&
	test_when_finished "image_umount nofs" &&
	head -c 1048576 /dev/zero >nofs/zero.bin &&
	test_must_fail "$DUMP" -0 -f /dev/null -D dd nofs/zero.bin 2>e2 &&
	! grep "DUMP IS DONE" e2
'

test_expect_success ROOT,UNPRIV,OURDUMP 'dump works as a non-root user who can read the image' '
	chmod 644 e2.img && chmod 755 . &&
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DUMP" -0 -f - -D /nonexistent/dd "$PWD/e2.img" >nr.dump 2>nr.err &&
	grep "DUMP IS DONE" nr.err &&
	test $(( $(wc -c <nr.dump) % 10240 )) = 0
'

test_done
