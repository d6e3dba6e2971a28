/*
 * incremental.c - restore -r of an incremental archive (c_ddate != 0).
 *
 * The previous run's ./restoresymtable (symtab.c's text format, read by
 * symfile.c) gives the old tree of names; the archive gives the dumped
 * directories.  The new tree is the archive's tree with every directory
 * that is not on the archive grafted from the old tree (dump puts every
 * directory leading to a changed inode on the archive, so such a
 * directory's whole subtree is unchanged).  The disk is then brought from
 * the old tree to the new one in three steps, every step through
 * directory descriptors reached with O_NOFOLLOW, so no name (old or new)
 * is ever followed as a symbolic link:
 *   1. the old tree is taken apart into a holding directory RSTTMP.<pid>
 *      in the target: unchanged files kept as "<ino>", directories that
 *      survive as "d<ino>" (unchanged subtrees move as one piece), every
 *      other name removed (deleted and changed inodes);
 *   2. the new tree is put together: directories moved back or made,
 *      unchanged files moved back under their (possibly new) first name;
 *   3. a checkpoint of the new tree is written (restore -R finishes
 *      from it, resume.c), changed and new inodes come off the archive
 *      (extract.c), the other hard links are made, the holding directory
 *      is removed, the table rewritten and the directory modes set.
 * Taking apart and putting together costs one rename per changed
 * directory's entry, but handles renames, hard-link changes and type
 * changes (a directory replaced by a file and back) with no special case.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "exitcodes.h"
#include "symfile.h"
#include "xalloc.h"

/* "d" + a 32-bit inode number in decimal + NUL. */
#define HOLD_NAMELEN 16

/* The previous run's tree (symfile.h), in the table's depth-first order. */
static struct symfile tbl;
static struct oent *old;
static size_t nold;
static int holdfd = -1;
static char holdname[HOLD_NAME_MAX];
static int nerrors;

static int
cmp_old_ino(const void *a, const void *b)
{
	uint32_t x = old[*(const long *)a].ino, y = old[*(const long *)b].ino;

	return x < y ? -1 : x > y;
}

/* The old directory with inode ino, or -1. */
static long
old_dir(uint32_t ino)
{
	static long *byino;
	static size_t nbyino;
	size_t lo = 0, hi;

	if (byino == NULL) {
		byino = xreallocarray(NULL, nold, sizeof(*byino));
		for (size_t i = 0; i < nold; i++)
			if (old[i].dir)
				byino[nbyino++] = (long)i;
		qsort(byino, nbyino, sizeof(*byino), cmp_old_ino);
	}
	hi = nbyino;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (old[byino[mid]].ino == ino)
			return byino[mid];
		if (old[byino[mid]].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static bool
on_tape(uint32_t ino)
{
	return map_test(dumpmap, dumpmap_len, ino);
}

/* Copy the old children of directory od below new entry parent. */
static void
graft(struct entry *parent, long od, unsigned char *seen)
{
	for (long c = old[od].child; c >= 0; c = old[c].sibling) {
		struct oent *o = &old[c];
		struct entry *e = sym_add(parent, o->name, strlen(o->name),
					  o->ino, o->dir ? E_NODE : E_LEAF);

		if (e == NULL || !o->dir)
			continue;
		if (seen[c / 8] & (1u << (c % 8)))
			continue;
		seen[c / 8] |= (unsigned char)(1u << (c % 8));
		graft(e, c, seen);
	}
}

/* The new tree: the archive's, with directories not on it taken from the
 * old tree. */
static void
build_new_tree(void)
{
	unsigned char *seen = xcalloc(nold / 8 + 1, 1);

	dirs_build_tree();
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e)) {
		long od;

		if (e->dir != NULL || on_tape(e->ino) ||
		    (od = old_dir(e->ino)) < 0)
			continue;
		/* A directory of the old tree, not on this archive (the
		 * dumped entry may not have said it is a directory). */
		e->type = E_NODE;
		if (e->child == NULL && !(seen[od / 8] & (1u << (od % 8)))) {
			seen[od / 8] |= (unsigned char)(1u << (od % 8));
			graft(e, od, seen);
		}
	}
	free(seen);
	sym_relink();
}

static const char *
hold_name(uint32_t ino, bool dir)
{
	static char buf[HOLD_NAMELEN];

	snprintf(buf, sizeof(buf), "%s%lu", dir ? "d" : "", (unsigned long)ino);
	return buf;
}

/* True if the new tree has inode ino as a directory (dir) or a file. */
static bool
in_new_tree(uint32_t ino, bool dir)
{
	struct entry *e = sym_lookup_ino(ino);

	return e != NULL && (e->type == E_NODE) == dir;
}

