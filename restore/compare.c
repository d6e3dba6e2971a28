/*
 * compare.c - restore -C: compare the archive with the files on disk.
 *
 * Each inode on the archive is looked up under its first name below the
 * comparison directory and checked: type and mode, owner, user-settable
 * attribute flags, then contents (regular files, block by block, holes
 * against zeros, read from disk in large chunks), link text, device
 * number and EAs.  Directories are checked after the files.  Nothing is
 * written.  Messages are 0.4b47's (restore.8, MODES); exit 2 on any difference.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "exitcodes.h"
#include "xalloc.h"

#define CMP_CHUNK (1024 * 1024)
#define COMPARED_FLAGS                                                         \
	(FS_SECRM_FL | FS_UNRM_FL | FS_COMPR_FL | FS_SYNC_FL |                 \
	 FS_IMMUTABLE_FL | FS_APPEND_FL | FS_NODUMP_FL | FS_NOATIME_FL |       \
	 FS_JOURNAL_DATA_FL | FS_NOTAIL_FL | FS_DIRSYNC_FL | FS_TOPDIR_FL |    \
	 FS_PROJINHERIT_FL)

static int cmpfd = -1;
static long ndiffs;
static unsigned long nclashes; /* names the archive contradicts */

static void
count_diff(void)
{
	ndiffs++;
	if (ropt.cmplimit > 0 && ndiffs >= ropt.cmplimit) {
		fflush(stdout);
		tape_drain();
		rfatal(R_COMPARE_DIFF,
		       "Compare errors limit reached, exiting...\n");
	}
}

/* The directory descriptor and name that reach e without a walk from the
 * top (the parent is where the last stat_entry() left the path). */
static int
at_parent(const struct entry *e, const char **name)
{
	struct entry *failed;

	if (e->parent == NULL) {
		*name = ".";
		return cmpfd;
	}
	*name = e->name;
	return dir_get_quiet(e->parent, &failed);
}

struct cmpfile {
	int fd;
	const char *path;
	unsigned char *buf;
	off_t bstart;
	size_t blen;
	off_t off;
	off_t size;
	off_t hole_end; /* the disk file is a hole up to here */
	bool differ;
};

/* The disk bytes at c->off, n of them (from the chunk cache). */
static const unsigned char *
disk_bytes(struct cmpfile *c, size_t n)
{
	if (c->off < c->bstart ||
	    c->off + (off_t)n > c->bstart + (off_t)c->blen) {
		ssize_t r = pread(c->fd, c->buf, CMP_CHUNK, c->off);

		c->bstart = c->off;
		c->blen = r > 0 ? (size_t)r : 0;
		if ((size_t)c->blen < n)
			return NULL;
	}
	return c->buf + (c->off - c->bstart);
}

static void
cmp_data(const unsigned char *blk, size_t n, void *arg)
{
	struct cmpfile *c = arg;
	const unsigned char *d;

	if (!c->differ) {
		d = disk_bytes(c, n);
		if (d == NULL || memcmp(d, blk, n) != 0)
			c->differ = true;
	}
	c->off += (off_t)n;
}

/* A hole of the archive: where the disk file has a hole too (SEEK_DATA
 * finds no data before its end) they are equal without a read, so a
 * sparse file of gigabytes costs one lseek, not gigabytes of zeros. */
static void
cmp_hole(size_t n, void *arg)
{
	static const unsigned char zero[TP_BSIZE];
	struct cmpfile *c = arg;
	off_t end = c->off + (off_t)n;

	if (!c->differ && end > c->hole_end &&
	    (c->off < c->bstart || end > c->bstart + (off_t)c->blen)) {
		off_t d = lseek(c->fd, c->off, SEEK_DATA);

		if (d >= 0)
			c->hole_end = d;
		else if (errno == ENXIO) /* no data up to the end */
			c->hole_end = c->size;
	}
	if (end <= c->hole_end) {
		c->off = end;
		return;
	}
	/* A run of the map may be megabytes long. */
	while (n > 0) {
		size_t k = n < TP_BSIZE ? n : TP_BSIZE;

		cmp_data(zero, k, arg);
		n -= k;
	}
}

