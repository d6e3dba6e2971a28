/*
 * dirwalk.c - the entries of one directory, read past damage.
 *
 * ext2fs_dir_iterate2 gives up on a whole directory at its first
 * damaged block.  Here a block-mapped or extent-mapped directory is read
 * one block at a time, in logical order as ext2fs_dir_iterate2 reads it,
 * with the same checks on each entry: a block that cannot be read, lies
 * outside the file system or holds a bad record length costs only its
 * own entries from the damage on.  Inline-data directories (in the
 * inode, no blocks to lose) still go through ext2fs_dir_iterate2.
 * Empty entries (inode 0, which includes the checksum tail) are not
 * passed on, as with ext2fs_dir_iterate2 without flags.
 */
#include <stdlib.h>

#include "dump.h"
#include "xalloc.h"

struct dirwalk {
	ext2_ino_t ino;
	int report;
	int entry; /* DIRENT_* number of the next entry */
	char *blk; /* one directory block */
	int (*fn)(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
		  int offset, int blocksize, char *buf, void *priv);
	void *priv;
};

static int
entry_bad(ext2_filsys fs, struct ext2_dir_entry *de, unsigned int off,
	  unsigned int *reclen)
{
	unsigned int bs = fs->blocksize;

	return ext2fs_get_rec_len(fs, de, reclen) != 0 || off + *reclen > bs ||
	    *reclen < EXT2_DIR_ENTRY_HEADER_LEN ||
	    *reclen % EXT2_DIR_PAD != 0 ||
	    (unsigned int)ext2fs_dirent_name_len(de) +
		EXT2_DIR_ENTRY_HEADER_LEN >
	    *reclen;
}

static int
walk_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
	   blk64_t ref_block, int ref_offset, void *priv)
{
	struct dirwalk *w = priv;
	struct ext2_dir_entry *de;
	unsigned int off = 0, reclen, bs = fs->blocksize;
	errcode_t rc;

	(void)ref_block;
	(void)ref_offset;
	if (blockcnt < 0)
		return 0;
	w->entry = blockcnt ? DIRENT_OTHER_FILE : DIRENT_DOT_FILE;
	if (*blocknr == 0 || *blocknr < fs->super->s_first_data_block ||
	    *blocknr >= ext2fs_blocks_count(fs->super)) {
		if (w->report)
			optr_damage(w->ino, 0,
				    "directory block %lld is "
				    "number %llu, outside the file system; "
				    "its entries left out",
				    (long long)blockcnt,
				    (unsigned long long)*blocknr);
		return 0;
	}
	rc = ext2fs_read_dir_block4(fs, *blocknr, w->blk, 0, w->ino);
	if (rc != 0) {
		if (w->report)
			optr_damage(w->ino, rc,
				    "directory block %lld "
				    "unreadable; its entries left out",
				    (long long)blockcnt);
		return 0;
	}
	while (off + EXT2_DIR_ENTRY_HEADER_LEN < bs) {
		de = (struct ext2_dir_entry *)(w->blk + off);
		if (entry_bad(fs, de, off, &reclen)) {
			if (w->report)
				optr_damage(w->ino, 0,
					    "directory block %lld "
					    "damaged at offset %u; its entries "
					    "from there left out",
					    (long long)blockcnt, off);
			return 0;
		}
		if (de->inode != 0)
			w->fn(w->ino, w->entry, de, (int)off, (int)bs, w->blk,
			      w->priv);
		if (w->entry < DIRENT_OTHER_FILE)
			w->entry++;
		off += reclen;
	}
	return 0;
}

int
dirwalk(const struct dump_fs *dfs, ext2_ino_t ino, struct ext2_inode_large *in,
	int report,
	int (*fn)(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
		  int offset, int blocksize, char *buf, void *priv),
	void *priv)
{
	struct dirwalk w;
	errcode_t rc;
	int blocks =
	    ext2fs_inode_has_valid_blocks2(dfs->fs, (struct ext2_inode *)in);

	if (!blocks) {
		rc = ext2fs_dir_iterate2(dfs->fs, ino, 0, NULL, fn, priv);
		if (rc != 0 && report)
			optr_damage(ino, rc,
				    "directory unreadable; entries "
				    "past the damage left out");
		return rc != 0 ? -1 : 0;
	}
	w.ino = ino;
	w.report = report;
	w.entry = DIRENT_DOT_FILE;
	w.blk = xmalloc(dfs->blocksize);
	w.fn = fn;
	w.priv = priv;
	rc = ext2fs_block_iterate3(dfs->fs, ino,
				   BLOCK_FLAG_READ_ONLY | BLOCK_FLAG_DATA_ONLY,
				   NULL, walk_block, &w);
	free(w.blk);
	if (rc != 0 && report)
		optr_damage(ino, rc,
			    "directory block map damaged; entries "
			    "past the damage left out");
	return rc != 0 ? -1 : 0;
}

/*
 * Whether an entry the walk passes names a child to follow: neither "."
 * nor ".." and an inode number in 1..maxino-1.  "." and ".." are checked
 * by name as well: libext2fs does not flag the ".." it makes up for an
 * inline-data directory, and taking it for an entry would select (or,
 * below an excluded directory, exclude) the parent.
 */
int
dirwalk_is_child(int entry, const struct ext2_dir_entry *de, ext2_ino_t maxino)
{
	int len = ext2fs_dirent_name_len(de);

	if (entry == DIRENT_DOT_FILE || entry == DIRENT_DOT_DOT_FILE ||
	    (len == 1 && de->name[0] == '.') ||
	    (len == 2 && de->name[0] == '.' && de->name[1] == '.'))
		return 0;
	return de->inode != 0 && de->inode < maxino;
}
