/*
 * inode.c - the archive records of one inode.
 *
 * Every header is built from zero: only the identity fields of the dump
 * (c_date, c_ddate, c_level, c_label, c_filesys, c_dev, c_host) are
 * copied from the template, the rest is set for the record at hand, so
 * no stale field of an earlier header reaches the archive (ident.c
 * makes them; records.c adds c_tapea, c_volume, c_firstrec, c_ntrec,
 * c_magic and the checksum).
 *
 * A file's data is a sequence of 1 KiB slots covering its size rounded
 * up to whole fs blocks; allocated blocks are present slots, everything
 * else (holes, and ext4 unwritten extents, whose disk bytes are stale)
 * are holes.  Headers cover TP_NINDIR slots, 256 on 1 KiB-block file
 * systems as 0.4b47 does.  Present blocks are queued as contiguous disk
 * runs with tape_disk() so a slave reads each run in one pread.  The
 * runs are sorted by logical block and freed of overlaps first, and a
 * block outside the file system is never queued: damage is dumped as
 * holes and reported (optr_damage), never left to the slaves' reads.
 * Inline-data files and fast symlinks are queued from memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "optr.h"
#include "spclext.h"
#include "tape.h"
#include "xalloc.h"

#define USEC_PER_NSEC_DIV	1000
#define EXTRA_EPOCH_BITS	2 /* low bits of *_extra: epoch */
#define FS_BLOCKS_PER_CHUNK_DIV 4 /* 0.4b47 maps fs_block/4 blocks */
/* Unreadable extent tree nodes tried past before a file's walk stops. */
#define EXTENT_ERRORS_MAX 1024

/* A run of contiguous allocated fs blocks of one file. */
struct run {
	uint64_t lblk;
	uint64_t pblk;
	uint64_t len;
	size_t seq; /* order found in, to sort stably */
};

/* What was wrong with a file's block list (struct runlist.damage). */
#define DMG_ORDER   1 /* extents out of logical order */
#define DMG_OVERLAP 2 /* logical blocks mapped twice */
#define DMG_RANGE   4 /* block numbers outside the file system */

struct runlist {
	struct run *r;
	size_t n, cap;
	uint64_t limit; /* fs blocks covered by the file size */
	uint64_t first, end; /* blocks a file may map: [first, end) */
	uint64_t prev_lblk; /* of the last extent found */
	int found; /* any extent found yet */
	unsigned damage; /* DMG_* */
};

/* Microseconds of a time whose *_extra field lies inside the inode. */
static uint32_t
extra_usec(const struct ext2_inode_large *in, unsigned inode_size,
	   size_t field_off, uint32_t extra)
{
	if (inode_size <= EXT2_GOOD_OLD_INODE_SIZE ||
	    field_off + sizeof(uint32_t) >
		(size_t)EXT2_GOOD_OLD_INODE_SIZE + in->i_extra_isize)
		return 0;
	return (extra >> EXTRA_EPOCH_BITS) / USEC_PER_NSEC_DIV;
}

/*
 * A time whole, as ext4 keeps it: the 32-bit field signed, plus the
 * epoch bits and nanoseconds of its *_extra field where the inode has
 * one (dates 1901 to 2446; ext2 and small inodes: 1901 to 2038).
 */
static struct spclext_time
whole_time(const struct ext2_inode_large *in, unsigned inode_size,
	   size_t field_off, uint32_t base, uint32_t extra)
{
	struct spclext_time t = {(int64_t)(int32_t)base, 0};

	if (inode_size <= EXT2_GOOD_OLD_INODE_SIZE ||
	    field_off + sizeof(uint32_t) >
		(size_t)EXT2_GOOD_OLD_INODE_SIZE + in->i_extra_isize)
		return t;
	t.sec += (int64_t)(extra & EXT4_EPOCH_MASK) << 32;
	t.nsec = extra >> EXTRA_EPOCH_BITS;
	return t;
}

/* The times of the inode being dumped, for the extension of each of its
 * headers (doc/format.md 2.6): c_dinode has microseconds and 32-bit
 * seconds. */
static struct spclext times_ext;

