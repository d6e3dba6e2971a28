/*
 * eainode.c - the EA inodes that 0.4b56's dump archives as files that no
 * directory names (doc/format.md 8.5).
 *
 * The entries of the files that use such an inode keep its number
 * instead of the value.  The walk hands every nameless inode flagged as
 * an EA inode here; its content, at most XATTR_VALUE_MAX bytes, is kept
 * to the end of the run (the files that use it may come before or
 * after, directories are set after the walk), EA_MAX_BIG bytes in all.
 * The dump writes inodes in increasing order, so the table stays sorted
 * and a lookup is a binary search; an inode out of order is inserted.
 */
#include <stdlib.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "xalloc.h"

struct eaival {
	uint32_t ino;
	size_t len;
	unsigned char *data;
};

static struct eaival *vals;
static size_t nvals;
static size_t kept; /* bytes of all values */

struct gather {
	unsigned char *p;
	size_t len, cap;
};

static void
gather_data(const unsigned char *blk, size_t n, void *arg)
{
	struct gather *g = arg;

	if (n > g->cap - g->len)
		n = g->cap - g->len;
	memcpy(g->p + g->len, blk, n);
	g->len += n;
}

static void
gather_hole(size_t n, void *arg)
{
	struct gather *g = arg;

	if (n > g->cap - g->len)
		n = g->cap - g->len;
	memset(g->p + g->len, 0, n);
	g->len += n;
}

/* Index of the first value whose inode is not below ino. */
static size_t
find(uint32_t ino)
{
	size_t lo = 0, hi = nvals;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (vals[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Keep the content of the current inode (its header read into a).  One
 * too large for an EA value, or beyond what is kept in all, is skipped:
 * an entry that needs it then reports its value missing.
 */
void
eai_read(const struct inoattr *a)
{
	struct gather g = {NULL, 0, 0};
	size_t i;

	if (a->size > XATTR_VALUE_MAX || a->size > EA_MAX_BIG - kept) {
		tape_skipfile();
		return;
	}
	g.cap = (size_t)a->size;
	g.p = xmalloc(g.cap > 0 ? g.cap : 1);
	if (tape_getfile(gather_data, gather_hole, &g) != 0 || g.len != g.cap) {
		free(g.p); /* cut short: the reader reported it */
		return;
	}
	i = find(a->ino);
	if (i < nvals && vals[i].ino == a->ino) {
		kept -= vals[i].len; /* the same inode again: newer copy */
		free(vals[i].data);
	} else {
		vals = xreallocarray(vals, nvals + 1, sizeof(*vals));
		memmove(vals + i + 1, vals + i, (nvals - i) * sizeof(*vals));
		nvals++;
	}
	vals[i].ino = a->ino;
	vals[i].len = g.len;
	vals[i].data = g.p;
	kept += g.len;
}

/* The value kept for EA inode ino and its length, or NULL. */
const unsigned char *
eai_value(uint32_t ino, size_t *len)
{
	size_t i = find(ino);

	if (i >= nvals || vals[i].ino != ino)
		return NULL;
	*len = vals[i].len;
	return vals[i].data;
}
