/*
 * cprefix.h - the 4-byte prefix of each compressed record
 * (doc/format.md 11.2), defined once for dump, restore and the helpers.
 *
 * Every record of a compressed volume but the first is written as this
 * prefix and then the payload.  The prefix is one 32-bit word in the
 * writer's byte order holding three fields: a "payload is compressed"
 * flag, the method (COMPRESS_* in dumprestore.h) and the payload length
 * in bytes.  0.4b47 declared it as a C bit-field, so the fields sit
 * differently for the two byte orders:
 *   little-endian writer: flag = bit 0, method = bits 1-3,
 *                         length = bits 4-31;
 *   big-endian writer:    flag = bit 31, method = bits 28-30,
 *                         length = bits 0-27.
 * Both layouts are encoded and decoded here from bytes, so no caller
 * needs to know the byte order of the machine it runs on.
 */
#ifndef CPREFIX_H
#define CPREFIX_H

#include <stdbool.h>
#include <stdint.h>

#define CPREFIX_SIZE	4 /* bytes before each payload */
#define CPREFIX_LEN_MAX 0x0fffffffu /* largest length both layouts hold */

struct cprefix {
	bool compressed; /* false: the payload is the record, raw */
	unsigned method; /* COMPRESS_ZLIB, COMPRESS_BZLIB, ... */
	uint32_t length; /* payload bytes after the prefix */
};

/* Decode the prefix at p, written in this machine's byte order, or in
 * the other one when swapped is true. */
void cprefix_decode(const unsigned char *p, bool swapped, struct cprefix *c);

/* Write c's prefix to p in this machine's byte order (as dump does), or
 * in the other one when swapped is true.  length <= CPREFIX_LEN_MAX,
 * method < 8. */
void cprefix_encode(unsigned char *p, bool swapped, const struct cprefix *c);

#endif /* CPREFIX_H */