static void
remove_name(int dfd, const char *name, const char *path, int flags)
{
	if (unlinkat(dfd, name, flags) != 0 && errno != ENOENT) {
		warn("%s: cannot remove", path);
		nerrors++;
	}
}

static void
hold(int dfd, const char *name, const char *path, uint32_t ino, bool dir)
{
	const char *hn = hold_name(ino, dir);
	struct stat st;

	/* A second name of a kept file: one copy is enough. */
	if (!dir && fstatat(holdfd, hn, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		remove_name(dfd, name, path, 0);
		return;
	}
	if (renameat(dfd, name, holdfd, hn) != 0 && errno != ENOENT) {
		warn("%s: cannot move aside", path);
		nerrors++;
	}
}

/* Step 1: take apart the old directory od, whose descriptor is dfd. */
static void
take_apart(int dfd, long od, const char *dpath)
{
	for (long c = old[od].child; c >= 0; c = old[c].sibling) {
		struct oent *o = &old[c];
		char *path = xmalloc(strlen(dpath) + strlen(o->name) + 2);
		int fd;

		sprintf(path, "%s/%s", dpath, o->name);
		if (!o->dir) {
			if (!on_tape(o->ino) && in_new_tree(o->ino, false))
				hold(dfd, o->name, path, o->ino, false);
			else {
				msg_verbose("Remove %s\n", path);
				remove_name(dfd, o->name, path, 0);
			}
		} else if (!dirs_is_dir(o->ino) && in_new_tree(o->ino, true))
			hold(dfd, o->name, path, o->ino, true);
		else {
			fd = openat(dfd, o->name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					O_CLOEXEC);
			if (fd >= 0) {
				take_apart(fd, c, path);
				(void)close(fd);
			} else if (errno == ENOTDIR || errno == ELOOP) {
				warnx("%s: no longer a directory, removed",
				      path);
				remove_name(dfd, o->name, path, 0);
			} else if (errno != ENOENT) {
				warn("%s", path);
				nerrors++;
			}
			if (fd >= 0 && in_new_tree(o->ino, true))
				hold(dfd, o->name, path, o->ino, true);
			else if (fd >= 0) {
				msg_verbose("Remove node %s\n", path);
				remove_name(dfd, o->name, path, AT_REMOVEDIR);
			}
		}
		free(path);
	}
}

/* Everything below e (e excluded) already sits on disk. */
static void
mark_kept_subtree(struct entry *e)
{
	for (struct entry *x = sym_next(e, e); x != NULL; x = sym_next(e, x)) {
		if (x->type == E_NODE)
			x->flags |= EF_EXISTED;
		else if (!on_tape(x->ino))
			x->flags |= EF_DONE;
	}
}

/* The entry after e's whole subtree, in preorder. */
static struct entry *
skip_subtree(struct entry *e)
{
	while (e != sym_root && e->sibling == NULL)
		e = e->parent;
	return e == sym_root ? NULL : e->sibling;
}

static void
put_dir(struct entry *e, int pfd)
{
	const char *path = sym_path(e);

	if (renameat(holdfd, hold_name(e->ino, true), pfd, e->name) == 0) {
		if (e->dir == NULL)
			e->flags |= EF_EXISTED;
		else
			e->flags |= EF_CREATED;
		return;
	}
	if (errno != ENOENT) {
		warn("%s: cannot move back", path);
		nerrors++;
		e->flags |= EF_BAD;
		return;
	}
	if (e->dir == NULL) {
		warnx("%s: directory (inode %lu) is neither on the tape nor "
		      "on disk; made empty",
		      path, (unsigned long)e->ino);
		nerrors++;
	}
	msg_verbose("Make node %s\n", path);
	if (mkdirat(pfd, e->name, 0700) == 0)
		e->flags |= EF_CREATED;
	else {
		warn("%s: cannot make directory", path);
		e->flags |= EF_BAD;
		nerrors++;
	}
}

/* Names whose inode neither came off the archive nor was kept from the
 * previous run (a table out of step with the disk). */
static void
report_missing(void)
{
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		if (e->type == E_LEAF && !(e->flags & EF_DONE) &&
		    !(e->parent->flags & EF_BAD) && !on_tape(e->ino)) {
			rmsg("%s: (inode %lu) is neither on the "
			     "tape nor on disk\n",
			     sym_path(e), (unsigned long)e->ino);
			nerrors++;
		}
}

/* Step 2: put the new tree together from the holding directory. */
static void
put_together(void)
{
	struct entry *e = sym_next(sym_root, sym_root);

	sym_root->flags |= EF_EXISTED;
	while (e != NULL) {
		int pfd = dir_get(e->parent);

		if (pfd < 0) {
			e->flags |= EF_BAD;
			e = e->type == E_NODE ? skip_subtree(e)
					      : sym_next(sym_root, e);
			continue;
		}
		if (e->type == E_NODE) {
			put_dir(e, pfd);
			if (e->dir == NULL || (e->flags & EF_BAD)) {
				if (e->flags & EF_EXISTED)
					mark_kept_subtree(e);
				e = skip_subtree(e);
				continue;
			}
		} else if (!on_tape(e->ino) &&
			   renameat(holdfd, hold_name(e->ino, false), pfd,
				    e->name) == 0)
			e->flags |= EF_DONE;
		/* Else: extracted from the archive, or linked to another
		 * name of the inode by extract_links(). */
		e = sym_next(sym_root, e);
	}
}

static void
make_hold(void)
{
	snprintf(holdname, sizeof(holdname), "%s%ld", HOLD_PREFIX,
		 (long)getpid());
	if (mkdirat(target_fd, holdname, 0700) != 0)
		err(R_ERROR, "cannot make ./%s", holdname);
	holdfd = openat(target_fd, holdname,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (holdfd < 0)
		err(R_ERROR, "./%s", holdname);
}

/* Remove what nobody claimed (only unreferenced inodes), then the
 * holding directory itself. */
static void
remove_hold(void)
{
	int fd = dup(holdfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	msg_verbose("Find unreferenced names.\n");
	while (d != NULL && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (unlinkat(holdfd, de->d_name, 0) != 0) {
			warnx("./%s/%s: left behind", holdname, de->d_name);
			nerrors++;
		}
	}
	if (d != NULL)
		(void)closedir(d);
	else if (fd >= 0)
		(void)close(fd);
	(void)close(holdfd);
	holdfd = -1;
	msg_verbose("Remove old nodes (directories).\n");
	if (unlinkat(target_fd, holdname, AT_REMOVEDIR) != 0) {
		warn("cannot remove ./%s", holdname);
		nerrors++;
	}
}

/* -R: empty and remove the holding directory hold of the interrupted
 * run (symfile.c checked the name), if it is still there. */
void
incr_finish_hold(const char *hold)
{
	snprintf(holdname, sizeof(holdname), "%s", hold);
	holdfd = openat(target_fd, holdname,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (holdfd < 0) {
		if (errno != ENOENT) {
			warn("./%s", holdname);
			nerrors++;
		}
		return;
	}
	remove_hold();
}

/* -R: the names report_missing() would give. */
void
incr_report_missing(void)
{
	report_missing();
}

int
incr_errors(void)
{
	return nerrors;
}

int
incr_restore(void)
{
	int fd;

	if (ropt.Nflag)
		errx(R_ERROR, "-N cannot be used with an incremental -r");
	msg_verbose("Begin incremental restore\n");
	target_open();
	symfile_load(target_fd, &tbl);
	old = tbl.ent;
	nold = tbl.n;
	if (tbl.checkpoint)
		errx(R_ERROR,
		     "./%s is the checkpoint of an unfinished "
		     "restore: finish it with restore -R",
		     SYMTAB_NAME);
	if (tbl.date != (long)dumpprev)
		rfatal(R_ERROR, "Incremental tape too %s\n",
		       tbl.date < (long)dumpprev ? "low" : "high");
	dirs_read();
	build_new_tree();
	msg_verbose("Calculate extraction list.\n");
	select_tree(sym_root);
	msg_verbose("Mark entries to be removed.\n");
	make_hold();
	fd = dup(target_fd);
	if (fd < 0)
		err(R_ERROR, "dup");
	take_apart(fd, 0, ".");
	(void)close(fd);
	msg_verbose("Calculate node updates.\n");
	put_together();
	msg_verbose("Extract new leaves.\n");
	/* From here on the old tree is gone from disk: what restore -R
	 * needs to finish is the new tree and the holding directory. */
	msg_verbose("Check pointing the restore\n");
	if (sym_write_checkpoint(target_fd, holdname) != 0)
		return R_ERROR;
	extract_files();
	extract_links();
	report_missing();
	dir_cache_drop();
	remove_hold();
	msg_verbose("Check pointing the restore\n");
	if (sym_write(target_fd, SYMTAB_NAME) != 0)
		return R_ERROR;
	extract_dirmodes(true);
	return nerrors > 0 ? R_ERROR : R_SUCCESS;
}
