/*
 * writer.c - the writer process: the only process that writes the
 * output.
 *
 * It takes records from the ring strictly in order (record r is in
 * slot r % nslots) and writes them in the output's native block.  For a
 * file, block device, pipe or character device that is one large
 * write of WRITE_CHUNK bytes (whole records; a writev of two pieces
 * where the chunk wraps round the end of the ring), so the byte stream
 * is exactly the records back to back and the syscall count stays low.
 * A pipe is fed greedily instead: the records that are ready, at least
 * one, up to PIPE_CHUNK, because the reader behind it (a slow drive, ssh,
 * a compressor) would otherwise sit idle while the writer waited for a
 * whole chunk; the pipe is also enlarged to 1 MiB, so that the reader
 * has work while the writer waits for the CPU (its slaves compress on
 * every core).  For a tape it is one record per write(), because each
 * write is one tape block and restore derives the blocking factor from
 * it.  Short writes are continued (on a tape a short write is the end
 * of the media: the rest would be a record of its own); 0 bytes or
 * ENOSPC means end of media;
 * any failure is written to the ring status, with the first record that
 * did not fully land, and the writer exits non-zero.  After the last
 * record it flushes and closes the output, checking both: fsync (never
 * O_SYNC) for files and block devices; for a tape the flush point is a
 * filemark written synchronously (MTWEOF: the drive has the data when it
 * returns), where dump 0.4b47 left the filemark to the driver's close.
 * Then, as 0.4b47 does, a tape is opened read-only again to wait until
 * a rewinding device has rewound; a non-rewinding one stays after the
 * filemark, where the next dump on the same tape goes.
 *
 * Compressed dumps: each record is either raw (the first record of a
 * volume) or the prefix + payload a slave left in the slot's output
 * area; a chunk is then a writev of one piece per record (adjacent raw
 * records merged), still one record per write() on a tape.
 *
 * Volumes: after a record marked RING_VOLEND the writer flushes and
 * closes the output exactly as at the end, tells the master how many
 * bytes the volume holds, and opens the output the master names next
 * (answering with the open's errno, so the master can ask the operator
 * and name it again).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mtio.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dumprestore.h"
#include "exitcodes.h"
#include "optr.h"
#include "ring.h"
#include "writer.h"
#include "xio.h"

/* Bytes per write for non-tape outputs, rounded down to whole records. */
#define WRITE_CHUNK (1024u * 1024)
/* ... but at most this many into a pipe.  A reader of a full pipe fed
 * with 1 MiB writes often waited milliseconds for a read although data
 * was there (150 stalls in a 4 s dump into a 37 MB/s reader, 0.6 s of
 * its time); with 128 KiB writes, 2 (bench/media-bench.sh). */
#define PIPE_CHUNK (128u * 1024)
/* Regular files: start writeback of every this many bytes as soon as
 * they are written, and drop them from the page cache WRITEBACK_LAG
 * windows later, once on disk, so the final fsync has little left to
 * do.  Waiting for the window just before the current one stalled the
 * writer every window (its I/O had barely begun); three windows back
 * it has had 16 MiB of writing time and is almost always done. */
#define WRITEBACK_WINDOW (8u * 1024 * 1024)
#define WRITEBACK_LAG	 3
/* Mode of a created output file (the umask applies), as dump 0.4b47. */
#define OUTPUT_MODE 0666
/* Filemarks that end a volume on a tape, and how long to wait before
 * trying again to open a drive that is still busy (rewinding). */
#define END_FILEMARKS	 1
#define REWIND_POLL_SECS 10

/* Bytes of W requests in flight on a remote link whose server does
 * strict writes (rmtclient.h): enough to cover a long round trip. */
#define REMOTE_WINDOW (4u * 1024 * 1024)

/* Capacity asked for a pipe output (never shrunk): the reader keeps
 * working through this much while the writer waits for the CPU or a
 * record (1 MiB is the unprivileged limit, pipe-max-size). */
#define PIPE_BUFFER_BYTES (1024 * 1024)

/* Most records in one write: a 1 MiB chunk of 1 KiB records, one writev
 * piece each at worst (compressed), which is also IOV_MAX on Linux. */
#define MAX_CHUNK (REMOTE_WINDOW / TP_BSIZE)