static void
compare_regular(const struct entry *e, const char *path, const struct stat *st,
		const struct inoattr *a, const struct inline_body *ib)
{
	struct cmpfile c = {-1, path, NULL, 0, 0, 0, st->st_size, 0, false};
	const char *name;
	int dfd;

	if (a->metaonly) {
		body_skip(ib);
		return;
	}
	if ((uint64_t)st->st_size != a->size) {
		rmsg("%s: size has changed.\n", path);
		count_diff();
		body_skip(ib);
		return;
	}
	dfd = at_parent(e, &name);
	c.fd =
	    dfd < 0 ? -1 : openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (c.fd < 0) {
		warn("unable to open %s", path);
		count_diff();
		body_skip(ib);
		return;
	}
	c.buf = xmalloc(CMP_CHUNK);
	/* Blocks the archive could not give were never compared. */
	if (body_getfile(ib, cmp_data, cmp_hole, &c) > 0) {
		rmsg("%s: blocks missing from the archive, not compared\n",
		     path);
		c.differ = true;
	}
	free(c.buf);
	(void)close(c.fd);
	if (c.differ) {
		rmsg("%s: tape and disk copies are different\n", path);
		count_diff();
	}
}

struct linktext {
	char text[SYMLINK_MAX + 1];
	size_t len;
};

static void
lt_data(const unsigned char *blk, size_t n, void *arg)
{
	struct linktext *l = arg;

	if (l->len + n <= SYMLINK_MAX) {
		memcpy(l->text + l->len, blk, n);
		l->len += n;
	}
}

static void
compare_symlink(const struct entry *e, const char *path, const struct stat *st,
		const struct inline_body *ib)
{
	struct linktext *l = xcalloc(1, sizeof(*l));
	char disk[SYMLINK_MAX + 1];
	const char *name;
	int dfd = at_parent(e, &name);
	ssize_t n;

	(void)body_getfile(ib, lt_data, NULL, l);
	l->text[l->len] = '\0';
	if (!S_ISLNK(st->st_mode)) {
		rmsg("%s: is no longer a symbolic link.\n", path);
		count_diff();
	} else if (dfd < 0 ||
		   (n = readlinkat(dfd, name, disk, SYMLINK_MAX)) < 0) {
		warn("unable to read link %s", path);
		count_diff();
	} else {
		disk[n] = '\0';
		if (strcmp(disk, l->text) != 0) {
			rmsg("%s: symbolic link changed from %s "
			     "to %s.\n",
			     path, l->text, disk);
			count_diff();
		}
	}
	free(l);
}

/* Mode, owner and flags: common to every kind. */
static void
compare_attrs(const struct entry *e, const char *path, const struct stat *st,
	      const struct inoattr *a)
{
	if (st->st_mode != a->mode) {
		bool same = (st->st_mode & S_IFMT) == (a->mode & S_IFMT);

		rmsg("%s: mode changed from 0%o to 0%o.\n", path,
		     same ? a->mode & 07777u : a->mode,
		     same ? st->st_mode & 07777u : st->st_mode);
		count_diff();
	}
	if (st->st_uid != a->uid) {
		rmsg("%s: uid changed from %lu to %lu.\n", path,
		     (unsigned long)a->uid, (unsigned long)st->st_uid);
		count_diff();
	}
	if (st->st_gid != a->gid) {
		rmsg("%s: gid changed from %lu to %lu.\n", path,
		     (unsigned long)a->gid, (unsigned long)st->st_gid);
		count_diff();
	}
	if (S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)) {
		const char *name;
		int dfd = at_parent(e, &name);
		int fd = dfd < 0
		    ? -1
		    : openat(dfd, name,
			     O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		int f = 0;

		if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &f) == 0 &&
		    ((uint32_t)f & COMPARED_FLAGS) !=
			(a->flags & COMPARED_FLAGS)) {
			rmsg("%s: flags changed from 0x%08lx to "
			     "0x%08lx.\n",
			     path, (unsigned long)a->flags,
			     (unsigned long)(uint32_t)f);
			count_diff();
		}
		if (fd >= 0)
			(void)close(fd);
	}
}

