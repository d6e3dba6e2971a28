/*
 * t-spcl.c - the header codec of common/spcl.c: checksum, classification
 * of a block, and the byte swapping of headers, c_inos and directory
 * entries (doc/format.md 2.2, 12).
 */
#include <stdio.h>
#include <string.h>

#include "blockmap.h"
#include "spcl.h"
#include "unit.h"

/* Put the bytes written as hex text at off of block b. */
static void
put_hex(unsigned char *b, size_t off, const char *hex)
{
	unsigned v;

	for (; hex[0] != '\0' && hex[1] != '\0'; hex += 2) {
		if (sscanf(hex, "%2x", &v) != 1)
			break;
		b[off++] = (unsigned char)v;
	}
}

/* A TS_INODE header of a dump 0.4b47 archive, checksum still zero. */
static void
worked_example(union u_spcl *h)
{
	unsigned char *b = (unsigned char *)h;

	memset(h, 0, sizeof(*h));
	put_hex(b, 0x00, "02000000eee6026b0000000001000000");
	put_hex(b, 0x10, "1f0000000c0000006cea000000000000");
	put_hex(b, 0x20, "a4810200000000000c00000000000000");
	put_hex(b, 0x30, "80c84f3a0000000080c84f3a00000000");
	put_hex(b, 0x40, "ece6026b000000000af3010004000000");
	put_hex(b, 0x50, "00000000000000000100000011080000");
	put_hex(b, 0x80, "0000000000000800080000004ffee659");
	put_hex(b, 0xa0, "0400000001010101");
	memcpy(h->s_spcl.c_label, "testlbl", 7);
	memcpy(h->s_spcl.c_filesys, "an unlisted file system", 23);
	memcpy(h->s_spcl.c_dev, "/dev/loop4", 10);
	memcpy(h->s_spcl.c_host, "vm", 2);
	put_hex(b, 888, "02000000000000000a000000");
}

static void
test_bswap(void)
{
	unit_eq_long(spcl_bswap16(0x1234), 0x3412, "bswap16");
	unit_eq_long(spcl_bswap32(0x11223344u), 0x44332211u, "bswap32");
	unit_ok(spcl_bswap64(0x0102030405060708ULL) == 0x0807060504030201ULL,
		"bswap64");
}

static void
test_checksum(void)
{
	union u_spcl h;
	unsigned char *b = (unsigned char *)&h;
	uint32_t sum;

	worked_example(&h);
	spcl_set_checksum(&h);
	unit_eq_long((uint32_t)h.s_spcl.c_checksum, 0x1d6fc7d1u,
		     "checksum of a TS_INODE header of a dump 0.4b47 archive");
	unit_eq_long(spcl_sum(&h), CHECKSUM, "the header words sum to %d",
		     CHECKSUM);
	unit_eq_long(spcl_check(&h, 0), SPCL_NATIVE, "classified native");
	unit_eq_long(spcl_check(&h, 1), SPCL_NATIVE,
		     "classified native with the swapped hint too");

	/* the sum wraps at 2^32 instead of depending on int */
	memset(&h, 0xff, sizeof(h));
	sum = spcl_sum(&h);
	unit_eq_long(sum, (uint32_t)(0u - 256u),
		     "256 words of 0xffffffff sum to -256 mod 2^32");

	worked_example(&h);
	spcl_set_checksum(&h);
	b[700] ^= 0x01;
	unit_eq_long(spcl_check(&h, 0), SPCL_BAD_CHECKSUM,
		     "one flipped bit: bad checksum");
	b[700] ^= 0x01;
	h.s_spcl.c_magic = OFS_MAGIC;
	unit_eq_long(spcl_check(&h, 0), SPCL_NOT_HEADER,
		     "another magic: not a header");
	memset(&h, 0, sizeof(h));
	unit_eq_long(spcl_check(&h, 0), SPCL_NOT_HEADER,
		     "a block of zeros: not a header");
}

