/*
 * codecs.h - the compression libraries this build uses, for dump's
 * record compressor and restore's decompressor alike.
 *
 * configure picks them (HAVE_LIBDEFLATE, HAVE_ZLIB, HAVE_BZLIB, HAVE_LZO,
 * HAVE_ZSTD).  zlib-format records go through libdeflate where it was
 * found, else through zlib; HAVE_ZLIB_FORMAT says either is there.
 */
#ifndef CODECS_H
#define CODECS_H

#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#elif defined(HAVE_ZLIB)
#include <zlib.h>
#endif
#ifdef HAVE_BZLIB
#include <bzlib.h>
#endif
#ifdef HAVE_LZO
#include <lzo/lzo1x.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#if defined(HAVE_LIBDEFLATE) || defined(HAVE_ZLIB)
#define HAVE_ZLIB_FORMAT 1
#endif

#endif /* CODECS_H */
