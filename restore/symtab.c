/*
 * symtab.c - the in-memory tree of names read from the archive.
 *
 * Each name is one struct entry, linked to its parent, its children (in
 * on-tape order) and the other names of the same inode.  Two hash tables
 * keep lookups constant time even for huge directories: (parent, name) ->
 * entry, which also refuses duplicate names in one directory, and
 * inode -> first and last name.  Names are stored once each; nothing is
 * sized from a count the archive claims, only from entries actually read.
 *
 * restoresymtable (written by -r) is our own text format, documented in
 * write_table(): one line per name, so an incremental restore can rebuild
 * this tree, and, written as a checkpoint before the leaves are
 * extracted, so that -R can finish an interrupted -r; it is not the
 * 0.4b47 binary snapshot.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "symfile.h"
#include "xalloc.h"

#define HASH_MIN 1024

/* Open hashing of every entry by (parent, name), chained; and of the
 * first name of every inode, by linear probing on the inode number. */
static struct entry **nametab;
static size_t nametab_size, nametab_used;
static struct entry **inotab;
static size_t inotab_size, inotab_used;
static char *pathbuf;
static size_t pathbuf_size;
/* The parent children were last added to, and its last child: the tree
 * is built one directory at a time, so appending is O(1). */
static struct entry *append_parent, *append_last;

/*
 * Entries are never freed one by one, so they are cut from large blocks:
 * malloc would add a header and round each to 16 bytes, 80 bytes for the
 * usual entry of 64 (16 MB more for a million names).  Every block
 * starts with a pointer to the block made before it.
 */
#define ARENA_BLOCK (1024 * 1024)
static char *arena_next, *arena_end;
static void *arena_blocks;

/* A new zeroed block of size bytes on the list; returns its first byte
 * after the link. */
static char *
arena_block(size_t size)
{
	char *b = xcalloc(1, sizeof(void *) + size);

	*(void **)(void *)b = arena_blocks;
	arena_blocks = b;
	return b + sizeof(void *);
}

static struct entry *
entry_alloc(size_t size)
{
	struct entry *e;

	size = (size + 7) & ~(size_t)7;
	if (size > ARENA_BLOCK / 16) /* a long name: a block of its own */
		return (struct entry *)(void *)arena_block(size);
	if ((size_t)(arena_end - arena_next) < size) {
		arena_next = arena_block(ARENA_BLOCK - sizeof(void *));
		arena_end = arena_next + (ARENA_BLOCK - sizeof(void *));
	}
	e = (struct entry *)(void *)arena_next;
	arena_next += size;
	return e;
}

struct entry *sym_root;

static size_t
name_hash(const struct entry *parent, const char *name, size_t len)
{
	uint64_t h = (uint64_t)(uintptr_t)parent * 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ULL;
	return (size_t)(h ^ (h >> 29));
}

static void
nametab_grow(void)
{
	size_t nsize = nametab_size ? nametab_size * 2 : HASH_MIN;
	struct entry **n = xcalloc(nsize, sizeof(*n));

	for (size_t i = 0; i < nametab_size; i++) {
		struct entry *e = nametab[i], *next;

		for (; e != NULL; e = next) {
			size_t b =
			    name_hash(e->parent, e->name, strlen(e->name)) &
			    (nsize - 1);

			next = e->hnext;
			e->hnext = n[b];
			n[b] = e;
		}
	}
	free(nametab);
	nametab = n;
	nametab_size = nsize;
}

struct entry *
sym_lookup_child(const struct entry *dir, const char *name, size_t len)
{
	struct entry *e;

	if (nametab_size == 0)
		return NULL;
	e = nametab[name_hash(dir, name, len) & (nametab_size - 1)];
	for (; e != NULL; e = e->hnext)
		if (e->parent == dir && strncmp(e->name, name, len) == 0 &&
		    e->name[len] == '\0')
			return e;
	return NULL;
}

static size_t
ino_hash(uint32_t ino, size_t size)
{
	return (ino * 2654435761u) & (size - 1);
}

/* The slot of ino: its entry, or the empty slot where it would go. */
static struct entry **
ino_slot(uint32_t ino)
{
	size_t i;

	if ((inotab_used + 1) * 2 > inotab_size) {
		size_t nsize = inotab_size ? inotab_size * 2 : HASH_MIN;
		struct entry **n = xcalloc(nsize, sizeof(*n));

		for (size_t j = 0; j < inotab_size; j++) {
			if (inotab[j] == NULL)
				continue;
			i = ino_hash(inotab[j]->ino, nsize);
			while (n[i] != NULL)
				i = (i + 1) & (nsize - 1);
			n[i] = inotab[j];
		}
		free(inotab);
		inotab = n;
		inotab_size = nsize;
	}
	i = ino_hash(ino, inotab_size);
	while (inotab[i] != NULL && inotab[i]->ino != ino)
		i = (i + 1) & (inotab_size - 1);
	return &inotab[i];
}

