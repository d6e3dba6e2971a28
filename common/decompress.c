/*
 * decompress.c - inflate one record of a compressed archive (-z, -j, -y,
 * -Z), for restore and for dump --verify.
 *
 * Each record after the first of a volume is compressed as one unit
 * (doc/format.md 11); this file only turns a payload back into at most
 * *outlen bytes and says why when it cannot.  The caller checks lengths.
 * zlib-format records go through libdeflate where configure found it
 * (one decompressor per process, made on first use: it keeps no state
 * between records), else through zlib's uncompress().
 */
#include <limits.h>
#include <string.h>

#include "codecs.h"
#include "decompress.h"
#include "dumprestore.h"

#ifdef HAVE_LIBDEFLATE
static int
inflate_record(const void *in, size_t inlen, void *out, size_t *outlen,
	       const char **why)
{
	static struct libdeflate_decompressor *ld;
	size_t n = 0;

	if (ld == NULL && (ld = libdeflate_alloc_decompressor()) == NULL) {
		*why = "out of memory";
		return -1;
	}
	if (libdeflate_zlib_decompress(ld, in, inlen, out, *outlen, &n) !=
	    LIBDEFLATE_SUCCESS) {
		*why = "zlib data error";
		return -1;
	}
	*outlen = n;
	return 0;
}
#elif defined(HAVE_ZLIB)
static int
inflate_record(const void *in, size_t inlen, void *out, size_t *outlen,
	       const char **why)
{
	uLongf n = (uLongf)*outlen;

	if (uncompress(out, &n, in, (uLong)inlen) != Z_OK) {
		*why = "zlib data error";
		return -1;
	}
	*outlen = n;
	return 0;
}
#endif

int
decompress_record(int method, const void *in, size_t inlen, void *out,
		  size_t *outlen, const char **why)
{
	*why = "unknown compression method";
	switch (method) {
#ifdef HAVE_ZLIB_FORMAT
	case COMPRESS_ZLIB: return inflate_record(in, inlen, out, outlen, why);
#endif
#ifdef HAVE_BZLIB
	case COMPRESS_BZLIB: {
		unsigned int n =
		    *outlen > UINT_MAX ? UINT_MAX : (unsigned int)*outlen;

		if (BZ2_bzBuffToBuffDecompress(out, &n, (char *)(uintptr_t)in,
					       (unsigned int)inlen, 0,
					       0) != BZ_OK) {
			*why = "bzlib data error";
			return -1;
		}
		*outlen = n;
		return 0;
	}
#endif
#ifdef HAVE_LZO
	case COMPRESS_LZO: {
		lzo_uint n = *outlen;

		if (lzo_init() != LZO_E_OK ||
		    lzo1x_decompress_safe(in, inlen, out, &n, NULL) !=
			LZO_E_OK) {
			*why = "lzo data error";
			return -1;
		}
		*outlen = n;
		return 0;
	}
#endif
#ifdef HAVE_ZSTD
	case COMPRESS_ZSTD: {
		static ZSTD_DCtx *zd;
		size_t n;

		if (zd == NULL && (zd = ZSTD_createDCtx()) == NULL) {
			*why = "out of memory";
			return -1;
		}
		n = ZSTD_decompressDCtx(zd, out, *outlen, in, inlen);
		if (ZSTD_isError(n)) {
			*why = "zstd data error";
			return -1;
		}
		*outlen = n;
		return 0;
	}
#endif
	default: return -1;
	}
}