static void
note_times(const struct dump_fs *dfs, const struct ext2_inode_large *in)
{
	unsigned isz = dfs->inode_size;

	memset(&times_ext, 0, sizeof(times_ext));
	times_ext.flags = SPCLEXT_TIMES;
	times_ext.atime = whole_time(
	    in, isz, offsetof(struct ext2_inode_large, i_atime_extra),
	    in->i_atime, in->i_atime_extra);
	times_ext.mtime = whole_time(
	    in, isz, offsetof(struct ext2_inode_large, i_mtime_extra),
	    in->i_mtime, in->i_mtime_extra);
	times_ext.ctime = whole_time(
	    in, isz, offsetof(struct ext2_inode_large, i_ctime_extra),
	    in->i_ctime, in->i_ctime_extra);
}

/* Queue a header of the inode being dumped, its times in it. */
static void
inode_header(union u_spcl *h)
{
	spclext_put(h, &times_ext);
	tape_header(h);
}

void
inode_fill_dinode(const struct dump_fs *dfs, const struct ext2_inode_large *in,
		  struct tape_dinode *d)
{
	unsigned isz = dfs->inode_size;

	memset(d, 0, sizeof(*d));
	d->di_mode = in->i_mode;
	d->di_nlink = (int16_t)in->i_links_count;
	d->di_ouid = in->i_uid;
	d->di_ogid = in->i_gid;
	d->di_size = EXT2_I_SIZE(in);
	d->di_atime.tv_sec = in->i_atime;
	d->di_mtime.tv_sec = in->i_mtime;
	d->di_ctime.tv_sec = in->i_ctime;
	d->di_atime.tv_usec = extra_usec(
	    in, isz, offsetof(struct ext2_inode_large, i_atime_extra),
	    in->i_atime_extra);
	d->di_mtime.tv_usec = extra_usec(
	    in, isz, offsetof(struct ext2_inode_large, i_mtime_extra),
	    in->i_mtime_extra);
	d->di_ctime.tv_usec = extra_usec(
	    in, isz, offsetof(struct ext2_inode_large, i_ctime_extra),
	    in->i_ctime_extra);
	_Static_assert(sizeof(d->di_db) + sizeof(d->di_ib) ==
			   sizeof(in->i_block),
		       "i_block image size");
	memcpy(d->di_db, in->i_block, sizeof(d->di_db));
	memcpy(d->di_ib, (const char *)in->i_block + sizeof(d->di_db),
	       sizeof(d->di_ib));
	d->di_flags = in->i_flags;
	d->di_blocks = (int32_t)in->i_blocks;
	d->di_gen = (int32_t)in->i_generation;
	d->di_uid = inode_uid(*in);
	d->di_gid = inode_gid(*in);
}

static void
runlist_init(const struct dump_fs *dfs, struct runlist *rl, uint64_t size)
{
	uint64_t b = dfs->blocksize;

	memset(rl, 0, sizeof(*rl));
	rl->limit = (size + b - 1) / b;
	/* Block 0 never holds file data, nor does anything before the
	 * first data block. */
	rl->first = dfs->fs->super->s_first_data_block;
	if (rl->first == 0)
		rl->first = 1;
	rl->end = ext2fs_blocks_count(dfs->fs->super);
}

/*
 * Add one extent (or block) as found on disk.  Blocks past the file size
 * are not dumped; blocks outside the file system are left out, so they
 * are dumped as holes, and noted as damage, since reading them would
 * fail or read what belongs to no file.
 */
static void
runs_add(struct runlist *rl, uint64_t lblk, uint64_t pblk, uint64_t len)
{
	struct run *last;
	uint64_t cut;

	if (len == 0)
		return;
	if (rl->found && lblk < rl->prev_lblk)
		rl->damage |= DMG_ORDER;
	rl->found = 1;
	rl->prev_lblk = lblk;
	if (lblk >= rl->limit)
		return;
	if (lblk + len > rl->limit)
		len = rl->limit - lblk;
	if (pblk < rl->first) {
		rl->damage |= DMG_RANGE;
		cut = rl->first - pblk;
		if (cut >= len)
			return;
		lblk += cut;
		pblk += cut;
		len -= cut;
	}
	if (pblk >= rl->end || len > rl->end - pblk) {
		rl->damage |= DMG_RANGE;
		if (pblk >= rl->end)
			return;
		len = rl->end - pblk;
	}
	last = rl->n ? &rl->r[rl->n - 1] : NULL;
	if (last != NULL && last->lblk + last->len == lblk &&
	    last->pblk + last->len == pblk) {
		last->len += len;
		return;
	}
	if (rl->n == rl->cap) {
		rl->cap = rl->cap ? rl->cap * 2 : 16;
		rl->r = xreallocarray(rl->r, rl->cap, sizeof(*rl->r));
	}
	rl->r[rl->n].lblk = lblk;
	rl->r[rl->n].pblk = pblk;
	rl->r[rl->n].len = len;
	rl->r[rl->n].seq = rl->n;
	rl->n++;
}

