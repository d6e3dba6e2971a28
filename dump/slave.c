/*
 * slave.c - the slave loop: turn request packets into records.
 *
 * A slave reads packets (struct slave_req, see slave.h) from its
 * socket, a batch of consecutive records at a time, waits until their
 * ring slots are free, and assembles the records in place: inline
 * blocks are copied from the packet, zero runs are cleared, and disk
 * runs are read straight into the slots, past the device's page cache
 * (devread.c), runs that continue each other across records in one
 * read.  For a compressed dump it then compresses each record into its
 * slot's output area, behind the 4-byte prefix of doc/format.md 11.2
 * (the three slaves thus compress three records at once), storing it
 * raw behind a "not compressed" prefix when it does not shrink enough.
 * The first record of each volume stays raw.  It then marks the slot
 * full for the writer.  A slave never walks the file system, never
 * touches the output and never changes master state; an error is
 * written to the ring status and the slave exits non-zero,
 * which the master notices.  The exception is an unreadable block (EIO,
 * a bad sector): the slave dumps it as zeros, reports it on its own
 * line and counts it in the ring, and goes on, as 0.4b47 does.
 *
 * Two settings serve compressed dumps.  Freed memory stays in the heap
 * (mallopt): bzip2 allocates and frees megabytes of state per record,
 * which glibc would otherwise map and unmap (or trim) every time, page
 * faults and all.  And slaves run one nice step below the writer and
 * master: with more busy compressors than cores, a writer that wakes up
 * to feed a slow device gets the CPU at once instead of leaving the
 * device idle behind the compression.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dumprestore.h"
#include "xio.h"
#include "compress.h"
#include "cprefix.h"
#include "datasum.h"
#include "devread.h"
#include "optr.h"
#include "ring.h"
#include "slave.h"
#include "spcl.h"
#include "spclext.h"

/* Exit statuses of a slave (the master only tests for zero). */
#define SLAVE_EXIT_OK	  0
#define SLAVE_EXIT_FAILED 1

/* The margin a compressed record must stay under (doc/format.md 11.1:
 * at most ntrec*1024 - 16 bytes). */
#define COMPRESS_MARGIN 16

/* Heap allocations below this size are never mmap()ed, and free memory
 * at the top of the heap is kept up to it: more than bzip2 -9 allocates
 * per record (about 7.6 MiB). */
#define KEEP_HEAP_BYTES (32 * 1024 * 1024)
/* How much lower than the writer a slave's CPU priority is. */
#define SLAVE_NICE_STEP 1
/* Reads of neighbouring segments are joined across gaps of up to
 * SPAN_GAP bytes into spans of up to SPAN_MAX (read_segments()). */
#define SPAN_GAP (32 * 1024)
#define SPAN_MAX (1024 * 1024)
/* A transparent huge page (x86-64, arm64 with 4 KiB pages); holds a
 * span (alloc_span()). */
#define HUGE_PAGE (2 * 1024 * 1024)
/* How long a slave waits for the next record of its group before it
 * reads what it has (slave_main()). */
#define GROUP_FILL_WAIT_MS 10
/* The unit of the "sector" numbers in read-error messages (0.4b47's). */
#define SECTOR_SIZE 512

/* One received packet, with buffers sized for the largest record. */
struct packet {
	struct slave_req req;
	struct slave_item *items; /* ntrec entries */
	unsigned char *inline_data; /* ntrec * TP_BSIZE bytes */
};

static _Noreturn void
fail(struct ring *ring, enum ring_error kind, int err, uint64_t record,
     uint64_t off, size_t count, size_t got)
{
	ring_fail(ring, kind, err, record, off, count, got);
	_exit(SLAVE_EXIT_FAILED);
}

/* Read exactly len bytes; 1 on success, 0 on EOF before the first byte,
 * -1 on an error or EOF in the middle (errno set). */
static int
read_exact(int fd, void *buf, size_t len)
{
	ssize_t n = full_read(fd, buf, len);

	if (n < 0)
		return -1;
	if (n == 0 && len > 0)
		return 0;
	if ((size_t)n != len) {
		errno = EPROTO;
		return -1;
	}
	return 1;
}

