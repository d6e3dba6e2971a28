/*
 * dirs.c - read the dumped directories and build the tree of names.
 *
 * Pass III of a dump holds every directory's BSD-style image
 * (doc/format.md 7).  Each image is validated entry by entry against 1 KiB blocks, as
 * 0.4b47 does; the surviving entries are packed into one arena, and once
 * all directories are in, the tree is built breadth-first from the root.
 * This is where hostile names stop: empty names, names with '/' inside,
 * "." and ".." anywhere but as the structural entries, duplicate
 * names, and second names (or loops) of a directory are all refused with a
 * message, so every name in the tree is one safe path component and the
 * tree is a tree.  A name with a NUL inside is cut there, as 0.4b47 reads
 * it, and kept if what is left is a good name.  Which name of a directory is kept is decided once, by
 * a breadth-first pass right after pass III (dirs_attach), so that every
 * mode, -t included, keeps and refuses the same entries.  Damage costs
 * the damaged entries only: a missing root or a missing directory is
 * reported and the rest restored; dirs_refused() makes the exit status
 * say the restore is incomplete.
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "exitcodes.h"
#include "spcl.h"
#include "spclext.h"
#include "symfile.h"
#include "xalloc.h"
#include "xio.h"

struct dirrec {
	uint32_t ino;
	bool attached;
	size_t off, len; /* packed entries in the arena */
	size_t attach_off; /* arena offset of the entry kept for it */
	struct dirinfo *info;
};

/* attach_off of the root and of directories no entry reaches. */
#define NO_ENTRY      SIZE_MAX
#define USEC_PER_SEC  1000000
#define NSEC_PER_USEC 1000

static struct dirrec *dirs;
static size_t ndirs, dirs_cap;
static size_t *dirindex; /* open hash of indexes+1 into dirs[] */
static size_t dirindex_size;
/* The arena: packed entries of every directory, in archive order.  It
 * is spilled to an unlinked temporary file (as 0.4b47 keeps its rstdir
 * file) so that huge trees cost disk, not memory; arena_base is the
 * arena offset of arena[0], everything before it is in the file. */
#define ARENA_SPILL (64 * 1024)
static unsigned char *arena;
static size_t arena_len, arena_cap, arena_base;
static int arena_fd = -1;
static bool arena_tried;
static unsigned long nrefused;

/* Collects a directory image while tape_getfile() walks it. */
struct dirbuf {
	unsigned char *p;
	size_t len, cap;
};

static void
dir_data(const unsigned char *blk, size_t n, void *arg)
{
	struct dirbuf *b = arg;

	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, blk, n);
	b->len += n;
}

static void
dir_hole(size_t n, void *arg)
{
	struct dirbuf *b = arg;

	/* A hole in a directory is an empty chunk: zero inode entries. */
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memset(b->p + b->len, 0, n);
	b->len += n;
}

static struct dirrec *
dir_find(uint32_t ino)
{
	size_t i;

	if (dirindex_size == 0)
		return NULL;
	i = (ino * 2654435761u) & (dirindex_size - 1);
	for (; dirindex[i] != 0; i = (i + 1) & (dirindex_size - 1))
		if (dirs[dirindex[i] - 1].ino == ino)
			return &dirs[dirindex[i] - 1];
	return NULL;
}

static void
dirindex_put(size_t idx)
{
	size_t i;

	if ((ndirs + 1) * 2 > dirindex_size) {
		size_t old = dirindex_size;
		size_t *o = dirindex;

		dirindex_size = old ? old * 2 : 1024;
		dirindex = xcalloc(dirindex_size, sizeof(*dirindex));
		for (size_t j = 0; j < old; j++)
			if (o[j] != 0) {
				i = (dirs[o[j] - 1].ino * 2654435761u) &
				    (dirindex_size - 1);
				while (dirindex[i] != 0)
					i = (i + 1) & (dirindex_size - 1);
				dirindex[i] = o[j];
			}
		free(o);
	}
	i = (dirs[idx].ino * 2654435761u) & (dirindex_size - 1);
	while (dirindex[i] != 0)
		i = (i + 1) & (dirindex_size - 1);
	dirindex[i] = idx + 1;
}

/* Report a refused entry. */
static void
refuse(uint32_t dino, const char *name, size_t len, uint32_t ino,
       const char *why)
{
	nrefused++;
	rmsg("Directory inode %lu: refusing entry \"", (unsigned long)dino);
	report_name(name, len, stderr);
	rmsg("\" (inode %lu): %s\n", (unsigned long)ino, why);
}

