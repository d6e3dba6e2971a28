/*
 * eom.c - the end-of-media protocol, master side.  When a write returns
 * 0 or ENOSPC (not on pipes) the writer cuts a regular file back to its
 * last complete record, closes the volume and reports the first record
 * that did not land; it then discards records as they arrive, so nobody
 * blocks, until the master reacts (after the record it is sending, or
 * while it finishes).  The master keeps every record it sent until the
 * writer reports it written (the slave packet's items and inline
 * blocks: a few MiB at most), so that the lost ones can be queued again
 * behind the next volume's header (replay.c, doc/format.md 10.4).
 * hist[rec % hist_cap] holds record rec for hist_first <= rec < nrecords.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dumprestore.h"
#include "optr.h"
#include "ring.h"
#include "slave.h"
#include "tapeint.h"
#include "xalloc.h"

#define HIST_MIN_CAP 64

/* Drop the entries of records the writer has put on the medium. */
static void
hist_trim(struct tape_state *ts)
{
	uint64_t done = ring_written(ts->ring);

	while (ts->hist_first < done && ts->hist_first < ts->nrecords) {
		struct hist_rec *h = &ts->hist[ts->hist_first % ts->hist_cap];

		free(h->items);
		free(h->inline_data);
		h->items = NULL;
		h->inline_data = NULL;
		ts->hist_first++;
	}
}

/* Make room for one more entry, keeping every entry at rec % cap. */
static void
hist_grow(struct tape_state *ts)
{
	size_t ncap = ts->hist_cap ? ts->hist_cap * 2 : HIST_MIN_CAP;
	struct hist_rec *n = xcalloc(ncap, sizeof(*n));
	uint64_t r;

	for (r = ts->hist_first; r < ts->nrecords; r++)
		n[r % ncap] = ts->hist[r % ts->hist_cap];
	free(ts->hist);
	ts->hist = n;
	ts->hist_cap = ncap;
}

/* Keep record nrecords (in cur) until it is known to be written. */
void
eom_keep(struct tape_state *ts)
{
	struct hist_rec *h;

	hist_trim(ts);
	if (ts->nrecords - ts->hist_first >= ts->hist_cap)
		hist_grow(ts);
	h = &ts->hist[ts->nrecords % ts->hist_cap];
	h->first_block = ts->cur_first_block;
	h->nitems = ts->cur.nitems;
	h->ninline = ts->cur.ninline;
	h->items = xreallocarray(NULL, ts->cur.nitems, sizeof(*ts->cur.items));
	memcpy(h->items, ts->cur.items,
	       ts->cur.nitems * sizeof(*ts->cur.items));
	h->inline_data = NULL;
	if (ts->cur.ninline > 0) {
		h->inline_data = xreallocarray(NULL, ts->cur.ninline, TP_BSIZE);
		memcpy(h->inline_data, ts->cur.inline_data,
		       (size_t)ts->cur.ninline * TP_BSIZE);
	}
	h->at_start = ts->rec_start;
}

/*
 * The writer closed the volume: return the first record that did not
 * land (nrecords when all did) and set *eom when the volume ended at
 * end of media.  A volume that took no record at all ends the dump
 * when the next volume is no new medium the operator mounts.
 */
uint64_t
eom_check(struct tape_state *ts, int *eom)
{
	uint64_t lost;

	*eom = ring_volume_take_eom(ts->ring, &lost);
	if (!*eom || lost > ts->nrecords)
		lost = ts->nrecords;
	if (*eom)
		msg("End of tape detected\n");
	if (*eom && lost == ts->vol_first_rec &&
	    volname_named(&ts->cfg, ts->volume + 1)) {
		/* not one record fitted, and the next volume is no new
		 * medium the operator mounted: it would do the same */
		msg("Volume %d holds no complete record: the medium is full\n",
		    ts->volume);
		dump_abort();
	}
	return lost;
}

/*
 * Forget the records before lost (they landed) and, after end of
 * media, hand back those from lost on in *lost_recs (malloced, the
 * count is returned) so that they can be queued again.
 */
size_t
eom_take_lost(struct tape_state *ts, uint64_t lost, int eom,
	      struct hist_rec **lost_recs)
{
	uint64_t r;
	size_t nlost = 0;

	*lost_recs = NULL;
	/* records that landed before the lost one: no longer needed */
	for (r = ts->hist_first; ts->hist_on && r < lost; r++) {
		free(ts->hist[r % ts->hist_cap].items);
		free(ts->hist[r % ts->hist_cap].inline_data);
	}
	if (ts->hist_on && ts->hist_first < lost)
		ts->hist_first = lost;
	if (eom && lost < ts->nrecords) {
		/* take the lost records out of the history before the
		 * writer's progress on the next volume trims them */
		nlost = (size_t)(ts->nrecords - lost);
		*lost_recs = xreallocarray(NULL, nlost, sizeof(**lost_recs));
		for (r = lost; r < ts->nrecords; r++)
			(*lost_recs)[r - lost] = ts->hist[r % ts->hist_cap];
		ts->hist_first = ts->nrecords;
	}
	return nlost;
}
