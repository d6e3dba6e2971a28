/*
 * datacheck.c - check the data checksums of the header extension
 * (doc/format.md 2.6) while the archive is read, in every mode.
 *
 * Each header of our archives carries the XXH3-64 of the data blocks
 * between the previous header and itself.  tape.c hands every block it
 * reads between two headers to datacheck_block() and every valid header
 * to datacheck_header(), which compares and starts over; the blocks are
 * the ones restore uses, after decompression, so a flipped bit anywhere
 * between the two ends of the pipeline is caught.  A mismatch names the
 * file the blocks belong to (the header before them: its inode, its
 * name when the directories are known, the byte range of the file) and
 * counts as damage: restore goes on with the other files and ends with
 * a non-zero status.
 *
 * Blocks that cannot be checked are counted, not guessed at: those of an
 * archive without the extension (0.4b47 to 0.4b56), those after a seek
 * or a resync (the sum covers data that was not all read), and those
 * around an end-of-media volume change whose cut record restore read
 * twice (doc/format.md 10.4).
 */
#include <stdio.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "blockmap.h"
#include "datasum.h"
#include "spclext.h"

static struct datasum run; /* the blocks since the last header */
static uint64_t run_blocks;
static bool run_valid; /* every one of them was read, in order */

/* Whose data the running blocks are: the header before them. */
static struct {
	int32_t type;
	uint32_t ino;
	bool ea;
	uint64_t first, last; /* byte range of the file, inclusive */
} owner;

static struct datacheck_stats stats;
static const char *(*namer)(uint32_t ino);

/* Start over: the blocks from here on are checked by the next header
 * if valid. */
static void
restart(bool valid)
{
	datasum_reset(&run);
	run_blocks = 0;
	run_valid = valid;
}

/* A new reading of an archive (tape_setup): nothing seen yet. */
void
datacheck_reset(void)
{
	memset(&stats, 0, sizeof(stats));
	memset(&owner, 0, sizeof(owner));
	restart(false);
}

void
datacheck_set_namer(const char *(*name_of)(uint32_t ino))
{
	namer = name_of;
}

const struct datacheck_stats *
datacheck_stats(void)
{
	return &stats;
}

void
datacheck_block(const unsigned char *blk)
{
	datasum_add(&run, blk, TP_BSIZE);
	run_blocks++;
}

void
datacheck_break(void)
{
	stats.unchecked_blocks += run_blocks;
	restart(false);
}

static void
report(void)
{
	const char *name =
	    owner.ino != 0 && namer != NULL ? namer(owner.ino) : NULL;

	stats.damaged++;
	switch (owner.type) {
	case TS_CLRI:
		rmsg("Data checksum error: the map of inodes in use\n");
		return;
	case TS_BITS:
		rmsg("Data checksum error: the map of dumped inodes\n");
		return;
	default: break;
	}
	if (owner.ea)
		rmsg("Data checksum error: the extended attributes of inode "
		     "%lu%s%s%s\n",
		     (unsigned long)owner.ino, name ? " (" : "",
		     name ? name : "", name ? ")" : "");
	else
		rmsg("Data checksum error: inode %lu%s%s%s, bytes %llu-%llu\n",
		     (unsigned long)owner.ino, name ? " (" : "",
		     name ? name : "", name ? ")" : "",
		     (unsigned long long)owner.first,
		     (unsigned long long)owner.last);
}

/* Compare the running sum with what h says of it. */
static void
compare(const union u_spcl *h)
{
	struct spclext x;

	if (!spclext_get(h, &x) || !(x.flags & SPCLEXT_DATASUM) || !run_valid) {
		stats.unchecked_blocks += run_blocks;
		return;
	}
	stats.checked_blocks += run_blocks;
	if (x.datasum != datasum_value(&run))
		report();
}

/* h owns the blocks that follow it: which file, which bytes. */
static void
take_owner(const struct s_spcl *h)
{
	uint64_t data = 0, all = 0, size = h->c_dinode.di_size;
	bool same = h->c_type == TS_ADDR && h->c_inumber == owner.ino;

	if (h->c_type == TS_TAPE)
		return; /* the interrupted file goes on */
	if (h->c_type == TS_INODE || h->c_type == TS_ADDR)
		(void)blockmap_count(h->c_addr, (size_t)h->c_count, &data,
				     &all);
	owner.first = same ? owner.last + 1 : 0;
	owner.last = owner.first + (all > 0 ? all * TP_BSIZE - 1 : 0);
	if (!same && size > 0 && owner.last >= size)
		owner.last = size - 1;
	owner.type = h->c_type;
	owner.ino = h->c_inumber;
	owner.ea = (h->c_flags & DR_EXTATTRIBUTES) != 0;
}

void
datacheck_header(const union u_spcl *h, bool first)
{
	if (!first)
		compare(h);
	take_owner(&h->s_spcl);
	restart(true);
	stats.any_extension |= spclext_get(h, &(struct spclext){0});
}

void
datacheck_volume(const union u_spcl *h, bool rejoined)
{
	if (rejoined)
		compare(h);
	else
		stats.unchecked_blocks += run_blocks;
	restart(rejoined);
}
