/*
 * subset.c - which inodes a subset dump looks at (dump.8, DESCRIPTION).
 *
 * For every operand: every directory on the way from the root down to
 * it, the named inode, and, for a directory, everything below it.  Pass
 * I then treats these inodes, in this order, as it treats all inodes of
 * a full dump (exclusions included) and ignores the rest, so the
 * used-inode map and the estimate cover the subset only, as in 0.4b47.
 *
 * Names are only used to find the inode: the kernel tells its number
 * (stat), and the way up is followed through the ".." entries of the
 * file system itself, so a name reached through symlinks or a bind
 * mount still marks the right directories.  The first operand is taken
 * with symlinks resolved; of the others, as in 0.4b47, a final symlink
 * is dumped as the link itself.  Unlike 0.4b47 a relative name is taken
 * from the current directory (0.4b47 looks up garbage for the second
 * and later ones).  The marking keeps one invariant: a marked inode's
 * directories up to the root are marked too, so the walk up stops at
 * the first marked one.
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dump.h"
#include "optr.h"
#include "xalloc.h"

#define DOTDOT	   ".."
#define DOTDOT_LEN 2

/* The entries of one directory being walked, and the next to visit. */
struct frame {
	ext2_ino_t *ino;
	uint8_t *isdir;
	size_t n, cap, next;
};

/* State of the marking: visit map and order, the directories walked
 * (a directory met again as an ancestor or an entry is not walked
 * twice) and the stack of directories being walked. */
struct walk {
	const struct dump_fs *dfs;
	ext2_filsys fs;
	ext2_ino_t maxino;
	uint8_t *visit;
	uint8_t *walked;
	ext2_ino_t *order;
	size_t norder, cap;
	struct frame *frames;
	size_t depth, fcap;
	struct frame *fill; /* frame walk_entry adds to */
};

/* First sight of ino: mark it and note its place in the order. */
static void
visit(struct walk *w, ext2_ino_t ino)
{
	if (map_test(w->visit, ino))
		return;
	map_set(w->visit, ino);
	if (w->norder == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 64;
		w->order = xreallocarray(w->order, w->cap, sizeof(*w->order));
	}
	w->order[w->norder++] = ino;
}

static int
is_dir_entry(const struct walk *w, const struct ext2_dir_entry *de)
{
	int t = ext2fs_dirent_file_type(de);

	if (ext2fs_has_feature_filetype(w->fs->super) && t != EXT2_FT_UNKNOWN)
		return t == EXT2_FT_DIR;
	return ext2fs_check_directory(w->fs, de->inode) == 0;
}

static int
walk_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *de, int offset,
	   int blocksize, char *buf, void *priv)
{
	struct walk *w = priv;
	struct frame *f = w->fill;

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!dirwalk_is_child(entry, de, w->maxino))
		return 0;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->ino = xreallocarray(f->ino, f->cap, sizeof(*f->ino));
		f->isdir = xreallocarray(f->isdir, f->cap, sizeof(*f->isdir));
	}
	f->ino[f->n] = de->inode;
	f->isdir[f->n] = (uint8_t)is_dir_entry(w, de);
	f->n++;
	return 0;
}

/* Start walking dir: its entries become the top frame.  A directory
 * that cannot be read costs its own contents only, and a damaged block
 * its own entries only, as anywhere else in dump; pass III reports the
 * damage when it dumps the directory. */
static void
push_dir(struct walk *w, ext2_ino_t dir)
{
	struct ext2_inode_large in;
	errcode_t rc;

	if (map_test(w->walked, dir))
		return;
	map_set(w->walked, dir);
	if (w->depth == w->fcap) {
		w->fcap = w->fcap ? w->fcap * 2 : 16;
		w->frames =
		    xreallocarray(w->frames, w->fcap, sizeof(*w->frames));
	}
	w->fill = &w->frames[w->depth++];
	memset(w->fill, 0, sizeof(*w->fill));
	rc = ext2fs_read_inode_full(w->fs, dir, (struct ext2_inode *)&in,
				    sizeof(in));
	if (rc != 0)
		optr_ino_error(rc, "Cannot read directory", dir);
	else
		(void)dirwalk(w->dfs, dir, &in, 0, walk_entry, w);
}

/*
 * Everything below directory top, each directory's entries in their
 * order and a sub-directory's contents right after it (0.4b47's order,
 * which its -v messages show), without recursion.
 */