/* Report an entry kept under another name. */
static void
kept_as(uint32_t dino, const char *name, size_t len, const char *kept,
	size_t klen, uint32_t ino, const char *why)
{
	nrefused++;
	rmsg("Directory inode %lu: entry \"", (unsigned long)dino);
	report_name(name, len, stderr);
	rmsg("\" (inode %lu) kept as \"", (unsigned long)ino);
	report_name(kept, klen, stderr);
	fprintf(stderr, "\": %s\n", why);
}

static void
arena_open(void)
{
	const char *dir = ropt.tmpdir != NULL ? ropt.tmpdir
	    : getenv("TMPDIR") != NULL	      ? getenv("TMPDIR")
					      : "/tmp";

	arena_tried = true;
	arena_fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	/* Without a temporary file the arena simply stays in memory. */
}

static void
arena_spill(void)
{
	if (arena_fd < 0 || arena_len == 0)
		return;
	if (full_pwrite(arena_fd, arena, arena_len, (off_t)arena_base) < 0) {
		warn("temporary file");
		(void)close(arena_fd);
		arena_fd = -1;
		return;
	}
	arena_base += arena_len;
	arena_len = 0;
}

static size_t
arena_total(void)
{
	return arena_base + arena_len;
}

static void
arena_put(uint32_t ino, uint8_t type, const char *name, uint8_t len)
{
	if (!arena_tried)
		arena_open();
	if (arena_len + PACKED_HDR + len > arena_cap) {
		arena_cap = (arena_len + PACKED_HDR + len) * 2;
		arena = xrealloc(arena, arena_cap);
	}
	memcpy(arena + arena_len, &ino, sizeof(ino));
	arena[arena_len + 4] = type;
	arena[arena_len + 5] = len;
	memcpy(arena + arena_len + PACKED_HDR, name, len);
	arena_len += PACKED_HDR + len;
	if (arena_len >= ARENA_SPILL)
		arena_spill();
}

/* The packed entries of d: a buffer to free with free(). */
static unsigned char *
dir_entries(const struct dirrec *d)
{
	unsigned char *buf = xmalloc(d->len + 1);

	/* An empty directory may come before the arena exists at all. */
	if (d->len == 0)
		return buf;
	if (d->off >= arena_base)
		memcpy(buf, arena + (d->off - arena_base), d->len);
	else if (full_pread(arena_fd, buf, d->len, (off_t)d->off) !=
		 (ssize_t)d->len)
		err(R_ERROR, "temporary file");
	return buf;
}

/*
 * Check one entry's name; false (with a message) if it is refused.  A
 * name with a NUL inside (an encrypted directory's ciphertext may hold
 * any byte) is cut there, as 0.4b47 reads it, into *cut; the caller
 * keeps it under that name, if it is still a good one, and reports it.
 */
static bool
name_ok(uint32_t dino, const char *name, uint8_t len, uint32_t ino,
	uint8_t *cut)
{
	const char *nul = memchr(name, '\0', len);

	*cut = nul != NULL ? (uint8_t)(nul - name) : len;
	if (len == 0) {
		refuse(dino, name, len, ino, "empty name");
		return false;
	}
	if (*cut == 0) {
		refuse(dino, name, len, ino, "NUL inside the name");
		return false;
	}
	if (memchr(name, '/', *cut) != NULL) {
		refuse(dino, name, len, ino, "'/' inside the name");
		return false;
	}
	if ((*cut == 1 && name[0] == '.') ||
	    (*cut == 2 && name[0] == '.' && name[1] == '.')) {
		refuse(dino, name, len, ino, "NUL inside the name");
		return false;
	}
	return true;
}

/* The names kept so far in the directory being read, to find a
 * duplicate at once: open addressing over pointers into its image, or
 * into the names made up for duplicates (own, freed with the set). */
struct nameset {
	const char **name;
	uint8_t *len;
	size_t size, used;
	char **own;
	size_t nown;
};

static size_t
nameset_hash(const char *name, uint8_t len, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ULL;
	return (size_t)(h ^ (h >> 31)) & (size - 1);
}

