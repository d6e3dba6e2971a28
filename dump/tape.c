/*
 * tape.c - the master side of the output pipeline (interface: tape.h):
 * start it, feed it, finish it.
 *
 * Processes.  The master (this file, called by the file-system walk)
 * never reads data blocks and never touches the output.  tape_start()
 * maps a ring of record slots in shared memory (ring.c), opens the
 * output and forks the writer (writer.c) with fork_clone_io(), drops
 * its own copy of the output descriptor, then forks SLAVE_COUNT slaves
 * (slave.c), each connected to the master by its own stream socket.
 *
 * Records.  The master groups the queued tape blocks into records of
 * ntrec blocks and sends each record's description to its slave
 * (records.c); the helpers are started, watched and reaped in procs.c.
 *
 * Hand-off.  Slave s assembles record r directly in ring slot
 * r % nslots (inline bytes copied, disk runs pread into the slot) once
 * the writer has released that slot (it held record r - nslots), then
 * posts the slot full.  Since nslots is a multiple of SLAVE_COUNT groups
 * every slot has a single owning slave, so records land in sequence
 * order without any slave waiting on another.  The writer drains the slots in
 * record order and writes them in the output's native block (large
 * chunks for files and pipes, one record per write for tapes).
 *
 * Errors.  A helper that fails writes the first error into the ring's
 * status area (kind, errno, record, and for the writer the first record
 * that did not land) and exits non-zero.  The master checks the status
 * after every record and whenever it waits; it reports the error in
 * dump 0.4b47's words (failmsg.c) and aborts (dump_abort() kills the
 * helpers through tape_kill_helpers(), which main.c registers).
 *
 * tape_finish() pads the last record with TS_END headers and marks it
 * last, waits for the writer (which exits 0 only after the output was
 * fsynced - files, block devices - and closed; an end of media there
 * still starts a new volume), then closes the sockets and waits for the
 * slaves.
 *
 * Compression.  Each slave compresses the records it assembled (three
 * at once), so the master only sets DR_COMPRESSED in every header and
 * marks the first record of each volume "raw".
 *
 * The rest of the master side: volume.c (volume headers, switching),
 * volend.c (where a volume ends), sizes.c (compressed record sizes),
 * eom.c and replay.c (end of media), dialogue.c (the operator's part),
 * volname.c (volume names), volreport.c (closing lines).  All of them
 * share the one struct tape_state this file owns (tapeint.h).
 *
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compress.h"
#include "dumprestore.h"
#include "optr.h"
#include "qfa.h"
#include "ring.h"
#include "tape.h"
#include "tapeint.h"
#include "verify.h"
#include "writer.h"
#include "xalloc.h"

/* The state of the master side, shared by pointer with its other files.
 * Initialised so that tape_kill_helpers() and tape_volumes() are right
 * even before tape_start(). */
static struct tape_state ts = {
    .procs.socks = {-1, -1, -1},
    .volume = 1,
};

