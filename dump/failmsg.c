/*
 * failmsg.c - say what went wrong in the output pipeline, in dump
 * 0.4b47's words: from the first error a helper wrote into the ring's
 * status area (kind, errno, record, and for the writer the first record
 * that did not land) or, failing that, from the way a helper ended.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "dumprestore.h"
#include "optr.h"
#include "ring.h"
#include "slave.h"
#include "tapeint.h"

static void
report_write_error(const struct tape_state *ts, const struct ring_status *st)
{
	if (ts->out.is_stdout)
		msg("write error on standard output: %s\n", strerror(st->err));
	else
		msg("write error %ju blocks into volume %d: %s\n",
		    (uintmax_t)(st->offset / TP_BSIZE), ts->volume,
		    strerror(st->err));
}

/* Say what went wrong, from the ring status or, failing that, from the
 * way a helper ended. */
void
fail_report(const struct tape_state *ts)
{
	const struct ring_status *st = ring_status(ts->ring);
	int i;

	switch (ring_failed(ts->ring) ? st->error : RING_OK) {
	case RING_SLAVE_READ:
		msg("read error from %s: %s: [block %ju]: count=%zu\n",
		    ts->cfg.device, strerror(st->err),
		    (uintmax_t)(st->offset / DEV_BSIZE), st->count);
		return;
	case RING_SLAVE_SHORT:
		msg("short read error from %s: [block %ju]: count=%zu, got=%zu\n",
		    ts->cfg.device, (uintmax_t)(st->offset / DEV_BSIZE),
		    st->count, st->got);
		return;
	case RING_SLAVE_OPEN:
		msg("Cannot open %s: %s\n", ts->cfg.device, strerror(st->err));
		return;
	case RING_WRITER_EOM:
		msg("End of tape detected\n");
		report_write_error(ts, st);
		return;
	case RING_WRITER_WRITE: report_write_error(ts, st); return;
	case RING_WRITER_PIPE: msg("Broken pipe\n"); return;
	case RING_WRITER_FSYNC:
		msg("Cannot flush output \"%s\": %s\n", ts->cfg.output,
		    strerror(st->err));
		return;
	case RING_WRITER_CLOSE:
		msg("Cannot close output \"%s\": %s\n", ts->cfg.output,
		    strerror(st->err));
		return;
	case RING_SLAVE_PROTO:
	case RING_INTERNAL:
		msg("internal error in the output pipeline at record %ju: %s\n",
		    (uintmax_t)st->record, strerror(st->err));
		return;
	default: break;
	}
	for (i = 0; i < NHELPERS; i++) {
		const char *who = i == WRITER_IDX ? "writer" : "slave";

		if (ts->procs.helpers[i].pid != 0 ||
		    procs_helper_ok(&ts->procs, i))
			continue;
		if (WIFSIGNALED(ts->procs.helpers[i].status))
			msg("The %s process was killed by signal %d\n", who,
			    WTERMSIG(ts->procs.helpers[i].status));
		else
			msg("The %s process exited with status %d\n", who,
			    WEXITSTATUS(ts->procs.helpers[i].status));
		return;
	}
	msg("A helper process stopped unexpectedly\n");
}

/* A helper exited or reported an error while the dump goes on. */
_Noreturn void
fail_abort(const struct tape_state *ts)
{
	fail_report(ts);
	dump_abort();
}
