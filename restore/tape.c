/*
 * tape.c - the archive reader: the one header gate and file bodies.
 *
 * Layers, bottom up:
 *  - volumes, bytes and blocks: media.c serves 1 KiB tape blocks across
 *    volumes, decompressing records of a compressed archive;
 *  - headers: every header passes through read_header(): magic, byte order
 *    (decided once, on the volume header), checksum, then range checks of
 *    every count the rest of restore relies on.  A block that fails is
 *    skipped and counted ("resync restore, skipped N blocks");
 *  - files: tape_getfile() walks the TS_INODE/TS_ADDR headers of one inode
 *    and hands each present block to a data callback and each hole to a
 *    hole callback, never more than di_size bytes in all.
 * End of input anywhere yields a synthesized TS_END header, so every loop
 * above ends; each step consumes at least one block, so none spins.
 * A plug-in (qfa.c) may hook itself before each inode lookup
 * (tape_set_find_hook) and move the reader with tape_seek_position().
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "restore.h"
#include "extern.h"
#include "blockmap.h"
#include "media.h"
#include "spcl.h"
#include "spclext.h"
#include "xalloc.h"

/* restore 0.4b47's default read size, shown in "Input block size is". */
#define DEFAULT_READ_BLOCKS HIGHDENSITYTREC

union u_spcl curhdr;
union u_spcl tapehdr;
int32_t dumpdate, dumpprev;
uint32_t maxino;
unsigned char *dumpmap;
size_t dumpmap_len;
unsigned char *usedmap;
size_t usedmap_len;

static bool hdr_synth; /* curhdr is the synthesized end */
static bool newinodefmt;
static bool resynced; /* garbage was skipped, or a map was damaged */
static unsigned vol_serial; /* media_volume_serial() last seen */

/* Run before each inode lookup; set by a plug-in of the reader. */
static void (*find_hook)(void);

/*
 * Plug a function into tape_find_inode(): it runs before each lookup and
 * may move the reader with tape_seek_position() (qfa.c for -Q and -A).
 * The reader knows nothing of what it does.
 */
void
tape_set_find_hook(void (*hook)(void))
{
	find_hook = hook;
}

bool
tape_resynced(void)
{
	return resynced;
}

bool
tape_swapped(void)
{
	return media_swapped();
}

bool
tape_newinodefmt(void)
{
	return newinodefmt;
}

/* The input failed, or data did not match its checksum. */
bool
tape_had_error(void)
{
	return media_error() || datacheck_stats()->damaged > 0;
}

/* The next block; a volume change inside media_next_block() is told to
 * the data checks first (datacheck.c). */
static const unsigned char *
next_block(void)
{
	const unsigned char *p = media_next_block();

	if (media_volume_serial() != vol_serial) {
		bool rejoined;
		const union u_spcl *vh = media_volume_header(&rejoined);

		vol_serial = media_volume_serial();
		datacheck_volume(vh, rejoined);
	}
	return p;
}

/* The next block between two headers: data, summed for the check. */
static const unsigned char *
data_block(void)
{
	const unsigned char *p = next_block();

	if (p != NULL)
		datacheck_block(p);
	return p;
}

/* Range checks of a native-order header: nothing downstream trusts a
 * count that did not pass here. */
static bool
header_sane(const struct s_spcl *h)
{
	switch (h->c_type) {
	case TS_INODE:
	case TS_ADDR:
		return h->c_count >= 0 && h->c_count <= TP_NINDIR &&
		    h->c_inumber >= WINO;
	case TS_CLRI:
	case TS_BITS:
		return h->c_count >= 0 &&
		    (size_t)h->c_count <= MAP_MAX_BYTES / TP_BSIZE;
	case TS_TAPE: return h->c_count >= 0 && h->c_count <= 0x7fffffff / 2;
	case TS_END: return true;
	default: return false;
	}
}

