/*
 * dirconv.c - convert an ext2/3/4 directory into the archive's BSD
 * directory image.
 *
 * Entries are taken in the order dirwalk() returns them ("." and ".."
 * first; a damaged directory block costs its own entries), and packed
 * into 512-byte chunks: an entry never straddles a chunk, the previous
 * entry's record length is stretched to the chunk end instead, and the
 * last entry is stretched likewise.  Entries of excluded inodes are left
 * out.  The image is zero-filled, so no stale byte reaches the archive.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "xalloc.h"

struct dirconv_ctx {
	const struct dump_maps *maps;
	uint8_t *buf;
	size_t cap;
	size_t pos; /* end of the last entry */
	size_t last; /* offset of the last entry, if any */
	int have_last;
};

/* ext2 file-type byte (EXT2_FT_*) to the archive's d_type. */
static uint8_t
tape_type(int ft)
{
	switch (ft) {
	case EXT2_FT_REG_FILE: return DT_TAPE_REG;
	case EXT2_FT_DIR: return DT_TAPE_DIR;
	case EXT2_FT_CHRDEV: return DT_TAPE_CHR;
	case EXT2_FT_BLKDEV: return DT_TAPE_BLK;
	case EXT2_FT_FIFO: return DT_TAPE_FIFO;
	case EXT2_FT_SOCK: return DT_TAPE_SOCK;
	case EXT2_FT_SYMLINK: return DT_TAPE_LNK;
	default: return DT_TAPE_UNKNOWN;
	}
}

static void
grow(struct dirconv_ctx *c, size_t need)
{
	size_t old = c->cap;

	if (need <= c->cap)
		return;
	while (c->cap < need)
		c->cap = c->cap ? c->cap * 2 : DUMP_DIRBLKSIZ * 4;
	c->buf = xrealloc(c->buf, c->cap);
	memset(c->buf + old, 0, c->cap - old);
}

/* Stretch the last entry's record length so it ends at offset end. */
static void
stretch_last(struct dirconv_ctx *c, size_t end)
{
	uint16_t reclen;

	if (!c->have_last)
		return;
	reclen = (uint16_t)(end - c->last);
	memcpy(c->buf + c->last + offsetof(struct tape_direct, d_reclen),
	       &reclen, sizeof(reclen));
}

static int
add_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *de, int offset,
	  int blocksize, char *b, void *priv)
{
	struct dirconv_ctx *c = priv;
	struct tape_direct td;
	size_t namlen = (size_t)ext2fs_dirent_name_len(de);
	size_t reclen = TAPE_DIRSIZ(namlen);
	size_t room = DUMP_DIRBLKSIZ - c->pos % DUMP_DIRBLKSIZ;

	(void)dir;
	(void)entry;
	(void)offset;
	(void)blocksize;
	(void)b;
	if (de->inode == 0 || de->inode >= c->maps->maxino)
		return 0;
	if (map_test(c->maps->excluded, de->inode))
		return 0;
	if (reclen > room) {
		stretch_last(c, c->pos + room);
		c->pos += room;
	}
	grow(c, c->pos + DUMP_DIRBLKSIZ);
	memset(&td, 0, sizeof(td));
	td.d_ino = de->inode;
	td.d_reclen = (uint16_t)reclen;
	td.d_type = tape_type(ext2fs_dirent_file_type(de));
	td.d_namlen = (uint8_t)namlen;
	memcpy(td.d_name, de->name, namlen);
	memcpy(c->buf + c->pos, &td, reclen);
	c->last = c->pos;
	c->have_last = 1;
	c->pos += reclen;
	return 0;
}

/*
 * Return the image of directory ino (malloced, *len bytes, a multiple of
 * DUMP_DIRBLKSIZ).
 */
uint8_t *
dirconv_convert(const struct dump_fs *dfs, const struct dump_maps *maps,
		ext2_ino_t ino, struct ext2_inode_large *in, size_t *len)
{
	struct dirconv_ctx c;
	size_t end;

	memset(&c, 0, sizeof(c));
	c.maps = maps;
	grow(&c, DUMP_DIRBLKSIZ);
	(void)dirwalk(dfs, ino, in, 1, add_entry, &c);
	end = (c.pos + DUMP_DIRBLKSIZ - 1) / DUMP_DIRBLKSIZ * DUMP_DIRBLKSIZ;
	stretch_last(&c, end);
	*len = end;
	return c.buf;
}