static void
compare_eas(const struct entry *e, const struct ealist *ea, const char *path)
{
	struct entry *failed;
	int fd;
	int n;

	if (ea->n == 0 && e->type == E_LEAF)
		return;
	fd = dir_get_quiet(e->parent, &failed);
	if (fd < 0)
		return;
	n = ea_compare(ea, fd_name_path(fd, e->name), path);
	while (n-- > 0)
		count_diff();
}

/*
 * Stat e through its parent's descriptor.  A directory missing on disk
 * is reported once (as "unable to stat" of that directory) and what is
 * below it is skipped without a word: one line per missing subtree, and
 * no path walked from the top for every name.
 */
static bool
stat_entry(struct entry *e, struct stat *st)
{
	struct entry *failed;
	int dfd;

	if (e->parent == NULL) {
		if (fstat(cmpfd, st) == 0)
			return true;
		warn("unable to stat %s", sym_path(e));
		count_diff();
		return false;
	}
	dfd = dir_get_quiet(e->parent, &failed);
	if (dfd < 0) {
		if (failed != NULL) {
			warn("unable to stat %s", sym_path(failed));
			count_diff();
		}
		return false;
	}
	if (fstatat(dfd, e->name, st, AT_SYMLINK_NOFOLLOW) != 0) {
		warn("unable to stat %s", sym_path(e));
		count_diff();
		if (e->type == E_NODE)
			e->flags |= EF_BAD; /* its subtree is skipped */
		return false;
	}
	return true;
}

static void
compare_leaf(struct entry *e, const struct inoattr *a)
{
	char *path;
	struct ealist ea = {0, {NULL, NULL}, {0, 0}, 0};
	struct inline_body ib;
	struct stat st;

	if (!stat_entry(e, &st)) {
		tape_skipfile();
		ea_read_records(a->ino, NULL);
		return;
	}
	(void)inline_read(&ib, a->ino, &ea);
	path = xstrdup(sym_path(e));
	msg_verbose("comparing %s (size: %llu, mode: 0%o)\n", path,
		    (unsigned long long)a->size, a->mode);
	compare_attrs(e, path, &st, a);
	switch (a->mode & S_IFMT) {
	case S_IFREG: compare_regular(e, path, &st, a, &ib); break;
	case S_IFLNK: compare_symlink(e, path, &st, &ib); break;
	case S_IFCHR:
	case S_IFBLK: {
		dev_t dev =
		    a->rdev_old != 0 ? (dev_t)a->rdev_old : (dev_t)a->rdev_new;

		tape_skipfile();
		if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode)) {
			rmsg("%s: no longer a special file\n", path);
			count_diff();
		} else if (st.st_rdev != dev) {
			rmsg("%s: device changed from %u,%u to "
			     "%u,%u.\n",
			     path, major(dev), minor(dev), major(st.st_rdev),
			     minor(st.st_rdev));
			count_diff();
		}
		break;
	}
	default: tape_skipfile();
	}
	ea_read_records(a->ino, &ea);
	compare_eas(e, &ea, path);
	ea_free(&ea);
	inline_free(&ib);
	free(path);
}

/* The first selected name of ino, whatever its kind. */
static struct entry *
selected_name(uint32_t ino)
{
	struct entry *e = sym_lookup_ino(ino);

	while (e != NULL && !(e->flags & EF_SELECTED))
		e = e->links;
	return e;
}

/* A missing directory was reported: nothing below it is looked at. */
static bool
below_bad(const struct entry *e)
{
	for (; e != NULL; e = e->parent)
		if (e->flags & EF_BAD)
			return true;
	return false;
}

/*
 * Directories are first looked up in tree order, so that a missing one
 * is reported once and its subtree skipped; then compared in archive
 * (inode) order, the order of 0.4b47's "comparing directory" lines.
 */
