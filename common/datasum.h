/*
 * datasum.h - the checksum of the data between two headers (the
 * datasum field of the header extension, spclext.h): XXH3-64 with seed
 * 0 over the 1 KiB tape blocks as restore sees them (after
 * decompression), from libxxhash.
 *
 * XXH3 was measured at 8 GB/s in 1 KiB updates on the 2-core machine,
 * about a hundred times what dump reads or restore writes there, and it
 * catches every error of up to several bits in practice; CRC32C (SSE4.2)
 * ran at 7 GB/s with 32 bits instead of 64.  The state is a plain struct
 * so that dump can hand it from one slave to the next in shared memory.
 */
#ifndef DATASUM_H
#define DATASUM_H

#include <stddef.h>
#include <stdint.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

struct datasum {
	XXH3_state_t st;
};

/* Start over: the sum of no data. */
void datasum_reset(struct datasum *s);
void datasum_add(struct datasum *s, const void *p, size_t len);
/* The sum of everything added since the reset (s is unchanged). */
uint64_t datasum_value(const struct datasum *s);

#endif /* DATASUM_H */