/* Receive one packet; returns 1, 0 at the end of the stream, -1 bad. */
static int
receive(int sock, struct packet *p, int ntrec)
{
	int rc = read_exact(sock, &p->req, sizeof(p->req));

	if (rc <= 0)
		return rc;
	if (p->req.magic != SLAVE_REQ_MAGIC || p->req.nitems == 0 ||
	    p->req.nitems > (uint32_t)ntrec ||
	    p->req.ninline > (uint32_t)ntrec) {
		errno = EPROTO;
		return -1;
	}
	if (read_exact(sock, p->items,
		       p->req.nitems * sizeof(struct slave_item)) != 1)
		return -1;
	if (p->req.ninline > 0 &&
	    read_exact(sock, p->inline_data,
		       (size_t)p->req.ninline * TP_BSIZE) != 1)
		return -1;
	return 1;
}

/* Check that the items cover exactly one record and the inline data
 * the packet carried; done before the slot is touched. */
static int
valid_items(const struct packet *p, int ntrec)
{
	uint64_t blocks = 0, inl = 0;
	uint32_t i;

	for (i = 0; i < p->req.nitems; i++) {
		const struct slave_item *it = &p->items[i];

		if (it->nblocks == 0)
			return 0;
		blocks += it->nblocks;
		if (it->kind == SLAVE_INLINE || it->kind == SLAVE_HEADER)
			inl += it->nblocks;
		else if (it->kind == SLAVE_DISK) {
			if (it->off % TP_BSIZE != 0)
				return 0;
		} else if (it->kind != SLAVE_ZERO)
			return 0;
	}
	return blocks == (uint64_t)ntrec && inl == p->req.ninline;
}

/* One device read of a batch: adjacent disk runs of consecutive records
 * whose slots are adjacent in the ring are read at once. */
struct segment {
	unsigned char *dst;
	uint64_t off;
	size_t len;
	uint64_t record; /* the first record it fills, for errors */
};

/* Lay out the records of batch b (n packets) in their slots: inline
 * blocks copied, zero runs cleared, disk runs collected into seg
 * (merged where both the device and the ring are contiguous).  Returns
 * the number of segments. */
static size_t
lay_out(struct ring *ring, const struct packet *b, size_t n,
	struct segment *seg)
{
	size_t k, nseg = 0;
	uint32_t i;

	for (k = 0; k < n; k++) {
		const struct packet *p = &b[k];
		const unsigned char *src = p->inline_data;
		unsigned char *dst = ring_slot(ring, p->req.record);

		for (i = 0; i < p->req.nitems; i++) {
			const struct slave_item *it = &p->items[i];
			size_t len = (size_t)it->nblocks * TP_BSIZE;
			struct segment *last = nseg ? &seg[nseg - 1] : NULL;

			if (it->kind == SLAVE_INLINE ||
			    it->kind == SLAVE_HEADER) {
				memcpy(dst, src, len);
				src += len;
			} else if (it->kind == SLAVE_ZERO) {
				memset(dst, 0, len);
			} else if (last != NULL &&
				   last->dst + last->len == dst &&
				   last->off + last->len == it->off) {
				last->len += len;
			} else { /* SLAVE_DISK, checked by valid_items */
				seg[nseg].dst = dst;
				seg[nseg].off = it->off;
				seg[nseg].len = len;
				seg[nseg].record = p->req.record;
				nseg++;
			}
			dst += len;
		}
	}
	return nseg;
}

/* Report one unreadable range, already zeroed in the slot: one line
 * with "error" in it (0.4b47's words, for schedulers parsing them),
 * counted in the ring for the master's closing line. */
static void
report_unreadable(struct ring *ring, const struct slave_config *sc,
		  uint64_t off, size_t len)
{
	unsigned fsblock = sc->fsblock ? sc->fsblock : TP_BSIZE;

	msg("read error from %s: %s: [sector %llu, ext2blk %llu]: "
	    "count=%zu, dumped as zeros\n",
	    sc->device, strerror(EIO), (unsigned long long)(off / SECTOR_SIZE),
	    (unsigned long long)(off / fsblock), len);
	ring_note_read_error(ring);
}

/*
 * A segment whose read failed with EIO: read it again one tape block at
 * a time, so that only what the disk cannot give is lost.  Unreadable
 * blocks are zeroed and each run of them reported once; any other
 * error or a short read still ends the dump.
 */
static void
salvage_segment(struct ring *ring, const struct slave_config *sc,
		struct devread *dev, const struct segment *s)
{
	uint64_t bad_off = 0;
	size_t bad_len = 0, pos;