static void
compare_dirs(void)
{
	struct entry *e = sym_root;
	uint32_t ino;

	msg_verbose("Compare directories modes, owner, attributes.\n");
	while (e != NULL) {
		struct stat st;

		if (e->type != E_NODE || e->dir == NULL ||
		    !(e->flags & EF_SELECTED)) {
			e = sym_next(sym_root, e);
			continue;
		}
		if ((e->flags & EF_BAD) || !stat_entry(e, &st)) {
			/* Reported once, above or now: skip the subtree. */
			while (e != sym_root && e->sibling == NULL)
				e = e->parent;
			e = e == sym_root ? NULL : e->sibling;
			continue;
		}
		e = sym_next(sym_root, e);
	}
	for (size_t i = 0; (ino = dirs_nth(i)) != 0; i++) {
		struct stat st;
		char *p;

		e = selected_name(ino);
		if (e == NULL || e->type != E_NODE || e->dir == NULL ||
		    below_bad(e) || !stat_entry(e, &st))
			continue;
		p = xstrdup(sym_path(e));
		msg_verbose("comparing directory %s\n", p);
		compare_attrs(e, p, &st, &e->dir->attr);
		if (e != sym_root)
			compare_eas(e, &e->dir->ea, p);
		free(p);
	}
}

/* The name a non-directory inode is compared under: a leaf.  A name
 * the tree holds as a directory (the root above all, which has no
 * parent to look it up in) names no file to compare with. */
static struct entry *
leaf_name(uint32_t ino)
{
	struct entry *e = selected_name(ino);

	while (e != NULL && !((e->flags & EF_SELECTED) && e->type == E_LEAF))
		e = e->links;
	return e;
}

/* As -r and -x: an inode named as a directory came as something else. */
static void
type_clash(const struct inoattr *a)
{
	struct entry *e = selected_name(a->ino);

	if (e == NULL || e->type != E_NODE || (a->mode & S_IFMT) == S_IFDIR)
		return;
	rmsg("%s: named as a directory but inode %lu on tape has mode 0%o; "
	     "not compared\n",
	     sym_path(e), (unsigned long)a->ino, a->mode);
	nclashes++;
}

static const struct walk_ops compare_walk = {leaf_name, compare_leaf,
					     type_clash};

static void
open_cmpdir(void)
{
	char *dir;

	if (ropt.cmpdir != NULL)
		dir = xstrdup(ropt.cmpdir);
	else {
		char *paren;

		dir = xmalloc(NAMELEN + 1);
		memcpy(dir, tapehdr.s_spcl.c_filesys, NAMELEN);
		dir[NAMELEN] = '\0';
		if ((paren = strstr(dir, " (dir ")) != NULL)
			*paren = '\0';
	}
	printf("filesys = %s\n", dir);
	fflush(stdout);
	cmpfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cmpfd < 0)
		err(R_ERROR, "cannot stat directory %s", dir);
	free(dir);
	target_fd = cmpfd;
}

int
compare_run(char **names, int nnames)
{
	open_cmpdir();
	msg_verbose("Initialize symbol table.\n");
	dirs_read();
	dirs_link_tree();
	sym_debug_level0();
	select_names(names, nnames);
	walk_inodes(&compare_walk);
	ndiffs += ea_late_diffs();
	compare_dirs();
	msg_verbose("Check the symbol table.\n");
	tape_drain();
	if (tape_truncated()) {
		rmsg("Input ended before the end-of-dump record: "
		     "the archive is truncated\n");
		ndiffs++;
	}
	if (ndiffs > 0 || tape_had_error()) {
		printf("Some files were modified!  %ld compare errors\n",
		       ndiffs);
		return R_COMPARE_DIFF;
	}
	/* As -r and -x: entries refused and attributes skipped were not
	 * compared, so the result is incomplete. */
	return dirs_refused() > 0 || ea_skipped() > 0 || nclashes > 0
	    ? R_ERROR
	    : R_SUCCESS;
}