/* Add name; false if the directory already holds it. */
static bool
nameset_add(struct nameset *ns, const char *name, uint8_t len)
{
	size_t i;

	if ((ns->used + 1) * 2 > ns->size) {
		struct nameset old = *ns;

		ns->size = old.size ? old.size * 2 : 64;
		ns->name = xcalloc(ns->size, sizeof(*ns->name));
		ns->len = xcalloc(ns->size, sizeof(*ns->len));
		ns->used = 0;
		for (size_t j = 0; j < old.size; j++)
			if (old.name[j] != NULL)
				(void)nameset_add(ns, old.name[j], old.len[j]);
		free(old.name);
		free(old.len);
	}
	i = nameset_hash(name, len, ns->size);
	for (; ns->name[i] != NULL; i = (i + 1) & (ns->size - 1))
		if (ns->len[i] == len && memcmp(ns->name[i], name, len) == 0)
			return false;
	ns->name[i] = name;
	ns->len[i] = len;
	ns->used++;
	return true;
}

/*
 * A name for an entry whose name the directory already holds (two
 * names equal once cut at a NUL, or a damaged directory): the name
 * with ".dup-INO" (and "-K" until it is free) after it, cut to fit
 * 255 bytes.  Every inode keeps a name, so no file's data is lost.
 */
static const char *
unique_name(struct nameset *ns, const char *name, uint8_t len, uint32_t ino,
	    uint8_t *nlen)
{
	char sfx[32], *n = xmalloc(NAME_MAX + 1);

	for (unsigned k = 0;; k++) {
		int sl = k == 0
		    ? snprintf(sfx, sizeof(sfx), ".dup-%lu", (unsigned long)ino)
		    : snprintf(sfx, sizeof(sfx), ".dup-%lu-%u",
			       (unsigned long)ino, k);
		size_t keep = len;

		if (keep + (size_t)sl > NAME_MAX)
			keep = NAME_MAX - (size_t)sl;
		memcpy(n, name, keep);
		memcpy(n + keep, sfx, (size_t)sl);
		*nlen = (uint8_t)(keep + (size_t)sl);
		if (nameset_add(ns, n, *nlen))
			break;
	}
	ns->own = xreallocarray(ns->own, ns->nown + 1, sizeof(*ns->own));
	ns->own[ns->nown++] = n;
	return n;
}

/* Keep an entry whose name is good once cut at *cut: under that name,
 * or, when the directory holds it already, under a name made up. */
static void
keep_entry(uint32_t dino, const struct tape_direct *d, const char *name,
	   uint8_t cut, struct nameset *seen)
{
	const char *kept = name;
	uint8_t klen = cut;

	if (!nameset_add(seen, name, cut)) {
		kept = unique_name(seen, name, cut, d->d_ino, &klen);
		kept_as(dino, name, d->d_namlen, kept, klen, d->d_ino,
			cut != d->d_namlen
			    ? "NUL inside the name, and a duplicate name"
			    : "duplicate name");
	} else if (cut != d->d_namlen)
		kept_as(dino, name, d->d_namlen, name, cut, d->d_ino,
			"NUL inside the name");
	arena_put(d->d_ino, d->d_type, kept, klen);
}

/* Validate the entries of one 1 KiB directory block and keep the good
 * ones.  A malformed record ends the block ("Mangled directory"). */
static void
parse_block(uint32_t dino, unsigned char *blk, size_t len, int *ndots,
	    struct nameset *seen)
{
	size_t off = 0;

	if (tape_swapped())
		spcl_swap_dirents(blk, len, 1);
	while (off + TAPE_DIRENT_HDRLEN <= len) {
		struct tape_direct d;
		const char *name;
		uint8_t cut;

		memcpy(&d, blk + off, TAPE_DIRENT_HDRLEN);
		if (d.d_reclen % 4 != 0 || d.d_reclen < TAPE_DIRENT_HDRLEN ||
		    off + d.d_reclen > len) {
			/* dump 0.4b47 writes such entries itself (for a
			 * 255-byte name); like its restore, say so only
			 * when verbose. */
			msg_verbose("Mangled directory: inode %lu, entry at "
				    "offset %zu, rest of block skipped\n",
				    (unsigned long)dino, off);
			return;
		}
		name = (const char *)blk + off + TAPE_DIRENT_HDRLEN;
		if (d.d_ino != 0 && d.d_reclen < TAPE_DIRSIZ(d.d_namlen)) {
			/* A name longer than its record: dump 0.4b47 writes
			 * this for 255-byte names.  The next record is still
			 * where d_reclen says, so only this entry is lost. */
			msg_verbose(
			    "Mangled directory: inode %lu, entry at "
			    "offset %zu has a name longer than its record\n",
			    (unsigned long)dino, off);
		} else if (d.d_ino != 0) {
			bool dot = d.d_namlen == 1 && name[0] == '.';
			bool dotdot =
			    d.d_namlen == 2 && name[0] == '.' && name[1] == '.';

			if ((dot || dotdot) && ++*ndots > 2)
				refuse(dino, name, d.d_namlen, d.d_ino,
				       "extra \".\" or \"..\" entry");
			else if (dot || dotdot)
				; /* structural, rebuilt from the tree */
			else if (name_ok(dino, name, d.d_namlen, d.d_ino, &cut))
				keep_entry(dino, &d, name, cut, seen);
		}
		off += d.d_reclen;
	}
}

