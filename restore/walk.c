/*
 * walk.c - the archive walk that -x, -r and -C share after pass III.
 *
 * Each inode header left on the archive is found, its attributes taken,
 * and the caller's lookup asked for the name it should be handled under.
 * An inode with no such name -- or a directory (pass III read those), or
 * an EA record with no inode before it -- is skipped together with its
 * EA records; the caller's visitor handles the rest and must consume the
 * inode's body and its EA records itself.  A nameless EA inode is kept
 * for the attributes whose value it holds (eainode.c).  The walk ends at the first
 * header that is not an inode (TS_END or the end of the input).
 */
#include <sys/stat.h>

#include "restore.h"
#include "extern.h"

void
walk_inodes(const struct walk_ops *ops)
{
	for (;;) {
		struct inoattr a;
		struct entry *e;
		bool orphan_ea, ea_inode;

		tape_find_inode();
		if (curhdr.s_spcl.c_type != TS_INODE)
			break;
		attr_get(&a);
		orphan_ea = (curhdr.s_spcl.c_flags & DR_EXTATTRIBUTES) != 0;
		ea_inode = !orphan_ea && (a.flags & TAPE_EA_INODE_FL) &&
		    (a.mode & S_IFMT) == S_IFREG;
		if (orphan_ea || (a.mode & S_IFMT) == S_IFDIR ||
		    (e = ops->lookup(a.ino)) == NULL) {
			/* Only a real inode can say something about its
			 * names; an orphan EA record names nothing, and an
			 * EA inode has no name to lose. */
			if (!orphan_ea && !ea_inode && ops->skipped != NULL)
				ops->skipped(&a);
			if (ea_inode) {
				/* 0.4b56 archives the values of large EAs
				 * so (doc/format.md 8.5). */
				eai_read(&a);
				ea_resolve(a.ino);
			} else
				tape_skipfile();
			ea_read_records(a.ino, NULL);
			continue;
		}
		ops->visit(e, &a);
	}
	ea_walk_done();
}
