/*
 * changes.c - files that changed while dump read them.
 *
 * A file that is written while its blocks are read is archived as a mix
 * of old and new bytes.  Like GNU tar, dump notices it: once the slaves
 * have read a file's last data block (the writer has taken the record
 * that holds it), the master reads the inode again and compares its
 * ctime, mtime, size and generation with the values it archived; any
 * difference is reported on a "  DUMP: " line and counted.  The inode is
 * read straight from the device's inode table, through the page cache
 * that ext4 keeps its inode tables in (doc/design.md, "Coherent
 * reads"), not through libext2fs, whose copy is the one archived.
 *
 * Files wait in a queue in the order they were dumped, which is the
 * order their data reaches the output.
 *
 * A report names the file by its path inside the file system when a
 * directory of the dump holds it (looked up then, so only changed files
 * cost a walk of the directories), else by its inode number.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "changes.h"
#include "optr.h"
#include "xalloc.h"
#include "xio.h"

/* What is compared: the fields of the archived inode that change when
 * a file is written, truncated, or freed and used again. */
struct stamp {
	uint32_t ctime, ctime_extra, mtime, mtime_extra, generation;
	uint64_t size;
};

struct watched {
	ext2_ino_t ino;
	uint64_t end; /* tape blocks queued up to its last block */
	struct stamp st;
};

static struct {
	const struct dump_fs *dfs;
	const struct dump_maps *maps; /* its directories name the files */
	int fd; /* the device, for the inode tables */
	unsigned char *raw; /* one on-disk inode */
	struct watched *q;
	size_t head, n, cap; /* a ring of cap entries */
	uint64_t changed;
} w = {.fd = -1};

/* The fields of an inode of inode_size bytes; *_extra only where the
 * inode has them. */
static void
stamp_of(const struct ext2_inode_large *in, unsigned inode_size,
	 struct stamp *st)
{
	memset(st, 0, sizeof(*st));
	st->ctime = in->i_ctime;
	st->mtime = in->i_mtime;
	st->generation = in->i_generation;
	st->size = EXT2_I_SIZE(in);
	if (inode_size > EXT2_GOOD_OLD_INODE_SIZE &&
	    in->i_extra_isize >=
		offsetof(struct ext2_inode_large, i_mtime_extra) +
		    sizeof(in->i_mtime_extra) - EXT2_GOOD_OLD_INODE_SIZE) {
		st->ctime_extra = in->i_ctime_extra;
		st->mtime_extra = in->i_mtime_extra;
	}
}

void
changes_start(const struct dump_fs *dfs, const struct dump_maps *maps)
{
	w.dfs = dfs;
	w.maps = maps;
	w.fd = open(dfs->device, O_RDONLY | O_CLOEXEC);
	if (w.fd == -1)
		msg("Cannot open %s to check for files changed as they were "
		    "read: %s\n",
		    dfs->device, strerror(errno));
	w.raw = xcalloc(1,
			dfs->inode_size > sizeof(struct ext2_inode_large)
			    ? dfs->inode_size
			    : sizeof(struct ext2_inode_large));
}

/* Read inode ino from the device into w.raw; 0 or -1. */
static int
read_raw_inode(ext2_ino_t ino)
{
	ext2_filsys fs = w.dfs->fs;
	dgrp_t group = (dgrp_t)((ino - 1) / fs->super->s_inodes_per_group);
	uint64_t index = (ino - 1) % fs->super->s_inodes_per_group;
	uint64_t off = ext2fs_inode_table_loc(fs, group) * fs->blocksize +
	    index * w.dfs->inode_size;
	ssize_t n;

	n = full_pread(w.fd, w.raw, w.dfs->inode_size, (off_t)off);
	if (n != (ssize_t)w.dfs->inode_size)
		return -1;
#ifdef WORDS_BIGENDIAN
	ext2fs_swap_inode_full(fs, (struct ext2_inode_large *)w.raw,
			       (struct ext2_inode_large *)w.raw, 0,
			       (int)w.dfs->inode_size);
#endif
	return 0;
}