static void
mark_tree(struct walk *w, ext2_ino_t top)
{
	struct frame *f;
	ext2_ino_t ino;
	int isdir;

	push_dir(w, top);
	while (w->depth > 0) {
		f = &w->frames[w->depth - 1];
		if (f->next == f->n) {
			free(f->ino);
			free(f->isdir);
			w->depth--;
			continue;
		}
		ino = f->ino[f->next];
		isdir = f->isdir[f->next];
		f->next++;
		visit(w, ino);
		if (isdir)
			push_dir(w, ino);
	}
}

/* ino and its directories up to the root, visited from the root down
 * (see the invariant above). */
static int
mark_up(struct walk *w, ext2_ino_t ino)
{
	ext2_ino_t *chain = NULL, parent = 0;
	size_t n = 0;
	errcode_t rc;
	int bad = 0;

	while (!bad && !map_test(w->visit, ino)) {
		if (n == w->maxino) {
			msg("Directory inode %u does not lead to the root\n",
			    ino);
			bad = 1;
			break;
		}
		chain = xreallocarray(chain, n + 1, sizeof(*chain));
		chain[n++] = ino;
		rc = ext2fs_lookup(w->fs, ino, DOTDOT, DOTDOT_LEN, NULL,
				   &parent);
		if (rc != 0) {
			optr_ino_error(rc, "Cannot find the parent of", ino);
			bad = 1;
		} else if (parent == 0 || parent >= w->maxino) {
			msg("Directory inode %u has a bad parent %u\n", ino,
			    parent);
			bad = 1;
		}
		ino = parent;
	}
	while (!bad && n > 0)
		visit(w, chain[--n]);
	free(chain);
	return bad ? -1 : 0;
}

/*
 * Stat one operand: *st is the inode to dump; *up the inode to walk up
 * from (the directory itself, or the directory holding the file).
 * Returns -1 when it cannot be accessed.
 */
static int
locate(const char *path, int follow, struct stat *st, ext2_ino_t *up)
{
	char *real = NULL, *copy;
	const char *name = path;
	struct stat dst;
	int rc = 0;

	if (follow) {
		real = realpath(path, NULL);
		if (real == NULL)
			return -1;
		name = real;
	}
	if (lstat(name, st) < 0) {
		free(real);
		return -1;
	}
	*up = (ext2_ino_t)st->st_ino;
	if (!S_ISDIR(st->st_mode)) {
		/* dirname() may write into its argument. */
		copy = xstrdup(name);
		if (stat(dirname(copy), &dst) < 0 || dst.st_dev != st->st_dev)
			rc = -1;
		else
			*up = (ext2_ino_t)dst.st_ino;
		free(copy);
	}
	free(real);
	return rc;
}

static int
mark_operand(struct walk *w, const struct dump_subset *sub, const char *path,
	     int first)
{
	struct stat st;
	ext2_ino_t up;

	if (locate(path, first, &st, &up) < 0) {
		msg("File cannot be accessed (%s).\n", path);
		return -1;
	}
	if (st.st_dev != sub->dev) {
		msg("Files are not on same file system (%s).\n", path);
		return -1;
	}
	if (st.st_ino >= w->maxino || up >= w->maxino) {
		msg("File cannot be accessed (%s).\n", path);
		return -1;
	}
	if (mark_up(w, up) < 0)
		return -1;
	visit(w, (ext2_ino_t)st.st_ino);
	if (S_ISDIR(st.st_mode))
		mark_tree(w, (ext2_ino_t)st.st_ino);
	return 0;
}

int
subset_visit(const struct dump_fs *dfs, const struct dump_subset *sub,
	     ext2_ino_t **order, size_t *n)
{
	struct walk w;
	int i, rc = 0;

	memset(&w, 0, sizeof(w));
	w.dfs = dfs;
	w.fs = dfs->fs;
	w.maxino = dfs->maxino;
	w.visit = xcalloc(TAPE_MAPSIZE(dfs->maxino), 1);
	w.walked = xcalloc(TAPE_MAPSIZE(dfs->maxino), 1);
	visit(&w, EXT2_ROOT_INO);
	for (i = 0; i < sub->npaths && rc == 0; i++)
		rc = mark_operand(&w, sub, sub->paths[i], i == 0);
	free(w.visit);
	free(w.walked);
	free(w.frames);
	*order = w.order;
	*n = w.norder;
	return rc;
}