static int
run_cmp(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	if (x->lblk != y->lblk)
		return x->lblk < y->lblk ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * dump_runs() needs the runs in logical order without overlaps.  Where
 * two extents map one logical block, the one starting first (the first
 * found, for equal starts) keeps it, which is what libext2fs's lookup
 * (debugfs) and dump 0.4b47 read there.
 */
static void
runs_finish(struct runlist *rl)
{
	size_t i, w = 0;
	uint64_t end = 0, cut;
	struct run r;

	if (rl->damage & DMG_ORDER)
		qsort(rl->r, rl->n, sizeof(*rl->r), run_cmp);
	for (i = 0; i < rl->n; i++) {
		r = rl->r[i];
		if (w > 0 && r.lblk < end) {
			rl->damage |= DMG_OVERLAP;
			if (r.lblk + r.len <= end)
				continue;
			cut = end - r.lblk;
			r.lblk += cut;
			r.pblk += cut;
			r.len -= cut;
		}
		if (w > 0 && rl->r[w - 1].lblk + rl->r[w - 1].len == r.lblk &&
		    rl->r[w - 1].pblk + rl->r[w - 1].len == r.pblk)
			rl->r[w - 1].len += r.len;
		else
			rl->r[w++] = r;
		end = r.lblk + r.len;
	}
	rl->n = w;
}

static void
runs_report(ext2_ino_t ino, const struct runlist *rl)
{
	if (rl->damage & DMG_ORDER)
		optr_damage(ino, 0,
			    "extents out of logical order; "
			    "dumped in logical order");
	if (rl->damage & DMG_OVERLAP)
		optr_damage(ino, 0,
			    "extents overlap; each block dumped "
			    "from the extent starting first");
	if (rl->damage & DMG_RANGE)
		optr_damage(ino, 0,
			    "block numbers outside the file system; "
			    "those blocks dumped as zeros");
}

/*
 * Extent-mapped file: initialized leaf extents only.  A tree node that
 * cannot be read (or has a bad header) costs the extents below it:
 * libext2fs marks the index entry visited before it reads the node, so
 * the walk goes on with the next entry.  Bounded, as a damaged tree
 * could be any size.
 */
static void
runs_from_extents(const struct dump_fs *dfs, ext2_ino_t ino,
		  struct ext2_inode_large *in, struct runlist *rl)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	errcode_t rc, first = 0;
	unsigned bad = 0;

	rc = ext2fs_extent_open2(dfs->fs, ino, (struct ext2_inode *)in, &h);
	if (rc != 0) {
		optr_damage(ino, rc,
			    "extent tree unreadable; file dumped "
			    "as zeros");
		return;
	}
	rc = ext2fs_extent_get(h, EXT2_EXTENT_ROOT, &e);
	for (;;) {
		if (rc == 0) {
			if ((e.e_flags & EXT2_EXTENT_FLAGS_LEAF) &&
			    !(e.e_flags & EXT2_EXTENT_FLAGS_UNINIT))
				runs_add(rl, e.e_lblk, e.e_pblk, e.e_len);
		} else if (rc == EXT2_ET_EXTENT_NO_NEXT ||
			   rc == EXT2_ET_EXTENT_NO_DOWN) {
			break;
		} else {
			if (bad++ == 0)
				first = rc;
			if (bad == EXTENT_ERRORS_MAX)
				break;
		}
		rc = ext2fs_extent_get(h, EXT2_EXTENT_NEXT_LEAF, &e);
	}
	ext2fs_extent_free(h);
	if (bad != 0)
		optr_damage(ino, first,
			    "%u extent tree node(s) unreadable; "
			    "the blocks below them dumped as zeros",
			    bad);
}

