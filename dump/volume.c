/*
 * volume.c - the life of a volume: its TS_TAPE header and opening
 * lines, and the switch to the next one.
 *
 * A volume ends after a record marked VOLEND (volend.c) or at end of
 * media (eom.c); either way the writer writes what it has, flushes and
 * closes the volume and reports.  The master then prints the volume
 * lines, runs the -F script, finds the next name (-M, the -f list, or
 * the operator on /dev/tty: dialogue.c), has the writer open it, and
 * queues the new volume's TS_TAPE, built from the last data header
 * queued so that it carries that inode's c_dinode and c_addr and, in
 * c_count, how many of its data blocks are still to come
 * (doc/format.md 10.2).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compress.h"
#include "dumprestore.h"
#include "optr.h"
#include "ring.h"
#include "tapeint.h"
#include "verify.h"

/* The TS_TAPE header of a volume (doc/format.md 2.5, 10.2), made from
 * vs, the last data header before the volume's first block. */
static void
queue_volume_header(struct tape_state *ts, const struct hdr_state *vs)
{
	const struct s_spcl *id = &ts->cfg.ident->s_spcl;
	union u_spcl h;
	struct s_spcl *s = &h.s_spcl;
	uint64_t at = records_next(ts);

	if (ts->volume > 1 && vs->valid) {
		/* carries the interrupted inode's c_dinode, c_addr and
		 * number; c_count = its data blocks still to come */
		h = vs->hdr;
		s->c_count = vs->end > at ? (int32_t)(vs->end - at) : 0;
	} else {
		memset(&h, 0, sizeof(h));
		s->c_inumber = 0;
		s->c_count = 1;
	}
	s->c_type = TS_TAPE;
	s->c_date = id->c_date;
	s->c_ddate = id->c_ddate;
	s->c_level = id->c_level;
	memcpy(s->c_label, id->c_label, sizeof(s->c_label));
	memcpy(s->c_filesys, id->c_filesys, sizeof(s->c_filesys));
	memcpy(s->c_dev, id->c_dev, sizeof(s->c_dev));
	memcpy(s->c_host, id->c_host, sizeof(s->c_host));
	s->c_flags |= DR_NEWHEADER | DR_NEWINODEFMT;
	records_header(ts, &h);
}

/*
 * Start volume `volume` (its output is open): header and messages.  The
 * header normally takes the next block number; when blocks already
 * numbered are queued again (end of media, replaying) it shares the
 * number of the first of them (doc/format.md 10.4).
 */
void
volume_begin(struct tape_state *ts, const struct hdr_state *vs,
	     int shared_number)
{
	ts->vol_start = time(NULL);
	ts->vol_first_block = records_next(ts);
	ts->vol_first_rec = ts->nrecords;
	ts->vol_known_bytes = 0;
	ts->vol_known_tenths = 0;
	ts->firstrec = (int32_t)ts->phys_blocks;
	ts->vol_limit = volend_limit(ts, ts->volume);
	if (volname_named(&ts->cfg, ts->volume))
		msg("Dumping volume %d on %s\n", ts->volume, ts->vol_name);
	ts->nocount = shared_number;
	queue_volume_header(ts, vs);
	ts->nocount = 0;
	/* a counted volume header moves the rest of the interrupted
	 * inode's data one block on */
	if (!shared_number && ts->last.valid &&
	    ts->last.end > ts->vol_first_block)
		ts->last.end++;
	msg("Volume %d started with block %ju at: %s", ts->volume,
	    (uintmax_t)ts->vol_first_block + 1, ctime(&ts->vol_start));
	if (ts->volume > 1)
		msg("Volume %d begins with blocks from inode %u\n", ts->volume,
		    (unsigned)(vs->valid ? vs->hdr.s_spcl.c_inumber : 0));
}

static int
poll_closed(void *arg)
{
	struct tape_state *ts = arg;

	return ring_volume_wait_closed(ts->ring, POLL_INTERVAL_MS);
}

struct opened_arg {
	struct ring *ring;
	int err;
};

static int
poll_opened(void *arg)
{
	struct opened_arg *a = arg;

	return ring_volume_wait_opened(a->ring, POLL_INTERVAL_MS, &a->err);
}

/*
 * The current volume is over: the writer closed it, either after a
 * record marked VOLEND or at end of media.  Print the volume lines,
 * run the -F script, find the next output (-M, the -f list, or the
 * operator unless the script said the volume is ready), have the
 * writer open it, then start the volume.  After end of media, every
 * record from the first one that did not land is queued again behind
 * the new header (doc/format.md 10.4).
 */
void
volume_switch(struct tape_state *ts)
{
	struct hdr_state vs;
	struct opened_arg a;
	struct hist_rec *lost_recs;
	uint64_t bytes, lost, old_first_rec;
	size_t nlost;
	int eom, ready;

	if (procs_wait_ring(&ts->procs, ts->ring, poll_closed, ts) == -1)
		fail_abort(ts);
	lost = eom_check(ts, &eom);
	if (ts->cfg.verify && eom)
		verify_stop(ts->volume);
	else if (ts->cfg.verify &&
		 verify_volume(ts->vol_name, ts->volume,
			       ts->cfg.compress != COMP_NONE, ts->cfg.ntrec,
			       0) != 0)
		ts->verify_failed = 1;
	bytes = ring_volume_bytes(ts->ring);
	ts->total_cbytes += bytes;
	/* every size still to come gets posted (the writer has written or
	 * discards every record sent): consume them, so that the next
	 * volume counts from its own records */
	if (ts->feedback)
		sizes_learn(ts, ts->nrecords);
	/* the blocks of the records that landed: after end of media the
	 * master has queued more, which go to the next volume */
	volreport_volume(ts, time(NULL),
			 (lost - ts->vol_first_rec) * (uint64_t)ts->cfg.ntrec,
			 bytes);
	old_first_rec = ts->vol_first_rec;
	ts->phys_blocks += (lost - ts->vol_first_rec) * (uint64_t)ts->cfg.ntrec;
	nlost = eom_take_lost(ts, lost, eom, &lost_recs);
	ready = ts->cfg.volscript != NULL &&
	    dialogue_script(&ts->cfg, ts->vol_name, ts->volume);
	ts->volume++;
	tape_volume_name(ts->cfg.output, ts->cfg.multi, ts->volume,
			 ts->vol_name, sizeof(ts->vol_name));
	if (!ready && !volname_named(&ts->cfg, ts->volume))
		dialogue_media_change(&ts->cfg, ts->volume);
	for (;;) {
		ring_volume_next(ts->ring, ts->vol_name, ts->nrecords);
		a.ring = ts->ring;
		if (procs_wait_ring(&ts->procs, ts->ring, poll_opened, &a) ==
		    -1)
			fail_abort(ts);
		if (a.err == 0)
			break;
		dialogue_open_failed(&ts->cfg, ts->vol_name, a.err);
	}
	if (nlost > 0) {
		vs = lost_recs[0].at_start;
		ts->replaying++;
		ts->replay_pos = lost_recs[0].first_block;
		volume_begin(ts, &vs, 1);
		ts->replaying--;
		replay_records(ts, lost_recs, nlost, lost == old_first_rec);
		free(lost_recs);
	} else {
		vs = ts->last;
		volume_begin(ts, &vs, ts->replaying > 0);
	}
	/* the new volume may have ended already */
	if (!ts->replaying && ring_volume_eom_pending(ts->ring))
		volume_switch(ts);
}
