/*
 * compress.c - the record codecs of dump's -z, -j, -y and -Z options.
 *
 * A slave compresses each record of ntrec tape blocks as one unit
 * (doc/format.md 11): zlib as compress2() does it, bzip2 with
 * BZ2_bzBuffToBuffCompress(block size = level, verbosity 0, work factor
 * 30), LZO with lzo1x_1_compress(), zstd (-Z, method 3, which dump
 * 0.4b47's restore cannot read) one frame per record.  When configure found libdeflate,
 * -z uses its zlib-format compressor instead of zlib's deflate: the
 * same container (any zlib inflater, 0.4b47's restore included, reads
 * it), the same level numbers (1..9 of libdeflate's 1..12; the header's
 * level hint agrees with zlib's for every level but 7), the same bound
 * on the output, for about 30% less CPU time, but not the same bytes as
 * zlib makes.  The output buffer is bounded by the
 * caller (record size - 16): a record that does not shrink that much,
 * or that the library refuses, is stored raw by the caller, exactly as
 * dump 0.4b47 does.  The slaves are separate processes, so the three
 * compress in parallel without sharing anything.  zlib keeps one deflate
 * stream per process, reset for every record: deflateReset gives the
 * same bytes as the fresh stream compress2() makes, without freeing and
 * re-allocating ~270 KiB of state per record (glibc hands that back to
 * the kernel each time, and the fresh pages then fault in again, which
 * cost more system and user time than the compression of a small
 * record).  bzip2 has no reset; the slave keeps its freed state in the
 * heap instead (slave.c).  LZO's dictionary lives in per-slave work
 * memory.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codecs.h"
#include "compress.h"

/* bzip2's work factor as dump 0.4b47 passes it (its default). */
#define BZ_WORK_FACTOR 30
#define BZ_VERBOSITY   0
#define LEVEL_MIN      1
#define LEVEL_MAX      9

#ifdef HAVE_LIBDEFLATE
/* This process's compressor, made for ld_level on first use. */
static struct libdeflate_compressor *ld;
static int ld_level = -1;

/* Compress len bytes into at most cap as one zlib stream; 0 if they do
 * not fit (libdeflate then says 0) or no compressor can be had. */
static size_t
zlib_record(int level, const void *src, size_t len, void *dst, size_t cap)
{
	if (ld_level != level) {
		libdeflate_free_compressor(ld);
		ld_level = -1;
		ld = libdeflate_alloc_compressor(level);
		if (ld == NULL)
			return 0;
		ld_level = level;
	}
	return libdeflate_zlib_compress(ld, src, len, dst, cap);
}
#elif defined(HAVE_ZLIB)
/* This process's deflate stream, set up at zs_level on first use. */
static z_stream zs;
static int zs_level = -1;

/* Deflate len bytes into at most cap; 0 if they do not fit or zlib
 * fails.  Equivalent to compress2(): same parameters (deflateInit's
 * defaults), one deflate(Z_FINISH) over the whole record. */
static size_t
zlib_record(int level, const void *src, size_t len, void *dst, size_t cap)
{
	int rc;

	if (zs_level != level) {
		if (zs_level != -1)
			(void)deflateEnd(&zs); /* discards state only */
		zs_level = -1;
		memset(&zs, 0, sizeof(zs));
		if (deflateInit(&zs, level) != Z_OK)
			return 0;
		zs_level = level;
	} else if (deflateReset(&zs) != Z_OK)
		return 0;
	/* zlib's prototype is not const-correct; deflate does not modify
	 * the input */
	zs.next_in = (Bytef *)(uintptr_t)src;
	zs.avail_in = (uInt)len;
	zs.next_out = dst;
	zs.avail_out = (uInt)cap;
	rc = deflate(&zs, Z_FINISH);
	if (rc != Z_STREAM_END)
		return 0; /* output full (Z_OK) or an error */
	return (size_t)zs.total_out;
}
#endif

#ifdef HAVE_ZSTD
/* This process's zstd context: it keeps its tables between records,
 * each record being one frame of its own (restore needs no state). */