enum hdr_kind { HDR_OK, HDR_NOT, HDR_EOF };

/* Read one block and decide whether it is a valid header. */
static enum hdr_kind
read_header(union u_spcl *h, bool first)
{
	const unsigned char *p = next_block();
	enum spcl_kind k;

	if (p == NULL)
		return HDR_EOF;
	k = spcl_check(p, media_swapped());
	if (k == SPCL_BAD_CHECKSUM) {
		uint32_t sum =
		    media_swapped() ? spcl_sum_swapped(p) : spcl_sum(p);

		rmsg("Checksum error %o, block %llu\n", sum,
		     (unsigned long long)(media_blocks_read() - 1));
		return HDR_NOT;
	}
	if (k == SPCL_NOT_HEADER)
		return HDR_NOT;
	if (first && k == SPCL_SWAPPED) {
		media_set_swapped();
		msg_verbose("Note: Doing Byte swapping\n");
	} else if (k == SPCL_SWAPPED && !media_swapped())
		return HDR_NOT;
	memcpy(h, p, sizeof(*h));
	if (media_swapped()) {
		spcl_swap_header(h);
		if (h->s_spcl.c_type == TS_TAPE || h->s_spcl.c_type == TS_END)
			spcl_swap_inos(h);
	}
	if (!header_sane(&h->s_spcl)) {
		rmsg("Header with out-of-range fields at block "
		     "%llu ignored\n",
		     (unsigned long long)(media_blocks_read() - 1));
		return HDR_NOT;
	}
	if (!first && h->s_spcl.c_date != dumpdate)
		return HDR_NOT;
	msg_debug_header(&h->s_spcl);
	return HDR_OK;
}

static void
synth_end(void)
{
	memset(&curhdr, 0, sizeof(curhdr));
	curhdr.s_spcl.c_type = TS_END;
	curhdr.s_spcl.c_date = dumpdate;
	curhdr.s_spcl.c_magic = NFS_MAGIC;
	hdr_synth = true;
}

/* Advance to the next valid header of this dump, skipping garbage. */
void
tape_next_header(void)
{
	unsigned long long skipped = 0;
	union u_spcl h;

	if (hdr_synth)
		return;
	for (;;) {
		enum hdr_kind k = read_header(&h, false);

		if (k == HDR_OK) {
			if (skipped > 0)
				datacheck_break();
			datacheck_header(&h, false);
			curhdr = h;
			if (h.s_spcl.c_type == TS_END)
				media_mark_end();
			break;
		}
		if (k == HDR_EOF) {
			datacheck_break();
			synth_end();
			break;
		}
		skipped++;
	}
	if (skipped > 0)
		resynced = true;
	if (skipped > 0)
		rmsg("resync restore, skipped %llu blocks\n", skipped);
}

/* Whether the blocks of run r of header h follow it on the archive: the
 * data runs, and every run of an EA record, whose payload is read whole
 * whatever its map says (doc/format.md 8.4). */
static bool
run_on_tape(const struct s_spcl *h, const struct blockmap_run *r)
{
	return r->data || (h->c_flags & DR_EXTATTRIBUTES) != 0;
}

/* Discard the data blocks announced by the current header: maps and a
 * later volume header count whole blocks, file headers their map. */
static void
skip_present(const struct s_spcl *h)
{
	uint64_t n = (uint64_t)h->c_count;

	if (h->c_type == TS_END)
		return;
	if (h->c_type == TS_INODE || h->c_type == TS_ADDR) {
		size_t pos = 0;
		struct blockmap_run r;

		n = 0;
		while (blockmap_next(h->c_addr, (size_t)h->c_count, &pos, &r))
			if (run_on_tape(h, &r))
				n += r.blocks;
	}
	for (uint64_t i = 0; i < n; i++)
		if (data_block() == NULL)
			return;
}

