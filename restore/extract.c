/*
 * extract.c - bring files back for -x and -r.
 *
 * Order: directories first (mode 0700 while we fill them), then every
 * other inode as it comes off the archive under its first selected name,
 * then the extra hard links, then directory owners, modes and times from
 * the deepest up, then attribute flags (immutable last of all), then one
 * syncfs().  Nothing is created except by *at() calls relative to a
 * directory descriptor reached with O_NOFOLLOW (utilities.c), and every
 * leaf is created with O_EXCL/O_NOFOLLOW semantics after removing what
 * was there, so no name from the archive can write through a symbolic
 * link.  File data goes through filewrite.c (large writes, holes kept);
 * a final ftruncate sets the size of a file that ends in a hole.
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
#include "filepool.h"
#include "filewrite.h"
#include "xalloc.h"
#include "xio.h"

/* Attribute flags a user can set with chattr; others (extents, inline
 * data, huge file, ...) describe the on-disk layout and are left alone. */
#define SETTABLE_FLAGS                                                         \
	(FS_SECRM_FL | FS_UNRM_FL | FS_COMPR_FL | FS_SYNC_FL |                 \
	 FS_IMMUTABLE_FL | FS_APPEND_FL | FS_NODUMP_FL | FS_NOATIME_FL |       \
	 FS_JOURNAL_DATA_FL | FS_NOTAIL_FL | FS_DIRSYNC_FL | FS_TOPDIR_FL |    \
	 FS_NOCOW_FL | FS_PROJINHERIT_FL)

struct pending_flags {
	struct entry *e;
	uint32_t flags;
};

static struct pending_flags *pflags;
static size_t npflags, pflags_cap;
static int errors;

int
extract_errors(void)
{
	return errors + pool_errors();
}

/* Mark e (and, unless -h, everything below it) for extraction. */
void
select_tree(struct entry *e)
{
	e->flags |= EF_SELECTED;
	if (ropt.hflag)
		return;
	for (struct entry *x = e; x != NULL; x = sym_next(e, x))
		x->flags |= EF_SELECTED;
}

/* Mark the named files (all when there are none) for extraction; names
 * not in the archive are reported, as 0.4b47, without failing. */
void
select_names(char **names, int nnames)
{
	if (nnames == 0) {
		select_tree(sym_root);
		return;
	}
	for (int i = 0; i < nnames; i++) {
		struct entry *e = sym_lookup_path(names[i]);

		if (e == NULL)
			sym_not_on_tape(names[i]);
		else
			select_tree(e);
	}
}

/* Mark EF_WANTED every selected entry and every directory on the way to
 * one: each entry's ancestors are climbed only up to the first already
 * marked, so the whole tree costs one pass. */
static void
mark_wanted(void)
{
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		e->flags &= (uint16_t)~EF_WANTED;
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e)) {
		if (!(e->flags & EF_SELECTED))
			continue;
		for (struct entry *x = e; x != NULL && !(x->flags & EF_WANTED);
		     x = x->parent)
			x->flags |= EF_WANTED;
	}
}

/*
 * A level-0 archive leaves out inodes on purpose (subset dumps, -e,
 * nodump): TS_BITS does not list them.  Their names are reported, as
 * 0.4b47 does, but nothing is made for them and it is not an error.
 */
static bool
left_out(const struct entry *e)
{
	return dumpprev == 0 && !map_test(dumpmap, dumpmap_len, e->ino);
}

static void
report_absent(const struct entry *e)
{
	rmsg("%s: (inode %lu) not found on tape\n", sym_path(e),
	     (unsigned long)e->ino);
}