static void
attr_from_header(struct inoattr *a, const struct s_spcl *h)
{
	const struct tape_dinode *di = &h->c_dinode;
	struct spclext x;

	memset(a, 0, sizeof(*a));
	a->ino = h->c_inumber;
	a->mode = di->di_mode;
	if (tape_newinodefmt()) {
		a->uid = di->di_uid;
		a->gid = di->di_gid;
	} else {
		a->uid = di->di_ouid;
		a->gid = di->di_ogid;
	}
	a->size = di->di_size;
	/* Our dump's times whole (doc/format.md 2.6); else c_dinode's 32-bit
	 * seconds (to 2106) and microseconds. */
	if (spclext_get((const union u_spcl *)h, &x) &&
	    (x.flags & SPCLEXT_TIMES)) {
		a->atime.tv_sec = (time_t)x.atime.sec;
		a->atime.tv_nsec = (long)x.atime.nsec;
		a->mtime.tv_sec = (time_t)x.mtime.sec;
		a->mtime.tv_nsec = (long)x.mtime.nsec;
	} else {
		a->atime.tv_sec = (time_t)di->di_atime.tv_sec;
		a->atime.tv_nsec =
		    (long)(di->di_atime.tv_usec % USEC_PER_SEC) * NSEC_PER_USEC;
		a->mtime.tv_sec = (time_t)di->di_mtime.tv_sec;
		a->mtime.tv_nsec =
		    (long)(di->di_mtime.tv_usec % USEC_PER_SEC) * NSEC_PER_USEC;
	}
	a->flags = di->di_flags;
	a->rdev_old = di->di_db[0];
	a->rdev_new = di->di_db[1];
	a->metaonly = (h->c_flags & DR_METAONLY) != 0;
}

/* Public form for the other passes. */
void
attr_get(struct inoattr *a)
{
	attr_from_header(a, &curhdr.s_spcl);
}

static void
read_one_dir(void)
{
	struct dirbuf b = {NULL, 0, 0};
	struct nameset seen = {NULL, NULL, 0, 0, NULL, 0};
	uint32_t ino = curhdr.s_spcl.c_inumber;
	struct dirrec *d;
	struct inoattr a;
	int ndots;

	attr_from_header(&a, &curhdr.s_spcl);
	if (tape_getfile(dir_data, dir_hole, &b) > 0) {
		rmsg("Directory inode %lu: size %llu but only %zu "
		     "bytes on the tape (corrupt header?)\n",
		     (unsigned long)ino, (unsigned long long)a.size, b.len);
		nrefused++;
	}
	if (dir_find(ino) != NULL) {
		rmsg("Directory inode %lu appears twice; the "
		     "second copy is ignored\n",
		     (unsigned long)ino);
		free(b.p);
		ea_read_records(ino, NULL);
		return;
	}
	if (ndirs == dirs_cap) {
		dirs_cap = dirs_cap ? dirs_cap * 2 : 256;
		dirs = xreallocarray(dirs, dirs_cap, sizeof(*dirs));
	}
	d = &dirs[ndirs];
	memset(d, 0, sizeof(*d));
	d->ino = ino;
	d->info = xcalloc(1, sizeof(*d->info));
	d->info->attr = a;
	d->off = arena_total();
	ndots = 0;
	for (size_t off = 0; off < b.len; off += RESTORE_DIRBLKSIZ) {
		size_t n = b.len - off < RESTORE_DIRBLKSIZ ? b.len - off
							   : RESTORE_DIRBLKSIZ;

		parse_block(ino, b.p + off, n, &ndots, &seen);
	}
	d->len = arena_total() - d->off;
	d->attach_off = NO_ENTRY;
	free(seen.name);
	free(seen.len);
	for (size_t i = 0; i < seen.nown; i++)
		free(seen.own[i]);
	free(seen.own);
	free(b.p);
	dirindex_put(ndirs);
	ndirs++;
	ea_read_records(ino, &dirs[ndirs - 1].info->ea);
}