/* Load a TS_CLRI/TS_BITS map: every c_count block is data. */
static unsigned char *
read_map(size_t *lenp)
{
	size_t n = (size_t)curhdr.s_spcl.c_count, got = 0;
	unsigned char *map = NULL;

	for (size_t i = 0; i < n; i++) {
		const unsigned char *p = data_block();

		if (p == NULL)
			break;
		/* Grow with the data actually read, not with the count. */
		map = xrealloc(map, got + TP_BSIZE);
		memcpy(map + got, p, TP_BSIZE);
		got += TP_BSIZE;
	}
	*lenp = got;
	return map;
}

bool
map_test(const unsigned char *map, size_t len, uint32_t ino)
{
	size_t byte;

	if (ino == 0 || map == NULL)
		return false;
	byte = (ino - 1) / 8;
	return byte < len && (map[byte] >> ((ino - 1) % 8) & 1);
}

/* Open the input and check the start of the dump: TS_TAPE of volume 1,
 * then TS_CLRI, then TS_BITS (doc/format.md 4). */
void
tape_setup(void)
{
	union u_spcl h;
	enum hdr_kind k;

	msg_verbose("Verify tape and initialize maps\n");
	datacheck_reset();
	media_open();
	k = read_header(&h, true);
	/* A tape gave its first record whole: the block size. */
	if (media_tape_record() > 0)
		msg_verbose("Tape block size is %zu\n",
			    media_tape_record() / TP_BSIZE);
	else
		msg_verbose("Input block size is %ld\n",
			    ropt.blocksize > 0 ? ropt.blocksize
					       : (long)DEFAULT_READ_BLOCKS);
	if (k != HDR_OK || h.s_spcl.c_type != TS_TAPE)
		errx(R_ERROR, "Tape is not a dump tape");
	datacheck_header(&h, true);
	curhdr = tapehdr = h;
	dumpdate = h.s_spcl.c_date;
	dumpprev = h.s_spcl.c_ddate;
	if (h.s_spcl.c_volume != 1)
		errx(R_ERROR, "Tape is not volume 1 of the dump");
	newinodefmt = (h.s_spcl.c_flags & DR_NEWINODEFMT) != 0;
	if (h.s_spcl.c_flags & DR_COMPRESSED)
		media_setup_compression(h.s_spcl.c_ntrec);
	if (ropt.verbose || ropt.mode == 't' || ropt.mode == 'C')
		print_dump_info(&h.s_spcl);
	tape_next_header();
	if (curhdr.s_spcl.c_type != TS_CLRI)
		errx(R_ERROR, "Cannot find file removal list");
	maxino = (uint32_t)curhdr.s_spcl.c_count * TP_BSIZE * 8 + 1;
	if (ropt.debug)
		printf("maxino = %lu\n", (unsigned long)maxino);
	usedmap = read_map(&usedmap_len);
	tape_next_header();
	if (curhdr.s_spcl.c_type == TS_END) {
		tape_drain();
		rfatal(R_SUCCESS,
		       "Cannot find file dump list, assuming "
		       "empty tape\n");
	}
	if (curhdr.s_spcl.c_type != TS_BITS)
		errx(R_ERROR, "Cannot find file dump list");
	dumpmap = read_map(&dumpmap_len);
	tape_next_header();
}

/*
 * Read the archive again from the start of volume 1, now named name
 * (restore -i: a further extract).  The volume must be volume 1 of the
 * same dump; its maps are passed over (those of the first reading are
 * kept) and the first header after them is left current, as
 * tape_setup() leaves it.  False, after a message, when the volume
 * cannot be opened or is not the right one.
 */
bool
tape_restart(const char *name)
{
	union u_spcl h;

	if (!media_restart(name, &h))
		return false;
	datacheck_break();
	datacheck_header(&h, true);
	hdr_synth = false;
	curhdr = h;
	tape_next_header();
	if (curhdr.s_spcl.c_type == TS_CLRI) {
		skip_present(&curhdr.s_spcl);
		tape_next_header();
	}
	if (curhdr.s_spcl.c_type == TS_BITS) {
		skip_present(&curhdr.s_spcl);
		tape_next_header();
	}
	return true;
}