#define WRITER_EXIT_OK	   0
#define WRITER_EXIT_FAILED 1

/* The link writer_preconnect made, waiting for the first open. */
static struct rmt_conn preconnected = {.to = -1, .from = -1};

/* "host:" or "user@host:" of a remote output: with a comma list
 * (h:/dev/nst0,/dev/nst1) the later names are on the same host. */
static char remote_prefix[RMT_HOST_MAX + RMT_USER_MAX + 2];

void
writer_preconnect(const char *name)
{
	const char *path;

	if (rmt_split(name, &preconnected, &path) == -1 ||
	    rmt_connect(&preconnected) == -1)
		exit(X_STARTUP);
	(void)snprintf(remote_prefix, sizeof(remote_prefix), "%.*s",
		       (int)(path - name), name);
}

/* Open a remote output host:path through rmt, as 0.4b47 does. */
static int
open_remote(const char *name, struct writer_output *out)
{
	const char *path;
	int e;

	if (rmt_split(name, &out->rmt, &path) == -1) {
		errno = EINVAL;
		return -1;
	}
	if (preconnected.to != -1 &&
	    strcmp(preconnected.host, out->rmt.host) == 0 &&
	    strcmp(preconnected.user, out->rmt.user) == 0) {
		out->rmt = preconnected;
		preconnected.to = preconnected.from = -1;
		preconnected.pid = 0;
	} else if (rmt_connect(&out->rmt) == -1) {
		errno = ECONNREFUSED;
		return -1;
	}
	if (rmt_open(&out->rmt, path, O_WRONLY | O_CREAT | O_TRUNC) == -1) {
		e = errno;
		rmt_disconnect(&out->rmt);
		errno = e;
		return -1;
	}
	out->fd = out->rmt.to;
	out->kind = WRITER_REMOTE;
	return 0;
}

long
writer_tape_blksize(const char *name)
{
	struct stat st;
	struct mtget mt;
	long blk = 0;
	int fd;

	if (strcmp(name, "-") == 0 || rmt_is_remote(name) ||
	    remote_prefix[0] != '\0' || stat(name, &st) == -1 ||
	    !S_ISCHR(st.st_mode))
		return 0;
	/* O_NONBLOCK: a drive still loading its cartridge answers too;
	 * O_NOCTTY: the character device may be a terminal */
	fd = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd == -1)
		return 0;
	if (ioctl(fd, MTIOCGET, &mt) == 0)
		blk =
		    (long)(((unsigned long)mt.mt_dsreg & MT_ST_BLKSIZE_MASK) >>
			   MT_ST_BLKSIZE_SHIFT);
	/* nothing was written: a failing close loses nothing */
	(void)close(fd);
	return blk;
}

int
writer_open(const char *name, struct writer_output *out)
{
	struct stat st;
	struct mtget mt;

	memset(out, 0, sizeof(*out));
	out->rmt.to = out->rmt.from = -1;
	if (rmt_is_remote(name))
		return open_remote(name, out);
	if (remote_prefix[0] != '\0' && strcmp(name, "-") != 0) {
		char full[sizeof(remote_prefix) + RMT_PATH_MAX];

		if (strlen(name) >= RMT_PATH_MAX) {
			errno = ENAMETOOLONG;
			return -1;
		}
		(void)snprintf(full, sizeof(full), "%s%s", remote_prefix, name);
		return open_remote(full, out);
	}
	if (strcmp(name, "-") == 0) {
		out->fd = STDOUT_FILENO;
		out->is_stdout = 1;
	} else {
		/* O_NOCTTY: an output that is a terminal must not become
		 * the one the operator's questions are read from */
		out->fd = open(
		    name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY,
		    OUTPUT_MODE);
		if (out->fd == -1)
			return -1;
		(void)snprintf(out->name, sizeof(out->name), "%s", name);
	}
	if (fstat(out->fd, &st) == -1) {
		int e = errno;

		if (!out->is_stdout)
			(void)close(out->fd);
		errno = e;
		return -1;
	}
	if (S_ISREG(st.st_mode))
		out->kind = WRITER_FILE;
	else if (S_ISBLK(st.st_mode))
		out->kind = WRITER_BLOCKDEV;
	else if (S_ISCHR(st.st_mode))
		out->kind = ioctl(out->fd, MTIOCGET, &mt) == 0 ? WRITER_TAPE
							       : WRITER_CHARDEV;
	else
		out->kind = WRITER_PIPE; /* FIFO, pipe, socket */
	return 0;
}