/* The packed entries of directory ino (NULL if it is not on the
 * archive); *len gets their size.  For walks that need no tree (-t). */
unsigned char *
dirs_load(uint32_t ino, size_t *len)
{
	struct dirrec *d = dir_find(ino);

	*len = 0;
	if (d == NULL)
		return NULL;
	*len = d->len;
	return dir_entries(d);
}

/* Is the entry at byte pos of directory dino's packed entries the name
 * kept for the directory it names (false for any other entry)? */
bool
dirs_kept_name(uint32_t dino, size_t pos, uint32_t ino)
{
	struct dirrec *parent = dir_find(dino), *d = dir_find(ino);

	return parent != NULL && d != NULL && d->attach_off != NO_ENTRY &&
	    d->attach_off == parent->off + pos;
}

/* A directory named in the archive, dumped, but not on it: its subtree
 * is lost.  Counted with the refused entries (the restore is not
 * complete).  A directory left out on purpose (subset dump, -e, nodump)
 * is not in TS_BITS: extraction names it, like any absent inode.  True
 * when reported: the inode, dumped, is not a directory on the archive
 * (its mode was damaged, or its header), and comes as what it is. */
bool
dirs_report_missing(const char *path, uint32_t ino, uint8_t type)
{
	if (type != DT_TAPE_DIR || dumpprev != 0 ||
	    !map_test(dumpmap, dumpmap_len, ino))
		return false;
	nrefused++;
	rmsg("%s: directory (inode %lu) is not on the tape\n", path,
	     (unsigned long)ino);
	return true;
}

/*
 * Decide, breadth-first from the root, the one entry that names each
 * directory: the first met.  Any other entry naming an already named
 * directory (a second name, or a loop back up) is refused here, once, for
 * every mode.  A directory reached by no kept entry is not restored.
 */
static void
dirs_attach(void)
{
	struct dirrec *root = dir_find(ROOTINO);
	uint32_t *queue;
	size_t qlen = 0;

	if (root == NULL)
		return;
	queue = xreallocarray(NULL, ndirs, sizeof(*queue));
	root->attached = true;
	queue[qlen++] = ROOTINO;
	for (size_t i = 0; i < qlen; i++) {
		struct dirrec *d = dir_find(queue[i]);
		unsigned char *ents = dir_entries(d);

		for (size_t off = 0; off < d->len;) {
			uint32_t ino;
			uint8_t len = ents[off + 5];
			const char *name =
			    (const char *)ents + off + PACKED_HDR;
			struct dirrec *sub;

			memcpy(&ino, ents + off, sizeof(ino));
			sub = dir_find(ino);
			if (sub != NULL && sub->attached)
				refuse(d->ino, name, len, ino,
				       "second name "
				       "of a directory (or a loop)");
			else if (sub != NULL) {
				sub->attached = true;
				sub->attach_off = d->off + off;
				queue[qlen++] = ino;
			}
			off += PACKED_HDR + len;
		}
		free(ents);
	}
	free(queue);
}

/* Directories of the archive that no kept entry reaches from the root
 * (their names were refused, or are in a directory not on the
 * archive): one line each, as nothing of them is restored or listed.
 * Without a root, that was said once for all. */
static void
report_unreached(void)
{
	if (dir_find(ROOTINO) == NULL)
		return;
	for (size_t i = 0; i < ndirs; i++)
		if (!dirs[i].attached) {
			nrefused++;
			rmsg("Directory inode %lu has no name reached from "
			     "the root: left out, with its entries\n",
			     (unsigned long)dirs[i].ino);
		}
}

/* Read pass III: every directory, up to the first other inode. */
void
dirs_read(void)
{
	msg_verbose("Extract directories from tape\n");
	for (;;) {
		tape_find_inode();
		if (curhdr.s_spcl.c_type != TS_INODE)
			break;
		if (curhdr.s_spcl.c_flags & DR_EXTATTRIBUTES) {
			/* An EA record with no inode before it. */
			tape_skipfile();
			continue;
		}
		if ((curhdr.s_spcl.c_dinode.di_mode & S_IFMT) != S_IFDIR)
			break;
		read_one_dir();
	}
	arena_spill();
	if (dir_find(ROOTINO) == NULL) {
		/* Nothing can be reached by name; read on all the same, so
		 * that the rest of the archive is checked. */
		rmsg("Root directory is not on tape\n");
		nrefused++;
	}
	dirs_attach();
	report_unreached();
}

