/*
 * blockmap.h - the block map of a TS_INODE/TS_ADDR header (c_count,
 * c_addr), decoded in one place for every reader (doc/format.md 5.1).
 *
 * The map is a sequence of runs of 1 KiB tape blocks, each run all data
 * (its blocks follow the header, in order) or all hole.  0.4b47 writes
 * one byte per block (01 data, 00 hole); 0.4b49 and later write one- or
 * two-byte runs.  A one-block run is the byte 01 or 00 in both, so one
 * decoder reads both forms.
 */
#ifndef BLOCKMAP_H
#define BLOCKMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest run one or two bytes can describe: 65 + 0x3fff. */
#define BLOCKMAP_MAX_RUN (65u + 0x3fffu)

struct blockmap_run {
	uint32_t blocks; /* 1 .. BLOCKMAP_MAX_RUN */
	bool data; /* the blocks follow the header */
};

/*
 * Decode the run at map[*pos] of a map of len bytes and move *pos past
 * it.  False when *pos is at the end, or when the run's second byte lies
 * beyond the map (a damaged header): *pos is then set to len.
 */
bool blockmap_next(const uint8_t *map, size_t len, size_t *pos,
		   struct blockmap_run *run);

/*
 * Blocks the map describes: *data gets those that follow the header,
 * *all every block, holes included.  False when the map is damaged (a
 * run cut by its end); the counts then cover the runs before it.
 */
bool blockmap_count(const uint8_t *map, size_t len, uint64_t *data,
		    uint64_t *all);

struct s_spcl;
/*
 * The blocks that follow header h on the archive: all c_count of a
 * TS_BITS/TS_CLRI map, the data runs of a file header, every run of an
 * EA record (doc/format.md 8.4), none after TS_TAPE or TS_END.  False
 * when a file header's map is damaged or its c_count out of range
 * (*n then counts what could be read of it).
 */
bool blockmap_header_blocks(const struct s_spcl *h, uint64_t *n);

#endif /* BLOCKMAP_H */