int
writer_is_pipe(const struct writer_output *out)
{
	return out->is_stdout || out->kind == WRITER_PIPE;
}

/* State of the writer process. */
struct writer {
	struct writer_output out;
	struct ring *ring;
	size_t recsize;
	uint64_t pos; /* bytes written to this volume */
	uint64_t wb_start; /* first byte not yet sent to writeback */
	uint64_t drop_start; /* first byte still kept in the page cache */
	/* ends of the windows started but not yet waited for, oldest at
	 * wb_ends[wb_first % WRITEBACK_LAG] */
	uint64_t wb_ends[WRITEBACK_LAG];
	unsigned wb_first, wb_n;
	int writeback; /* sync_file_range still worth calling */
	/* the chunk being written: its first record, the volume offset it
	 * starts at and each record's length, to tell after a failure which
	 * record did not fully land */
	uint64_t chunk_rec;
	uint64_t chunk_pos;
	size_t chunk_n;
	size_t chunk_len[MAX_CHUNK];
	/* remote with strict writes: the W requests whose reply is still
	 * to come, records rq_first .. rq_first+rq_n-1, their sizes indexed
	 * by record % MAX_CHUNK; their slots are held until the reply */
	uint64_t rq_first;
	size_t rq_n;
	size_t rq_len[MAX_CHUNK];
};

/* The record w->pos falls in: the first one not completely written. */
static uint64_t
current_record(const struct writer *w)
{
	uint64_t rec = w->chunk_rec, at = w->chunk_pos;
	size_t i;

	for (i = 0; i < w->chunk_n && at + w->chunk_len[i] <= w->pos; i++) {
		at += w->chunk_len[i];
		rec++;
	}
	return rec;
}

static _Noreturn void
fail(struct writer *w, enum ring_error kind, int err, uint64_t record)
{
	ring_set_written(w->ring, current_record(w));
	ring_fail(w->ring, kind, err, record, w->pos, 0, 0);
	_exit(WRITER_EXIT_FAILED);
}

/* Records before nrecords are on the output.  The progress line counts
 * them, so it is printed here, where each write ends. */
static void
landed(struct writer *w, uint64_t nrecords)
{
	ring_set_written(w->ring, nrecords);
	optr_progress(ring_written_blocks(w->ring));
}

/* Give a pipe output a bigger buffer (see PIPE_BUFFER_BYTES).  Only a
 * tuning: a socket or an old kernel refuses, and nothing else changes. */
static void
grow_pipe(int fd)
{
	int size = fcntl(fd, F_GETPIPE_SZ);

	if (size != -1 && size < PIPE_BUFFER_BYTES)
		(void)fcntl(fd, F_SETPIPE_SZ, PIPE_BUFFER_BYTES);
}

/* Records to gather into one write. */
static size_t
chunk_records(const struct writer *w)
{
	size_t n;

	if (w->out.kind == WRITER_TAPE ||
	    (w->out.kind == WRITER_REMOTE && !w->out.rmt.strict))
		return 1;
	n = (w->out.kind == WRITER_REMOTE     ? REMOTE_WINDOW
		 : w->out.kind == WRITER_PIPE ? PIPE_CHUNK
					      : WRITE_CHUNK) /
	    w->recsize;
	if (n == 0)
		n = 1;
	if (n > ring_nslots(w->ring))
		n = ring_nslots(w->ring);
	/* remote: a quarter of the ring per call, up to half of it on
	 * the link (write_remote) */
	if (w->out.kind == WRITER_REMOTE && n > ring_nslots(w->ring) / 4 &&
	    ring_nslots(w->ring) >= 4)
		n = ring_nslots(w->ring) / 4;
	if (n > MAX_CHUNK)
		n = MAX_CHUNK;
	return n;
}

/* Write the iovecs completely, continuing after short counts.  A
 * failure is fatal; w->pos counts what did land.  End of media returns
 * 1 when the dump can go on on another volume (not for pipes: their
 * reader is gone for good). */
