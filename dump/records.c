/*
 * records.c - group the queued tape blocks into records of ntrec blocks
 * and hand each record's description to its slave.
 *
 * A record is described by a short list of items: inline blocks
 * (headers the master built, memory it was handed: carried in the
 * packet), disk runs (offset and length; adjacent calls are merged into
 * one run, so a file extent is one pread) and zero runs.  Record r's
 * packet goes to slave ring_slave_of(r) (groups of consecutive records,
 * ring.h) over its stream socket.  The socket buffers hold several
 * packets, so the master only waits when that slave is genuinely
 * behind; while it waits it also watches the helpers (procs.c), so a
 * dead slave or writer cannot leave it blocked.  When a record ends its
 * volume, flush_record() calls the volume_over hook that tape.c set
 * (volume.c), which queues the next volume's header here in turn.
 *
 * Every header gets c_tapea (its block's logical number), c_volume,
 * c_firstrec, c_ntrec, c_magic, DR_NEWINODEFMT (and DR_COMPRESSED) and
 * its checksum here.  Blocks queued again after end of media (replay.c)
 * keep their numbers: replay_pos is the number of the next one and
 * nblocks does not move.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "blockmap.h"
#include "compress.h"
#include "dumprestore.h"
#include "qfa.h"
#include "ring.h"
#include "sig.h"
#include "slave.h"
#include "spcl.h"
#include "spclext.h"
#include "tapeint.h"
#include "xio.h"

/* The logical number of the next block queued. */
uint64_t
records_next(const struct tape_state *ts)
{
	return ts->replaying ? ts->replay_pos : ts->nblocks;
}

/* Send the iovecs completely to slave s, waiting (and watching the
 * helpers) whenever its socket is full. */
static void
send_all(struct tape_state *ts, int s, struct iovec *iov, int iovcnt)
{
	struct msghdr mh;

	memset(&mh, 0, sizeof(mh));
	while (iovcnt > 0) {
		ssize_t n;

		mh.msg_iov = iov;
		mh.msg_iovlen = (size_t)iovcnt;
		n = sendmsg(ts->procs.socks[s], &mh,
			    MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
			    procs_wait_event(&ts->procs, ts->ring,
					     ts->procs.socks[s], POLLOUT) == 1)
				continue;
			/* EPIPE: the slave closed its end, so it is exiting;
			 * collect it to say how it ended */
			if (errno == EPIPE || errno == ECONNRESET)
				(void)procs_reap(&ts->procs, s, 1);
			fail_abort(ts);
		}
		iov_advance(&iov, &iovcnt, (size_t)n);
	}
}

/* The record is complete: hand it to its slave and start the next. */
static void
flush_record(struct tape_state *ts)
{
	struct slave_req req;
	struct iovec iov[3];
	int iovcnt = 2;
	int volend = volend_full(ts, ts->nrecords);

	memset(&req, 0, sizeof(req));
	req.magic = SLAVE_REQ_MAGIC;
	req.flags = ts->final_pending && !ts->replaying ? SLAVE_REQ_LAST : 0;
	if (ts->nrecords == ts->vol_first_rec)
		req.flags |= SLAVE_REQ_RAW;
	if (volend)
		req.flags |= SLAVE_REQ_VOLEND;
	req.record = ts->nrecords;
	req.nitems = ts->cur.nitems;
	req.ninline = ts->cur.ninline;
	iov[0].iov_base = &req;
	iov[0].iov_len = sizeof(req);
	iov[1].iov_base = ts->cur.items;
	iov[1].iov_len = ts->cur.nitems * sizeof(*ts->cur.items);
	if (ts->cur.ninline > 0) {
		iov[2].iov_base = ts->cur.inline_data;
		iov[2].iov_len = (size_t)ts->cur.ninline * TP_BSIZE;
		iovcnt = 3;
	}
	send_all(ts, ring_slave_of(ts->ring, ts->nrecords), iov, iovcnt);
	if (ts->feedback && ts->nrecords >= LOOKBEHIND_RECORDS) /* -Q (qfa.c) */
		sizes_learn(ts, ts->nrecords + 1 - LOOKBEHIND_RECORDS);
	if (req.flags & SLAVE_REQ_LAST)
		ts->final_pending = 0;
	if (ts->hist_on)
		eom_keep(ts);
	ts->nrecords++;
	ts->cur.nitems = ts->cur.ninline = ts->cur.fill = 0;
	if (!ts->replaying)
		ts->rec_start = ts->last;
	if (ring_failed(ts->ring))
		fail_abort(ts);
	sig_check();
	if (volend || (!ts->replaying && ring_volume_eom_pending(ts->ring)))
		ts->volume_over(ts);
}

/*
 * Add up to n blocks of one kind to the record, merging with the last
 * item when it continues it.  Returns how many blocks were taken (they
 * stop at the end of the record, which is then flushed).
 */
