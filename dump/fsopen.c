/*
 * fsopen.c - turn the FILESYSTEM operand into an open ext2/3/4 file system.
 *
 * The operand is resolved as dump.8 describes it: LABEL=/UUID= through
 * libblkid, then the mount table (/proc/self/mounts, then /etc/fstab)
 * matching mount point or device, also with the name made absolute.
 * Unlike 0.4b47 a regular file holding an ext2/3/4 image is dumped as a
 * file system.  Any other file or directory on a mounted ext2/3/4 file
 * system makes a subset dump (dump.h): the device is the one mounted
 * there and c_filesys reads "<mount point> (dir <path inside>)".  The
 * mount holding a path is the longest mount point that is a prefix of
 * its real path, among all mounts (0.4b47 looks at ext2/3/4 mounts only,
 * and so takes a directory on a tmpfs for one of "/").
 */
#include <errno.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <blkid.h>
#include <et/com_err.h>

#include "dump.h"
#include "mountsync.h"
#include "optr.h"
#include "xalloc.h"

#define MOUNTS_PATH "/proc/self/mounts"
#define FSTAB_PATH  "/etc/fstab"

static const char *const ext_types[] = {"ext2", "ext3", "ext4", NULL};

static int
is_ext_type(const char *t)
{
	size_t i;

	for (i = 0; ext_types[i] != NULL; i++)
		if (strcmp(t, ext_types[i]) == 0)
			return 1;
	return 0;
}

static int
is_tag(const char *s)
{
	return strncmp(s, "LABEL=", 6) == 0 || strncmp(s, "UUID=", 5) == 0;
}

/* LABEL=/UUID= to a device name (malloced), or NULL. */
static char *
resolve_tag(const char *s)
{
	return blkid_evaluate_tag(s, NULL, NULL);
}

/* Whether name equals path, also ignoring a leading '/' of path: how a
 * dump operand or a dumpdates identifier names a mount table entry. */
int
fsopen_same_name(const char *name, const char *path)
{
	if (strcmp(name, path) == 0)
		return 1;
	return path[0] == '/' && strcmp(name, path + 1) == 0;
}

/*
 * Look name up in one mount table; on a match fill device and mount
 * point (malloced) and return 1.
 */