	for (pos = 0; pos < s->len; pos += TP_BSIZE) {
		ssize_t n = devread_pread(dev, s->dst + pos, TP_BSIZE,
					  (off_t)(s->off + pos));

		if (n < 0 && errno == EIO) {
			memset(s->dst + pos, 0, TP_BSIZE);
			if (bad_len == 0)
				bad_off = s->off + pos;
			bad_len += TP_BSIZE;
			continue;
		}
		if (n < 0)
			fail(ring, RING_SLAVE_READ, errno, s->record,
			     s->off + pos, TP_BSIZE, 0);
		if (n != TP_BSIZE)
			fail(ring, RING_SLAVE_SHORT, 0, s->record, s->off + pos,
			     TP_BSIZE, (size_t)n);
		if (bad_len != 0)
			report_unreadable(ring, sc, bad_off, bad_len);
		bad_len = 0;
	}
	if (bad_len != 0)
		report_unreadable(ring, sc, bad_off, bad_len);
}

/* Read one segment into its slot; an unreadable part is salvaged. */
static void
read_one(struct ring *ring, const struct slave_config *sc, struct devread *dev,
	 const struct segment *s)
{
	ssize_t n = devread_pread(dev, s->dst, s->len, (off_t)s->off);

	if (n < 0 && errno == EIO) {
		salvage_segment(ring, sc, dev, s);
		return;
	}
	if (n < 0)
		fail(ring, RING_SLAVE_READ, errno, s->record, s->off, s->len,
		     0);
	if ((size_t)n != s->len)
		fail(ring, RING_SLAVE_SHORT, 0, s->record, s->off, s->len,
		     (size_t)n);
}

/* How many segments from seg[i] on lie close enough on the device, in
 * ascending order, to be read as one span of at most SPAN_MAX bytes. */
static size_t
span_of(const struct segment *seg, size_t nseg, size_t i, uint64_t *endp)
{
	uint64_t start = seg[i].off, end = seg[i].off + seg[i].len;
	size_t j = i + 1;

	while (j < nseg && seg[j].off >= end && seg[j].off - end <= SPAN_GAP &&
	       seg[j].off + seg[j].len - start <= SPAN_MAX) {
		end = seg[j].off + seg[j].len;
		j++;
	}
	*endp = end;
	return j - i;
}

/*
 * Read the segments of a batch.  Small files lie close together on the
 * device, each a segment of its own: neighbours (gaps of at most
 * SPAN_GAP) are read as one span into span and copied out, so that a
 * batch of hundreds of small files costs a few large reads instead of
 * one request per file.  The gaps are read and dropped; the reads stay
 * O_DIRECT (devread.c).  A span that cannot be read whole is read again
 * segment by segment, so an unreadable block costs only its own data.
 */
static void
read_segments(struct ring *ring, const struct slave_config *sc,
	      struct devread *dev, const struct segment *seg, size_t nseg,
	      unsigned char *span)
{
	size_t i = 0;

	while (i < nseg) {
		uint64_t end;
		size_t k, m = span != NULL ? span_of(seg, nseg, i, &end) : 1;
		ssize_t n = -1;

		if (m > 1)
			n = devread_pread(dev, span, (size_t)(end - seg[i].off),
					  (off_t)seg[i].off);
		if (m > 1 && n == (ssize_t)(end - seg[i].off)) {
			for (k = i; k < i + m; k++)
				memcpy(seg[k].dst,
				       span + (seg[k].off - seg[i].off),
				       seg[k].len);
		} else {
			for (k = i; k < i + m; k++)
				read_one(ring, sc, dev, &seg[k]);
		}
		i += m;
	}
}

/* Compress the record in src into the output area out; returns the
 * bytes to write (prefix included). */
static size_t
compress_slot(const struct slave_config *sc, const unsigned char *src,
	      unsigned char *out, void *work)
{
	size_t recsize = (size_t)sc->ntrec * TP_BSIZE;
	unsigned code = compress_tape_code((enum compress_method)sc->method);
	size_t n = compress_record((enum compress_method)sc->method, sc->level,
				   src, recsize, out + CPREFIX_SIZE,
				   recsize - COMPRESS_MARGIN, work);
	struct cprefix pfx = {.compressed = n != 0, .method = code};

	if (n == 0) {
		/* did not shrink enough, or the codec refused: raw */
		memcpy(out + CPREFIX_SIZE, src, recsize);
		n = recsize;
	}
	pfx.length = (uint32_t)n;
	cprefix_encode(out, false, &pfx);
	return CPREFIX_SIZE + n;
}

