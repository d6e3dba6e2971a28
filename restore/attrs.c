/*
 * attrs.c - owner, mode, extended attributes and times of a restored
 * object, in 0.4b47's order, and whether a new object inherited an ACL.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"

/* Asked once: set_attrs() runs for every file restored. */
static bool
running_as_root(void)
{
	static int root = -1;

	if (root < 0)
		root = geteuid() == 0;
	return root == 1;
}

void
attrs_prepare(void)
{
	(void)running_as_root();
}

/*
 * Whether objects made in directory dir (open as dfd) inherit an ACL
 * from its default ACL, asked once per directory: a directory's ACLs
 * change only when set_one_dir() sets them, which forgets the answer.
 * NULL (-m: the target directory) is asked every time.
 */
bool
dir_inherits_acl(struct entry *dir, int dfd)
{
	bool has;

	if (dir != NULL && (dir->flags & EF_ACLKNOWN))
		return (dir->flags & EF_DEFACL) != 0;
	has = fgetxattr(dfd, "system.posix_acl_default", NULL, 0) >= 0 ||
	    (errno != ENODATA && errno != ENOTSUP);
	if (dir != NULL)
		dir->flags = (uint16_t)((dir->flags & ~EF_DEFACL) |
					EF_ACLKNOWN | (has ? EF_DEFACL : 0));
	return has;
}

/* Whether the object open as fd already has the archived owner (a file
 * root made for a root-owned one): its chown would change nothing but
 * still cost a journalled inode update. */
static bool
owner_is(int fd, const struct inoattr *a)
{
	struct stat st;

	return fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == a->uid &&
	    st.st_gid == a->gid;
}

/*
 * Owner, mode, EAs and times, in 0.4b47's order (chown clears set-id bits,
 * so chmod follows it).  fd is an open descriptor of the object or -1, in
 * which case dfd/name reach it without following a symbolic link.
 * fresh: just made, and nothing inherited (ea_apply()).
 */
void
set_attrs(int dfd, const char *name, int fd, const struct inoattr *a,
	  const struct ealist *ea, const char *path, bool fresh)
{
	bool lnk = (a->mode & S_IFMT) == S_IFLNK;
	struct timespec ts[2];
	int r;

	if (running_as_root() && !(fresh && owner_is(fd, a))) {
		r = fd >= 0
		    ? fchown(fd, a->uid, a->gid)
		    : fchownat(dfd, name, a->uid, a->gid, AT_SYMLINK_NOFOLLOW);
		if (r != 0)
			warn("%s: chown", path);
	}
	if (!lnk) {
		r = fd >= 0 ? fchmod(fd, a->mode & 07777)
			    : fchmodat(dfd, name, a->mode & 07777, 0);
		if (r != 0)
			warn("%s: chmod", path);
	}
	/* Without archived attributes the empty set is applied too: a
	 * parent's default ACL gave the new object ACLs the archive says
	 * it never had, and an incremental keeps the directories of the
	 * previous levels, whose attributes may be stale.  Symbolic links
	 * inherit no ACL. */
	if (ea != NULL && (ea->n > 0 || !lnk))
		ea_apply(ea, fd, fd >= 0 ? NULL : fd_name_path(dfd, name), path,
			 fresh);
	ts[0] = a->atime;
	ts[1] = a->mtime;
	r = fd >= 0 ? futimens(fd, ts)
		    : utimensat(dfd, name, ts, AT_SYMLINK_NOFOLLOW);
	if (r != 0)
		warn("%s: cannot set times", path);
}