static int
write_all(struct writer *w, struct iovec *iov, int iovcnt)
{
	while (iovcnt > 0) {
		/* a single piece goes through plain write(): for a tape that
		 * is literally one record per write() */
		ssize_t n = w->out.kind == WRITER_REMOTE
		    ? rmt_write(&w->out.rmt, iov->iov_base, iov->iov_len)
		    : iovcnt == 1
		    ? write(w->out.fd, iov->iov_base, iov->iov_len)
		    : writev(w->out.fd, iov, iovcnt);

		if (n == -1 && errno == EINTR)
			continue;
		if (n == 0 || (n == -1 && errno == ENOSPC)) {
			if (!writer_is_pipe(&w->out))
				return 1;
			fail(w, RING_WRITER_EOM, ENOSPC, current_record(w));
		}
		if (n == -1)
			fail(w,
			     errno == EPIPE ? RING_WRITER_PIPE
					    : RING_WRITER_WRITE,
			     errno, current_record(w));
		w->pos += (uint64_t)n;
		/* the drive stopped inside the record: it is written again
		 * in full on the next volume */
		if (w->out.kind == WRITER_TAPE && (size_t)n < iov->iov_len)
			return 1;
		iov_advance(&iov, &iovcnt, (size_t)n);
	}
	return 0;
}

/*
 * Wait until bytes drop_start .. end of a regular file are on disk,
 * then drop them from the page cache.  A failed wait is an I/O error
 * that the kernel reports once per open file: the final fsync would
 * not see it again, so it is fatal here.
 */
static void
wait_and_drop(struct writer *w, uint64_t end, uint64_t nrec)
{
	if (end <= w->drop_start)
		return;
	if (sync_file_range(
		w->out.fd, (off_t)w->drop_start, (off_t)(end - w->drop_start),
		SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
		    SYNC_FILE_RANGE_WAIT_AFTER) == -1)
		fail(w, RING_WRITER_FSYNC, errno, nrec);
#ifdef HAVE_POSIX_FADVISE
	/* clean pages now: dropping them loses nothing */
	(void)posix_fadvise(w->out.fd, (off_t)w->drop_start,
			    (off_t)(end - w->drop_start), POSIX_FADV_DONTNEED);
#endif
	w->drop_start = end;
}

/*
 * Regular files: every WRITEBACK_WINDOW bytes, start writing back what
 * accumulated, then wait for the window started WRITEBACK_LAG calls
 * earlier and drop it from the page cache: a large dump neither pushes
 * the server's working set out of memory nor leaves much for the final
 * fsync (finish_writeback waits for the rest).  Starting is advisory,
 * so a refusal (no support here) only stops further calls.
 */
static void
start_writeback(struct writer *w, uint64_t nrec)
{
	if (!w->writeback || w->pos - w->wb_start < WRITEBACK_WINDOW)
		return;
	if (sync_file_range(w->out.fd, (off_t)w->wb_start,
			    (off_t)(w->pos - w->wb_start),
			    SYNC_FILE_RANGE_WRITE) == -1) {
		w->writeback = 0;
		return;
	}
	w->wb_start = w->pos;
	if (w->wb_n == WRITEBACK_LAG) {
		wait_and_drop(w, w->wb_ends[w->wb_first % WRITEBACK_LAG], nrec);
		w->wb_first++;
		w->wb_n--;
	}
	w->wb_ends[(w->wb_first + w->wb_n) % WRITEBACK_LAG] = w->pos;
	w->wb_n++;
}

/* The end of a regular file's volume: wait for everything still in
 * writeback (the windows in flight and the tail) and drop it, so that
 * a failure is reported and the archive leaves no dirty cache. */
static void
finish_writeback(struct writer *w, uint64_t nrec)
{
	if (w->writeback)
		wait_and_drop(w, w->pos, nrec);
	w->wb_first = w->wb_n = 0;
}

/*
 * Pipelined remote writes (the server does strict writes): one W per
 * record, sent without waiting; replies are read only while more than
 * half the ring is on the link (all of them after the last record of
 * a volume or of the dump), so the link stays full while the slaves
 * fill the other half.  A record's slot is released when its reply
 * came, except the records first .. first+n-1, which the caller frees
 * (write_records, or end_of_media).  After the first record that failed
 * or landed short the server refused everything: w->pos stops there
 * and chunk_* describe that record for current_record().  End of media
 * (ENOSPC, short or empty write) returns 1, any other failure is fatal.
 */