/* Create the selected directories and those on the way to selections. */
void
extract_make_dirs(void)
{
	struct entry *e = sym_root;

	if (ropt.mflag)
		return;
	mark_wanted();
	while (e != NULL) {
		int pfd;
		bool wanted = (e->flags & EF_WANTED) != 0;

		if (e != sym_root && e->type == E_NODE && e->dir == NULL &&
		    left_out(e) && wanted)
			report_absent(e);
		if (e->type != E_NODE || !wanted ||
		    (e != sym_root && e->dir == NULL && left_out(e))) {
			/* Skip this subtree entirely. */
			while (e != sym_root && e->sibling == NULL)
				e = e->parent;
			e = e == sym_root ? NULL : e->sibling;
			continue;
		}
		if (e == sym_root) {
			e->flags |= EF_EXISTED;
			e = sym_next(sym_root, e);
			continue;
		}
		if (ropt.verbose)
			msg_verbose("Make node %s\n", sym_path(e));
		pfd = ropt.Nflag ? 0 : dir_get(e->parent);
		if (pfd < 0)
			e->flags |= EF_BAD;
		else if (ropt.Nflag)
			e->flags |= EF_CREATED;
		else if (mkdirat(pfd, e->name, 0700) == 0)
			e->flags |= EF_CREATED;
		else if (errno == EEXIST) {
			struct stat st;

			if (fstatat(pfd, e->name, &st, AT_SYMLINK_NOFOLLOW) ==
				0 &&
			    S_ISDIR(st.st_mode))
				e->flags |= EF_EXISTED;
			else {
				warnx("%s: exists and is not a directory, "
				      "not replacing it",
				      sym_path(e));
				e->flags |= EF_BAD;
				errors++;
			}
		} else {
			warn("%s: cannot make directory", sym_path(e));
			e->flags |= EF_BAD;
			errors++;
		}
		e = sym_next(sym_root, e);
	}
}

/* Remove whatever name is there, so the create cannot follow it. */
static bool
clear_name(int dfd, const char *name, const char *path)
{
	if (fw_clear(dfd, name, path))
		return true;
	errors++;
	return false;
}

