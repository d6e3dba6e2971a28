/*
 * decompress.h - inflate one record of a compressed archive
 * (doc/format.md 11): restore's reader and dump's read-back.
 */
#ifndef DECOMPRESS_H
#define DECOMPRESS_H

#include <stddef.h>

/* Turn the payload in[0..inlen) of a record compressed with method (a
 * COMPRESS_* code of dumprestore.h) into at most *outlen bytes at out;
 * *outlen becomes the length.  -1 with *why set when it cannot. */
int decompress_record(int method, const void *in, size_t inlen, void *out,
		      size_t *outlen, const char **why);

#endif /* DECOMPRESS_H */