/* The archive description printed for -t, -C and -v, in 0.4b47's words. */
void
print_dump_info(const struct s_spcl *h)
{
	time_t t = (time_t)h->c_date, base = (time_t)h->c_ddate;
	char host[NAMELEN + 1], dev[NAMELEN + 1], fs[NAMELEN + 1];
	char label[LBLSIZE + 1];
	struct spclext x;

	/* Our dump's dates whole: past 2038 too (doc/format.md 2.6). */
	if (spclext_get((const union u_spcl *)h, &x) &&
	    (x.flags & SPCLEXT_DATES)) {
		t = (time_t)x.date;
		base = (time_t)x.ddate;
	}
	printf("Dump   date: %s", ctime(&t));
	printf("Dumped from: %s", base == 0 ? "the epoch\n" : ctime(&base));
	if (h->c_host[0] == '\0')
		return;
	memcpy(host, h->c_host, NAMELEN);
	host[NAMELEN] = '\0';
	memcpy(dev, h->c_dev, NAMELEN);
	dev[NAMELEN] = '\0';
	memcpy(fs, h->c_filesys, NAMELEN);
	fs[NAMELEN] = '\0';
	memcpy(label, h->c_label, LBLSIZE);
	label[LBLSIZE] = '\0';
	printf("Level %d dump of %s on %s:%s\n", h->c_level, fs, host, dev);
	printf("Label: %s\n", label);
}

/*
 * Walk the body of the inode whose TS_INODE header is current: its data
 * blocks and those of following TS_ADDR headers of the same inode, as
 * their block maps say (common/blockmap.h).  data() gets each present
 * block cut to the bytes left of di_size; hole() gets the length of each
 * absent run, up to di_size.  Blocks past di_size (the map covers whole
 * file system blocks) are read and dropped.  Leaves the next header
 * current.  Returns the bytes of di_size that the archive did not cover
 * (0 when complete).
 */
uint64_t
tape_getfile(void (*data)(const unsigned char *, size_t, void *),
	     void (*hole)(size_t, void *), void *arg)
{
	uint32_t ino = curhdr.s_spcl.c_inumber;
	uint64_t left = curhdr.s_spcl.c_dinode.di_size;
	/* EA payloads are handed over block by block, beyond di_size
	 * too: a value from an EA inode follows there (doc/format.md 8.4). */
	bool ea = (curhdr.s_spcl.c_flags & DR_EXTATTRIBUTES) != 0;
	bool ended = false;

	if (curhdr.s_spcl.c_flags & DR_METAONLY)
		left = 0;
	while (!ended) {
		struct s_spcl *h = &curhdr.s_spcl;
		size_t len = (size_t)h->c_count, pos = 0;
		struct blockmap_run run;

		while (pos < len && !ended) {
			if (!blockmap_next(h->c_addr, len, &pos, &run)) {
				rmsg("Damaged block map in the header of "
				     "inode %lu at block %llu\n",
				     (unsigned long)ino,
				     (unsigned long long)h->c_tapea);
				resynced = true; /* damage: exit non-zero */
				break;
			}
			if (!run_on_tape(h, &run)) {
				uint64_t n = (uint64_t)run.blocks * TP_BSIZE;

				if (n > left)
					n = left;
				if (n > 0 && hole != NULL)
					hole((size_t)n, arg);
				left -= n;
				continue;
			}
			for (uint32_t b = 0; b < run.blocks; b++) {
				size_t n =
				    left < TP_BSIZE ? (size_t)left : TP_BSIZE;
				const unsigned char *p = data_block();

				if (p == NULL) {
					ended = true;
					break;
				}
				if (ea && data != NULL)
					data(p, TP_BSIZE, arg);
				else if (n > 0 && data != NULL)
					data(p, n, arg);
				left -= n;
			}
		}
		tape_next_header();
		if (curhdr.s_spcl.c_type != TS_ADDR ||
		    curhdr.s_spcl.c_inumber != ino)
			break;
	}
	return left;
}

