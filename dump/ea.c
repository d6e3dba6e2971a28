/*
 * ea.c - extended-attribute records of one inode (doc/format.md 8).
 *
 * After an inode's data come up to two EA records: the in-inode
 * attributes (the ibody after i_extra_isize, its magic replaced by
 * EXT2_XATTR_MAGIC2, zero-filled to the inode size and beyond) and the
 * EA block.  The ibody is rebuilt without the `system.data' entry of
 * inline-data inodes, which 0.4b47's restore rejects ("Unknown EA
 * index"); a payload left without entries is not dumped at all.
 *
 * A value kept in an EA inode (ext4 `ea_inode') cannot stay in either
 * payload: every upstream restore reads its entry as a value inside the
 * payload and overruns its buffer.  Such entries are taken out, and each
 * value follows in a record of its own whose payload proper is an empty
 * list and whose tail, beyond di_size where other restores do not look,
 * holds an EA block with that one entry and its value (doc/format.md
 * 8.4).  The EA inodes themselves are not files and are not dumped.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "optr.h"
#include "tape.h"
#include "xalloc.h"

/* Layout of an on-disk EA entry (ext2_ext_attr_entry), little-endian. */
#define EA_ENTRY_HDRLEN	  16
#define EA_OFF_NAME_LEN	  0
#define EA_OFF_NAME_INDEX 1
#define EA_OFF_VALUE_OFFS 2
#define EA_OFF_VALUE_INUM 4
#define EA_OFF_VALUE_SIZE 8
#define EA_OFF_HASH	  12
#define EA_PAD		  4
#define EA_ENTRY_LEN(namelen)                                                  \
	(((size_t)(namelen) + EA_ENTRY_HDRLEN + EA_PAD - 1) &                  \
	 ~(size_t)(EA_PAD - 1))
#define EA_MAGIC_LEN	4
#define EA_BLOCK_HDRLEN 32 /* struct ext2_ext_attr_header */
#define EA_OFF_REFCOUNT 4
#define EA_OFF_BLOCKS	8
/* What other restores see of a record with a tail: an empty list. */
#define EA_TAIL_VISIBLE (EA_MAGIC_LEN + EA_PAD)
#define EA_INDEX_SYSTEM 7 /* "system." prefix */
#define EA_INLINE_NAME	"data" /* system.data holds inline data */

static uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint16_t
get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void
put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* An entry whose value is kept in an EA inode, taken out of its payload. */
struct ea_big {
	uint8_t idx, nlen;
	uint8_t name[UINT8_MAX];
	uint32_t inum, size, hash;
};

struct ea_bigs {
	struct ea_big *v;
	size_t n;
};

static int
is_inline_entry(const uint8_t *e)
{
	size_t nl = e[EA_OFF_NAME_LEN];

	return e[EA_OFF_NAME_INDEX] == EA_INDEX_SYSTEM &&
	    nl == strlen(EA_INLINE_NAME) &&
	    memcmp(e + EA_ENTRY_HDRLEN, EA_INLINE_NAME, nl) == 0;
}

static void
keep_big(struct ea_bigs *big, const uint8_t *e)
{
	struct ea_big *b;

	big->v = xreallocarray(big->v, big->n + 1, sizeof(*big->v));
	b = &big->v[big->n++];
	b->idx = e[EA_OFF_NAME_INDEX];
	b->nlen = e[EA_OFF_NAME_LEN];
	memcpy(b->name, e + EA_ENTRY_HDRLEN, b->nlen);
	b->inum = get_le32(e + EA_OFF_VALUE_INUM);
	b->size = get_le32(e + EA_OFF_VALUE_SIZE);
	b->hash = get_le32(e + EA_OFF_HASH);
}

/*
 * Drop from the payload p[0..len), whose entries start at first and
 * whose value offsets count from vbase, the entries that cannot travel
 * in it: system.data when ibody is set (its value is zeroed) and those
 * whose value is in an EA inode (kept in big).  Values stay where they
 * are (their offsets do not depend on the table).  Returns the number of
 * entries kept.
 */
static size_t
strip_entries(uint8_t *p, size_t len, size_t first, size_t vbase, int ibody,
	      struct ea_bigs *big)
{
	uint8_t *tmp = xcalloc(len, 1);
	size_t in = first, out = 0, kept = 0, elen;