struct find {
	ext2_ino_t ino;
	int found;
};

static int
find_entry(struct ext2_dir_entry *de, int offset, int blocksize, char *buf,
	   void *priv)
{
	struct find *f = priv;

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (de->inode != f->ino || ext2fs_dirent_name_len(de) == 0)
		return 0;
	f->found = 1;
	return DIRENT_ABORT;
}

/* The path of ino inside the file system (ext2fs memory), or NULL: the
 * first directory of the dump that has an entry for it, then upwards. */
static char *
path_of(ext2_ino_t ino)
{
	const struct dump_maps *m = w.maps;
	struct find f = {.ino = ino};
	ext2_ino_t dir;
	char *name = NULL;

	if (m == NULL || m->dirs == NULL)
		return NULL;
	for (dir = 1; dir < m->maxino; dir++) {
		if (!map_test(m->dirs, dir) ||
		    ext2fs_dir_iterate(w.dfs->fs, dir, 0, NULL, find_entry,
				       &f) != 0)
			continue;
		if (f.found)
			break;
	}
	if (!f.found || ext2fs_get_pathname(w.dfs->fs, dir, ino, &name) != 0)
		return NULL;
	/* libext2fs puts "<N>" where it could not name a directory */
	if (name != NULL && (name[0] != '/' || strchr(name, '<') != NULL)) {
		ext2fs_free_mem(&name);
		return NULL;
	}
	return name;
}

void
changes_report(ext2_ino_t ino, const char *what)
{
	char *path = path_of(ino);

	if (path != NULL) {
		msg("%s: %s\n", path, what);
		ext2fs_free_mem(&path);
	} else {
		msg("inode %u: %s\n", ino, what);
	}
	w.changed++;
}

static int
same_stamp(const struct stamp *a, const struct stamp *b)
{
	return a->ctime == b->ctime && a->ctime_extra == b->ctime_extra &&
	    a->mtime == b->mtime && a->mtime_extra == b->mtime_extra &&
	    a->generation == b->generation && a->size == b->size;
}

static void
check(const struct watched *e)
{
	struct stamp now;

	if (read_raw_inode(e->ino) < 0)
		return;
	stamp_of((const struct ext2_inode_large *)w.raw, w.dfs->inode_size,
		 &now);
	if (!same_stamp(&now, &e->st))
		changes_report(e->ino, "file changed as we read it");
}

void
changes_watch(ext2_ino_t ino, const struct ext2_inode_large *in, uint64_t end)
{
	struct watched *e;

	if (w.fd == -1)
		return;
	if (w.n == w.cap) {
		size_t ncap = w.cap ? w.cap * 2 : 64, i;
		struct watched *nq = xreallocarray(NULL, ncap, sizeof(*nq));

		for (i = 0; i < w.n; i++)
			nq[i] = w.q[(w.head + i) % w.cap];
		free(w.q);
		w.q = nq;
		w.cap = ncap;
		w.head = 0;
	}
	e = &w.q[(w.head + w.n) % w.cap];
	e->ino = ino;
	e->end = end;
	stamp_of(in, w.dfs->inode_size, &e->st);
	w.n++;
}

void
changes_poll(uint64_t read_blocks)
{
	while (w.n > 0 && w.q[w.head].end <= read_blocks) {
		check(&w.q[w.head]);
		w.head = (w.head + 1) % w.cap;
		w.n--;
	}
}

uint64_t
changes_finish(void)
{
	changes_poll(UINT64_MAX);
	free(w.q);
	free(w.raw);
	w.q = NULL;
	w.raw = NULL;
	w.maps = NULL;
	w.n = w.cap = w.head = 0;
	if (w.fd != -1)
		(void)close(w.fd); /* read only */
	w.fd = -1;
	return w.changed;
}