static int
restore_regular(int dfd, const char *name, const char *path,
		const struct inoattr *a, const struct inline_body *ib)
{
	struct file_writer w;
	uint64_t missing;
	int fd;
	bool ok;

	msg_verbose("extract file %s\n", path);
	if (ropt.Nflag) {
		body_skip(ib);
		return -1;
	}
	if (a->metaonly) {
		body_skip(ib);
		msg_verbose("file %s is metadata only\n", path);
		return openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	fd = fw_create(dfd, name, path);
	if (fd < 0) {
		errors++;
		body_skip(ib);
		return -1;
	}
	fw_begin(&w, fd, path);
	missing = body_getfile(ib, fw_data, fw_hole, &w);
	ok = fw_end(&w);
	if (!ok)
		errors++;
	if (missing > 0) {
		rmsg("Missing blocks at the end of %s, assuming "
		     "hole\n",
		     path);
		errors++;
	}
	/* Only a file ending in a hole needs its size set. */
	if (ok && w.end != (off_t)a->size &&
	    ftruncate(fd, (off_t)a->size) != 0) {
		warn("%s: cannot set the size", path);
		errors++;
	}
	return fd;
}

struct linkbuf {
	char text[SYMLINK_MAX + 1];
	size_t len;
	bool hole, toolong;
};

static void
link_data(const unsigned char *blk, size_t n, void *arg)
{
	struct linkbuf *l = arg;

	if (l->len + n > SYMLINK_MAX) {
		l->toolong = true;
		return;
	}
	memcpy(l->text + l->len, blk, n);
	l->len += n;
}

static void
link_hole(size_t n, void *arg)
{
	struct linkbuf *l = arg;

	(void)n;
	l->hole = true;
}

/*
 * A target with a NUL inside (an encrypted link's ciphertext, after its
 * two length bytes) is cut there, as 0.4b47 cuts it; say so on one line,
 * path and target escaped (they may hold any byte).
 */
static void
nul_in_target(const char *path, uint32_t ino, const char *text, size_t len)
{
	report_name(path, strlen(path), stderr);
	fprintf(stderr,
		": symbolic link target (inode %lu) holds a NUL "
		"byte, cut there: \"",
		(unsigned long)ino);
	report_name(text, len, stderr);
	fputs("\" kept as \"", stderr);
	report_name(text, strlen(text), stderr);
	fputs("\"\n", stderr);
	errors++;
}

static bool
restore_symlink(int dfd, const char *name, const char *path,
		const struct inoattr *a, const struct inline_body *ib)
{
	struct linkbuf *l = xcalloc(1, sizeof(*l));
	bool ok = false;
	uint64_t size = a->size;

	(void)body_getfile(ib, link_data, link_hole, l);
	l->text[l->len] = '\0';
	if (size > SYMLINK_MAX)
		rmsg("%s: symbolic link target of %llu bytes is "
		     "too long (ignored)\n",
		     path, (unsigned long long)size);
	else if (l->hole)
		warnx("%s: unallocated block in symbolic link", path);
	else if (l->toolong)
		warnx("%s: symbolic link target too long", path);
	else if (l->len == 0)
		rmsg("%s: zero length symbolic link (ignored)\n", path);
	else if (l->text[0] == '\0') {
		report_name(path, strlen(path), stderr);
		rmsg(": symbolic link target (inode %lu) starts "
		     "with a NUL byte (ignored)\n",
		     (unsigned long)a->ino);
		errors++;
	} else if (l->len < size)
		rmsg("%s: symbolic link target is %zu of its %llu "
		     "bytes (ignored)\n",
		     path, l->len, (unsigned long long)size);
	else {
		if (strlen(l->text) != l->len)
			nul_in_target(path, a->ino, l->text, l->len);
		msg_verbose("Create symbolic link %s->%s\n", path, l->text);
		if (ropt.Nflag)
			ok = false;
		else if (!clear_name(dfd, name, path))
			ok = false;
		else if (symlinkat(l->text, dfd, name) != 0) {
			warn("%s: cannot create symbolic link", path);
			errors++;
		} else
			ok = true;
	}
	free(l);
	return ok;
}

static bool
restore_special(int dfd, const char *name, const char *path,
		const struct inoattr *a)
{
	mode_t type = a->mode & S_IFMT;
	dev_t dev = 0;
	int r;

	tape_skipfile();
	if (type == S_IFCHR || type == S_IFBLK) {
		msg_verbose("extract special file %s\n", path);
		/* Old 16-bit encoding in di_db[0]; 0 there means the ext4
		 * new encoding in di_db[1], which glibc's dev_t reads as
		 * is (doc/format.md 3.2). */
		dev =
		    a->rdev_old != 0 ? (dev_t)a->rdev_old : (dev_t)a->rdev_new;
	} else if (type == S_IFIFO)
		msg_verbose("extract fifo %s\n", path);
	else
		msg_verbose("extract socket %s\n", path);
	if (ropt.Nflag || !clear_name(dfd, name, path))
		return false;
	if (type == S_IFIFO)
		r = mkfifoat(dfd, name, 0600);
	else
		r = mknodat(dfd, name, type | 0600, dev);
	if (r != 0) {
		warn("%s: cannot create", path);
		errors++;
		return false;
	}
	return true;
}

static void
defer_flags(struct entry *e, uint32_t flags)
{
	if ((flags & SETTABLE_FLAGS) == 0)
		return;
	if (npflags == pflags_cap) {
		pflags_cap = pflags_cap ? pflags_cap * 2 : 64;
		pflags = xreallocarray(pflags, pflags_cap, sizeof(*pflags));
	}
	pflags[npflags].e = e;
	pflags[npflags].flags = flags;
	npflags++;
}

/* The first selected name of ino whose directory is usable. */
static struct entry *
primary_name(uint32_t ino)
{
	for (struct entry *e = sym_lookup_ino(ino); e != NULL; e = e->links)
		if ((e->flags & EF_SELECTED) && e->type == E_LEAF &&
		    !(e->parent->flags & EF_BAD))
			return e;
	return NULL;
}

/* Whether e's file is made by a worker (filepool.c): a small regular
 * file written for real, whose attribute flags need no later pass. */
static bool
poolable(const struct inoattr *a)
{
	return (a->mode & S_IFMT) == S_IFREG && !ropt.Nflag && !ropt.mflag &&
	    !a->metaonly && a->size <= POOL_FILE_MAX &&
	    (a->flags & SETTABLE_FLAGS) == 0;
}

/* A small regular file: its data gathered, then handed to the pool,
 * which makes it with its EAs (read here, after the data). */
static void
restore_pooled(struct entry *e, const struct inoattr *a, int dfd,
	       const char *path, const struct inline_body *ib,
	       struct ealist *ea)
{
	struct pool_file *f = pool_file_new(e->parent, dfd, e->name, path, a);

	msg_verbose("extract file %s\n", path);
	if (body_getfile(ib, pool_data, pool_hole, f) > 0) {
		rmsg("Missing blocks at the end of %s, assuming hole\n", path);
		errors++;
	}
	ea_read_records(a->ino, ea);
	e->flags |= EF_DONE;
	pool_make(f, ea, !dir_inherits_acl(e->parent, dfd));
}

static void
restore_leaf(struct entry *e, const struct inoattr *a)
{
	char numname[16];
	const char *name = e->name, *path;
	char *pathcopy;
	struct ealist ea = {0, {NULL, NULL}, {0, 0}, 0};
	struct inline_body ib;
	int dfd, fd = -1;
	bool made = false;
	mode_t type = a->mode & S_IFMT;

	if (ropt.mflag) {
		snprintf(numname, sizeof(numname), "%lu",
			 (unsigned long)a->ino);
		name = numname;
		dfd = target_fd;
		pathcopy = xmalloc(strlen(numname) + 3);
		sprintf(pathcopy, "./%s", numname);
	} else {
		pathcopy = xstrdup(sym_path(e));
		dfd = ropt.Nflag ? -1 : dir_get(e->parent);
		if (dfd < 0 && !ropt.Nflag) {
			tape_skipfile();
			ea_read_records(a->ino, NULL);
			errors++;
			free(pathcopy);
			return;
		}
	}
	path = pathcopy;
	/* The same name again (a damaged archive): the first file is made
	 * before the second, as in one thread. */
	if (e->flags & EF_DONE)
		pool_drain();
	(void)inline_read(&ib, a->ino, &ea);
	if (e->flags & EF_NOTDIR)
		rmsg("%s: inode %lu on tape has mode 0%o; restored as that\n",
		     path, (unsigned long)a->ino, a->mode);
	if (poolable(a)) {
		restore_pooled(e, a, dfd, path, &ib, &ea);
		goto done;
	}
	if (type == S_IFREG) {
		fd = restore_regular(dfd, name, path, a, &ib);
		made = fd >= 0;
	} else if (type == S_IFLNK)
		made = restore_symlink(dfd, name, path, a, &ib);
	else if (type == S_IFCHR || type == S_IFBLK || type == S_IFIFO ||
		 type == S_IFSOCK)
		made = restore_special(dfd, name, path, a);
	else {
		warnx("%s: unknown file mode 0%o, skipped", path, a->mode);
		tape_skipfile();
	}
	ea_read_records(a->ino, &ea);
	e->flags |= EF_DONE;
	if (made) {
		set_attrs(
		    dfd, name, fd, a, &ea, path,
		    !a->metaonly && /* -m: an existing file */
			!dir_inherits_acl(ropt.mflag ? NULL : e->parent, dfd));
		if (type == S_IFREG)
			defer_flags(e, a->flags);
	}
	if (fd >= 0 && close(fd) != 0) {
		warn("%s: close", path);
		errors++;
	}
done:
	ea_free(&ea);
	inline_free(&ib);
	free(pathcopy);
}

/* A directory this run made for e, which is to hold nothing: removed,
 * so that nothing said not restored is left behind (an empty directory
 * of mode 0700). */
static void
unmake_dir(struct entry *e)
{
	int dfd;

	if (!(e->flags & EF_CREATED) || ropt.Nflag || e->parent == NULL)
		return;
	dfd = dir_get(e->parent);
	if (dfd >= 0 && unlinkat(dfd, e->name, AT_REMOVEDIR) != 0)
		warn("%s: cannot remove", sym_path(e));
	e->flags &= (uint16_t)~EF_CREATED;
	e->flags |= EF_BAD;
}

/* An inode the tree names as a directory came as something else, or an
 * inode no name reaches from the root (its directory is lost or
 * damaged) came while everything is extracted: say so rather than drop
 * it silently. */
static void
check_type_clash(const struct inoattr *a)
{
	struct entry *e = sym_lookup_ino(a->ino);

	/* Without a root directory, that was said once for all. */
	if (e == NULL && (a->mode & S_IFMT) != S_IFDIR && !ropt.mflag &&
	    (sym_root->flags & EF_SELECTED) && dirs_is_dir(ROOTINO)) {
		/* Said, but no error of this run: every archive of a
		 * file system with a 255-byte name that 0.4b47 wrote has
		 * one (its dump drops that name), and 0.4b47's restore
		 * reads it with status 0 (doc/upstream.md). */
		rmsg("Inode %lu (mode 0%o) has no name reached from the "
		     "root: not restored\n",
		     (unsigned long)a->ino, a->mode);
		return;
	}
	for (; e != NULL; e = e->links)
		if (e->type == E_NODE && (e->flags & EF_SELECTED)) {
			rmsg("%s: named as a directory but inode "
			     "%lu on tape has mode 0%o; not restored\n",
			     sym_path(e), (unsigned long)a->ino, a->mode);
			pool_drain(); /* files made in it before it goes */
			unmake_dir(e);
			errors++;
			return;
		}
}

/* Pass IV: every non-directory inode, in archive order. */
void
extract_files(void)
{
	static const struct walk_ops extract_walk = {primary_name, restore_leaf,
						     check_type_clash};

	walk_inodes(&extract_walk);
	pool_drain();
}

/* The name of e's inode that was restored, or NULL.  The last answer is
 * kept: the names of one inode mostly come together, and scanning the
 * chain again for each of them would cost its length squared. */
static struct entry *
link_source(const struct entry *e)
{
	static struct entry *last;
	struct entry *p;

	if (last != NULL && last->ino == e->ino && (last->flags & EF_DONE))
		return last;
	for (p = sym_lookup_ino(e->ino); p != NULL; p = p->links)
		if ((p->flags & EF_DONE) && p != e)
			break;
	last = p;
	return p;
}

/* Make the hard link e to p.  After the file system's link limit, the
 * further names of that inode are skipped, with one message. */
static void
make_link(struct entry *e, struct entry *p, const char *from, int *pfdp,
	  struct entry **pdirp)
{
	int dfd;

	if (p->flags & EF_LINKMAX)
		return;
	if (*pdirp != p->parent) {
		if (*pfdp >= 0)
			(void)close(*pfdp);
		*pdirp = p->parent;
		*pfdp = dir_open_new(p->parent);
	}
	dfd = *pfdp < 0 ? -1 : dir_get(e->parent);
	if (*pfdp < 0 || dfd < 0 || !clear_name(dfd, e->name, from)) {
		errors++;
		return;
	}
	if (linkat(*pfdp, p->name, dfd, e->name, 0) == 0)
		return;
	if (errno == EMLINK) {
		warn("%s: cannot link to %s; the further names of inode %lu "
		     "are not made",
		     sym_path(e), from, (unsigned long)e->ino);
		p->flags |= EF_LINKMAX;
	} else
		warn("%s: cannot link to %s", sym_path(e), from);
	errors++;
}

/* Extra names of extracted inodes, and names whose inode never came. */
void
extract_links(void)
{
	struct entry *pdir = NULL;
	int pfd = -1;

	msg_verbose("Add links\n");
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e)) {
		struct entry *p;
		char *from;

		if (e->type != E_LEAF || !(e->flags & EF_SELECTED) ||
		    (e->flags & EF_DONE) || (e->parent->flags & EF_BAD))
			continue;
		p = link_source(e);
		if (p == NULL) {
			if (e->flags & EF_NOTDIR)
				; /* reported with the directories */
			else if (left_out(e))
				report_absent(e);
			else if (map_test(dumpmap, dumpmap_len, e->ino)) {
				report_absent(e);
				errors++;
			}
			continue;
		}
		if (ropt.mflag)
			continue;
		e->flags |= EF_DONE;
		if (p->flags & EF_LINKMAX)
			continue;
		from = xstrdup(sym_path(p));
		if (ropt.verbose)
			msg_verbose("Create hard link %s->%s\n", sym_path(e),
				    from);
		if (!ropt.Nflag)
			make_link(e, p, from, &pfd, &pdir);
		free(from);
	}
	if (pfd >= 0)
		(void)close(pfd);
}

