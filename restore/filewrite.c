/*
 * filewrite.c - writes the data of a restored regular file.
 *
 * Blocks come off the archive in file order; they are gathered into
 * chunks of up to WRITE_CHUNK bytes, each written with pwrite at its
 * offset.  All-zero blocks and holes are skipped, so they stay holes.
 *
 * A small file, or one on a file system not known to handle direct I/O
 * well, is written by the caller's thread through the page cache, and
 * writeback of each full chunk starts at once (sync_file_range), so the
 * final syncfs() has little left to do.
 *
 * A file of at least DIRECT_MIN bytes on ext2/3/4, XFS or btrfs is
 * written with O_DIRECT by an I/O thread, while the main thread reads the
 * archive on: up to NCHUNK chunks are in flight.  Copying the data into
 * newly allocated page cache was most of restore's CPU time, and its
 * cost swung with the state of memory (a 300 MB -r took 0.35 to 1.09 s
 * through the page cache, 0.37 to 0.48 s direct, bench/restore-bench.sh);
 * from our buffer straight to the disk there is no such copy, and the
 * restore does not evict the cache of the rest of the system.  Only the
 * 4 KiB-aligned part of a chunk goes direct: a
 * chunk that starts after a hole of 1 KiB blocks, and the file's tail,
 * are written through the page cache.  Data is placed in the buffer at
 * the same offset within a 4 KiB block as in the file, so the aligned
 * part is aligned in memory too.  A file system that refuses O_DIRECT
 * (EINVAL) gets the same bytes through the page cache.
 *
 * fw_end() waits until every chunk of the file is written, so that the
 * times and modes set afterwards are not changed by a late write.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "restore.h"
#include "filewrite.h"
#include "xalloc.h"
#include "xio.h"

/* Alignment of O_DIRECT offsets, lengths and buffers: a page, which
 * satisfies every logical block size up to 4 KiB. */
#define DIRECT_ALIGN 4096
/* Bytes per direct write.  Smaller files than DIRECT_MIN are written
 * through the page cache: each file waits for its last direct write, so
 * for a file of a chunk or two the thread gains nothing. */
#define DIRECT_CHUNK (1024 * 1024)
#define DIRECT_MIN   (4 * DIRECT_CHUNK)
/* Chunks in flight (being filled, queued or being written). */
#define NCHUNK 4

struct chunk {
	unsigned char *buf; /* DIRECT_CHUNK + DIRECT_ALIGN bytes, aligned */
	size_t skew; /* data starts at buf + skew */
	size_t len;
	off_t off;
	struct file_writer *w;
};

static struct chunk chunks[NCHUNK];
static unsigned char *cached_buf; /* for files written by the caller */
static const unsigned char zero_block[TP_BSIZE];

/* The queue: chunk k % NCHUNK is the k-th submitted.  Under lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queued = PTHREAD_COND_INITIALIZER;
static pthread_cond_t written = PTHREAD_COND_INITIALIZER;
static uint64_t nsubmitted, nwritten;
static int io_thread_state; /* 0 not started, 1 running, -1 failed */

/* Write all of buf at off: 0, or an errno. */
static int
pwrite_all(int fd, const unsigned char *buf, size_t len, off_t off)
{
	return full_pwrite(fd, buf, len, off) < 0 ? errno : 0;
}

/* Turn O_DIRECT on or off for fd; false if the file system refuses. */
static bool
set_direct(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return false;
	if (((fl & O_DIRECT) != 0) == on)
		return true;
	return fcntl(fd, F_SETFL, on ? fl | O_DIRECT : fl & ~O_DIRECT) == 0;
}

static int
write_cached(int fd, const unsigned char *buf, size_t len, off_t off)
{
	if (!set_direct(fd, false))
		return errno != 0 ? errno : EINVAL;
	return pwrite_all(fd, buf, len, off);
}

/* The I/O thread's write of one chunk: its aligned middle with O_DIRECT,
 * an unaligned head and tail through the page cache. */
static int
write_chunk_direct(int fd, const unsigned char *buf, size_t len, off_t off)
{
	size_t head =
	    (size_t)((DIRECT_ALIGN - off % DIRECT_ALIGN) % DIRECT_ALIGN);
	size_t mid;
	int e;

	if (head > len)
		head = len;
	mid = (len - head) / DIRECT_ALIGN * DIRECT_ALIGN;
	if (head > 0 && (e = write_cached(fd, buf, head, off)) != 0)
		return e;
	if (mid > 0) {
		e = set_direct(fd, true)
		    ? pwrite_all(fd, buf + head, mid, off + (off_t)head)
		    : EINVAL;
		/* direct I/O refused here: the same bytes the usual way */
		if (e == EINVAL)
			e = write_cached(fd, buf + head, mid,
					 off + (off_t)head);
		if (e != 0)
			return e;
	}
	if (head + mid < len)
		return write_cached(fd, buf + head + mid, len - head - mid,
				    off + (off_t)(head + mid));
	return 0;
}