static int
write_remote(struct writer *w, uint64_t first, size_t n, const unsigned *flags)
{
	size_t i, limit = ring_nslots(w->ring) / 2;
	int err = 0, eom = 0;

	for (i = 0; i < n; i++) {
		if (w->rq_n == 0)
			w->rq_first = first + i;
		w->rq_len[(first + i) % MAX_CHUNK] = w->chunk_len[i];
		w->rq_n++;
		rmt_write_send(&w->out.rmt,
			       (flags[i] & RING_RAW)
				   ? ring_slot(w->ring, first + i)
				   : ring_out(w->ring, first + i),
			       w->chunk_len[i]);
	}
	if (flags[n - 1] & (RING_LAST | RING_VOLEND))
		limit = 0;
	while (w->rq_n > limit || ((err != 0 || eom) && w->rq_n > 0)) {
		uint64_t rec = w->rq_first;
		size_t len = w->rq_len[rec % MAX_CHUNK];
		ssize_t r = rmt_write_reply(&w->out.rmt, len);

		w->rq_first++;
		w->rq_n--;
		if (err == 0 && !eom) {
			if (r == -1 && errno == ENOSPC)
				eom = 1;
			else if (r == -1)
				err = errno;
			else
				eom = (size_t)r < len;
			if (err != 0 || eom) {
				/* rec did not land (fully): the one to report */
				w->chunk_rec = rec;
				w->chunk_pos = w->pos;
				w->chunk_n = 1;
				w->chunk_len[0] = len;
				if (r > 0)
					w->pos += (uint64_t)r;
			} else {
				w->pos += (uint64_t)r;
				landed(w, rec + 1);
			}
		}
		/* landed or refused: the slot is free, unless the caller
		 * frees it (the current records) */
		if (rec < first && ring_release(w->ring, rec) == -1)
			fail(w, RING_INTERNAL, errno, rec);
	}
	if (err != 0)
		fail(w, RING_WRITER_WRITE, err, current_record(w));
	if (eom)
		return 1;
	/* the current records already answered are done */
	for (i = 0; i < n && first + i < w->rq_first; i++)
		if (ring_release(w->ring, first + i) == -1)
			fail(w, RING_INTERNAL, errno, first + i);
	w->chunk_n = 0;
	return 0;
}

/* Add a piece to the writev list, merging it with the previous piece
 * when it continues it in memory (adjacent raw slots). */
static void
add_piece(struct iovec *iov, int *iovcnt, void *base, size_t len)
{
	if (*iovcnt > 0) {
		struct iovec *last = &iov[*iovcnt - 1];

		if ((char *)last->iov_base + last->iov_len == base) {
			last->iov_len += len;
			return;
		}
	}
	iov[*iovcnt].iov_base = base;
	iov[*iovcnt].iov_len = len;
	(*iovcnt)++;
}

/* Write records first .. first+n-1 (all full in the ring; flags and
 * outlen as the slaves marked them), then free their slots.  Returns 1
 * at end of media (the records are still held), else 0. */
static int
write_records(struct writer *w, uint64_t first, size_t n, const unsigned *flags,
	      const size_t *outlen)
{
	struct iovec iov[MAX_CHUNK];
	int iovcnt = 0;
	size_t i;

	w->chunk_rec = first;
	w->chunk_pos = w->pos;
	w->chunk_n = n;
	for (i = 0; i < n; i++) {
		if (flags[i] & RING_RAW) {
			w->chunk_len[i] = w->recsize;
			add_piece(iov, &iovcnt, ring_slot(w->ring, first + i),
				  w->recsize);
		} else {
			w->chunk_len[i] = outlen[i];
			add_piece(iov, &iovcnt, ring_out(w->ring, first + i),
				  outlen[i]);
		}
	}
	if (w->out.kind == WRITER_REMOTE && w->out.rmt.strict)
		return write_remote(w, first, n, flags);
	if (write_all(w, iov, iovcnt))
		return 1;
	landed(w, first + n);
	for (i = 0; i < n; i++) {
		if (ring_release(w->ring, first + i) == -1)
			fail(w, RING_INTERNAL, errno, first + i);
	}
	w->chunk_n = 0;
	start_writeback(w, first + n);
	return 0;
}

