/*
 * xio.h - whole-buffer I/O: loops over short counts and EINTR.
 * Return the byte count transferred (full_read: less only at EOF), or -1
 * with errno set.  Nothing here exits.
 */
#ifndef XIO_H
#define XIO_H

#include <sys/types.h>

ssize_t full_read(int fd, void *buf, size_t len);
ssize_t full_write(int fd, const void *buf, size_t len);
ssize_t full_pread(int fd, void *buf, size_t len, off_t off);
ssize_t full_pwrite(int fd, const void *buf, size_t len, off_t off);

struct iovec;
/* Skip the first n bytes of the iovec array *iov of *iovcnt entries
 * (after a partial writev/sendmsg), updating both. */
void iov_advance(struct iovec **iov, int *iovcnt, size_t n);

#endif /* XIO_H */
