/*
 * devread.c - the slaves' reads of the file-system device.
 *
 * A mounted ext4 writes file data straight from the files' own page
 * cache to the disk, past the device's page cache, so a plain read of
 * the device can be answered from pages cached by an earlier reader
 * (an earlier dump, its read-ahead) and archive old bytes.  Root could
 * drop that cache (BLKFLSBUF); a member of group disk cannot.  Reads
 * with O_DIRECT need no privilege and always ask the disk, so they are
 * what the slaves use (doc/design.md, "Coherent reads").  Metadata is
 * read by libext2fs through the page cache on purpose: ext4 keeps
 * inode tables, directory and extent blocks in that same cache, so
 * there it is the newest copy.
 *
 * O_DIRECT wants the offset, length and buffer address aligned to the
 * device's logical block size.  Requests that are not aligned (a 4 KiB
 * sector disk under 1 KiB archive blocks) go through an aligned bounce
 * buffer.  Where the alignment guess proves too small (EINVAL) it is
 * doubled up to a page; where O_DIRECT is refused altogether (a file
 * system without it, such as an older tmpfs holding an image file) the
 * plain descriptor is used: such a file's page cache is the file itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fs.h>

#include "xio.h"
#include "devread.h"

#define MIN_ALIGN 512 /* the smallest logical block of Linux */
#define MAX_ALIGN 4096 /* no device needs more than a page */

int
devread_open(struct devread *dr, const char *path)
{
	struct stat st;
	int sector;

	memset(dr, 0, sizeof(*dr));
	dr->path = path;
	dr->cached_fd = -1;
	dr->align = MIN_ALIGN;
	dr->direct_fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (dr->direct_fd == -1) {
		if (errno != EINVAL)
			return -1;
		dr->cached_fd = open(path, O_RDONLY | O_CLOEXEC);
		return dr->cached_fd == -1 ? -1 : 0;
	}
	if (fstat(dr->direct_fd, &st) == 0 && S_ISBLK(st.st_mode) &&
	    ioctl(dr->direct_fd, BLKSSZGET, &sector) == 0 &&
	    sector >= MIN_ALIGN && sector <= MAX_ALIGN)
		dr->align = (size_t)sector;
	return 0;
}

static int
aligned(const struct devread *dr, const void *buf, size_t len, off_t off)
{
	return ((uintptr_t)buf % dr->align) == 0 && len % dr->align == 0 &&
	    (uint64_t)off % dr->align == 0;
}

/* Read the aligned span around [off, off + len) into the bounce buffer
 * and copy the wanted part out. */
static ssize_t
bounce_read(struct devread *dr, void *buf, size_t len, off_t off)
{
	uint64_t start = (uint64_t)off / dr->align * dr->align;
	uint64_t end =
	    ((uint64_t)off + len + dr->align - 1) / dr->align * dr->align;
	size_t span = (size_t)(end - start), head = (size_t)(off - start);
	ssize_t n;

	if (span > dr->bounce_size) {
		void *p;

		if (posix_memalign(&p, MAX_ALIGN, span) != 0) {
			errno = ENOMEM;
			return -1;
		}
		free(dr->bounce);
		dr->bounce = p;
		dr->bounce_size = span;
	}
	n = full_pread(dr->direct_fd, dr->bounce, span, (off_t)start);
	if (n < 0)
		return -1;
	if ((size_t)n <= head)
		return 0;
	n -= (ssize_t)head;
	if ((size_t)n > len)
		n = (ssize_t)len;
	memcpy(buf, dr->bounce + head, (size_t)n);
	return n;
}

ssize_t
devread_pread(struct devread *dr, void *buf, size_t len, off_t off)
{
	while (dr->direct_fd != -1) {
		ssize_t n = aligned(dr, buf, len, off)
		    ? full_pread(dr->direct_fd, buf, len, off)
		    : bounce_read(dr, buf, len, off);

		if (n >= 0 || errno != EINVAL)
			return n;
		if (dr->align < MAX_ALIGN) {
			dr->align *= 2;
			continue;
		}
		(void)close(dr->direct_fd);
		dr->direct_fd = -1;
	}
	if (dr->cached_fd == -1) {
		dr->cached_fd = open(dr->path, O_RDONLY | O_CLOEXEC);
		if (dr->cached_fd == -1)
			return -1;
	}
	return full_pread(dr->cached_fd, buf, len, off);
}

void
devread_close(struct devread *dr)
{
	/* read only: a failing close loses nothing */
	if (dr->direct_fd != -1)
		(void)close(dr->direct_fd);
	if (dr->cached_fd != -1)
		(void)close(dr->cached_fd);
	free(dr->bounce);
	memset(dr, 0, sizeof(*dr));
	dr->direct_fd = dr->cached_fd = -1;
}
