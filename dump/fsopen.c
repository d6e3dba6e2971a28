/*
 * fsopen.c - turn the FILESYSTEM operand into an open ext2/3/4 file system.
 *
 * The operand is resolved as cli.md 1.3 describes: LABEL=/UUID= through
 * libblkid, then the mount table (/proc/self/mounts, then /etc/fstab)
 * matching mount point or device, also with the name made absolute.
 * Unlike 0.4b47 a regular file holding an ext2/3/4 image is dumped as a
 * file system; any other file or directory would be a subtree dump,
 * which is refused for now.  The result names the device the slaves
 * read, and the c_filesys text.
 */
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <blkid.h>
#include <et/com_err.h>

#include "dump.h"
#include "optr.h"
#include "xalloc.h"

#define MOUNTS_PATH	"/proc/self/mounts"
#define FSTAB_PATH	"/etc/fstab"

static const char *const ext_types[] = { "ext2", "ext3", "ext4", NULL };

static int is_ext_type(const char *t)
{
	size_t i;

	for (i = 0; ext_types[i] != NULL; i++)
		if (strcmp(t, ext_types[i]) == 0)
			return 1;
	return 0;
}

static int is_tag(const char *s)
{
	return strncmp(s, "LABEL=", 6) == 0 || strncmp(s, "UUID=", 5) == 0;
}

/* LABEL=/UUID= to a device name (malloced), or NULL. */
static char *resolve_tag(const char *s)
{
	return blkid_evaluate_tag(s, NULL, NULL);
}

/* Whether name equals path, also ignoring a leading '/' of path. */
static int same_name(const char *name, const char *path)
{
	if (strcmp(name, path) == 0)
		return 1;
	return path[0] == '/' && strcmp(name, path + 1) == 0;
}

/*
 * Look name up in one mount table; on a match fill device and mount
 * point (malloced) and return 1.
 */
static int search_table(const char *table, const char *name, char **dev,
			char **dir)
{
	FILE *f;
	struct mntent *m;
	int found = 0;

	f = setmntent(table, "r");
	if (f == NULL)
		return 0;
	while (!found && (m = getmntent(f)) != NULL) {
		char *fsname;

		if (!is_ext_type(m->mnt_type))
			continue;
		fsname = is_tag(m->mnt_fsname) ? resolve_tag(m->mnt_fsname)
					       : xstrdup(m->mnt_fsname);
		if (fsname == NULL)
			continue;
		if (same_name(name, m->mnt_dir) || same_name(name, fsname) ||
		    strcmp(name, m->mnt_fsname) == 0) {
			*dev = fsname;
			*dir = xstrdup(m->mnt_dir);
			found = 1;
		} else {
			free(fsname);
		}
	}
	endmntent(f);
	return found;
}

static int search_mounts(const char *name, char **dev, char **dir)
{
	return search_table(MOUNTS_PATH, name, dev, dir) ||
	       search_table(FSTAB_PATH, name, dev, dir);
}

/* Open the device read-only with libext2fs and check it can be dumped. */
static int open_fs(const char *device, ext2_filsys *fsp, int quiet_magic)
{
	errcode_t rc;
	ext2_filsys fs;

	rc = ext2fs_open2(device, NULL, EXT2_FLAG_64BITS, 0, 0,
			  unix_io_manager, &fs);
	/* From here on a checksum mismatch in an inode, directory or
	 * extent block is reported where it matters, not fatal: the dump
	 * saves what is there. */
	if (rc == 0)
		fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	if (rc != 0) {
		/* 0.4b47's wording, which names the libext2fs error. */
		if (!quiet_magic)
			fprintf(stderr, "%s: %s while opening filesystem\n",
				device, error_message(rc));
		return -1;
	}
	if (ext2fs_has_feature_journal_dev(fs->super)) {
		msg("This is a journal, not a filesystem!\n");
		ext2fs_close_free(&fs);
		return -1;
	}
	*fsp = fs;
	return 0;
}

static void fill_fs(struct dump_fs *dfs, ext2_filsys fs)
{
	dfs->fs = fs;
	dfs->blocksize = fs->blocksize;
	dfs->inode_size = (unsigned)EXT2_INODE_SIZE(fs->super);
	dfs->maxino = fs->super->s_inodes_count + 1;
	memset(dfs->volname, 0, sizeof(dfs->volname));
	memcpy(dfs->volname, fs->super->s_volume_name,
	       sizeof(fs->super->s_volume_name));
}

/*
 * Resolve o->operand.  Prints its own message and returns -1 when the
 * operand cannot be dumped.
 */
int fsopen_resolve(const struct dump_opts *o, struct dump_fs *dfs)
{
	char *name, *dev = NULL, *dir = NULL;
	char abs[PATH_MAX];
	struct stat st;
	ext2_filsys fs;

	name = xstrdup(o->operand);
	if (is_tag(name)) {
		char *d = resolve_tag(name);

		if (d == NULL) {
			msg("Cannot find a device for %s\n", name);
			free(name);
			return -1;
		}
		free(name);
		name = d;
	}
	if (search_mounts(name, &dev, &dir) ||
	    (realpath(name, abs) != NULL && search_mounts(abs, &dev, &dir))) {
		free(name);
		if (open_fs(dev, &fs, 0) < 0)
			return -1;
		dfs->device = dev;
		dfs->filesys = dir;
		fill_fs(dfs, fs);
		return 0;
	}
	if (stat(name, &st) < 0) {
		msg("Cannot stat %s: %s\n", name, strerror(errno));
		free(name);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		msg("%s is not a mounted ext2/3/4 file system: "
		    "subtree dumps are not supported yet\n", name);
		free(name);
		return -1;
	}
	if (open_fs(name, &fs, S_ISREG(st.st_mode)) < 0) {
		if (S_ISREG(st.st_mode))
			msg("%s is not an ext2/3/4 file system image: "
			    "subtree dumps are not supported yet\n", name);
		free(name);
		return -1;
	}
	dfs->device = name;
	dfs->filesys = xstrdup(UNLISTED_FS);
	fill_fs(dfs, fs);
	return 0;
}

void fsopen_close(struct dump_fs *dfs)
{
	if (dfs->fs != NULL)
		ext2fs_close_free(&dfs->fs);
	free(dfs->device);
	free(dfs->filesys);
	dfs->device = dfs->filesys = NULL;
}