static ZSTD_CCtx *zc;

/* Compress len bytes into at most cap as one zstd frame; 0 if they do
 * not fit (zstd then reports dstSize_tooSmall) or zstd fails. */
static size_t
zstd_record(int level, const void *src, size_t len, void *dst, size_t cap)
{
	size_t n;

	if (zc == NULL && (zc = ZSTD_createCCtx()) == NULL)
		return 0;
	n = ZSTD_compressCCtx(zc, dst, cap, src, len, level);
	return ZSTD_isError(n) ? 0 : n;
}
#endif

/* Worst-case growth of LZO1X-1 output: len + len/16 + 64 + 3. */
#define LZO_WORST(len) ((len) + (len) / 16 + 64 + 3)

int
compress_available(enum compress_method m)
{
	switch (m) {
#ifdef HAVE_ZLIB_FORMAT
	case COMP_ZLIB: return 1;
#endif
#ifdef HAVE_BZLIB
	case COMP_BZLIB: return 1;
#endif
#ifdef HAVE_LZO
	case COMP_LZO: return lzo_init() == LZO_E_OK;
#endif
#ifdef HAVE_ZSTD
	case COMP_ZSTD: return 1;
#endif
	default: return 0;
	}
}

unsigned
compress_tape_code(enum compress_method m)
{
	switch (m) {
	case COMP_BZLIB: return COMPRESS_BZLIB;
	case COMP_LZO: return COMPRESS_LZO;
	case COMP_ZSTD: return COMPRESS_ZSTD;
	default: return COMPRESS_ZLIB;
	}
}

size_t
compress_work_size(enum compress_method m, size_t len)
{
#ifdef HAVE_LZO
	/* the dictionary, then room for the unbounded LZO output */
	if (m == COMP_LZO)
		return LZO1X_1_MEM_COMPRESS + LZO_WORST(len);
#else
	(void)len;
#endif
	(void)m;
	return 0;
}

static int
clamp_level(enum compress_method m, int level)
{
	int max = m == COMP_ZSTD ? ZSTD_MAX_LEVEL : LEVEL_MAX;

	if (level == 0)
		return COMPRESS_DEFAULT_LEVEL;
	if (level < LEVEL_MIN)
		return LEVEL_MIN;
	return level > max ? max : level;
}

size_t
compress_record(enum compress_method m, int level, const void *src, size_t len,
		void *dst, size_t cap, void *work)
{
	level = clamp_level(m, level);
	/* the libraries take int or unsigned lengths; records are at most
	 * 1 MiB, but refuse rather than truncate if that ever changes */
	if (len > INT_MAX || cap > INT_MAX)
		return 0;
	switch (m) {
#ifdef HAVE_ZLIB_FORMAT
	case COMP_ZLIB: return zlib_record(level, src, len, dst, cap);
#endif
#ifdef HAVE_BZLIB
	case COMP_BZLIB: {
		unsigned int out = (unsigned int)cap;

		/* bzlib's prototype is not const-correct; it does not
		 * modify the source */
		if (BZ2_bzBuffToBuffCompress(
			dst, &out, (char *)(uintptr_t)src, (unsigned int)len,
			level, BZ_VERBOSITY, BZ_WORK_FACTOR) != BZ_OK)
			return 0;
		return (size_t)out;
	}
#endif
#ifdef HAVE_LZO
	case COMP_LZO: {
		unsigned char *tmp =
		    (unsigned char *)work + LZO1X_1_MEM_COMPRESS;
		lzo_uint out = 0;

		(void)level; /* LZO1X-1 has a single level */
		if (lzo1x_1_compress(src, (lzo_uint)len, tmp, &out, work) !=
			LZO_E_OK ||
		    out > cap)
			return 0;
		memcpy(dst, tmp, out);
		return (size_t)out;
	}
#endif
#ifdef HAVE_ZSTD
	case COMP_ZSTD: return zstd_record(level, src, len, dst, cap);
#endif
	default:
		(void)src;
		(void)dst;
		(void)work;
		return 0;
	}
}
