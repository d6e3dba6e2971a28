/*
 * subset.h - subset dumps: named files and directories of one mounted
 * ext2/3/4 file system instead of the whole of it (cli.md 1.3 step 5,
 * behaviour.md 1.3).
 *
 * fsopen.c decides from the first operand whether the dump is a subset
 * and fills struct dump_subset; subset.c turns all operands into the
 * map of inodes pass I may visit; traverse.c runs the passes over that
 * map only.  (These declarations would belong in dump.h; they live here
 * so that the subset feature stays in files of its own.)
 */
#ifndef DUMP_SUBSET_H
#define DUMP_SUBSET_H

#include <stdint.h>
#include <sys/types.h>

#include "dump.h"

/* What the operands name when they are not a whole file system. */
struct dump_subset {
	char *device;			/* device of the mounted file system */
	char *mountpoint;		/* where it is mounted */
	char *filesys;			/* c_filesys: "<mnt> (dir <path>)" */
	dev_t dev;			/* st_dev of the files on it */
	const char **paths;		/* every operand, as given */
	int npaths;
};

/* options.c: the operands after the first (the file system), as given. */
char *const *options_more_operands(int *n);

/* fsopen.c: 1 and *sub filled when o->operand names a subset, else 0. */
int fsopen_subset(const struct dump_opts *o, struct dump_subset *sub);
int fsopen_open_subset(const struct dump_subset *sub, struct dump_fs *dfs);
void fsopen_free_subset(struct dump_subset *sub);

/* subset.c: the inodes a subset dump looks at, each once, in the order
 * pass I visits them (*order malloced); prints 0.4b47's message and
 * returns -1 when an operand cannot be dumped. */
int subset_visit(const struct dump_fs *dfs, const struct dump_subset *sub,
		 ext2_ino_t **order, size_t *n);

/* traverse.c: whether a directory entry is "." or ".." (libext2fs does
 * not flag the ".." it makes up for an inline-data directory). */
int traverse_is_dot(const struct ext2_dir_entry *de);

/* traverse.c: passes I and II over the subset; -1 on a bad operand. */
int traverse_map_subset(const struct dump_opts *o, const struct dump_fs *dfs,
			const struct dump_subset *sub, time_t ddate,
			struct dump_maps *maps);

#endif /* DUMP_SUBSET_H */
