/*
 * devread.h - reads of the file-system device that no stale cache can
 * answer (see devread.c).
 */
#ifndef DUMP_DEVREAD_H
#define DUMP_DEVREAD_H

#include <stddef.h>
#include <sys/types.h>

struct devread {
	int direct_fd; /* O_DIRECT, or -1 where it is refused */
	int cached_fd; /* plain descriptor, opened on first need */
	const char *path;
	size_t align; /* offset, length and address alignment */
	unsigned char *bounce; /* aligned buffer for unaligned requests */
	size_t bounce_size;
};

/* Open path for reading; -1 with errno set when it cannot be opened. */
int devread_open(struct devread *dr, const char *path);

/* Read len bytes at off into buf, as full_pread does: the count read
 * (short only at the end of the device), or -1 with errno set. */
ssize_t devread_pread(struct devread *dr, void *buf, size_t len, off_t off);

void devread_close(struct devread *dr);

#endif /* DUMP_DEVREAD_H */