/* A walk of a block map (direct and indirect blocks). */
struct bmwalk {
	const struct dump_fs *dfs;
	ext2_ino_t ino;
	struct runlist *rl;
	uint64_t per; /* block numbers per indirect block */
};

/*
 * The data blocks below indirect block blk (depth levels above the
 * data), the first of them logical block lblk.  Our own walk, not
 * ext2fs_block_iterate3(): that one numbers every later block one
 * indirect block too low after a bad one.  A bad indirect block costs
 * the blocks it maps.
 */
static void
walk_ind(struct bmwalk *w, uint64_t blk, int depth, uint64_t lblk)
{
	struct runlist *rl = w->rl;
	uint64_t span = 1, i, b;
	uint32_t *buf;
	errcode_t rc;
	int d;

	if (lblk >= rl->limit)
		return;
	if (blk < rl->first || blk >= rl->end) {
		rl->damage |= DMG_RANGE;
		return;
	}
	for (d = 1; d < depth; d++)
		span *= w->per;
	buf = xmalloc(w->dfs->blocksize);
	rc = io_channel_read_blk64(w->dfs->fs->io, blk, 1, buf);
	if (rc != 0) {
		optr_damage(w->ino, rc,
			    "cannot read indirect block %llu; "
			    "the blocks it maps dumped as zeros",
			    (unsigned long long)blk);
		free(buf);
		return;
	}
	for (i = 0; i < w->per && lblk + i * span < rl->limit; i++) {
		b = ext2fs_le32_to_cpu(buf[i]);
		if (b == 0)
			continue;
		if (depth == 1)
			runs_add(rl, lblk + i, b, 1);
		else
			walk_ind(w, b, depth - 1, lblk + i * span);
	}
	free(buf);
}

static void
runs_from_blockmap(const struct dump_fs *dfs, ext2_ino_t ino,
		   const struct ext2_inode_large *in, struct runlist *rl)
{
	struct bmwalk w;
	uint64_t lblk = EXT2_NDIR_BLOCKS, span;
	int i, depth;

	w.dfs = dfs;
	w.ino = ino;
	w.rl = rl;
	w.per = dfs->blocksize / sizeof(uint32_t);
	for (i = 0; i < EXT2_NDIR_BLOCKS; i++)
		if (in->i_block[i] != 0)
			runs_add(rl, (uint64_t)i, in->i_block[i], 1);
	span = w.per;
	for (depth = 1; depth <= EXT2_N_BLOCKS - EXT2_NDIR_BLOCKS; depth++) {
		if (in->i_block[EXT2_NDIR_BLOCKS + depth - 1] != 0)
			walk_ind(&w, in->i_block[EXT2_NDIR_BLOCKS + depth - 1],
				 depth, lblk);
		lblk += span;
		span *= w.per;
	}
}

/* Slots per header: 0.4b47 gathers fs_block/4 fs blocks at a time. */
static uint64_t
slots_per_header(const struct dump_fs *dfs)
{
	uint64_t per = dfs->blocksize / TP_BSIZE;
	uint64_t n = dfs->blocksize / FS_BLOCKS_PER_CHUNK_DIV * per;

	return n < TP_NINDIR ? n : TP_NINDIR;
}

/* The logical blocks [*start, *end) of run r that fall in [b0, b1). */
static void
run_clip(const struct run *r, uint64_t b0, uint64_t b1, uint64_t *start,
	 uint64_t *end)
{
	*start = r->lblk > b0 ? r->lblk : b0;
	*end = r->lblk + r->len < b1 ? r->lblk + r->len : b1;
}

/*
 * Emit the headers and data of a block-mapped or extent-mapped file
 * (regular file or slow symlink).
 */