static void
test_swap_header(void)
{
	union u_spcl h, orig;
	struct s_spcl *s = &h.s_spcl;

	worked_example(&h);
	h.s_spcl.c_level = 5;
	h.s_spcl.c_ntrec = 32;
	spcl_set_checksum(&h);
	orig = h;
	spcl_swap_header(&h);
	unit_eq_long(s->c_type, (int32_t)spcl_bswap32(TS_INODE),
		     "swap: c_type reversed");
	unit_eq_long(s->c_magic, (int32_t)spcl_bswap32(NFS_MAGIC),
		     "swap: c_magic reversed");
	unit_eq_long(s->c_dinode.di_mode, spcl_bswap16(0100644),
		     "swap: di_mode as 16 bits");
	unit_ok(s->c_dinode.di_size == spcl_bswap64(12),
		"swap: di_size as 64 bits");
	unit_eq_long(s->c_dinode.di_uid,
		     spcl_bswap32(orig.s_spcl.c_dinode.di_uid), "swap: di_uid");
	unit_eq_long(s->c_level, (int32_t)spcl_bswap32(5), "swap: c_level");
	unit_eq_long(s->c_flags, (int32_t)spcl_bswap32(DR_NEWINODEFMT),
		     "swap: c_flags");
	unit_eq_long(s->c_ntrec, (int32_t)spcl_bswap32(32), "swap: c_ntrec");
	unit_ok(memcmp(s->c_addr, orig.s_spcl.c_addr, TP_NINDIR) == 0 &&
		    memcmp(s->c_label, "testlbl", 8) == 0 &&
		    memcmp(s->c_host, orig.s_spcl.c_host, NAMELEN) == 0,
		"swap: c_addr, label and names stay byte strings");
	unit_eq_long(spcl_check(&h, 0), SPCL_BAD_CHECKSUM,
		     "swapped fields alone do not make a foreign header");
	/* A foreign writer sums its own words, strings included. */
	s->c_checksum = 0;
	s->c_checksum =
	    (int32_t)spcl_bswap32((uint32_t)CHECKSUM - spcl_sum_swapped(&h));
	unit_eq_long(spcl_check(&h, 0), SPCL_SWAPPED,
		     "a foreign header is classified swapped");
	unit_eq_long(spcl_check(&h, 1), SPCL_SWAPPED,
		     "... also with the swapped hint");
	unit_eq_long(spcl_sum_swapped(&h), CHECKSUM,
		     "its swapped words sum to %d", CHECKSUM);
	((unsigned char *)&h)[40] ^= 0x80;
	unit_eq_long(spcl_check(&h, 1), SPCL_BAD_CHECKSUM,
		     "a damaged swapped header: bad checksum");
	((unsigned char *)&h)[40] ^= 0x80;
	spcl_swap_header(&h);
	h.s_spcl.c_checksum = orig.s_spcl.c_checksum;
	unit_ok(memcmp(&h, &orig, sizeof(h)) == 0,
		"swapping twice gives the header back");
}

static void
test_swap_inos(void)
{
	union u_spcl h;

	memset(&h, 0, sizeof(h));
	for (int i = 0; i < TP_NINOS; i++)
		h.s_spcl.c_inos[i] = (uint32_t)i * 0x01010101u + 1;
	spcl_swap_inos(&h);
	unit_ok(h.s_spcl.c_inos[0] == spcl_bswap32(1) &&
		    h.s_spcl.c_inos[TP_NINOS - 1] ==
			spcl_bswap32((TP_NINOS - 1) * 0x01010101u + 1),
		"c_inos: every entry swapped, the last one too");
	unit_eq_long(h.s_spcl.c_count, 0, "c_inos: c_count untouched");
}

/* Two entries "a" (ino 5) and "bcd" (ino 70000) in one 512-byte chunk. */
static size_t
make_dirents(unsigned char *buf)
{
	struct tape_direct d;
	size_t off = 0;

	memset(buf, 0, DUMP_DIRBLKSIZ);
	memset(&d, 0, sizeof(d));
	d.d_ino = 5;
	d.d_reclen = (uint16_t)TAPE_DIRSIZ(1);
	d.d_type = DT_TAPE_REG;
	d.d_namlen = 1;
	memcpy(d.d_name, "a", 1);
	memcpy(buf, &d, d.d_reclen);
	off += d.d_reclen;
	memset(&d, 0, sizeof(d));
	d.d_ino = 70000;
	d.d_reclen = (uint16_t)(DUMP_DIRBLKSIZ - off);
	d.d_type = DT_TAPE_DIR;
	d.d_namlen = 3;
	memcpy(d.d_name, "bcd", 3);
	memcpy(buf + off, &d, TAPE_DIRSIZ(3));
	return DUMP_DIRBLKSIZ;
}

static void
test_swap_dirents(void)
{
	unsigned char buf[DUMP_DIRBLKSIZ], orig[DUMP_DIRBLKSIZ];
	struct tape_direct d;
	size_t len = make_dirents(buf), second = TAPE_DIRSIZ(1);

	memcpy(orig, buf, sizeof(buf));
	spcl_swap_dirents(buf, len, 0); /* native -> foreign */
	memcpy(&d, buf + second, TAPE_DIRENT_HDRLEN);
	unit_ok(d.d_ino == spcl_bswap32(70000) &&
		    d.d_reclen == spcl_bswap16(DUMP_DIRBLKSIZ - second),
		"dirents to foreign order: the second entry is swapped");
	unit_ok(memcmp(buf + second + TAPE_DIRENT_HDRLEN, "bcd", 3) == 0 &&
		    d.d_type == DT_TAPE_DIR && d.d_namlen == 3,
		"dirents: type, length and name bytes stay");
	spcl_swap_dirents(buf, len, 1); /* foreign -> native */
	unit_ok(memcmp(buf, orig, sizeof(buf)) == 0,
		"dirents back from foreign order: identical");

	/* a zero record length ends the walk: nothing after it changes */
	make_dirents(buf);
	memset(buf + 4, 0, 2);
	memcpy(orig, buf, sizeof(buf));
	spcl_swap_dirents(buf, len, 0);
	unit_ok(memcmp(buf + second, orig + second, len - second) == 0,
		"dirents: a zero record length stops the walk");
}