static void
set_one_dir(struct entry *e)
{
	int fd;

	if (e->dir == NULL || (e->flags & EF_BAD))
		return;
	fd = dir_open_new(e);
	if (fd < 0) {
		warn("%s: cannot open to set its modes", sym_path(e));
		return;
	}
	set_attrs(-1, NULL, fd, &e->dir->attr, &e->dir->ea, sym_path(e), false);
	e->flags &= (uint16_t)~EF_ACLKNOWN; /* its default ACL was set */
	(void)close(fd);
	defer_flags(e, e->dir->attr.flags);
}

/* Owners, modes and times of the directories, deepest first, so setting
 * one never disturbs another's time.  Every directory of the archive this
 * run made or found on the way to a selected name gets its archived
 * attributes: a level 1 -x over a level 0 one ends with the level 1
 * times, whatever its files did to them (0.4b47 leaves the ones that
 * were already there with the time of the restore).  root: also the
 * target itself. */
void
extract_dirmodes(bool root)
{
	struct entry **list = NULL;
	size_t n = 0, cap = 0;

	msg_verbose("Set directory mode, owner, and times.\n");
	if (ropt.Nflag || ropt.mflag)
		return;
	dir_cache_drop();
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e)) {
		if (e->type != E_NODE)
			continue;
		if (e == sym_root ? !root
				  : !(e->flags & (EF_CREATED | EF_EXISTED)))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			list = xreallocarray(list, cap, sizeof(*list));
		}
		list[n++] = e;
	}
	while (n > 0)
		set_one_dir(list[--n]);
	free(list);
}

