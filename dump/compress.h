/*
 * compress.h - the record codecs of -z (zlib), -j (bzip2), -y (LZO) and
 * -Z (zstd),
 * behind one small interface used by the slaves.
 */
#ifndef DUMP_COMPRESS_H
#define DUMP_COMPRESS_H

#include <stddef.h>

#include "dumprestore.h"

/* Method chosen on the command line; zero means no compression.  (The
 * on-tape method codes are dumprestore.h's COMPRESS_*.) */
enum compress_method {
	COMP_NONE = 0,
	COMP_ZLIB,
	COMP_BZLIB,
	COMP_LZO,
	COMP_ZSTD,
};

/* The level dump 0.4b47 always uses (zlib level, bzip2 block size):
 * the default, so that default output equals 0.4b47's byte for byte. */
#define COMPRESS_DEFAULT_LEVEL 2
/* -Z: zstd's own default level, and its highest without the large
 * windows of the "ultra" levels (a record is at most 1 MiB anyway). */
#define ZSTD_DEFAULT_LEVEL 3
#define ZSTD_MAX_LEVEL	   19

/* Whether this build can compress with method m. */
int compress_available(enum compress_method m);

/* The method's code in the record prefix (cprefix.h). */
unsigned compress_tape_code(enum compress_method m);

/* Bytes of work memory compress_record needs for records of len bytes
 * (the caller allocates it once per slave). */
size_t compress_work_size(enum compress_method m, size_t len);

/*
 * Compress the len bytes at src into dst (room for cap bytes) with
 * method m at level (1..9, zstd 1..19; 0 means COMPRESS_DEFAULT_LEVEL).  Returns
 * the compressed size, or 0 when the method failed or the result does
 * not fit in cap: the caller then stores the record raw.
 */
size_t compress_record(enum compress_method m, int level, const void *src,
		       size_t len, void *dst, size_t cap, void *work);

#endif /* DUMP_COMPRESS_H */
