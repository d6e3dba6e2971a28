/*
 * inline.c - files whose archive keeps their content in the inode.
 *
 * dump 0.4b47 and 0.4b49+ archive an ext4 inline-data file (flag
 * TAPE_INLINE_DATA_FL in di_flags) with a map of holes only: its first 60
 * bytes are the inode's i_block copy (di_db, di_ib), the rest the value of
 * system.data in the EA record that follows (doc/format.md 5.5).  Our
 * dump writes such files as ordinary data blocks, which the map shows.
 * inline_read() recognises the inode form on the current TS_INODE header,
 * reads the body and the EA records, and keeps the content, which
 * body_getfile() then hands to the same callbacks a tape body would get.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "restore.h"
#include "extern.h"
#include "blockmap.h"
#include "spcl.h"
#include "xalloc.h"

#define IBLOCK_BYTES (sizeof(uint32_t) * (TAPE_NDADDR + TAPE_NIADDR))

/* An inline-data file or link whose map announces no data block. */
static bool
inode_form(const struct s_spcl *h)
{
	uint16_t type = h->c_dinode.di_mode & S_IFMT;
	uint64_t data, all;

	if (!(h->c_dinode.di_flags & TAPE_INLINE_DATA_FL) ||
	    (type != S_IFREG && type != S_IFLNK) ||
	    (h->c_flags & (DR_METAONLY | DR_EXTATTRIBUTES)))
		return false;
	return blockmap_count(h->c_addr, (size_t)h->c_count, &data, &all) &&
	    data == 0;
}

bool
inline_read(struct inline_body *b, uint32_t ino, struct ealist *ea)
{
	const struct tape_dinode *d = &curhdr.s_spcl.c_dinode;
	unsigned char iblock[IBLOCK_BYTES];
	const unsigned char *rest;
	size_t head, restlen = 0;

	memset(b, 0, sizeof(*b));
	if (!inode_form(&curhdr.s_spcl))
		return false;
	/* i_block is bytes; the reader swapped it as words. */
	memcpy(iblock, d->di_db, sizeof(iblock));
	if (tape_swapped())
		for (size_t i = 0; i < sizeof(iblock); i += 4) {
			uint32_t w;

			memcpy(&w, iblock + i, 4);
			w = spcl_bswap32(w);
			memcpy(iblock + i, &w, 4);
		}
	b->size = d->di_size;
	tape_skipfile();
	ea_read_records(ino, ea);
	head = b->size < sizeof(iblock) ? (size_t)b->size : sizeof(iblock);
	rest = ea_inline_data(ea, &restlen);
	if (restlen > b->size - head)
		restlen = (size_t)(b->size - head);
	b->len = head + (rest != NULL ? restlen : 0);
	b->data = xmalloc(b->len + 1);
	memcpy(b->data, iblock, head);
	if (rest != NULL)
		memcpy(b->data + head, rest, restlen);
	b->active = true;
	return true;
}

uint64_t
body_getfile(const struct inline_body *b,
	     void (*data)(const unsigned char *, size_t, void *),
	     void (*hole)(size_t, void *), void *arg)
{
	/* The inode form has no holes: hole() is for the tape's. */
	if (b == NULL || !b->active)
		return tape_getfile(data, hole, arg);
	for (size_t off = 0; off < b->len && data != NULL; off += TP_BSIZE)
		data(b->data + off,
		     b->len - off < TP_BSIZE ? b->len - off : TP_BSIZE, arg);
	return b->size - b->len;
}

/* Pass over the body, unless inline_read() already did. */
void
body_skip(const struct inline_body *b)
{
	if (b == NULL || !b->active)
		tape_skipfile();
}

void
inline_free(struct inline_body *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