/* Wait, as 0.4b47 does, until the drive can be opened again: a
 * rewinding device may still be rewinding after the close.  Only a busy
 * drive is waited for; one that ejected its cartridge has rewound. */
static void
wait_rewind(const struct writer *w)
{
	int fd;

	while ((fd = open(w->out.name, O_RDONLY | O_CLOEXEC)) == -1 &&
	       (errno == EBUSY || errno == EINTR))
		(void)sleep(REWIND_POLL_SECS);
	/* opened read-only to wait, nothing written: nothing to lose */
	if (fd != -1)
		(void)close(fd);
}

/* Make the output durable and close it. */
static void
flush_and_close(struct writer *w, uint64_t nrec)
{
	struct mtop op = {.mt_op = MTWEOF, .mt_count = END_FILEMARKS};

	if (w->out.kind == WRITER_REMOTE) {
		/* the server flushes before it answers C (ours fsyncs), so
		 * the volume counts as complete only after the reply */
		if (rmt_close(&w->out.rmt) == -1)
			fail(w, RING_WRITER_CLOSE, errno, nrec);
		rmt_disconnect(&w->out.rmt);
		return;
	}
	if (w->out.kind == WRITER_FILE)
		finish_writeback(w, nrec);
	if ((w->out.kind == WRITER_FILE || w->out.kind == WRITER_BLOCKDEV) &&
	    fsync(w->out.fd) == -1)
		fail(w, RING_WRITER_FSYNC, errno, nrec);
	/* MTWEOF, not MTWEOFI: it returns once the drive has written its
	 * buffer, so an error shows up here and not after "DUMP IS DONE" */
	if (w->out.kind == WRITER_TAPE && ioctl(w->out.fd, MTIOCTOP, &op) == -1)
		fail(w, RING_WRITER_FSYNC, errno, nrec);
	if (close(w->out.fd) == -1)
		fail(w, RING_WRITER_CLOSE, errno, nrec);
	if (w->out.kind == WRITER_TAPE)
		wait_rewind(w);
}

/* Open the output the master names (after it was told the volume was
 * closed) until an open succeeds; *resume gets the record the volume
 * starts with.  first_name: the name already received, if any. */
static void
open_next(struct writer *w, uint64_t nrec, const char *first_name,
	  uint64_t *resume)
{
	char name[RING_NAME_MAX];

	if (first_name != NULL)
		(void)snprintf(name, sizeof(name), "%s", first_name);
	else if (ring_volume_wait_next(w->ring, name, sizeof(name), resume) ==
		 -1)
		fail(w, RING_INTERNAL, errno, nrec);
	while (writer_open(name, &w->out) == -1) {
		ring_volume_opened(w->ring, errno);
		if (ring_volume_wait_next(w->ring, name, sizeof(name),
					  resume) == -1)
			fail(w, RING_INTERNAL, errno, nrec);
	}
	ring_volume_opened(w->ring, 0);
	w->pos = w->wb_start = w->drop_start = 0;
	w->wb_first = w->wb_n = 0;
	w->writeback = w->out.kind == WRITER_FILE;
}

/* The volume is complete: report it, then open the next one. */
static void
next_volume(struct writer *w, uint64_t nrec)
{
	uint64_t resume;

	flush_and_close(w, nrec);
	ring_volume_closed(w->ring, w->pos);
	open_next(w, nrec, NULL, &resume);
}

/* How long one wait for a record lasts while discarding after end of
 * media, before looking again whether the master named the volume. */
#define DISCARD_POLL_MS 20

static void
discard(struct writer *w, uint64_t rec)
{
	if (ring_release(w->ring, rec) == -1)
		fail(w, RING_INTERNAL, errno, rec);
}

/* Whether the master has named the next volume (kept in *named). */
static int
check_named(struct writer *w, int *named, char *name, size_t len,
	    uint64_t *resume, uint64_t rec)
{
	if (!*named) {
		*named = ring_volume_try_next(w->ring, name, len, resume);
		if (*named == -1)
			fail(w, RING_INTERNAL, errno, rec);
	}
	return *named;
}

