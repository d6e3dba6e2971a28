/*
 * earead.c - read the EA records that follow an inode into a struct
 * ealist (doc/format.md 8).
 *
 * A record's payload is its first di_size bytes, at most EA_MAX_PAYLOAD.
 * The blocks after the one holding the payload's end are its tail: empty
 * in every archive but ours, where a tail is an EA block carrying one
 * value from an EA inode (8.4).  Payloads go to the first two slots of
 * the list, tails one after the other into EA_SLOT_BIG, each behind its
 * length as a native uint32_t and padded to 4 bytes (ea.c walks them).
 * Nothing here is parsed beyond the magic: ea.c checks every entry.
 */
#include <stdlib.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "xalloc.h"

#define EA_WORD	     4
#define EA_FRAME_HDR sizeof(uint32_t)

struct eabuf {
	unsigned char *p;
	size_t len, cap;
	bool toobig;
};

static void
ea_data(const unsigned char *blk, size_t n, void *arg)
{
	struct eabuf *b = arg;

	if (b->toobig)
		return;
	if (n > EA_MAX_RECORD - b->len) {
		b->toobig = true;
		return;
	}
	if (b->len + n > b->cap) {
		b->cap = b->cap * 2 > b->len + n ? b->cap * 2 : b->len + n;
		if (b->cap > EA_MAX_RECORD)
			b->cap = EA_MAX_RECORD;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, blk, n);
	b->len += n;
}

static uint32_t
le32_at(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static bool
all_zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/* Append tail t[0..len) to the EA_SLOT_BIG list of out. */
static bool
keep_tail(struct ealist *out, const unsigned char *t, size_t len)
{
	size_t have = out->len[EA_SLOT_BIG];
	size_t framed = EA_FRAME_HDR + ((len + EA_WORD - 1) & ~(size_t)3);
	uint32_t l = (uint32_t)len;

	if (framed > EA_MAX_BIG - have)
		return false;
	out->payload[EA_SLOT_BIG] =
	    xrealloc(out->payload[EA_SLOT_BIG], have + framed);
	memset(out->payload[EA_SLOT_BIG] + have, 0, framed);
	memcpy(out->payload[EA_SLOT_BIG] + have, &l, sizeof(l));
	memcpy(out->payload[EA_SLOT_BIG] + have + EA_FRAME_HDR, t, len);
	out->len[EA_SLOT_BIG] = have + framed;
	return true;
}

/* A payload without a single entry: what other restores see of a
 * record that carries a tail. */
static bool
empty_list(const unsigned char *p, size_t len)
{
	return len >= 2 * EA_WORD && le32_at(p) == EXT2_XATTR_MAGIC2 &&
	    le32_at(p + EA_WORD) == 0;
}

/* File the record read into b, whose header said di_size = size. */
static void
ea_keep(struct ealist *out, struct eabuf *b, size_t size)
{
	size_t vis = size < b->len ? size : b->len;
	size_t toff = (size + TP_BSIZE - 1) / TP_BSIZE * TP_BSIZE;
	int slot = out->payload[0] == NULL ? 0
	    : out->payload[1] == NULL	   ? 1
					   : -1;

	if (toff == 0)
		toff = TP_BSIZE;
	if (b->len > toff) {
		const unsigned char *t = b->p + toff;
		size_t tlen = b->len - toff;

		if (tlen >= EA_WORD && le32_at(t) == EXT2_XATTR_MAGIC) {
			if (keep_tail(out, t, tlen))
				out->n++;
			else {
				rmsg("EA values of inode %lu: over %d bytes, "
				     "not restored\n",
				     (unsigned long)out->ino, EA_MAX_BIG);
				ea_count_error();
			}
			if (empty_list(b->p, vis))
				vis = 0;
		} else if (!all_zero(t, tlen)) {
			rmsg("EA record of inode %lu: %zu bytes after its "
			     "payload not understood\n",
			     (unsigned long)out->ino, tlen);
			ea_count_error();
		}
	}
	if (vis == 0 || slot < 0) {
		free(b->p);
		return;
	}
	out->payload[slot] = b->p;
	out->len[slot] = vis;
	out->n++;
}

/* Consume the EA records that follow inode ino; keep them in out (may be
 * NULL to discard). */
void
ea_read_records(uint32_t ino, struct ealist *out)
{
	if (out != NULL)
		out->ino = ino;
	while (curhdr.s_spcl.c_type == TS_INODE &&
	       (curhdr.s_spcl.c_flags & DR_EXTATTRIBUTES) &&
	       curhdr.s_spcl.c_inumber == ino) {
		struct eabuf b = {NULL, 0, 0, false};
		uint64_t size = curhdr.s_spcl.c_dinode.di_size;

		if (out == NULL) {
			tape_skipfile();
			continue;
		}
		/* Refuse what the header announces before reading any of
		 * it, with 0.4b47's words (doc/format.md 8.3). */
		if (size > EA_MAX_PAYLOAD) {
			rmsg("EA size too big (%llu)\n",
			     (unsigned long long)size);
			ea_count_error();
			tape_skipfile();
			continue;
		}
		(void)tape_getfile(ea_data, NULL, &b);
		if (b.toobig) {
			rmsg("EA size too big (inode %lu)\n",
			     (unsigned long)ino);
			ea_count_error();
			free(b.p);
			continue;
		}
		ea_keep(out, &b, (size_t)size);
	}
}

void
ea_free(struct ealist *ea)
{
	for (size_t i = 0; i < EA_SLOTS; i++) {
		free(ea->payload[i]);
		ea->payload[i] = NULL;
		ea->len[i] = 0;
	}
	ea->n = 0;
}