static void
add_children(struct entry *parent, struct dirrec *d, struct entry ***queue,
	     size_t *qlen, size_t *qcap)
{
	unsigned char *ents = dir_entries(d);

	for (size_t off = 0; off < d->len;) {
		uint32_t ino;
		uint8_t type = ents[off + 4], len = ents[off + 5];
		const char *name = (const char *)ents + off + PACKED_HDR;
		struct dirrec *sub;
		struct entry *e;
		size_t at = d->off + off;

		memcpy(&ino, ents + off, sizeof(ino));
		off += PACKED_HDR + len;
		sub = dir_find(ino);
		if (sub != NULL && sub->attach_off != at)
			continue; /* refused by dirs_attach() */
		e = sym_add(parent, name, len, ino,
			    sub != NULL || type == DT_TAPE_DIR ? E_NODE
							       : E_LEAF);
		if (e == NULL) {
			/* read_one_dir() keeps no duplicates. */
			refuse(d->ino, name, len, ino, "duplicate name");
			continue;
		}
		if (sub == NULL) {
			/* A name is kept for its inode whatever it is: a
			 * directory of empty mode 0700 would hold nothing. */
			if (dirs_report_missing(sym_path(e), ino, type)) {
				e->type = E_LEAF;
				e->flags |= EF_NOTDIR;
			}
			continue;
		}
		e->dir = sub->info;
		if (*qlen == *qcap) {
			*qcap = *qcap ? *qcap * 2 : 256;
			*queue = xreallocarray(*queue, *qcap, sizeof(**queue));
		}
		(*queue)[(*qlen)++] = e;
	}
	free(ents);
}

/* Build the tree from the root along the names dirs_attach() kept.
 * Without a root on the archive the tree is an empty root. */
void
dirs_build_tree(void)
{
	msg_verbose("Initialize symbol table.\n");
	dirs_link_tree();
}

/* dirs_build_tree() without its message (for modes where 0.4b47 says
 * it before the directories are read). */
void
dirs_link_tree(void)
{
	struct dirrec *root = dir_find(ROOTINO);
	struct entry **queue = NULL, *r;
	size_t qlen = 0, qcap = 0;

	r = sym_add(NULL, ".", 1, ROOTINO, E_NODE);
	if (root != NULL) {
		r->dir = root->info;
		add_children(r, root, &queue, &qlen, &qcap);
	}
	for (size_t i = 0; i < qlen; i++)
		add_children(queue[i], dir_find(queue[i]->ino), &queue, &qlen,
			     &qcap);
	free(queue);
	sym_relink();
}

/* Number of directory entries refused so far. */
/* The inode of the i-th directory read (archive order, which is inode
 * order); 0 past the last. */
uint32_t
dirs_nth(size_t i)
{
	return i < ndirs ? dirs[i].ino : 0;
}

unsigned long
dirs_refused(void)
{
	return nrefused;
}

bool
dirs_is_dir(uint32_t ino)
{
	return dir_find(ino) != NULL;
}

/* Are the names in directory ino ciphertext (fscrypt)? */
bool
dirs_encrypted(uint32_t ino)
{
	struct dirrec *d = dir_find(ino);

	return d != NULL && (d->info->attr.flags & FS_ENCRYPT_FL) != 0;
}

/* The attributes of dumped directory ino, or NULL (-R attaches them to
 * the tree it loads from the checkpoint). */
struct dirinfo *
dirs_info(uint32_t ino)
{
	struct dirrec *d = dir_find(ino);

	return d != NULL ? d->info : NULL;
}

/* Skip pass III when the archive is read again (restore -i's further
 * extracts): the tree already holds the directories. */
void
dirs_skip(void)
{
	for (;;) {
		tape_find_inode();
		if (curhdr.s_spcl.c_type != TS_INODE ||
		    (!(curhdr.s_spcl.c_flags & DR_EXTATTRIBUTES) &&
		     (curhdr.s_spcl.c_dinode.di_mode & S_IFMT) != S_IFDIR))
			break;
		tape_skipfile();
	}
}