/* The first name of an inode (in tree order once sym_relink ran). */
struct entry *
sym_lookup_ino(uint32_t ino)
{
	size_t i;

	if (inotab_size == 0)
		return NULL;
	i = ino_hash(ino, inotab_size);
	while (inotab[i] != NULL && inotab[i]->ino != ino)
		i = (i + 1) & (inotab_size - 1);
	return inotab[i];
}

/* Put e at the head of its inode's chain (sym_relink fixes the order). */
static void
link_ino(struct entry *e)
{
	struct entry **slot = ino_slot(e->ino);

	if (*slot == NULL)
		inotab_used++;
	e->links = *slot;
	*slot = e;
}

/* Add name (len bytes) below parent.  NULL if parent already has it. */
struct entry *
sym_add(struct entry *parent, const char *name, size_t len, uint32_t ino,
	int type)
{
	struct entry *e;
	size_t b;

	if (parent != NULL && sym_lookup_child(parent, name, len) != NULL)
		return NULL;
	if ((nametab_used + 1) * 2 > nametab_size)
		nametab_grow();
	e = entry_alloc(sizeof(*e) + len + 1);
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->ino = ino;
	e->type = (uint8_t)type;
	e->parent = parent;
	if (parent == NULL)
		sym_root = e;
	else if (parent->child == NULL)
		parent->child = e;
	else {
		struct entry *last =
		    parent == append_parent ? append_last : parent->child;

		while (last->sibling != NULL)
			last = last->sibling;
		last->sibling = e;
	}
	append_parent = parent;
	append_last = e;
	b = name_hash(parent, e->name, len) & (nametab_size - 1);
	e->hnext = nametab[b];
	nametab[b] = e;
	nametab_used++;
	link_ino(e);
	return e;
}

/* Next entry in depth-first preorder below top (top itself first). */
struct entry *
sym_next(const struct entry *top, const struct entry *e)
{
	if (e->child != NULL)
		return e->child;
	while (e != top) {
		if (e->sibling != NULL)
			return e->sibling;
		e = e->parent;
	}
	return NULL;
}

/*
 * -d of a level 0 -r or -C: each name as 0.4b47's symbol table traces
 * it on standard output, "[ONTAPE] ./a: NEW|KEEP"; the root also found
 * by inode and name, a further name of an inode as a new link.
 */
void
sym_debug_level0(void)
{
	if (!ropt.debug)
		return;
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e)) {
		if (e == sym_root)
			printf("[ONTAPE|INOFND|NAMEFND] .: NEW|KEEP\n");
		else if (sym_lookup_ino(e->ino) != e)
			printf("[ONTAPE|INOFND] %s: NEW|LINK\n", sym_path(e));
		else
			printf("[ONTAPE] %s: NEW|KEEP\n", sym_path(e));
	}
}

/* Rebuild every inode's name chain in depth-first tree order, so the
 * first name of a hard-linked inode is the one 0.4b47 extracts: prepend
 * in preorder, then reverse each chain once. */
void
sym_relink(void)
{
	for (size_t i = 0; i < inotab_size; i++)
		inotab[i] = NULL;
	inotab_used = 0;
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		link_ino(e);
	for (size_t i = 0; i < inotab_size; i++) {
		struct entry *rev = NULL, *next;

		for (struct entry *e = inotab[i]; e != NULL; e = next) {
			next = e->links;
			e->links = rev;
			rev = e;
		}
		inotab[i] = rev;
	}
}

/*
 * "./a/b" for an entry ("." for the root).  Valid until the next call.
 * The last path is kept with the length of each of its prefixes, so that
 * the path of an entry near the last one costs only the names that
 * differ: a walk of the tree costs its size, not its depth squared.
 * EF_INPATH is this function's own bookkeeping, hence the casts that set
 * it on entries the callers pass as const.
 */
struct pathlevel {
	const struct entry *e;
	size_t len; /* length of the path up to e */
};

static struct pathlevel *plevels;
static size_t pdepth, plevels_cap;

