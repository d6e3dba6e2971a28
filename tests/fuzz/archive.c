/*
 * archive.c - build small archives in memory for the fuzz targets that
 * wrap their input (a directory image, an EA payload, compressed
 * records) in the records restore expects around it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spcl.h"
#include "xalloc.h"
#include "harness.h"

int32_t ab_date = FUZZ_DATE;

static void
ab_grow(struct abuf *b, size_t more)
{
	if (b->len + more > b->cap) {
		b->cap = (b->len + more) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
}

void
ab_init_header(union u_spcl *h, int type, uint32_t ino)
{
	memset(h, 0, sizeof(*h));
	h->s_spcl.c_type = type;
	h->s_spcl.c_date = ab_date;
	h->s_spcl.c_volume = 1;
	h->s_spcl.c_inumber = ino;
	h->s_spcl.c_magic = NFS_MAGIC;
	h->s_spcl.c_flags = DR_NEWINODEFMT;
	h->s_spcl.c_ntrec = NTREC;
}

void
ab_header(struct abuf *b, const union u_spcl *h, int swapped)
{
	union u_spcl c = *h;

	if (swapped) {
		int type = c.s_spcl.c_type;

		c.s_spcl.c_checksum = 0;
		spcl_swap_header(&c);
		if (type == TS_TAPE || type == TS_END)
			spcl_swap_inos(&c);
		c.s_spcl.c_checksum = (int32_t)spcl_bswap32(
		    (uint32_t)CHECKSUM - spcl_sum_swapped(&c));
	} else
		spcl_set_checksum(&c);
	ab_grow(b, TP_BSIZE);
	memcpy(b->p + b->len, &c, TP_BSIZE);
	b->len += TP_BSIZE;
}

void
ab_data(struct abuf *b, const void *p, size_t len)
{
	size_t padded = (len + TP_BSIZE - 1) / TP_BSIZE * TP_BSIZE;

	ab_grow(b, padded);
	if (len > 0)
		memcpy(b->p + b->len, p, len);
	memset(b->p + b->len + len, 0, padded - len);
	b->len += padded;
}

void
ab_start(struct abuf *b, int swapped, int32_t flags, int32_t ntrec)
{
	union u_spcl h;
	unsigned char map[TP_BSIZE];

	memset(map, 0xff, sizeof(map));
	ab_init_header(&h, TS_TAPE, 0);
	h.s_spcl.c_flags |= DR_NEWHEADER | flags;
	h.s_spcl.c_ntrec = ntrec;
	h.s_spcl.c_level = 0;
	ab_header(b, &h, swapped);
	ab_init_header(&h, TS_CLRI, 0);
	h.s_spcl.c_count = 1;
	h.s_spcl.c_dinode.di_size = TP_BSIZE;
	ab_header(b, &h, swapped);
	ab_data(b, map, sizeof(map));
	ab_init_header(&h, TS_BITS, ROOTINO);
	h.s_spcl.c_count = 1;
	h.s_spcl.c_dinode.di_size = TP_BSIZE;
	ab_header(b, &h, swapped);
	ab_data(b, map, sizeof(map));
}

void
ab_file(struct abuf *b, int swapped, uint32_t ino, uint16_t mode, int32_t flags,
	const void *p, size_t len, uint64_t size)
{
	size_t blocks = (len + TP_BSIZE - 1) / TP_BSIZE;
	const unsigned char *d = p;
	int type = TS_INODE;

	/* One header per TP_NINDIR blocks: TS_INODE, then TS_ADDR. */
	do {
		size_t n = blocks < TP_NINDIR ? blocks : TP_NINDIR;
		size_t bytes = len < n * TP_BSIZE ? len : n * TP_BSIZE;
		union u_spcl h;

		ab_init_header(&h, type, ino);
		h.s_spcl.c_flags |= flags;
		if (flags & DR_EXTATTRIBUTES)
			h.s_spcl.c_extattributes = EXT_XATTR;
		h.s_spcl.c_dinode.di_mode = mode;
		h.s_spcl.c_dinode.di_nlink = 1;
		h.s_spcl.c_dinode.di_size = size;
		h.s_spcl.c_count = (int32_t)n;
		memset(h.s_spcl.c_addr, 1, n);
		ab_header(b, &h, swapped);
		ab_data(b, d, bytes);
		if (bytes > 0) /* d may be NULL with len 0 */
			d += bytes;
		len -= bytes;
		blocks -= n;
		type = TS_ADDR;
	} while (blocks > 0);
}

void
ab_free(struct abuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
