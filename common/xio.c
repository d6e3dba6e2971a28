/*
 * xio.c - whole-buffer read/write; see xio.h.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/uio.h>
#include <unistd.h>

#include "xio.h"

/*
 * One loop for the four: read or write LEN bytes at the file position
 * (at == NULL) or at offset *at, again after EINTR and short transfers.  A
 * read stops early at end of file; a write that writes nothing is a
 * full device (ENOSPC).
 */
static ssize_t
transfer(int fd, void *buf, size_t len, const off_t *at, int writing)
{
	size_t done = 0;

	while (done < len) {
		char *p = (char *)buf + done;
		size_t left = len - done;
		ssize_t n;

		if (writing)
			n = at == NULL ? write(fd, p, left)
				       : pwrite(fd, p, left, *at + (off_t)done);
		else
			n = at == NULL ? read(fd, p, left)
				       : pread(fd, p, left, *at + (off_t)done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			if (!writing)
				break;
			errno = ENOSPC;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t
full_read(int fd, void *buf, size_t len)
{
	return transfer(fd, buf, len, NULL, 0);
}

ssize_t
full_write(int fd, const void *buf, size_t len)
{
	return transfer(fd, (void *)buf, len, NULL, 1);
}

ssize_t
full_pread(int fd, void *buf, size_t len, off_t off)
{
	return transfer(fd, buf, len, &off, 0);
}

ssize_t
full_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return transfer(fd, (void *)buf, len, &off, 1);
}

void
iov_advance(struct iovec **iov, int *iovcnt, size_t n)
{
	while (*iovcnt > 0 && n >= (*iov)->iov_len) {
		n -= (*iov)->iov_len;
		(*iov)++;
		(*iovcnt)--;
	}
	if (*iovcnt > 0) {
		(*iov)->iov_base = (char *)(*iov)->iov_base + n;
		(*iov)->iov_len -= n;
	}
}
