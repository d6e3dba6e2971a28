/*
 * ea.c - extended-attribute records of one inode (doc/format.md 8).
 *
 * After an inode's data come up to two EA records: the in-inode
 * attributes (the ibody after i_extra_isize, its magic replaced by
 * EXT2_XATTR_MAGIC2, zero-filled to the inode size and beyond) and the
 * EA block.  The ibody is rebuilt without the `system.data' entry of
 * inline-data inodes, which 0.4b47's restore rejects ("Unknown EA
 * index"); a payload left without entries is not dumped at all.
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
#define EA_OFF_VALUE_SIZE 8
#define EA_PAD		  4
#define EA_ENTRY_LEN(namelen)                                                  \
	(((size_t)(namelen) + EA_ENTRY_HDRLEN + EA_PAD - 1) &                  \
	 ~(size_t)(EA_PAD - 1))
#define EA_MAGIC_LEN	4
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

static int
is_inline_entry(const uint8_t *e)
{
	size_t nl = e[EA_OFF_NAME_LEN];

	return e[EA_OFF_NAME_INDEX] == EA_INDEX_SYSTEM &&
	    nl == strlen(EA_INLINE_NAME) &&
	    memcmp(e + EA_ENTRY_HDRLEN, EA_INLINE_NAME, nl) == 0;
}

/*
 * Drop system.data from the ibody payload p[0..len) (magic first).
 * Values stay where they are (their offsets are relative to the first
 * entry, which does not move); the dropped value is zeroed.  Returns the
 * number of entries kept.
 */
static size_t
strip_inline_entry(uint8_t *p, size_t len)
{
	uint8_t *tmp = xcalloc(len, 1);
	size_t in = EA_MAGIC_LEN, out = 0, kept = 0, elen;

	while (in + EA_PAD <= len && get_le32(p + in) != 0) {
		if (in + EA_ENTRY_HDRLEN > len)
			break;
		elen = EA_ENTRY_LEN(p[in + EA_OFF_NAME_LEN]);
		if (in + elen > len)
			break;
		if (is_inline_entry(p + in)) {
			size_t voff =
			    EA_MAGIC_LEN + get_le16(p + in + EA_OFF_VALUE_OFFS);
			size_t vsz = get_le32(p + in + EA_OFF_VALUE_SIZE);

			if (voff <= len && vsz <= len - voff)
				memset(p + voff, 0, vsz);
		} else {
			memcpy(tmp + out, p + in, elen);
			out += elen;
			kept++;
		}
		in += elen;
	}
	/* Old entry table (and its terminator) replaced by the kept one. */
	memset(p + EA_MAGIC_LEN, 0,
	       (in + EA_PAD <= len ? in + EA_PAD : len) - EA_MAGIC_LEN);
	memcpy(p + EA_MAGIC_LEN, tmp, out);
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
ea_inode(const struct dump_opts *o, const struct dump_fs *dfs, ext2_ino_t ino,
	 const struct ext2_inode_large *in, const struct tape_dinode *d)
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
	if (strip_inline_entry(buf, isz - start) == 0) {
		free(buf);
		return;
	}
	if (o->verbose)
		msg("dumping EA (inode) in inode #%u\n", ino);
	ea_record(ino, d, isz, nblocks);
	tape_mem(buf, nblocks);
	free(buf);
}

void
ea_dump(const struct dump_opts *o, const struct dump_fs *dfs, ext2_ino_t ino,
	const struct ext2_inode_large *in, const struct tape_dinode *d)
{
	blk64_t blk;
	size_t per = dfs->blocksize / TP_BSIZE;

	ea_inode(o, dfs, ino, in, d);
	blk = ext2fs_file_acl_block(dfs->fs, (const struct ext2_inode *)in);
	if (blk == 0 || blk >= ext2fs_blocks_count(dfs->fs->super))
		return;
	if (o->verbose)
		msg("dumping EA (block) in inode #%u\n", ino);
	ea_record(ino, d, dfs->blocksize, per);
	tape_disk((uint64_t)blk * dfs->blocksize, per);
}