static int
search_table(const char *table, const char *name, char **dev, char **dir)
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
		if (fsopen_same_name(name, m->mnt_dir) ||
		    fsopen_same_name(name, fsname) ||
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

static int
search_mounts(const char *name, char **dev, char **dir)
{
	return search_table(MOUNTS_PATH, name, dev, dir) ||
	    search_table(FSTAB_PATH, name, dev, dir);
}

/*
 * Open the device read-only with libext2fs and check it can be dumped.
 * The open that the dump reads through (flush) first flushes a file
 * system mounted from the device, so that what has been written is on
 * the disk (mountsync.c); a probe does not.
 */
/* Why the last open_fs failed: a libext2fs code, or 0 when it said so
 * itself. */
static errcode_t open_err;

static int
open_fs(const char *device, ext2_filsys *fsp, int quiet_magic, int flush)
{
	errcode_t rc;
	ext2_filsys fs;

	if (flush)
		mountsync_flush(device);
	rc = ext2fs_open2(device, NULL, EXT2_FLAG_64BITS, 0, 0, unix_io_manager,
			  &fs);
	/* From here on a checksum mismatch in an inode, directory or
	 * extent block is reported where it matters, not fatal: the dump
	 * saves what is there. */
	if (rc == 0)
		fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	open_err = rc;
	if (rc != 0) {
		/* 0.4b47's wording, which names the libext2fs error, but
		 * with the prefix log parsers key on (0.4b47 has none). */
		if (!quiet_magic)
			msg("%s: %s while opening filesystem\n", device,
			    error_message(rc));
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

static void
fill_fs(struct dump_fs *dfs, ext2_filsys fs)
{
	dfs->fs = fs;
	dfs->blocksize = fs->blocksize;
	dfs->inode_size = (unsigned)EXT2_INODE_SIZE(fs->super);
	dfs->maxino = fs->super->s_inodes_count + 1;
	memset(dfs->volname, 0, sizeof(dfs->volname));
	memcpy(dfs->volname, fs->super->s_volume_name,
	       sizeof(fs->super->s_volume_name));
}

/* Whether a regular file holds a file system we can dump. */
static int
is_image(const char *name, const struct stat *st)
{
	ext2_filsys fs;

	if (!S_ISREG(st->st_mode) || open_fs(name, &fs, 1, 0) < 0)
		return 0;
	ext2fs_close_free(&fs);
	return 1;
}

/* Whether mount point dir contains path (at a component boundary). */
static size_t
mount_prefix(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/' ? 1 : 0;
	if (strncmp(dir, path, n) != 0 || (path[n] != '/' && path[n] != '\0'))
		return 0;
	return n;
}

/*
 * The mount holding the absolute path: the longest matching mount point,
 * the later of equal ones (it covers the earlier).  Only an ext2/3/4
 * mount counts; fills device and mount point (malloced).
 */
static int
holding_mount(const char *path, char **dev, char **dir)
{
	FILE *f = setmntent(MOUNTS_PATH, "r");
	struct mntent *m;
	size_t best = 0, n;
	int ext = 0;

	*dev = *dir = NULL;
	if (f == NULL)
		return 0;
	while ((m = getmntent(f)) != NULL) {
		n = mount_prefix(m->mnt_dir, path);
		if (n == 0 || n < best)
			continue;
		best = n;
		free(*dev);
		free(*dir);
		*dev = xstrdup(m->mnt_fsname);
		*dir = xstrdup(m->mnt_dir);
		ext = is_ext_type(m->mnt_type);
	}
	endmntent(f);
	if (!ext) {
		free(*dev);
		free(*dir);
		*dev = *dir = NULL;
	}
	return ext;
}

/* The operand as an absolute path without symlinks, or, when it does
 * not exist, made absolute as written (0.4b47 then still takes it for
 * a subset and fails in pass I). */
static char *
absolute_name(const char *name, int exists)
{
	char cwd[PATH_MAX], *abs;
	size_t len;

	if (exists)
		return realpath(name, NULL);
	if (name[0] == '/')
		return xstrdup(name);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return NULL;
	len = strlen(cwd) + 1 + strlen(name) + 1;
	abs = xmalloc(len);
	snprintf(abs, len, "%s/%s", cwd, name);
	return abs;
}

/*
 * Decide whether o->operand names a subset (dump.8, DESCRIPTION): not a
 * file system of the mount tables, not a device, not an image, but a
 * file or directory (existing or not) below the mount point of a
 * mounted ext2/3/4 file system.  Quiet: errors are fsopen_resolve's.
 */
int
fsopen_subset(const struct dump_opts *o, struct dump_subset *sub)
{
	char *dev = NULL, *dir = NULL, *abs;
	struct stat st, mst;
	int exists;
	size_t len;

	memset(sub, 0, sizeof(*sub));
	if (is_tag(o->operand))
		return 0;
	if (search_mounts(o->operand, &dev, &dir)) {
		free(dev);
		free(dir);
		return 0;
	}
	exists = stat(o->operand, &st) == 0;
	if (exists &&
	    (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode) ||
	     is_image(o->operand, &st)))
		return 0;
	/* Only absolute names that do not exist: a relative one may still
	 * be a device name (0.4b47 tries to open it as one). */
	if (!exists && o->operand[0] != '/')
		return 0;
	abs = absolute_name(o->operand, exists);
	if (abs == NULL)
		return 0;
	if (search_mounts(abs, &dev, &dir) || !holding_mount(abs, &dev, &dir) ||
	    stat(dir, &mst) < 0 || (exists && mst.st_dev != st.st_dev)) {
		free(dev);
		free(dir);
		free(abs);
		return 0;
	}
	sub->device = dev;
	sub->mountpoint = dir;
	sub->dev = mst.st_dev;
	/* The path inside is what follows the mount point, so below "/"
	 * it has no leading slash: 0.4b47's text. */
	len = strlen(dir) + strlen(abs) + sizeof(" (dir )");
	sub->filesys = xmalloc(len);
	snprintf(sub->filesys, len, "%s (dir %s)", dir,
		 abs + (strcmp(dir, "/") == 0 ? 1 : strlen(dir)));
	free(abs);
	sub->paths = o->operands;
	sub->npaths = o->noperands;
	return 1;
}

/*
 * The file system holding a subset cannot be opened.  The device alone
 * would name a disk the user never gave (the root disk, for an image
 * that is no ext2/3/4 and so is taken for a file in "/"): name the
 * operand too, in 0.4b47's "Cannot open" shape.
 */
static void
subset_open_failed(const struct dump_subset *sub)
{
	const char *what = sub->paths[0];
	struct stat st;

	if (open_err == 0)
		return; /* open_fs has said why */
	if (stat(what, &st) == 0 && S_ISREG(st.st_mode))
		msg("Cannot open %s, the file system holding %s (which is "
		    "not an ext2/3/4 image): %s\n",
		    sub->device, what, error_message(open_err));
	else
		msg("Cannot open %s, the file system holding %s: %s\n",
		    sub->device, what, error_message(open_err));
}

int
fsopen_open_subset(const struct dump_subset *sub, struct dump_fs *dfs,
		   const struct fsopen_announce *announce)
{
	ext2_filsys fs;

	announce->fn(announce->arg, sub->device, sub->filesys);
	if (open_fs(sub->device, &fs, 1, 1) < 0) {
		subset_open_failed(sub);
		return -1;
	}
	dfs->device = xstrdup(sub->device);
	dfs->filesys = xstrdup(sub->filesys);
	fill_fs(dfs, fs);
	return 0;
}

void
fsopen_free_subset(struct dump_subset *sub)
{
	free(sub->device);
	free(sub->mountpoint);
	free(sub->filesys);
	memset(sub, 0, sizeof(*sub));
}

/*
 * Where a file system operand leads: *name is the operand with a
 * LABEL=/UUID= resolved (malloced; NULL when the tag names no device);
 * 1 when the mount tables list it, with *dev and *dir from their entry
 * (malloced; else NULL).
 */
static int
locate(const char *operand, char **name, char **dev, char **dir)
{
	char abs[PATH_MAX];

	*dev = *dir = NULL;
	*name = is_tag(operand) ? resolve_tag(operand) : xstrdup(operand);
	if (*name == NULL)
		return 0;
	return search_mounts(*name, dev, dir) ||
	    (realpath(*name, abs) != NULL && search_mounts(abs, dev, dir));
}

/* The device o->operand names, malloced (--use-blockdev-for-dumpdates):
 * that of its mount table entry, a LABEL=/UUID= resolved, else the
 * operand itself (an image file, or a name the open will refuse). */
char *
fsopen_device_name(const struct dump_opts *o)
{
	char *name, *dev, *dir;

	if (locate(o->operand, &name, &dev, &dir)) {
		free(name);
		free(dir);
		return dev;
	}
	return name != NULL ? name : xstrdup(o->operand);
}

/*
 * The block device a name of a whole file system leads to now: a
 * device, LABEL=/UUID=, or a mount point or device of the mount tables
 * (as the operand is resolved).  -1 for anything else: a subdirectory,
 * an image file, a name that leads nowhere.  Quiet: used to match
 * dumpdates lines (itime.c), never to report.
 */
int
fsopen_fs_rdev(const char *name, dev_t *rdev)
{
	char *tagdev, *dev, *dir;
	struct stat st;
	int rc = -1;

	if (!locate(name, &tagdev, &dev, &dir)) {
		dev = tagdev;
		tagdev = NULL;
	}
	if (dev != NULL && stat(dev, &st) == 0 && S_ISBLK(st.st_mode)) {
		*rdev = st.st_rdev;
		rc = 0;
	}
	free(tagdev);
	free(dev);
	free(dir);
	return rc;
}

/*
 * Resolve o->operand.  Prints its own message and returns -1 when the
 * operand cannot be dumped.
 */
int
fsopen_resolve(const struct dump_opts *o, struct dump_fs *dfs,
	       const struct fsopen_announce *announce)
{
	char *name, *dev, *dir;
	const char *unlisted =
	    o->filesys_name != NULL ? o->filesys_name : UNLISTED_FS;
	struct stat st;
	ext2_filsys fs;

	if (locate(o->operand, &name, &dev, &dir)) {
		free(name);
		announce->fn(announce->arg, dev, dir);
		if (open_fs(dev, &fs, 0, 1) < 0) {
			free(dev);
			free(dir);
			return -1;
		}
		dfs->device = dev;
		dfs->filesys = dir;
		fill_fs(dfs, fs);
		return 0;
	}
	if (name == NULL) {
		msg("Cannot find a device for %s\n", o->operand);
		return -1;
	}
	if (stat(name, &st) < 0) {
		msg("Cannot stat %s: %s\n", name, strerror(errno));
		free(name);
		return -1;
	}
	/* Files on a mounted ext2/3/4 file system were taken for a subset
	 * (fsopen_subset); what is left is neither. */
	if (S_ISDIR(st.st_mode)) {
		msg("%s is not on a mounted ext2/3/4 file system\n", name);
		free(name);
		return -1;
	}
	/* --filesys-name names only what the tables do not (0.4b56) */
	announce->fn(announce->arg, name, unlisted);
	if (open_fs(name, &fs, S_ISREG(st.st_mode), 1) < 0) {
		if (S_ISREG(st.st_mode))
			msg("%s is neither an ext2/3/4 file system image nor "
			    "on a mounted ext2/3/4 file system\n",
			    name);
		free(name);
		return -1;
	}
	dfs->device = name;
	dfs->filesys = xstrdup(unlisted);
	fill_fs(dfs, fs);
	return 0;
}

void
fsopen_close(struct dump_fs *dfs)
{
	if (dfs->fs != NULL)
		ext2fs_close_free(&dfs->fs);
	free(dfs->device);
	free(dfs->filesys);
	dfs->device = dfs->filesys = NULL;
}