	while (in + EA_PAD <= len && get_le32(p + in) != 0) {
		if (in + EA_ENTRY_HDRLEN > len)
			break;
		elen = EA_ENTRY_LEN(p[in + EA_OFF_NAME_LEN]);
		if (in + elen > len)
			break;
		if (ibody && is_inline_entry(p + in)) {
			size_t voff =
			    vbase + get_le16(p + in + EA_OFF_VALUE_OFFS);
			size_t vsz = get_le32(p + in + EA_OFF_VALUE_SIZE);

			if (voff <= len && vsz <= len - voff)
				memset(p + voff, 0, vsz);
		} else if (get_le32(p + in + EA_OFF_VALUE_INUM) != 0) {
			keep_big(big, p + in);
		} else {
			memcpy(tmp + out, p + in, elen);
			out += elen;
			kept++;
		}
		in += elen;
	}
	/* Old entry table (and its terminator) replaced by the kept one. */
	memset(p + first, 0, (in + EA_PAD <= len ? in + EA_PAD : len) - first);
	memcpy(p + first, tmp, out);
	free(tmp);
	return kept;
}

static void
ea_record(ext2_ino_t ino, const struct tape_dinode *d, uint64_t size,
	  size_t nblocks)
{
	union u_spcl h;
	size_t i;

	inode_new_header(&h, TS_INODE, ino);
	h.s_spcl.c_dinode = *d;
	h.s_spcl.c_dinode.di_size = size;
	h.s_spcl.c_flags = DR_EXTATTRIBUTES;
	h.s_spcl.c_extattributes = EXT_XATTR;
	h.s_spcl.c_count = (int32_t)nblocks;
	for (i = 0; i < nblocks; i++)
		h.s_spcl.c_addr[i] = 1;
	tape_header(&h);
}

static void
ea_ibody(const struct dump_opts *o, const struct dump_fs *dfs, ext2_ino_t ino,
	 const struct ext2_inode_large *in, const struct tape_dinode *d,
	 struct ea_bigs *big)
{
	size_t isz = dfs->inode_size;
	size_t start = EXT2_GOOD_OLD_INODE_SIZE + (size_t)in->i_extra_isize;
	size_t nblocks = (isz + TP_BSIZE - 1) / TP_BSIZE;
	uint8_t *buf;

	if (isz <= EXT2_GOOD_OLD_INODE_SIZE || in->i_extra_isize == 0 ||
	    start + EA_MAGIC_LEN > isz ||
	    get_le32((const uint8_t *)in + start) != EXT2_XATTR_MAGIC)
		return;
	buf = xcalloc(nblocks, TP_BSIZE);
	memcpy(buf, (const uint8_t *)in + start, isz - start);
	put_le32(buf, EXT2_XATTR_MAGIC2);
	if (strip_entries(buf, isz - start, EA_MAGIC_LEN, EA_MAGIC_LEN, 1,
			  big) == 0) {
		free(buf);
		return;
	}
	if (o->verbose)
		msg("dumping EA (inode) in inode #%u\n", ino);
	ea_record(ino, d, isz, nblocks);
	tape_mem(buf, nblocks);
	free(buf);
}

/*
 * The EA block.  Without ea_inode no entry can point outside it, and the
 * slaves copy it as it is; with ea_inode it is read here and, when some
 * value lives in an EA inode, sent without those entries.
 */
static void
ea_block(const struct dump_opts *o, const struct dump_fs *dfs, ext2_ino_t ino,
	 const struct ext2_inode_large *in, const struct tape_dinode *d,
	 struct ea_bigs *big)
{
	blk64_t blk;
	size_t per = dfs->blocksize / TP_BSIZE, had = big->n;
	uint8_t *buf = NULL;

	blk = ext2fs_file_acl_block(dfs->fs, (const struct ext2_inode *)in);
	if (blk == 0 || blk >= ext2fs_blocks_count(dfs->fs->super))
		return;
	if (ext2fs_has_feature_ea_inode(dfs->fs->super)) {
		size_t kept = 0;

		buf = xmalloc(dfs->blocksize);
		/* A block that cannot be read here is left to the slaves,
		 * which report it as they report any unreadable block. */
		if (io_channel_read_blk64(dfs->fs->io, blk, 1, buf) == 0 &&
		    get_le32(buf) == EXT2_XATTR_MAGIC)
			kept = strip_entries(buf, dfs->blocksize,
					     EA_BLOCK_HDRLEN, 0, 0, big);
		if (big->n == had) {
			free(buf); /* nothing taken out: dump it as it is */
			buf = NULL;
		} else if (kept == 0) {
			free(buf); /* nothing left but EA-inode values */
			return;
		}
	}
	if (o->verbose)
		msg("dumping EA (block) in inode #%u\n", ino);
	ea_record(ino, d, dfs->blocksize, per);
	if (buf == NULL) {
		tape_disk((uint64_t)blk * dfs->blocksize, per);
		return;
	}
	tape_mem(buf, per);
	free(buf);
}

