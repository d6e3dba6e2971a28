/*
 * replay.c - queue again the records lost at end of media, behind the
 * next volume's header (doc/format.md 10.4): block for block with
 * their own numbers, so that they are re-blocked, re-compressed and
 * numbered like any records, and the header of the new volume shares
 * the number of the first of them.
 */
#include <stdint.h>
#include <stdlib.h>

#include "dumprestore.h"
#include "slave.h"
#include "tapeint.h"

/* Queue the blocks of the kept records again, in order, with their own
 * numbers, then free them.  skip_header: the first block is the header
 * of the volume that took nothing (the new header replaces it). */
void
replay_records(struct tape_state *ts, struct hist_rec *h, size_t n,
	       int skip_header)
{
	size_t i;
	uint32_t j, skip = skip_header ? 1 : 0;

	ts->replaying++;
	for (i = 0; i < n; i++) {
		const unsigned char *inl = h[i].inline_data;

		ts->replay_pos = h[i].first_block;
		ts->rec_start = h[i].at_start;
		for (j = 0; j < h[i].nitems; j++) {
			const struct slave_item *it = &h[i].items[j];
			uint32_t nb = it->nblocks - skip;
			uint64_t off = it->off + (uint64_t)skip * TP_BSIZE;

			/* the old header is the first block: inline */
			if (it->kind == SLAVE_INLINE ||
			    it->kind == SLAVE_HEADER) {
				records_inline(
				    ts, (enum slave_item_kind)it->kind,
				    inl + (size_t)skip * TP_BSIZE, nb);
				inl += (size_t)it->nblocks * TP_BSIZE;
			} else if (it->kind == SLAVE_DISK)
				records_disk(ts, off, nb);
			else
				records_zero(ts, nb);
			skip = 0;
		}
		free(h[i].items);
		free(h[i].inline_data);
	}
	ts->replaying--;
	ts->rec_start = ts->last;
}
