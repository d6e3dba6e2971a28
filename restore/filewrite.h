/*
 * filewrite.h - a restored regular file: created, and its data written in
 * large chunks at their offsets, zero blocks left as holes.
 */
#ifndef RESTORE_FILEWRITE_H
#define RESTORE_FILEWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct file_writer {
	int fd;
	const char *path; /* for messages */
	size_t blen; /* bytes gathered (filewrite.c's chunk buffer) */
	off_t boff; /* file offset of the first */
	off_t off; /* offset of the next block */
	off_t end; /* end of the data written so far */
	int err; /* first write error (errno), 0 if none */
};

/* Remove what is at name in dfd without following it: false (said,
 * with path) if it cannot be, or is a directory. */
bool fw_clear(int dfd, const char *name, const char *path);

/* Create name in dfd for writing, mode 0600, what is there removed
 * first (fw_clear); -1 after a message.  Safe in any thread. */
int fw_create(int dfd, const char *name, const char *path);

/* Whether the n bytes (at most one tape block) at blk are all zero:
 * such blocks are left as holes.  Safe in any thread. */
bool fw_zero(const unsigned char *blk, size_t n);

/* Start writing the file open on fd. */
void fw_begin(struct file_writer *w, int fd, const char *path);

/* tape_getfile() callbacks: n bytes of data, n bytes of hole. */
void fw_data(const unsigned char *blk, size_t n, void *arg);
void fw_hole(size_t n, void *arg);

/* Write what is left.  false after a write error, which has been
 * reported with the file's name. */
bool fw_end(struct file_writer *w);

#endif /* RESTORE_FILEWRITE_H */