/* Flags last: immutable or append-only files refuse everything else. */
void
extract_flags(void)
{
	for (size_t i = 0; i < npflags; i++) {
		struct entry *e = pflags[i].e;
		int fd, cur = 0, want;

		fd = e->type == E_NODE ? dir_open_new(e) : -1;
		if (e->type != E_NODE) {
			int dfd = ropt.mflag ? target_fd : dir_get(e->parent);
			char num[16];
			const char *name = e->name;

			if (ropt.mflag) {
				snprintf(num, sizeof(num), "%lu",
					 (unsigned long)e->ino);
				name = num;
			}
			if (dfd >= 0)
				fd = openat(dfd, name,
					    O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
						O_CLOEXEC);
		}
		if (fd < 0)
			continue;
		if (ioctl(fd, FS_IOC_GETFLAGS, &cur) == 0) {
			want = (int)(((uint32_t)cur & ~SETTABLE_FLAGS) |
				     (pflags[i].flags & SETTABLE_FLAGS));
			if (want != cur &&
			    ioctl(fd, FS_IOC_SETFLAGS, &want) != 0)
				warn("%s: cannot set flags", sym_path(e));
		}
		(void)close(fd);
	}
	free(pflags);
	pflags = NULL;
	npflags = 0;
}

/* One flush of everything written, before success is reported. */
void
extract_sync(void)
{
	if (ropt.Nflag)
		return;
	dir_cache_drop();
#ifdef HAVE_SYNCFS
	if (syncfs(target_fd) != 0) {
		warn("syncfs");
		errors++;
	}
#else
	sync();
#endif
}