static size_t
add_item(struct tape_state *ts, enum slave_item_kind kind, uint64_t off,
	 size_t n)
{
	struct slave_item *it =
	    ts->cur.nitems ? &ts->cur.items[ts->cur.nitems - 1] : NULL;
	size_t room = (size_t)ts->cfg.ntrec - ts->cur.fill;
	size_t k = n < room ? n : room;

	if (ts->cur.fill == 0)
		ts->cur_first_block = records_next(ts);
	if (it != NULL && it->kind == (uint32_t)kind &&
	    (kind != SLAVE_DISK ||
	     it->off + (uint64_t)it->nblocks * TP_BSIZE == off))
		it->nblocks += (uint32_t)k;
	else {
		it = &ts->cur.items[ts->cur.nitems++];
		it->kind = (uint32_t)kind;
		it->nblocks = (uint32_t)k;
		it->off = kind == SLAVE_DISK ? off : 0;
	}
	ts->cur.fill += (uint32_t)k;
	if (ts->nocount)
		;
	else if (ts->replaying)
		ts->replay_pos += k;
	else
		ts->nblocks += k;
	return k;
}

static void
record_done_check(struct tape_state *ts)
{
	if (ts->cur.fill == (uint32_t)ts->cfg.ntrec)
		flush_record(ts);
}

/* Queue blocks from memory, as data or (SLAVE_HEADER) as headers. */
void
records_inline(struct tape_state *ts, enum slave_item_kind kind,
	       const void *buf, size_t n)
{
	const unsigned char *p = buf;

	while (n > 0) {
		size_t room = (size_t)ts->cfg.ntrec - ts->cur.fill;
		size_t k = n < room ? n : room;

		memcpy(ts->cur.inline_data + (size_t)ts->cur.ninline * TP_BSIZE,
		       p, k * TP_BSIZE);
		(void)add_item(ts, kind, 0, k);
		ts->cur.ninline += (uint32_t)k;
		p += k * TP_BSIZE;
		n -= k;
		record_done_check(ts);
	}
}

/* Queue data blocks from memory (tape_mem without the -A copy). */
void
records_mem(struct tape_state *ts, const void *buf, size_t n)
{
	records_inline(ts, SLAVE_INLINE, buf, n);
}

void
records_disk(struct tape_state *ts, uint64_t off, size_t n)
{
	while (n > 0) {
		size_t k = add_item(ts, SLAVE_DISK, off, n);

		off += (uint64_t)k * TP_BSIZE;
		n -= k;
		record_done_check(ts);
	}
}

void
records_zero(struct tape_state *ts, size_t n)
{
	while (n > 0) {
		n -= add_item(ts, SLAVE_ZERO, 0, n);
		record_done_check(ts);
	}
}

/* Remember the last header with data behind it, and where its data
 * ends (a volume switch before that point continues it). */
static void
note_header(struct tape_state *ts, const union u_spcl *h)
{
	const struct s_spcl *s = &h->s_spcl;
	uint64_t data;

	if (s->c_type == TS_TAPE || s->c_type == TS_END)
		return;
	(void)blockmap_header_blocks(s, &data);
	ts->last.hdr = *h;
	ts->last.valid = 1;
	ts->last.end = records_next(ts) + 1 + data;
}

/*
 * The extension of every header (spclext.h): the dump's dates from the
 * identity template, an inode's times whole on its own headers, and a
 * request for the checksum of the data since the previous header, which
 * the slave that assembles the record fills in: only it has read that
 * data.  A volume header asks for the sum of
 * the end of the volume before it, unless that volume ended at the end
 * of the media: the records queued again behind it are not the ones
 * the sum would follow (doc/format.md 2.6).  The -A table of contents
 * gets the header without the request: its data is not the tape's.
 */
static void
extend_header(const struct tape_state *ts, union u_spcl *h, int datasum)
{
	int32_t type = h->s_spcl.c_type;
	struct spclext x, id;

	/* An inode's times (inode.c), on its own headers only: a later
	 * volume's header copies an inode header whole. */
	if (!spclext_get(h, &x) || (type != TS_INODE && type != TS_ADDR))
		x.flags = 0;
	x.flags &= SPCLEXT_TIMES;
	if (spclext_get(ts->cfg.ident, &id) && (id.flags & SPCLEXT_DATES)) {
		x.flags |= SPCLEXT_DATES;
		x.date = id.date;
		x.ddate = id.ddate;
	}
	if (datasum)
		x.flags |= SPCLEXT_DATASUM;
	spclext_put(h, &x);
	spcl_set_checksum(h);
}

void
records_header(struct tape_state *ts, union u_spcl *h)
{
	struct s_spcl *s = &h->s_spcl;

	s->c_tapea = (uint32_t)records_next(ts);
	s->c_volume = ts->volume;
	s->c_firstrec = ts->firstrec;
	s->c_ntrec = ts->cfg.ntrec;
	s->c_magic = NFS_MAGIC;
	s->c_flags |= DR_NEWINODEFMT;
	if (ts->cfg.compress != COMP_NONE)
		s->c_flags |= DR_COMPRESSED;
	extend_header(ts, h, 0);
	note_header(ts, h);
	/* -Q, -A */
	qfa_header(h, ts->volume, ts->nrecords, ts->vol_first_rec);
	if (s->c_type != TS_TAPE || (ts->volume > 1 && !ts->replaying))
		extend_header(ts, h, 1);
	records_inline(ts, SLAVE_HEADER, h, 1);
}

/* Complete the last record with TS_END headers (at least one) and send
 * it marked as the final record. */
void
records_pad_final(struct tape_state *ts, union u_spcl *end)
{
	size_t n = (size_t)ts->cfg.ntrec - ts->cur.fill;

	ts->final_pending = 1;
	while (n-- > 0)
		records_header(ts, end);
}
