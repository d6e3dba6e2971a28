/*
 * t-compress.c - compressed records: dump/compress.c packs a record,
 * common/decompress.c unpacks it, for each method this build has; and
 * the 4-byte prefix in front of every record after the first of a volume
 * (doc/format.md 11).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compress.h"
#include "cprefix.h"
#include "decompress.h"
#include "dumprestore.h"
#include "unit.h"

#define NTREC_TEST 10
#define RECSIZE	   (NTREC_TEST * TP_BSIZE)
#define MARGIN	   16 /* dump stores raw what does not shrink this */

static const struct {
	enum compress_method m;
	int code;
	const char *name;
} methods[] = {
    {COMP_ZLIB, COMPRESS_ZLIB, "zlib"},
    {COMP_BZLIB, COMPRESS_BZLIB, "bzip2"},
    {COMP_LZO, COMPRESS_LZO, "lzo"},
    {COMP_ZSTD, COMPRESS_ZSTD, "zstd"},
};

/* A record that compresses well: text-like, with some variation. */
static void
fill_text(unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)("dump restore rmt\n"[i % 17] +
				       (i / 4096) % 3);
}

/* A record that does not: a fixed pseudo-random sequence. */
static void
fill_noise(unsigned char *p, size_t len)
{
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

static void
test_method(enum compress_method m, int code, const char *name)
{
	static unsigned char src[RECSIZE], z[RECSIZE], out[RECSIZE + 1];
	void *work = NULL;
	size_t n, outlen, worksize;
	const char *why = NULL;
	int rc;

	if (!compress_available(m)) {
		unit_skip("%s: not in this build", name);
		return;
	}
	worksize = compress_work_size(m, RECSIZE);
	if (worksize > 0 && (work = malloc(worksize)) == NULL)
		abort();
	unit_eq_long(compress_tape_code(m), code, "%s: method code %d", name,
		     code);

	fill_text(src, RECSIZE);
	n = compress_record(m, 0, src, RECSIZE, z, RECSIZE - MARGIN, work);
	unit_ok(n > 0 && n < RECSIZE / 4,
		"%s: a text record shrinks "
		"(%zu -> %zu bytes)",
		name, (size_t)RECSIZE, n);
	outlen = sizeof(out);
	unit_ok(decompress_record(code, z, n, out, &outlen, &why) == 0 &&
		    outlen == RECSIZE && memcmp(out, src, RECSIZE) == 0,
		"%s: restore gets the record back byte for byte", name);

	outlen = RECSIZE / 2;
	unit_ok(decompress_record(code, z, n, out, &outlen, &why) != 0,
		"%s: a record larger than the buffer is refused", name);

	z[n / 2] ^= 0x5a;
	z[n / 2 + 1] ^= 0xa5;
	z[0] ^= 0xff;
	outlen = sizeof(out);
	why = NULL;
	rc = decompress_record(code, z, n, out, &outlen, &why);
	unit_ok(rc != 0 && why != NULL && strstr(why, "error") != NULL,
		"%s: damaged data is refused with a reason (%s)", name,
		why != NULL ? why : "none");

	fill_noise(src, RECSIZE);
	n = compress_record(m, 0, src, RECSIZE, z, RECSIZE - MARGIN, work);
	unit_eq_long(n, 0, "%s: random data does not fit: 0 (stored raw)",
		     name);
	free(work);
}

/* Levels: 0 means dump 0.4b47's level 2; out of range is clamped. */
static void
test_levels(void)
{
	static unsigned char src[RECSIZE], a[RECSIZE], b[RECSIZE];
	size_t na, nb;

	if (!compress_available(COMP_ZLIB)) {
		unit_skip("zlib levels: not in this build");
		return;
	}
	fill_text(src, RECSIZE);
	na = compress_record(COMP_ZLIB, 0, src, RECSIZE, a, RECSIZE, NULL);
	nb = compress_record(COMP_ZLIB, COMPRESS_DEFAULT_LEVEL, src, RECSIZE, b,
			     RECSIZE, NULL);
	unit_ok(na > 0 && na == nb && memcmp(a, b, na) == 0,
		"zlib: level 0 gives the bytes of level %d",
		COMPRESS_DEFAULT_LEVEL);
	na = compress_record(COMP_ZLIB, 99, src, RECSIZE, a, RECSIZE, NULL);
	nb = compress_record(COMP_ZLIB, 9, src, RECSIZE, b, RECSIZE, NULL);
	unit_ok(na > 0 && na == nb && memcmp(a, b, na) == 0,
		"zlib: level 99 is clamped to 9");
	unit_eq_long(
	    compress_record(COMP_NONE, 0, src, RECSIZE, a, RECSIZE, NULL), 0,
	    "no method: nothing compressed");
}

static void
test_unknown_method(void)
{
	unsigned char in[8] = {0}, out[16];
	size_t outlen = sizeof(out);
	const char *why = NULL;

	unit_ok(decompress_record(7, in, sizeof(in), out, &outlen, &why) != 0 &&
		    why != NULL &&
		    strcmp(why, "unknown compression method") == 0,
		"restore refuses method 7 as unknown");
}

/*
 * The record prefix (common/cprefix.c, doc/format.md 11.2): a
 * little-endian writer puts the flag in bit 0, the method in bits 1-3
 * and the length in bits 4-31; a big-endian one the flag in bit 31, the
 * method in bits 28-30 and the length in bits 0-27.  "swapped" is the
 * other order than this machine's, so the bytes are checked for the
 * order this machine has.
 */
static void
test_prefix(void)
{
	const unsigned char le[4] = {0x31, 0x12, 0x00, 0x00};
	const unsigned char be[4] = {0x80, 0x00, 0x01, 0x23};
	const unsigned char one = 1;
	bool little = *(const unsigned char *)&one == 1;
	struct cprefix c = {true, COMPRESS_ZLIB, 0x123}, d;
	struct cprefix lzo = {true, COMPRESS_LZO, 12345};
	struct cprefix raw = {false, COMPRESS_BZLIB, RECSIZE};
	struct cprefix max = {true, COMPRESS_ZLIB, CPREFIX_LEN_MAX};
	unsigned char b[CPREFIX_SIZE];

	for (int swapped = 0; swapped <= 1; swapped++) {
		const char *order = swapped ? "other order" : "own order";

		cprefix_encode(b, swapped, &lzo);
		cprefix_decode(b, swapped, &d);
		unit_ok(d.compressed && d.method == COMPRESS_LZO &&
			    d.length == 12345,
			"prefix, %s: compressed, method and "
			"length read back",
			order);
		cprefix_encode(b, swapped, &raw);
		cprefix_decode(b, swapped, &d);
		unit_ok(!d.compressed && d.method == COMPRESS_BZLIB &&
			    d.length == RECSIZE,
			"prefix, %s: a raw record keeps its "
			"method and length",
			order);
		cprefix_encode(b, swapped, &max);
		cprefix_decode(b, swapped, &d);
		unit_eq_long(d.length, CPREFIX_LEN_MAX,
			     "prefix, %s: 28 bits of length", order);
	}
	cprefix_encode(b, !little, &c);
	unit_ok(memcmp(b, le, 4) == 0,
		"prefix: zlib, 0x123 bytes is "
		"31 12 00 00 from a little-endian writer");
	cprefix_encode(b, little, &c);
	unit_ok(memcmp(b, be, 4) == 0,
		"prefix: zlib, 0x123 bytes is "
		"80 00 01 23 from a big-endian writer");
}

int
main(void)
{
	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		test_method(methods[i].m, methods[i].code, methods[i].name);
	test_levels();
	test_unknown_method();
	test_prefix();
	return unit_done();
}