static void
dump_runs(const struct dump_fs *dfs, ext2_ino_t ino,
	  const struct tape_dinode *d, const struct runlist *rl)
{
	uint64_t per = dfs->blocksize / TP_BSIZE;
	uint64_t nslots = rl->limit * per, step = slots_per_header(dfs);
	uint64_t s, b0, b1, start, end, k;
	size_t ri = 0, rj;
	union u_spcl h;

	for (s = 0; s < nslots || s == 0; s += step) {
		uint64_t count = nslots - s < step ? nslots - s : step;

		inode_new_header(&h, s == 0 ? TS_INODE : TS_ADDR, ino);
		h.s_spcl.c_dinode = *d;
		h.s_spcl.c_count = (int32_t)count;
		b0 = s / per;
		b1 = (s + count) / per;
		while (ri < rl->n && rl->r[ri].lblk + rl->r[ri].len <= b0)
			ri++;
		for (rj = ri; rj < rl->n && rl->r[rj].lblk < b1; rj++) {
			run_clip(&rl->r[rj], b0, b1, &start, &end);
			for (k = (start - b0) * per; k < (end - b0) * per; k++)
				h.s_spcl.c_addr[k] = 1;
		}
		inode_header(&h);
		for (rj = ri; rj < rl->n && rl->r[rj].lblk < b1; rj++) {
			run_clip(&rl->r[rj], b0, b1, &start, &end);
			tape_disk((rl->r[rj].pblk + start - rl->r[rj].lblk) *
				      dfs->blocksize,
				  (size_t)((end - start) * per));
		}
		if (nslots == 0)
			break;
	}
}

/*
 * Emit len bytes from memory as nslots all-present slots (the rest of
 * the last fs block zero-filled), one header's worth at a time.
 */
static void
dump_memory(const struct dump_fs *dfs, ext2_ino_t ino,
	    const struct tape_dinode *d, const void *data, size_t len,
	    uint64_t nslots)
{
	uint64_t step = slots_per_header(dfs), s, k;
	uint8_t *buf = xcalloc((size_t)step, TP_BSIZE);
	union u_spcl h;

	for (s = 0; s < nslots || s == 0; s += step) {
		uint64_t count = nslots - s < step ? nslots - s : step;
		uint64_t off = s * TP_BSIZE, n = 0;

		inode_new_header(&h, s == 0 ? TS_INODE : TS_ADDR, ino);
		h.s_spcl.c_dinode = *d;
		h.s_spcl.c_count = (int32_t)count;
		for (k = 0; k < count; k++)
			h.s_spcl.c_addr[k] = 1;
		inode_header(&h);
		memset(buf, 0, (size_t)step * TP_BSIZE);
		if (off < len)
			n = len - off < count * TP_BSIZE ? len - off
							 : count * TP_BSIZE;
		if (n != 0)
			memcpy(buf, (const uint8_t *)data + off, (size_t)n);
		tape_mem(buf, (size_t)count);
		if (nslots == 0)
			break;
	}
	free(buf);
}

static uint64_t
slots_for_size(const struct dump_fs *dfs, uint64_t size)
{
	uint64_t b = dfs->blocksize;

	return (size + b - 1) / b * (b / TP_BSIZE);
}

/*
 * Inline data lives in the inode (and its system.data attribute), so a
 * larger i_size than the data found there is damage: the dump records
 * the size it can vouch for.
 */
static void
dump_inline(const struct dump_fs *dfs, ext2_ino_t ino,
	    struct ext2_inode_large *in, struct tape_dinode *d)
{
	size_t sz = 0;
	void *buf = NULL;
	errcode_t rc;

	rc = ext2fs_inline_data_size(dfs->fs, ino, &sz);
	if (rc == 0) {
		buf = xcalloc(sz + 1, 1);
		rc = ext2fs_inline_data_get(dfs->fs, ino,
					    (struct ext2_inode *)in, buf, &sz);
	}
	if (rc != 0) {
		optr_damage(ino, rc, "inline data unreadable");
		sz = 0;
	}
	if (d->di_size > sz) {
		optr_damage(ino, 0,
			    "size %llu but %zu bytes of inline data; "
			    "dumped as %zu bytes",
			    (unsigned long long)d->di_size, sz, sz);
		d->di_size = sz;
	}
	/* The content goes out as data blocks; with the flag left on,
	 * 0.4b49+ restores would take it from the inode as well and write
	 * it twice (doc/format.md 5.5). */
	d->di_flags &= ~TAPE_INLINE_DATA_FL;
	dump_memory(dfs, ino, d, buf, (size_t)d->di_size,
		    slots_for_size(dfs, d->di_size));
	free(buf);
}

/*
 * Largest size an inode of this file system can map: 2^32 logical
 * blocks with extents, 12 direct + 3 levels of indirect blocks
 * otherwise.  A larger i_size is damage; dumping it would write headers
 * for terabytes of holes.
 */
