/*
 * slave.h - the request packet the master sends to a slave, and the
 * slave's entry point.
 *
 * One packet describes one record of ntrec tape blocks.  On the stream
 * socket it is: struct slave_req, then nitems struct slave_item, then
 * the bytes of every SLAVE_INLINE and SLAVE_HEADER item in item order
 * (nblocks * TP_BSIZE each).  The items cover the record exactly, in order.
 * Closing the socket ends the slave.
 */
#ifndef DUMP_SLAVE_H
#define DUMP_SLAVE_H

#include <stdint.h>

struct ring;

enum slave_item_kind {
	SLAVE_INLINE = 1, /* blocks carried in the packet (headers, memory) */
	SLAVE_DISK, /* blocks read from the device at off */
	SLAVE_ZERO, /* blocks of zeros */
	SLAVE_HEADER, /* headers carried in the packet: the slave sets the
		       * data checksum of their extension (spclext.h) */
};

struct slave_item {
	uint32_t kind; /* enum slave_item_kind */
	uint32_t nblocks; /* tape blocks this item covers */
	uint64_t off; /* SLAVE_DISK: device byte offset */
};

#define SLAVE_REQ_LAST	 0x1 /* the final record of the dump */
#define SLAVE_REQ_VOLEND 0x2 /* the last record of its volume */
#define SLAVE_REQ_RAW	 0x4 /* first record of a volume: never compressed */
#define SLAVE_REQ_MAGIC	 0x534c5631u /* guards against a desynced stream */

struct slave_req {
	uint32_t magic; /* SLAVE_REQ_MAGIC */
	uint32_t flags; /* SLAVE_REQ_* */
	uint64_t record; /* record number, from 0 */
	uint32_t nitems; /* items that follow, 1..ntrec */
	uint32_t ninline; /* tape blocks of inline data after the items */
};

/* What a slave needs besides its socket and the ring. */
struct slave_config {
	const char *device; /* file-system device, opened read only */
	int ntrec;
	int method; /* enum compress_method; 0: no compression */
	int level; /* compression level, 0 = default */
	unsigned fsblock; /* file-system block size, for messages */
};

/*
 * Body of a slave: read packets from sock, assemble each record in its
 * ring slot, reading disk blocks from the device, and for compressed
 * dumps compress it into the slot's output area (prefix + payload).
 * Never returns: _exit(0) at the end of the stream, _exit(1) after
 * reporting an error in the ring status.
 */
_Noreturn void slave_main(int sock, const struct slave_config *sc,
			  struct ring *ring);

#endif /* DUMP_SLAVE_H */