/* Keep freed codec state for the next record (see the top).  Only a
 * tuning: failure changes speed, not results. */
static void
keep_heap(void)
{
	(void)mallopt(M_MMAP_THRESHOLD, KEEP_HEAP_BYTES);
	(void)mallopt(M_TRIM_THRESHOLD, KEEP_HEAP_BYTES);
}

/* Yield the CPU to the writer (see the top).  Only a tuning: a failure
 * (say a caller already at the lowest priority) changes nothing else. */
static void
lower_priority(void)
{
	int prio;

	errno = 0;
	prio = getpriority(PRIO_PROCESS, 0);
	if (prio == -1 && errno != 0)
		return;
	(void)setpriority(PRIO_PROCESS, 0, prio + SLAVE_NICE_STEP);
}

/* Whether another packet has (begun to) arrive(d), or does within
 * timeout_ms. */
static int
packet_waiting(int sock, int timeout_ms)
{
	struct pollfd pfd = {.fd = sock, .events = POLLIN};

	return poll(&pfd, 1, timeout_ms) > 0;
}

/* After record rec: how long to wait for the next one of the same group
 * (none after a group's last record: the next is another group's). */
static int
rest_of_group_wait(uint64_t rec, size_t group)
{
	return (rec + 1) % group != 0 ? GROUP_FILL_WAIT_MS : 0;
}

/*
 * The buffer spans are read into: O_DIRECT wants it page-aligned, and
 * in one huge page its 1 MiB read is one request to the disk; in 4 KiB
 * pages the block layer cuts it where the scattered pages exceed the
 * device's segment limit (128 segments, 512 KiB, on a loop device).
 * Without huge pages it still works, in more requests.  NULL: no
 * memory, read segment by segment.
 */
static unsigned char *
alloc_span(void)
{
	void *p;

	if (posix_memalign(&p, HUGE_PAGE, HUGE_PAGE) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, HUGE_PAGE, MADV_HUGEPAGE);
#endif
	return p;
}

static int
alloc_packets(struct packet *b, size_t n, int ntrec)
{
	size_t k;

	for (k = 0; k < n; k++) {
		/* not xalloc: its exit() would run the master's atexit
		 * handlers in this process; ntrec <= MAXNTREC, so the
		 * products cannot overflow */
		b[k].items = malloc((size_t)ntrec * sizeof(*b[k].items));
		b[k].inline_data = malloc((size_t)ntrec * TP_BSIZE);
		if (b[k].items == NULL || b[k].inline_data == NULL)
			return -1;
	}
	return 0;
}

/* Receive one packet into p; 0 at the end of the stream.  A malformed
 * one ends the slave. */
static int
receive_valid(struct ring *ring, int sock, struct packet *p, int ntrec)
{
	int rc = receive(sock, p, ntrec);

	if (rc < 0 || (rc > 0 && !valid_items(p, ntrec)))
		fail(ring, RING_SLAVE_PROTO, rc < 0 ? errno : EPROTO,
		     p->req.record, 0, 0, 0);
	return rc;
}

/*
 * The data checksums of record p (spclext.h): carry the running sum
 * through its blocks, starting from the state the slave of the record
 * before published, and put it into each header that asks for it, then
 * start over behind every header.  Only the checksum runs in record
 * order across the slaves; reading and compressing stay parallel.
 */
static void
sum_record(struct ring *ring, const struct packet *p)
{
	uint64_t rec = p->req.record;
	unsigned char *blk = ring_slot(ring, rec);
	struct datasum st;
	uint32_t i, j;

	if (rec == 0)
		datasum_reset(&st);
	else if (ring_chain_take(ring, rec - 1, &st) == -1)
		fail(ring, RING_INTERNAL, errno, rec, 0, 0, 0);
	for (i = 0; i < p->req.nitems; i++) {
		const struct slave_item *it = &p->items[i];

		if (it->kind != SLAVE_HEADER) {
			datasum_add(&st, blk, (size_t)it->nblocks * TP_BSIZE);
			blk += (size_t)it->nblocks * TP_BSIZE;
			continue;
		}
		for (j = 0; j < it->nblocks; j++, blk += TP_BSIZE) {
			union u_spcl *h = (union u_spcl *)(void *)blk;

			if (spclext_set_datasum(h, datasum_value(&st)))
				spcl_set_checksum(h);
			datasum_reset(&st);
		}
	}
	if (ring_chain_publish(ring, rec, &st) == -1)
		fail(ring, RING_INTERNAL, errno, rec, 0, 0, 0);
}

