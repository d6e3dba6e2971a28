/*
 * spcl.h - header checksum, validation and byte swapping.
 *
 * The only place that knows about byte order: headers are written in
 * native order; a reader detects a foreign archive by its magic and
 * converts each header (and directory entry) once, here.
 */
#ifndef SPCL_H
#define SPCL_H

#include <stdint.h>
#include "dumprestore.h"

/* Outcome of checking one 1024-byte block for a header. */
enum spcl_kind {
	SPCL_NOT_HEADER = 0, /* no known magic */
	SPCL_NATIVE, /* valid header in native order */
	SPCL_SWAPPED, /* valid header in the other byte order */
	SPCL_BAD_CHECKSUM, /* right magic, wrong sum */
};

/* Wrapping 32-bit sum of the 256 words of a block, native order. */
uint32_t spcl_sum(const void *block);
/* Same sum with every word byte-swapped first. */
uint32_t spcl_sum_swapped(const void *block);
/* Set c_checksum so that the block sums to CHECKSUM (native order). */
void spcl_set_checksum(union u_spcl *h);
/* Classify a block; swapped=1 looks for the other byte order first. */
enum spcl_kind spcl_check(const void *block, int swapped);
/* Convert a header between byte orders in place (its own inverse). */
void spcl_swap_header(union u_spcl *h);
/* Convert the c_inos[] table between byte orders in place. */
void spcl_swap_inos(union u_spcl *h);
/* Convert the directory entries in buf[0..len) in place; entries are
 * walked with the record lengths read before (from_foreign=1) or after
 * (from_foreign=0) the swap.  Stops at a zero or out-of-range length. */
void spcl_swap_dirents(void *buf, size_t len, int from_foreign);

/*
 * Tape addresses past 2^32 blocks (4 TiB): c_tapea and c_firstrec keep
 * the low 32 bits of a block number (doc/format.md 2.1).  The block index
 * of a header in its volume is their difference modulo 2^32 (a volume is
 * shorter than that); a 32-bit number becomes the whole one nearest to a
 * 64-bit count the reader keeps.
 */
uint32_t spcl_volume_index(const struct s_spcl *h);
uint64_t spcl_widen_blockno(uint32_t low32, uint64_t near);

uint16_t spcl_bswap16(uint16_t v);
uint32_t spcl_bswap32(uint32_t v);
uint64_t spcl_bswap64(uint64_t v);

#endif /* SPCL_H */