/*
 * End of media while writing records first .. first+n-1.  Cut a regular
 * file back to its last complete record (the volume then ends on a
 * record boundary, as on a tape), close the volume and report the
 * first record that did not land.  Then discard every record that
 * arrives - the master queues them again behind the next volume's
 * header - until the master names the next output and the record it
 * resumes at, and open that output.  Returns the resume record; when it
 * already arrived while we were discarding, *held is set and
 * *hflags and *houtlen describe it.
 */
static uint64_t
end_of_media(struct writer *w, uint64_t first, size_t n, int *held,
	     unsigned *hflags, size_t *houtlen)
{
	char name[RING_NAME_MAX];
	uint64_t lost = current_record(w), rec, resume = 0, at;
	unsigned flags = 0;
	size_t i, outlen = 0;
	int named = 0, rc;

	at = w->chunk_pos;
	for (i = 0; i < w->chunk_n && w->chunk_rec + i < lost; i++)
		at += w->chunk_len[i];
	if (w->out.kind == WRITER_FILE && ftruncate(w->out.fd, (off_t)at) == 0)
		w->pos = at;
	flush_and_close(w, lost);
	ring_volume_eom(w->ring, lost);
	ring_volume_closed(w->ring, w->pos);
	w->chunk_n = 0;
	for (i = 0; i < n; i++)
		discard(w, first + i);
	*held = 0;
	for (rec = first + n;; rec++) {
		if (check_named(w, &named, name, sizeof(name), &resume, rec) &&
		    rec >= resume)
			break;
		if (named) {
			/* rec < resume: it was sent, it will arrive */
			if (ring_wait_full(w->ring, rec, &flags, &outlen) == -1)
				fail(w, RING_INTERNAL, errno, rec);
		} else {
			rc = ring_wait_full_timed(w->ring, rec, DISCARD_POLL_MS,
						  &flags, &outlen);
			if (rc == -1)
				fail(w, RING_INTERNAL, errno, rec);
			if (rc == 0) {
				rec--; /* look for the name, then wait again */
				continue;
			}
			/* the master names the volume before it sends the
			 * record the volume resumes at: look again */
			if (check_named(w, &named, name, sizeof(name), &resume,
					rec) &&
			    rec >= resume) {
				*held = 1;
				*hflags = flags;
				*houtlen = outlen;
				break;
			}
		}
		discard(w, rec);
	}
	open_next(w, rec, name, &resume);
	return rec;
}

_Noreturn void
writer_main(const struct writer_output *out, struct ring *ring, int ntrec)
{
	unsigned flags[MAX_CHUNK];
	size_t outlen[MAX_CHUNK];
	struct writer w;
	uint64_t rec = 0;
	size_t chunk;
	int last = 0, held = 0, greedy;

	/* a vanished reader must show up as EPIPE, reported as such */
	signal(SIGPIPE, SIG_IGN);
	memset(&w, 0, sizeof(w));
	w.out = *out;
	w.ring = ring;
	w.recsize = (size_t)ntrec * TP_BSIZE;
	w.writeback = out->kind == WRITER_FILE;
	greedy = out->kind == WRITER_PIPE;
	if (greedy)
		grow_pipe(out->fd);

	while (!last) {
		size_t n = 0;
		int volend = 0;

		chunk = chunk_records(&w);
		while (n < chunk && !last && !volend) {
			if (held)
				held = 0; /* flags[0], outlen[0] are set */
			else if (n > 0 && greedy) {
				int rc = ring_wait_full_timed(
				    ring, rec + n, 0, &flags[n], &outlen[n]);

				if (rc == -1)
					fail(&w, RING_INTERNAL, errno, rec + n);
				if (rc == 0)
					break; /* write what is there */
			} else if (ring_wait_full(ring, rec + n, &flags[n],
						  &outlen[n]) == -1)
				fail(&w, RING_INTERNAL, errno, rec + n);
			last = (flags[n] & RING_LAST) != 0;
			volend = (flags[n] & RING_VOLEND) != 0;
			n++;
		}
		if (write_records(&w, rec, n, flags, outlen)) {
			rec = end_of_media(&w, rec, n, &held, &flags[0],
					   &outlen[0]);
			last = 0;
			continue;
		}
		rec += n;
		if (volend && !last)
			next_volume(&w, rec);
	}
	flush_and_close(&w, rec);
	ring_volume_set_bytes(ring, w.pos);
	_exit(WRITER_EXIT_OK);
}
