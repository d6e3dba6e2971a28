/*
 * sizes.c - the output size of every record of a compressed dump.  The
 * slaves publish each compressed size in the ring (a "feedback" ring)
 * when the -Q positions (qfa.c) or a volume limit (volend.c) need them;
 * the master learns them here in record order, so it runs at most
 * about three records ahead of compression, just as 0.4b47's three
 * writer processes did.
 */
#include <stdint.h>

#include "compress.h"
#include "qfa.h"
#include "ring.h"
#include "tapeint.h"
#include "writer.h"

/* Whether the sizes are needed (limited: volumes end by size, volend.c),
 * and the -Q unit of positions. */
void
sizes_setup(struct tape_state *ts, int limited)
{
	ts->feedback =
	    ts->cfg.compress != COMP_NONE && (limited || qfa_wants_sizes(1));
	qfa_setup(ts->cfg.ntrec, ts->cfg.compress != COMP_NONE,
		  ts->out.kind == WRITER_TAPE ? QFA_RECORDS : QFA_BYTES);
}

struct sized_arg {
	struct ring *ring;
	uint64_t rec;
	size_t len;
};

static int
poll_sized(void *arg)
{
	struct sized_arg *a = arg;

	return ring_wait_sized(a->ring, a->rec, POLL_INTERVAL_MS, &a->len);
}

/* Learn the output sizes of the records before rec (feedback rings). */
void
sizes_learn(struct tape_state *ts, uint64_t rec)
{
	struct sized_arg a;

	a.ring = ts->ring;
	while (ts->sized_next < rec) {
		a.rec = ts->sized_next;
		if (procs_wait_ring(&ts->procs, ts->ring, poll_sized, &a) == -1)
			fail_abort(ts);
		/* -Q positions (qfa.c) */
		qfa_sized(ts->sized_next, a.len);
		if (ts->sized_next >= ts->vol_first_rec) {
			ts->vol_known_bytes += a.len;
			if (ts->tape_tenths != 0)
				ts->vol_known_tenths +=
				    a.len / ts->density + ts->gap_tenths;
		}
		ts->sized_next++;
	}
}