static void *
io_thread(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct chunk *c;
		int e = 0;

		while (nwritten == nsubmitted)
			pthread_cond_wait(&queued, &lock);
		c = &chunks[nwritten % NCHUNK];
		if (c->w->err == 0) { /* after an error, drop the rest */
			pthread_mutex_unlock(&lock);
			e = write_chunk_direct(c->w->fd, c->buf + c->skew,
					       c->len, c->off);
			pthread_mutex_lock(&lock);
		}
		if (e != 0 && c->w->err == 0)
			c->w->err = e;
		nwritten++;
		pthread_cond_signal(&written);
	}
	return NULL;
}

/* Start the I/O thread once (signals stay with the main thread); false
 * if it cannot run, and then every file is written by the caller. */
static bool
io_thread_ready(void)
{
	pthread_t t;
	sigset_t all, old;

	if (io_thread_state != 0)
		return io_thread_state > 0;
	io_thread_state = -1;
	for (int i = 0; i < NCHUNK; i++)
		if (posix_memalign((void **)&chunks[i].buf, DIRECT_ALIGN,
				   DIRECT_CHUNK + DIRECT_ALIGN) != 0)
			return false;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&t, NULL, io_thread, NULL) == 0) {
		pthread_detach(t);
		io_thread_state = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return io_thread_state > 0;
}

/* File systems where O_DIRECT writes go straight to a local disk. */
static bool
direct_io_fits(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) != 0)
		return false;
	switch ((unsigned long)sf.f_type) {
	case EXT4_SUPER_MAGIC: /* also ext2 and ext3 */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC: return set_direct(fd, true);
	default: return false;
	}
}

void
fw_begin(struct file_writer *w, int fd, const char *path, off_t size)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->path = path;
	/* the thread first: direct_io_fits() leaves O_DIRECT set */
	w->direct = size >= (off_t)DIRECT_MIN && io_thread_ready() &&
	    direct_io_fits(fd);
	if (w->direct) {
		w->buf = chunks[nsubmitted % NCHUNK].buf;
	} else {
		if (cached_buf == NULL)
			cached_buf = xmalloc(WRITE_CHUNK + TP_BSIZE);
		w->buf = cached_buf;
	}
}

/* Hand the gathered chunk to the I/O thread and take the next buffer. */
static void
submit(struct file_writer *w)
{
	struct chunk *c = &chunks[nsubmitted % NCHUNK];

	c->skew = (size_t)(w->boff % DIRECT_ALIGN);
	c->len = w->blen;
	c->off = w->boff;
	c->w = w;
	pthread_mutex_lock(&lock);
	nsubmitted++;
	pthread_cond_signal(&queued);
	while (nsubmitted - nwritten >= NCHUNK)
		pthread_cond_wait(&written, &lock);
	pthread_mutex_unlock(&lock);
	w->buf = chunks[nsubmitted % NCHUNK].buf;
}

/* Write the gathered chunk, if any. */
static void
flush(struct file_writer *w)
{
	if (w->blen == 0)
		return;
	w->end = w->boff + (off_t)w->blen;
	if (w->direct) {
		submit(w);
	} else if (w->err == 0) {
		w->err = pwrite_all(w->fd, w->buf, w->blen, w->boff);
		/* start writeback now, without waiting for it */
		if (w->err == 0 && w->blen >= WRITE_CHUNK)
			(void)sync_file_range(w->fd, w->boff, (off_t)w->blen,
					      SYNC_FILE_RANGE_WRITE);
	}
	w->blen = 0;
}

/* Where the next byte goes in the buffer. */
static unsigned char *
fill_point(const struct file_writer *w)
{
	size_t skew = w->direct ? (size_t)(w->boff % DIRECT_ALIGN) : 0;

	return w->buf + skew + w->blen;
}

void
fw_data(const unsigned char *blk, size_t n, void *arg)
{
	struct file_writer *w = arg;

	if (memcmp(blk, zero_block, n) == 0) {
		w->off += (off_t)n; /* a zero run becomes a hole */
		return;
	}
	if (w->blen > 0 && w->boff + (off_t)w->blen != w->off)
		flush(w);
	if (w->blen == 0)
		w->boff = w->off;
	memcpy(fill_point(w), blk, n);
	w->blen += n;
	w->off += (off_t)n;
	/* a direct chunk ends on a 4 KiB boundary of the file */
	if (fill_point(w) >= w->buf + (w->direct ? DIRECT_CHUNK : WRITE_CHUNK))
		flush(w);
}

void
fw_hole(size_t n, void *arg)
{
	struct file_writer *w = arg;

	w->off += (off_t)n;
}

bool
fw_end(struct file_writer *w)
{
	int err;

	flush(w);
	if (w->direct) {
		pthread_mutex_lock(&lock);
		while (nwritten != nsubmitted)
			pthread_cond_wait(&written, &lock);
		pthread_mutex_unlock(&lock);
	}
	err = w->err;
	if (err != 0) {
		errno = err;
		warn("%s: write error", w->path);
	}
	return err == 0;
}
