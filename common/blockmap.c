/*
 * blockmap.c - decode the block map of a file header (blockmap.h,
 * doc/format.md 5.1).
 *
 * A byte with bit 7 clear is a run of (b >> 1) + 1 blocks; a byte with
 * bit 7 set starts a two-byte run of 65 + (((b0 >> 1) & 0x3f) |
 * (b1 << 6)) blocks.  Bit 0 of the first byte says data (1) or hole (0).
 */
#include "blockmap.h"
#include "dumprestore.h"

bool
blockmap_next(const uint8_t *map, size_t len, size_t *pos,
	      struct blockmap_run *run)
{
	uint8_t b0;

	if (*pos >= len)
		return false;
	b0 = map[(*pos)++];
	run->data = (b0 & 1) != 0;
	if (!(b0 & 0x80)) {
		run->blocks = (uint32_t)(b0 >> 1) + 1;
		return true;
	}
	if (*pos >= len) {
		*pos = len;
		return false;
	}
	run->blocks = 65u +
	    (((uint32_t)(b0 >> 1) & 0x3f) | ((uint32_t)map[(*pos)++] << 6));
	return true;
}

bool
blockmap_count(const uint8_t *map, size_t len, uint64_t *data, uint64_t *all)
{
	struct blockmap_run run;
	size_t pos = 0;

	*data = *all = 0;
	while (pos < len) {
		if (!blockmap_next(map, len, &pos, &run))
			return false;
		*all += run.blocks;
		if (run.data)
			*data += run.blocks;
	}
	return true;
}

bool
blockmap_header_blocks(const struct s_spcl *h, uint64_t *n)
{
	uint64_t data = 0, all = 0;
	bool whole;

	*n = 0;
	switch (h->c_type) {
	case TS_BITS:
	case TS_CLRI:
		*n = h->c_count > 0 ? (uint64_t)h->c_count : 0;
		return true;
	case TS_INODE:
	case TS_ADDR: break;
	default: return true;
	}
	if (h->c_count < 0 || h->c_count > TP_NINDIR)
		return false;
	whole = blockmap_count(h->c_addr, (size_t)h->c_count, &data, &all);
	*n = (h->c_flags & DR_EXTATTRIBUTES) ? all : data;
	return whole;
}
