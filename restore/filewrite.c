/*
 * filewrite.c - creates a restored regular file and writes its data.
 *
 * A file is created exclusively with mode 0600 (owner and mode come
 * last, attrs.c); only if the name is taken is what is there removed,
 * never followed, and the create tried once more.  These two functions
 * only call the kernel and print, so worker threads use them too
 * (filepool.c); the writer below is the reader thread's.
 *
 * Blocks come off the archive in file order; they are gathered into
 * chunks of up to WRITE_CHUNK bytes, each written with pwrite at its
 * offset.  All-zero blocks and holes are skipped, so they stay holes.
 *
 * Everything goes through the page cache, and writeback of each full
 * chunk starts at once (sync_file_range), so the kernel keeps many
 * large requests queued while the archive is read on and the final
 * syncfs() has little left to do.  Large files used to be written with
 * O_DIRECT by an I/O thread, one 1 MiB write at a time: on a used file
 * system the disk then waited on each request and the restore on the
 * disk (150 MB -r into a used ext4, until on disk: 4.4-4.6 s direct,
 * 1.2-2.3 s through the page cache, GNU tar -x 4.0 s;
 * bench/restore-bench.sh).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "restore.h"
#include "filewrite.h"
#include "xalloc.h"
#include "xio.h"

static unsigned char *buf; /* the chunk being gathered (one file at a time) */
static const unsigned char zero_block[TP_BSIZE];

bool
fw_clear(int dfd, const char *name, const char *path)
{
	if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
		return true;
	if (errno == EISDIR)
		warnx("%s: a directory is in the way, not replaced", path);
	else
		warn("%s: cannot remove the existing file", path);
	return false;
}

bool
fw_zero(const unsigned char *blk, size_t n)
{
	return memcmp(blk, zero_block, n) == 0;
}

int
fw_create(int dfd, const char *name, const char *path)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(dfd, name, flags, 0600);

	if (fd < 0 && errno == EEXIST) {
		if (!fw_clear(dfd, name, path))
			return -1;
		fd = openat(dfd, name, flags, 0600);
	}
	if (fd < 0)
		warn("%s: cannot create file", path);
	return fd;
}

void
fw_begin(struct file_writer *w, int fd, const char *path)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->path = path;
	if (buf == NULL)
		buf = xmalloc(WRITE_CHUNK + TP_BSIZE);
}

/* Write the gathered chunk, if any. */
static void
flush(struct file_writer *w)
{
	if (w->blen == 0)
		return;
	w->end = w->boff + (off_t)w->blen;
	if (w->err == 0 && full_pwrite(w->fd, buf, w->blen, w->boff) < 0)
		w->err = errno;
	/* start writeback now, without waiting for it */
	if (w->err == 0 && w->blen >= WRITE_CHUNK)
		(void)sync_file_range(w->fd, w->boff, (off_t)w->blen,
				      SYNC_FILE_RANGE_WRITE);
	w->blen = 0;
}

void
fw_data(const unsigned char *blk, size_t n, void *arg)
{
	struct file_writer *w = arg;

	if (fw_zero(blk, n)) {
		w->off += (off_t)n; /* a zero run becomes a hole */
		return;
	}
	if (w->blen > 0 && w->boff + (off_t)w->blen != w->off)
		flush(w);
	if (w->blen == 0)
		w->boff = w->off;
	memcpy(buf + w->blen, blk, n);
	w->blen += n;
	w->off += (off_t)n;
	if (w->blen >= WRITE_CHUNK)
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
	err = w->err;
	if (err != 0) {
		errno = err;
		warn("%s: write error", w->path);
	}
	return err == 0;
}