int
tape_start(const struct tape_config *c)
{
	int i;

	ts.cfg = *c;
	for (i = 0; i < NHELPERS; i++)
		ts.procs.helpers[i].pidfd = -1;
	if (ts.cfg.ntrec < 1 || ts.cfg.ntrec > MAXNTREC) {
		msg("Please choose a blocksize <= %dkB\n", MAXNTREC);
		return -1;
	}
	if (ts.cfg.compress != COMP_NONE &&
	    !compress_available((enum compress_method)ts.cfg.compress)) {
		msg("This dump was built without support for the requested "
		    "compression\n");
		return -1;
	}
	tape_volume_name(ts.cfg.output, ts.cfg.multi, 1, ts.vol_name,
			 sizeof(ts.vol_name));
	/* as for later volumes: the operator may fix it and retry (with
	 * -q or without a terminal the dump aborts, status 3) */
	while (writer_open(ts.vol_name, &ts.out) == -1)
		dialogue_open_failed(&ts.cfg, ts.vol_name, errno);
	volend_setup(&ts);
	sizes_setup(&ts, volend_limit(&ts, 1) != 0 || ts.tape_tenths != 0);
	ts.ring = ring_create(ts.cfg.ntrec, ts.cfg.compress != COMP_NONE,
			      ts.feedback);
	if (ts.ring == NULL) {
		msg("Cannot allocate the record ring: %s\n", strerror(errno));
		if (!ts.out.is_stdout)
			(void)close(ts.out.fd);
		return -1;
	}
	ts.cur.items =
	    xreallocarray(NULL, (size_t)ts.cfg.ntrec, sizeof(*ts.cur.items));
	ts.cur.inline_data =
	    xreallocarray(NULL, (size_t)ts.cfg.ntrec, TP_BSIZE);
	if (procs_start_writer(&ts.procs, &ts.out, ts.ring, ts.cfg.ntrec) ==
		-1 ||
	    procs_release_output(&ts.out) == -1 ||
	    procs_start_slaves(&ts.procs, &ts.cfg, ts.ring) == -1) {
		msg("Cannot start the output processes: %s\n", strerror(errno));
		procs_kill(&ts.procs);
		return -1;
	}
	ts.started = 1;
	ts.hist_on = !writer_is_pipe(&ts.out);
	ts.volume_over = volume_switch;
	volume_begin(&ts, &ts.last, 0);
	return 0;
}

int
tape_finish(union u_spcl *end)
{
	uint64_t bytes;
	int rc;

	if (!ts.started)
		return -1;
	ts.closing = 1;
	records_pad_final(&ts, end);
	while ((rc = procs_wait_writer(&ts.procs, ts.ring)) == 1) {
		/* end of media among the last records: they go again on
		 * the next volume, completed anew */
		volume_switch(&ts);
		records_pad_final(&ts, end);
	}
	if (rc == -1 || procs_wait_helpers(&ts.procs, ts.ring) == -1) {
		fail_report(&ts);
		procs_kill(&ts.procs);
		return -1;
	}
	if (ts.feedback) /* the last -Q positions (qfa.c) */
		sizes_learn(&ts, ts.nrecords);
	if (ts.cfg.verify &&
	    verify_volume(ts.vol_name, ts.volume, ts.cfg.compress != COMP_NONE,
			  ts.cfg.ntrec, 1) != 0)
		ts.verify_failed = 1;
	bytes = ring_volume_bytes(ts.ring);
	ts.total_cbytes += bytes;
	ts.compressed_totals_valid = ts.cfg.compress != COMP_NONE;
	volreport_volume(
	    &ts, time(NULL),
	    (ts.nrecords - ts.vol_first_rec) * (uint64_t)ts.cfg.ntrec, bytes);
	ts.read_errors = __atomic_load_n(&ring_status(ts.ring)->read_errors,
					 __ATOMIC_ACQUIRE);
	ring_destroy(ts.ring);
	ts.ring = NULL;
	ts.started = 0;
	return 0;
}

int
tape_verify_failed(void)
{
	return ts.verify_failed;
}

void
tape_header(union u_spcl *h)
{
	records_header(&ts, h);
}

void
tape_mem(const void *buf, size_t n)
{
	qfa_mem(buf, n); /* -A table of contents */
	records_mem(&ts, buf, n);
}

void
tape_disk(uint64_t off, size_t n)
{
	records_disk(&ts, off, n);
}

void
tape_zero(size_t n)
{
	records_zero(&ts, n);
}

uint64_t
tape_blocks(void)
{
	return ts.nblocks;
}

uint64_t
tape_blocks_read(void)
{
	return ts.ring == NULL ? 0 : ring_written_blocks(ts.ring);
}

int
tape_volumes(void)
{
	return ts.volume;
}

unsigned long
tape_read_errors(void)
{
	return ts.read_errors;
}

int
tape_compress_totals(uint64_t *ukb, uint64_t *ckb)
{
	if (!ts.compressed_totals_valid)
		return 0;
	*ukb = ts.nblocks;
	*ckb = ts.total_cbytes / TP_BSIZE;
	return 1;
}

int
tape_output_is_pipe(void)
{
	return writer_is_pipe(&ts.out);
}

void
tape_kill_helpers(void)
{
	procs_kill(&ts.procs);
}