/* Sum, compress (when asked) and hand the n records of batch b to the
 * writer.  All are summed first: the next slave waits for the sum at
 * the end of the batch, not for the compression. */
static void
finish_batch(const struct slave_config *sc, struct ring *ring,
	     const struct packet *b, size_t n, void *work)
{
	size_t k;

	for (k = 0; k < n; k++)
		sum_record(ring, &b[k]);
	for (k = 0; k < n; k++) {
		const struct packet *p = &b[k];
		unsigned flags = 0;
		size_t outlen = 0;

		if (p->req.flags & SLAVE_REQ_LAST)
			flags |= RING_LAST;
		if (p->req.flags & SLAVE_REQ_VOLEND)
			flags |= RING_VOLEND;
		if (sc->method == COMP_NONE || (p->req.flags & SLAVE_REQ_RAW))
			flags |= RING_RAW;
		else
			outlen =
			    compress_slot(sc, ring_slot(ring, p->req.record),
					  ring_out(ring, p->req.record), work);
		if (ring_mark_full(ring, p->req.record, flags, outlen) == -1)
			fail(ring, RING_INTERNAL, errno, p->req.record, 0, 0,
			     0);
	}
}

/*
 * The loop.  A slave takes groups of consecutive records (ring.h); the
 * packets of a group that are already waiting in the socket form a
 * batch, whose disk runs are read together (lay_out), so small records
 * still make large reads.  When the master is quicker than the disk
 * (to /dev/null) a slave would often find only part of its group
 * there, and read many small spans; so it waits for the rest, but at
 * most GROUP_FILL_WAIT_MS for each record: the master may itself be
 * waiting for this slave (a volume's end, the end of the dump), and a
 * bounded wait cannot deadlock.  A packet that does
 * not follow the batch (the next group, or a record sent again after an
 * end of media) starts the next batch.
 */
_Noreturn void
slave_main(int sock, const struct slave_config *sc, struct ring *ring)
{
	int ntrec = sc->ntrec;
	size_t group = ring_group(ring), worksize = 0, n, k;
	struct packet *b, spare;
	struct segment *seg;
	unsigned char *span = NULL;
	void *work = NULL;
	struct devread dev;
	int carry = 0, more = 1;

	if (sc->method != COMP_NONE)
		keep_heap();
	lower_priority();
	if (devread_open(&dev, sc->device) == -1)
		fail(ring, RING_SLAVE_OPEN, errno, 0, 0, 0, 0);
	b = calloc(group + 1, sizeof(*b));
	seg = calloc(group * (size_t)ntrec, sizeof(*seg));
	if (sc->method != COMP_NONE)
		worksize = compress_work_size((enum compress_method)sc->method,
					      (size_t)ntrec * TP_BSIZE);
	if (worksize > 0)
		work = malloc(worksize);
	/* Page-aligned, as O_DIRECT wants; without it, one read a segment. */
	span = alloc_span();
	if (b == NULL || seg == NULL || alloc_packets(b, group + 1, ntrec) ||
	    (worksize > 0 && work == NULL))
		fail(ring, RING_INTERNAL, ENOMEM, 0, 0, 0, 0);

	while (more) {
		if (!carry && receive_valid(ring, sock, &b[0], ntrec) == 0)
			break;
		carry = 0;
		for (n = 1;
		     n < group &&
		     packet_waiting(
			 sock, rest_of_group_wait(b[n - 1].req.record, group));
		     n++) {
			if (receive_valid(ring, sock, &b[n], ntrec) == 0) {
				more = 0;
				break;
			}
			if (b[n].req.record != b[n - 1].req.record + 1) {
				carry = 1;
				break;
			}
		}
		for (k = 0; k < n; k++)
			if (ring_wait_free(ring, b[k].req.record) == -1)
				fail(ring, RING_INTERNAL, errno,
				     b[k].req.record, 0, 0, 0);
		read_segments(ring, sc, &dev, seg, lay_out(ring, b, n, seg),
			      span);
		finish_batch(sc, ring, b, n, work);
		if (carry) {
			spare = b[0];
			b[0] = b[n];
			b[n] = spare;
		}
	}
	devread_close(&dev);
	_exit(SLAVE_EXIT_OK);
}