/* Decode the map written as hex into "D512 H1024 ..." (or "bad" after
 * the runs before a cut one). */
static void
runs_of(const char *hex, char *out, size_t cap)
{
	uint8_t map[TP_NINDIR];
	size_t len = 0, pos = 0, o = 0;
	unsigned v;
	struct blockmap_run run;

	for (; hex[0] != '\0' && sscanf(hex, "%2x", &v) == 1; hex += 2)
		map[len++] = (uint8_t)v;
	out[0] = '\0';
	while (pos < len && o < cap) {
		if (!blockmap_next(map, len, &pos, &run)) {
			snprintf(out + o, cap - o, "%sbad", o ? " " : "");
			return;
		}
		o += (size_t)snprintf(out + o, cap - o, "%s%c%u", o ? " " : "",
				      run.data ? 'D' : 'H', run.blocks);
	}
}

/* The block map: 0.4b47's byte per block and the runs of 0.4b49+, with
 * the examples of doc/format.md 5.1. */
static void
test_blockmap(void)
{
	static const struct {
		const char *hex, *runs;
	} ex[] = {
	    {"01010101", "D1 D1 D1 D1"}, /* 0.4b47: one byte a block */
	    {"0001", "H1 D1"},
	    {"ff06", "D512"}, /* 512 KiB */
	    {"e72c", "D2932"}, /* 3,000,000 bytes */
	    {"fffefffeff7e", "D16384 D16384 D8192"}, /* 40 MiB */
	    {"fe0e0f", "H1024 D8"}, /* a 1 MiB hole, then 8 KiB */
	    {"06", "H4"}, /* inline data: no block */
	    {"7e", "H64"},
	    {"8100", "D65"},
	    {"ffff", "D16448"}, /* the longest two bytes say */
	    {"0787", "D4 bad"}, /* a two-byte run cut by the map's end */
	};
	char got[128];
	uint64_t data, all;
	static const uint8_t cut[] = {0x07, 0x87};
	static const uint8_t mix[] = {0xfe, 0x0e, 0x0f, 0x01};

	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		runs_of(ex[i].hex, got, sizeof(got));
		unit_ok(strcmp(got, ex[i].runs) == 0, "map %s is %s (got %s)",
			ex[i].hex, ex[i].runs, got);
	}
	unit_ok(blockmap_count(mix, sizeof(mix), &data, &all) && data == 9 &&
		    all == 1033,
		"blockmap_count: 9 data blocks of 1033");
	unit_ok(!blockmap_count(cut, sizeof(cut), &data, &all) && data == 4,
		"blockmap_count of a cut map: false, the runs before it");
}

/* Tape addresses past 2^32 blocks (doc/format.md 2.1). */
static void
test_tape_addresses(void)
{
	const uint64_t g = (uint64_t)1 << 32;
	struct s_spcl h;

	memset(&h, 0, sizeof(h));
	h.c_tapea = 25;
	h.c_firstrec = 10;
	unit_eq_long(spcl_volume_index(&h), 15, "index 25 - 10");
	/* A volume that starts just below 2^32 blocks and goes past it. */
	h.c_firstrec = (int32_t)(uint32_t)(g - 100);
	h.c_tapea = 50; /* block 2^32 + 50 */
	unit_eq_long(spcl_volume_index(&h), 150, "index across the wrap");
	unit_ok(spcl_widen_blockno(3, g + 5) == g + 3, "2^32+3 near 2^32+5");
	unit_ok(spcl_widen_blockno(1, g - 2) == g + 1, "2^32+1 near 2^32-2");
	unit_ok(spcl_widen_blockno(0xfffffffeu, g + 1) == g - 2,
		"2^32-2 near 2^32+1");
	unit_ok(spcl_widen_blockno(0xffffffffu, 10) == g - 1,
		"no block number below 0");
	unit_ok(spcl_widen_blockno(7, 3 * g + 1000) == 3 * g + 7,
		"12 TiB of archive");
	unit_ok(spcl_widen_blockno(0x80000000u, 100) == 0x80000000u,
		"c_firstrec past 2^31 is not negative");
}

int
main(void)
{
	test_bswap();
	test_checksum();
	test_swap_header();
	test_swap_inos();
	test_swap_dirents();
	test_blockmap();
	test_tape_addresses();
	return unit_done();
}