/* The value of b, read from its EA inode; NULL (reported) if it cannot be. */
static uint8_t *
big_value(const struct dump_fs *dfs, ext2_ino_t ino, const struct ea_big *b)
{
	struct ext2_inode_large ein;
	ext2_file_t f;
	unsigned int got = 0;
	uint8_t *val;
	errcode_t rc;

	if (b->size > XATTR_VALUE_MAX) {
		optr_damage(ino, 0,
			    "EA value of %lu bytes in inode %u: over "
			    "%u, not dumped",
			    (unsigned long)b->size, b->inum, XATTR_VALUE_MAX);
		return NULL;
	}
	if (b->inum >= dfs->maxino) {
		optr_damage(ino, 0, "EA value in inode %u: no such inode",
			    b->inum);
		return NULL;
	}
	memset(&ein, 0, sizeof(ein));
	rc = ext2fs_read_inode_full(dfs->fs, b->inum, (struct ext2_inode *)&ein,
				    sizeof(ein));
	if (rc == 0 &&
	    (!(ein.i_flags & EXT4_EA_INODE_FL) ||
	     EXT2_I_SIZE(&ein) != b->size)) {
		optr_damage(ino, 0, "inode %u is not an EA inode of %lu bytes",
			    b->inum, (unsigned long)b->size);
		return NULL;
	}
	val = xmalloc(b->size > 0 ? b->size : 1);
	if (rc == 0)
		rc = ext2fs_file_open(dfs->fs, b->inum, 0, &f);
	if (rc == 0) {
		rc = ext2fs_file_read(f, val, b->size, &got);
		(void)ext2fs_file_close(f);
	}
	if (rc != 0 || got != b->size) {
		optr_damage(ino, rc, "cannot read the EA value in inode %u",
			    b->inum);
		free(val);
		return NULL;
	}
	return val;
}

/*
 * One value from an EA inode, in a record of its own: di_size covers an
 * empty in-inode list; the blocks after it hold an EA block with the one
 * entry and its value (doc/format.md 8.4).
 */
static void
ea_tail(const struct dump_opts *o, ext2_ino_t ino, const struct tape_dinode *d,
	const struct ea_big *b, const uint8_t *val)
{
	size_t voff = EA_BLOCK_HDRLEN + EA_ENTRY_LEN(b->nlen) + EA_PAD;
	size_t nblocks = 1 + (voff + b->size + TP_BSIZE - 1) / TP_BSIZE;
	uint8_t *buf = xcalloc(nblocks, TP_BSIZE);
	uint8_t *t = buf + TP_BSIZE, *e = t + EA_BLOCK_HDRLEN;

	put_le32(buf, EXT2_XATTR_MAGIC2);
	put_le32(t, EXT2_XATTR_MAGIC);
	put_le32(t + EA_OFF_REFCOUNT, 1);
	put_le32(t + EA_OFF_BLOCKS, 1);
	e[EA_OFF_NAME_LEN] = b->nlen;
	e[EA_OFF_NAME_INDEX] = b->idx;
	put_le16(e + EA_OFF_VALUE_OFFS, (uint16_t)voff);
	put_le32(e + EA_OFF_VALUE_SIZE, b->size);
	put_le32(e + EA_OFF_HASH, b->hash);
	memcpy(e + EA_ENTRY_HDRLEN, b->name, b->nlen);
	memcpy(t + voff, val, b->size);
	if (o->verbose)
		msg("dumping EA (EA inode %u) in inode #%u\n", b->inum, ino);
	ea_record(ino, d, EA_TAIL_VISIBLE, nblocks);
	tape_mem(buf, nblocks);
	free(buf);
}

void
ea_dump(const struct dump_opts *o, const struct dump_fs *dfs, ext2_ino_t ino,
	const struct ext2_inode_large *in, const struct tape_dinode *d)
{
	struct ea_bigs big = {NULL, 0};

	ea_ibody(o, dfs, ino, in, d, &big);
	ea_block(o, dfs, ino, in, d, &big);
	for (size_t i = 0; i < big.n; i++) {
		uint8_t *val = big_value(dfs, ino, &big.v[i]);

		if (val != NULL)
			ea_tail(o, ino, d, &big.v[i], val);
		free(val);
	}
	free(big.v);
}