const char *
sym_path(const struct entry *e)
{
	const struct entry *x;
	size_t n = 0, len;
	static const struct entry **up;
	static size_t up_cap;

	for (x = e; !(x->flags & EF_INPATH) && x->parent != NULL;
	     x = x->parent) {
		if (n == up_cap) {
			up_cap = up_cap ? up_cap * 2 : 64;
			up = xreallocarray(up, up_cap, sizeof(*up));
		}
		up[n++] = x;
	}
	if (!(x->flags & EF_INPATH)) {
		/* x is a root: start afresh. */
		while (pdepth > 0)
			((struct entry *)plevels[--pdepth].e)->flags &=
			    (uint16_t)~EF_INPATH;
		if (plevels_cap == 0) {
			plevels_cap = 64;
			plevels =
			    xreallocarray(NULL, plevels_cap, sizeof(*plevels));
		}
		if (pathbuf_size < 2) {
			pathbuf_size = 256;
			pathbuf = xrealloc(pathbuf, pathbuf_size);
		}
		pathbuf[0] = '.';
		plevels[0].e = x;
		plevels[0].len = 1;
		((struct entry *)x)->flags |= EF_INPATH;
		pdepth = 1;
	}
	while (plevels[pdepth - 1].e != x)
		((struct entry *)plevels[--pdepth].e)->flags &=
		    (uint16_t)~EF_INPATH;
	len = plevels[pdepth - 1].len;
	while (n > 0) {
		size_t nl;

		x = up[--n];
		nl = strlen(x->name);
		if (len + nl + 2 > pathbuf_size) {
			pathbuf_size = (len + nl + 2) * 2;
			pathbuf = xrealloc(pathbuf, pathbuf_size);
		}
		pathbuf[len] = '/';
		memcpy(pathbuf + len + 1, x->name, nl);
		len += nl + 1;
		if (pdepth == plevels_cap) {
			plevels_cap *= 2;
			plevels = xreallocarray(plevels, plevels_cap,
						sizeof(*plevels));
		}
		plevels[pdepth].e = x;
		plevels[pdepth].len = len;
		((struct entry *)x)->flags |= EF_INPATH;
		pdepth++;
	}
	pathbuf[len] = '\0';
	return pathbuf;
}

/* The next component of the name at *path: leading slashes and "."
 * components are skipped; returns its start and sets *len, or NULL at
 * the end of the name.  *path moves past the component. */
const char *
sym_next_component(const char **path, size_t *len)
{
	const char *p = *path, *end;

	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0') {
			*path = p;
			return NULL;
		}
		end = strchrnul(p, '/');
		if (!(end - p == 1 && p[0] == '.'))
			break;
		p = end;
	}
	*path = end;
	*len = (size_t)(end - p);
	return p;
}

/* Whether s starts with "\ooo" (\000 to \377): one byte as restore -t
 * lists the names of encrypted directories. */
bool
sym_octal_escape(const char *s)
{
	return s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
	    s[2] <= '7' && s[3] >= '0' && s[3] <= '7';
}

/*
 * A name as restore -t lists names of encrypted directories, bytes
 * written as \ooo, turned back into its bytes; NULL (nothing to undo)
 * when it holds no such sequence or one stands for a NUL.  The caller
 * frees the result.
 */
static char *
unescape(const char *name)
{
	char *out = xmalloc(strlen(name) + 1), *o = out;
	bool any = false;

	while (*name != '\0') {
		unsigned v;

		if (sym_octal_escape(name)) {
			v = (unsigned)(name[1] - '0') << 6 |
			    (unsigned)(name[2] - '0') << 3 |
			    (unsigned)(name[3] - '0');
			if (v == 0)
				break;
			*o++ = (char)v;
			name += 4;
			any = true;
		} else
			*o++ = *name++;
	}
	*o = '\0';
	if (!any || *name != '\0') {
		free(out);
		return NULL;
	}
	return out;
}

/* lookup(name), or, when that finds nothing, lookup of name with its
 * \ooo escapes undone (a name copied from -t or ls). */
struct entry *
sym_lookup_escaped(struct entry *(*lookup)(const char *), const char *name)
{
	struct entry *e = lookup(name);
	char *raw;

	if (e == NULL && (raw = unescape(name)) != NULL) {
		e = lookup(raw);
		free(raw);
	}
	return e;
}

static struct entry *
lookup_path(const char *path)
{
	struct entry *e = sym_root;
	const char *comp;
	size_t n;

	while (e != NULL && (comp = sym_next_component(&path, &n)) != NULL)
		e = sym_lookup_child(e, comp, n);
	return e;
}

