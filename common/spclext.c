/*
 * spclext.c - encode and decode the header extension (spclext.h), byte
 * by byte as doc/format.md 2.6 lays it out.
 */
#include <stddef.h>
#include <string.h>

#include "spclext.h"

/* Offsets inside c_spare. */
#define EXT_MAGIC    0
#define EXT_VERSION  4
#define EXT_SIZE     5
#define EXT_FLAGS    6
#define EXT_DATASUM  8
#define EXT_DATE     16
#define EXT_DDATE    24
#define EXT_ATIME    32 /* seconds; their nanoseconds at EXT_ATIME_NS */
#define EXT_MTIME    40
#define EXT_CTIME    48
#define EXT_ATIME_NS 56
#define EXT_MTIME_NS 60
#define EXT_CTIME_NS 64
/* The bytes version 1 defines. */
#define EXT_V1_SIZE	68
#define EXT_FLAGS_KNOWN (SPCLEXT_DATASUM | SPCLEXT_DATES | SPCLEXT_TIMES)
#define NSEC_PER_SEC	1000000000u

#define EXT_VERSION_1 1

static const unsigned char ext_magic[4] = {'d', 'm', 'p', 'X'};

_Static_assert(sizeof(((struct s_spcl *)0)->c_spare) >= EXT_V1_SIZE,
	       "the extension fits in c_spare");

static unsigned char *
spare(union u_spcl *h)
{
	return (unsigned char *)h + offsetof(struct s_spcl, c_spare);
}

static const unsigned char *
spare_const(const union u_spcl *h)
{
	return (const unsigned char *)h + offsetof(struct s_spcl, c_spare);
}

static void
put_le(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
get_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void
spclext_put(union u_spcl *h, const struct spclext *x)
{
	unsigned char *p = spare(h);

	memset(p, 0, sizeof(h->s_spcl.c_spare));
	memcpy(p + EXT_MAGIC, ext_magic, sizeof(ext_magic));
	p[EXT_VERSION] = EXT_VERSION_1;
	p[EXT_SIZE] = EXT_V1_SIZE;
	put_le(p + EXT_FLAGS, x->flags & EXT_FLAGS_KNOWN, 2);
	if (x->flags & SPCLEXT_DATASUM)
		put_le(p + EXT_DATASUM, x->datasum, 8);
	if (x->flags & SPCLEXT_DATES) {
		put_le(p + EXT_DATE, (uint64_t)x->date, 8);
		put_le(p + EXT_DDATE, (uint64_t)x->ddate, 8);
	}
	if (x->flags & SPCLEXT_TIMES) {
		put_le(p + EXT_ATIME, (uint64_t)x->atime.sec, 8);
		put_le(p + EXT_MTIME, (uint64_t)x->mtime.sec, 8);
		put_le(p + EXT_CTIME, (uint64_t)x->ctime.sec, 8);
		put_le(p + EXT_ATIME_NS, x->atime.nsec, 4);
		put_le(p + EXT_MTIME_NS, x->mtime.nsec, 4);
		put_le(p + EXT_CTIME_NS, x->ctime.nsec, 4);
	}
}

static struct spclext_time
get_time(const unsigned char *sec, const unsigned char *nsec)
{
	struct spclext_time t;

	t.sec = (int64_t)get_le(sec, 8);
	t.nsec = (uint32_t)get_le(nsec, 4);
	return t;
}

bool
spclext_get(const union u_spcl *h, struct spclext *x)
{
	const unsigned char *p = spare_const(h);
	unsigned size;

	memset(x, 0, sizeof(*x));
	if (memcmp(p + EXT_MAGIC, ext_magic, sizeof(ext_magic)) != 0 ||
	    p[EXT_VERSION] < EXT_VERSION_1)
		return false;
	/* A later version appends: every field inside size is known. */
	size = p[EXT_SIZE];
	if (size < EXT_V1_SIZE || size > sizeof(h->s_spcl.c_spare))
		return false;
	x->flags = (unsigned)get_le(p + EXT_FLAGS, 2) & EXT_FLAGS_KNOWN;
	if (x->flags & SPCLEXT_DATASUM)
		x->datasum = get_le(p + EXT_DATASUM, 8);
	if (x->flags & SPCLEXT_DATES) {
		x->date = (int64_t)get_le(p + EXT_DATE, 8);
		x->ddate = (int64_t)get_le(p + EXT_DDATE, 8);
	}
	if (x->flags & SPCLEXT_TIMES) {
		x->atime = get_time(p + EXT_ATIME, p + EXT_ATIME_NS);
		x->mtime = get_time(p + EXT_MTIME, p + EXT_MTIME_NS);
		x->ctime = get_time(p + EXT_CTIME, p + EXT_CTIME_NS);
		/* Nanoseconds out of range: times nobody wrote. */
		if (x->atime.nsec >= NSEC_PER_SEC ||
		    x->mtime.nsec >= NSEC_PER_SEC ||
		    x->ctime.nsec >= NSEC_PER_SEC)
			x->flags &= ~(unsigned)SPCLEXT_TIMES;
	}
	return true;
}

bool
spclext_set_datasum(union u_spcl *h, uint64_t sum)
{
	struct spclext x;

	if (!spclext_get(h, &x) || !(x.flags & SPCLEXT_DATASUM))
		return false;
	put_le(spare(h) + EXT_DATASUM, sum, 8);
	return true;
}
