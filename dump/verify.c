/*
 * verify.c - dump --verify: read each finished volume back from its file
 * and check it before the volume is reported complete.
 *
 * The volume's pages are dropped from the page cache first (it has been
 * fsynced), so what is read is what the disk holds.  Records are taken
 * as restore takes them (the first of a volume raw, each later one of a
 * compressed dump behind its prefix, doc/format.md 11), and the blocks
 * are walked header by header: every header must be where the block maps
 * put it and sum right, and the data before every header must match the
 * checksum in its extension (doc/format.md 2.6).  The state runs on from
 * one volume to the next, as the data of a file does.  A volume that
 * ended at the end of the media is not followed further: its last
 * record is written again on the next volume (10.4), which this simple
 * reader does not resolve.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockmap.h"
#include "cprefix.h"
#include "datasum.h"
#include "decompress.h"
#include "dumprestore.h"
#include "optr.h"
#include "spcl.h"
#include "spclext.h"
#include "verify.h"
#include "xalloc.h"
#include "xio.h"

/* What the read-back knows between blocks, and across volumes. */
static struct {
	struct datasum sum; /* the blocks since the last header */
	uint64_t data_left; /* data blocks still due to the last header */
	uint32_t ino; /* the last header's inode, for messages */
	unsigned long problems; /* found on this volume */
	bool ended; /* TS_END seen */
	bool lost; /* no longer followed (end of media, a bad block) */
	bool any; /* a volume was read */
} vs;

static void
problem(int volume, uint64_t blk, const char *what)
{
	msg("Volume %d, block %llu: %s (inode %lu)\n", volume,
	    (unsigned long long)blk, what, (unsigned long)vs.ino);
	vs.problems++;
}

/* One block of the volume, blk its index there: block 0 is the volume
 * header, even in the middle of a file's data. */
static void
check_block(int volume, uint64_t blk, const unsigned char *b)
{
	union u_spcl h;
	struct spclext x;
	uint64_t n;

	if (vs.ended || vs.lost)
		return;
	if (blk == 0 &&
	    (spcl_check(b, 0) != SPCL_NATIVE ||
	     ((const union u_spcl *)(const void *)b)->s_spcl.c_type !=
		 TS_TAPE)) {
		problem(volume, blk,
			"the volume does not start with its header");
		vs.lost = true;
		return;
	}
	if (vs.data_left > 0 && blk != 0) {
		datasum_add(&vs.sum, b, TP_BSIZE);
		vs.data_left--;
		return;
	}
	if (spcl_check(b, 0) != SPCL_NATIVE) {
		problem(volume, blk, "no valid header where the maps put one");
		vs.lost = true;
		return;
	}
	memcpy(&h, b, sizeof(h));
	if (spclext_get(&h, &x) && (x.flags & SPCLEXT_DATASUM) &&
	    x.datasum != datasum_value(&vs.sum))
		problem(volume, blk,
			"the data before this header does not match its "
			"checksum");
	datasum_reset(&vs.sum);
	if (h.s_spcl.c_type == TS_TAPE) /* the interrupted data goes on */
		return;
	if (h.s_spcl.c_type == TS_END) {
		vs.ended = true;
		return;
	}
	vs.ino = h.s_spcl.c_inumber;
	if (!blockmap_header_blocks(&h.s_spcl, &n)) {
		problem(volume, blk, "a damaged block map");
		vs.lost = true;
		return;
	}
	vs.data_left = n;
}

/* The records of one volume file, in order: each (decompressed) record
 * goes through check_block.  -1 after a message when the file cannot
 * be read as the dump wrote it. */
static int
read_volume(int fd, int volume, int compressed, size_t recsize)
{
	unsigned char *rec = xmalloc(recsize), *pay = xmalloc(recsize);
	unsigned char pfx[CPREFIX_SIZE];
	uint64_t blk = 0;
	bool first = true;
	ssize_t got = 0;
	int rc = 0;

	for (;;) {
		size_t len = recsize;

		if (compressed && !first) {
			struct cprefix c;
			const char *why;

			got = full_read(fd, pfx, sizeof(pfx));
			if (got == 0)
				break;
			if (got != (ssize_t)sizeof(pfx))
				goto short_read;
			cprefix_decode(pfx, false, &c);
			if (c.length == 0 || c.length > recsize)
				goto bad_record;
			got = full_read(fd, c.compressed ? pay : rec, c.length);
			if (got != (ssize_t)c.length)
				goto short_read;
			len = c.compressed ? recsize : c.length;
			if (c.compressed &&
			    decompress_record((int)c.method, pay, c.length, rec,
					      &len, &why) != 0)
				goto bad_record;
		} else {
			got = full_read(fd, rec, recsize);
			if (got == 0)
				break;
			if (got != (ssize_t)recsize)
				goto short_read;
		}
		first = false;
		if (len % TP_BSIZE != 0)
			goto bad_record;
		for (size_t off = 0; off < len; off += TP_BSIZE)
			check_block(volume, blk++, rec + off);
	}
	goto done;
short_read:
	problem(volume, blk,
		got < 0 ? "the volume cannot be read"
			: "the volume ends "
			  "inside a record");
	rc = -1;
	goto done;
bad_record:
	problem(volume, blk, "a record that does not decompress");
	rc = -1;
done:
	free(rec);
	free(pay);
	return rc;
}

int
verify_volume(const char *name, int volume, int compressed, int ntrec, int last)
{
	unsigned long before;
	int fd;

	if (volume == 1 || !vs.any) {
		memset(&vs, 0, sizeof(vs));
		datasum_reset(&vs.sum);
	}
	vs.any = true;
	vs.problems = 0;
	if (vs.lost) {
		msg("Volume %d not verified: the read-back stopped on an "
		    "earlier volume\n",
		    volume);
		return -1;
	}
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		msg("Volume %d cannot be read back: %s: %s\n", volume, name,
		    strerror(errno));
		vs.lost = true;
		return -1;
	}
	/* Read the disk, not the pages just written (fsynced: clean). */
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (read_volume(fd, volume, compressed, (size_t)ntrec * TP_BSIZE) != 0)
		vs.lost = true;
	(void)close(fd);
	if (last && !vs.lost && (!vs.ended || vs.data_left > 0))
		problem(volume, 0,
			"the archive ends before its end-of-dump record");
	before = vs.problems;
	if (before == 0)
		msg("Volume %d verified: every header and data checksum "
		    "right\n",
		    volume);
	else
		msg("Volume %d FAILED verification: %lu problem(s) above\n",
		    volume, before);
	return before == 0 ? 0 : -1;
}

void
verify_stop(int volume)
{
	msg("Volume %d ended at the end of the media: the read-back stops "
	    "there\n",
	    volume);
	vs.lost = true;
}