/* Find a name given on the command line: ".", "./a/b", "a/b", "/a/b".
 * Empty and "." components are ignored.  A name not found as typed is
 * tried once more with its \ooo escapes undone (a name copied from -t). */
struct entry *
sym_lookup_path(const char *path)
{
	return sym_lookup_escaped(lookup_path, path);
}

/* The canonical "./a/b" spelling of a command-line name, for messages. */
char *
sym_canon(const char *path)
{
	size_t len = strlen(path), n;
	char *out = xmalloc(len + 3), *o = out;
	const char *comp;

	*o++ = '.';
	while ((comp = sym_next_component(&path, &n)) != NULL) {
		*o++ = '/';
		memcpy(o, comp, n);
		o += n;
	}
	*o = '\0';
	return out;
}

/* The message for a command-line name that the archive does not hold. */
void
sym_not_on_tape(const char *path)
{
	char *c = sym_canon(path);

	rmsg("%s is not on the tape\n", c);
	free(c);
}

/* Write name bytes with %XX for anything but printable ASCII. */
static void
put_escaped(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c >= 0x7f || c == '%')
			fprintf(f, "%%%02X", c);
		else
			putc(c, f);
	}
}

/*
 * restoresymtable, version 1 (text, one record per line):
 *   "dump-restoresymtable 1"
 *   "date <c_date> prev <c_ddate> maxino <n> volume <v>"
 *   only in a checkpoint (an -r that has not finished, to be completed
 *   by -R): "checkpoint <holding directory of an incremental, or ->"
 *   "<index> <parent-index> <ino> <D|L|K> <name>" for every name, in
 *   depth-first order (the root has index 0, parent -1, name "."); D is a
 *   directory, L a leaf, K (checkpoints only) a leaf already on disk;
 *   names are %XX-escaped outside printable ASCII.
 *   "end <count>"
 * volume is the volume a resumed restore starts reading (always 1: -R
 * reads the archive again from its start, skipping nothing it needs).
 * It is created with O_EXCL|O_NOFOLLOW relative to the target directory.
 * symfile.c reads it back.
 */
static int
write_table(int dirfd, const char *name, bool checkpoint, const char *hold)
{
	FILE *f;
	int fd;
	long idx = 0;

	if (unlinkat(dirfd, name, 0) != 0 && errno != ENOENT) {
		warn("cannot remove old %s", name);
		return -1;
	}
	fd = openat(dirfd, name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		warn("cannot create %s", name);
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	fprintf(f, "dump-restoresymtable 1\n");
	fprintf(f, "date %ld prev %ld maxino %lu volume 1\n", (long)dumpdate,
		(long)dumpprev, (unsigned long)maxino);
	if (checkpoint)
		fprintf(f, "checkpoint %s\n",
			hold != NULL && hold[0] != '\0' ? hold : "-");
	/* Parents precede their children: a parent's index is found on a
	 * stack of the indices along the path, and the depth is kept as
	 * the walk moves (counting it up from each entry would cost the
	 * depth squared on a deep tree). */
	{
		long *stack = NULL;
		size_t depth = 0, cap = 0;
		struct entry *e = sym_root;

		while (e != NULL) {
			if (depth + 1 > cap) {
				cap = cap ? cap * 2 : 64;
				stack =
				    xreallocarray(stack, cap, sizeof(*stack));
			}
			stack[depth] = idx;
			fprintf(f, "%ld %ld %lu %c ", idx,
				depth == 0 ? -1L : stack[depth - 1],
				(unsigned long)e->ino,
				e->type == E_NODE			 ? 'D'
				    : checkpoint && (e->flags & EF_DONE) ? 'K'
									 : 'L');
			put_escaped(f, e->name);
			putc('\n', f);
			idx++;
			if (e->child != NULL) {
				e = e->child;
				depth++;
				continue;
			}
			while (e != sym_root && e->sibling == NULL) {
				e = e->parent;
				depth--;
			}
			e = e == sym_root ? NULL : e->sibling;
		}
		free(stack);
	}
	fprintf(f, "end %ld\n", idx);
	if (ferror(f) | (fclose(f) != 0)) {
		warn("error writing %s", name);
		return -1;
	}
	return 0;
}

/* The table of a finished -r. */
int
sym_write(int dirfd, const char *name)
{
	return write_table(dirfd, name, false, NULL);
}

/* The checkpoint written before the leaves are extracted; hold is the
 * holding directory of an incremental ("" or NULL for none). */
int
sym_write_checkpoint(int dirfd, const char *hold)
{
	return write_table(dirfd, SYMTAB_NAME, true, hold);
}