/* Skip the body of the current inode (and any stray TS_ADDR after it). */
void
tape_skipfile(void)
{
	(void)tape_getfile(NULL, NULL, NULL);
}

/*
 * Move to the next TS_INODE or TS_END, skipping what cannot start a file
 * here: orphan TS_ADDR bodies, repeated maps, later volume headers.
 */
void
tape_find_inode(void)
{
	if (find_hook != NULL) /* -Q, -A: maybe go straight there */
		find_hook();
	for (;;) {
		switch (curhdr.s_spcl.c_type) {
		case TS_INODE:
		case TS_END: return;
		default: skip_present(&curhdr.s_spcl); tape_next_header();
		}
	}
}

/* Read the input to its end: a writer on the other end of a pipe must
 * never see it closed early (amrecover).  What is left of the dump on a
 * pipe is read as the dump, so that its data is checked on the way
 * (amcheckdump's restore -t reads the whole stream). */
void
tape_drain(void)
{
	if (media_is_pipe())
		tape_read_to_end();
	media_drain();
}

/* Read every header and data block up to the end of the dump, checking
 * them as any read does (restore --verify; -t on a pipe). */
void
tape_read_to_end(void)
{
	while (curhdr.s_spcl.c_type != TS_END) {
		skip_present(&curhdr.s_spcl);
		tape_next_header();
	}
}

/* True when the archive ended without its TS_END record. */
bool
tape_truncated(void)
{
	return !media_end_seen();
}

/* True when the input is known to have ended before the TS_END record,
 * for a reader that stops early (-t reads only up to pass IV). */
bool
tape_cut_short(void)
{
	return hdr_synth && !media_end_seen();
}

/*
 * For the find hook (-Q and -A, restore/qfa.c): go straight to where
 * inode ino is, at position pos of volume vol (media_seek()), and read
 * on up to its TS_INODE header (or the first file's TS_INODE after it,
 * or the end), which becomes current.  The blocks passed over are data
 * of other inodes, not damage: no resync message.  With newmedia, what
 * was read so far is the -A table of contents and the archive itself is
 * opened.  ino 0: nothing more is wanted, the dump ends here.  False
 * when that volume cannot be had or the seek fails; the input is then
 * left at its end.
 */
bool
tape_seek_position(int vol, uint64_t pos, uint32_t ino, bool newmedia)
{
	union u_spcl h;
	bool switched;

	if (ino == 0) {
		synth_end();
		media_mark_end();
		return true;
	}
	datacheck_break();
	if (!media_seek(vol, pos, newmedia, &switched)) {
		synth_end();
		return false;
	}
	if (switched)
		hdr_synth = false;
	for (;;) {
		enum hdr_kind k = read_header(&h, false);

		if (k == HDR_EOF) {
			synth_end();
			return true;
		}
		/* directories (pass III) and EA records are passed */
		if (k != HDR_OK ||
		    (h.s_spcl.c_type != TS_INODE &&
		     h.s_spcl.c_type != TS_END) ||
		    (h.s_spcl.c_type == TS_INODE &&
		     ((uint32_t)h.s_spcl.c_inumber < ino ||
		      (h.s_spcl.c_flags & DR_EXTATTRIBUTES) ||
		      (h.s_spcl.c_dinode.di_mode & S_IFMT) == S_IFDIR)))
			continue;
		/* what was passed over was not all read: no check yet */
		datacheck_break();
		datacheck_header(&h, true);
		curhdr = h;
		if (h.s_spcl.c_type == TS_END)
			media_mark_end();
		media_count_from(&h.s_spcl);
		return true;
	}
}