static uint64_t
max_file_size(const struct dump_fs *dfs, int extents)
{
	uint64_t b = dfs->blocksize, per = b / sizeof(uint32_t);
	uint64_t blocks = extents
	    ? (uint64_t)1 << 32
	    : TAPE_NDADDR + per + per * per + per * per * per;

	return blocks * b;
}

static void
dump_file(const struct dump_fs *dfs, ext2_ino_t ino,
	  struct ext2_inode_large *in, struct tape_dinode *d)
{
	struct runlist rl;
	int extents = (in->i_flags & EXT4_EXTENTS_FL) != 0;
	uint64_t max = max_file_size(dfs, extents);

	if (d->di_size > max) {
		optr_damage(ino, 0,
			    "size %llu is beyond the file system's "
			    "limit; dumped as %llu bytes",
			    (unsigned long long)d->di_size,
			    (unsigned long long)max);
		d->di_size = max;
	}
	runlist_init(dfs, &rl, d->di_size);
	if (rl.limit != 0) {
		if (extents)
			runs_from_extents(dfs, ino, in, &rl);
		else if (ext2fs_inode_has_valid_blocks2(
			     dfs->fs, (struct ext2_inode *)in))
			runs_from_blockmap(dfs, ino, in, &rl);
	}
	runs_finish(&rl);
	runs_report(ino, &rl);
	dump_runs(dfs, ino, d, &rl);
	free(rl.r);
}

static void
dump_directory(const struct dump_fs *dfs, const struct dump_maps *maps,
	       ext2_ino_t ino, struct ext2_inode_large *in,
	       struct tape_dinode *d)
{
	size_t len = 0, off;
	uint8_t *img = dirconv_convert(dfs, maps, ino, in, &len);
	uint8_t block[TP_BSIZE];
	union u_spcl h;

	d->di_size = len;
	off = 0;
	do {
		size_t n = len - off < TP_BSIZE ? len - off : TP_BSIZE;

		inode_new_header(&h, off == 0 ? TS_INODE : TS_ADDR, ino);
		h.s_spcl.c_dinode = *d;
		h.s_spcl.c_count = n ? 1 : 0;
		h.s_spcl.c_addr[0] = n ? 1 : 0;
		inode_header(&h);
		if (n != 0) {
			memset(block, 0, sizeof(block));
			memcpy(block, img + off, n);
			tape_mem(block, 1);
		}
		off += n;
	} while (off < len);
	free(img);
}

/* in is not const only because libext2fs's readers take it so. */
void
inode_dump(const struct dump_opts *o, const struct dump_fs *dfs,
	   const struct dump_maps *maps, ext2_ino_t ino,
	   struct ext2_inode_large *in)
{
	struct tape_dinode d;
	uint16_t mode = in->i_mode;
	union u_spcl h;

	inode_fill_dinode(dfs, in, &d);
	note_times(dfs, in);
	if (map_test(maps->metaonly, ino)) {
		if (o->verbose)
			msg("dumping regular inode %u (meta only)\n", ino);
		d.di_size = 0;
		inode_new_header(&h, TS_INODE, ino);
		h.s_spcl.c_dinode = d;
		h.s_spcl.c_flags = DR_METAONLY;
		inode_header(&h);
	} else if (LINUX_S_ISDIR(mode)) {
		if (o->verbose)
			msg("dumping directory inode %u\n", ino);
		dump_directory(dfs, maps, ino, in, &d);
	} else {
		if (o->verbose)
			msg("dumping regular inode %u\n", ino);
		if ((LINUX_S_ISREG(mode) || LINUX_S_ISLNK(mode)) &&
		    (in->i_flags & EXT4_INLINE_DATA_FL)) {
			dump_inline(dfs, ino, in, &d);
		} else if (LINUX_S_ISLNK(mode) && d.di_size > 0 &&
			   d.di_size < sizeof(in->i_block)) {
			/* Fast symlink: the text lives in i_block. */
			dump_memory(dfs, ino, &d, in->i_block,
				    (size_t)d.di_size, 1);
		} else if (LINUX_S_ISREG(mode) || LINUX_S_ISLNK(mode)) {
			dump_file(dfs, ino, in, &d);
		} else {
			inode_new_header(&h, TS_INODE, ino);
			h.s_spcl.c_dinode = d;
			inode_header(&h);
		}
	}
	ea_dump(o, dfs, ino, in, &d);
}
