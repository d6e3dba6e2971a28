/*
 * flipsync.c - an LD_PRELOAD shim for the tests of dump --verify: the
 * disk keeps something else than what was written.  Before each fsync()
 * of the file FLIPSYNC_FILE, the byte at FLIPSYNC_OFFSET in it has one
 * bit flipped (once per process); then the real fsync runs.  Nothing
 * else changes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int
fsync(int fd)
{
	static int (*real_fsync)(int);
	static int done;
	const char *file = getenv("FLIPSYNC_FILE");
	const char *offs = getenv("FLIPSYNC_OFFSET");
	struct stat a, b;

	if (real_fsync == NULL)
		real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	if (!done && file != NULL && offs != NULL && fstat(fd, &a) == 0 &&
	    stat(file, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		off_t off = (off_t)strtoll(offs, NULL, 10);
		int rw = open(file, O_RDWR); /* fd may be write-only */
		unsigned char c;

		if (rw >= 0 && pread(rw, &c, 1, off) == 1) {
			c ^= 0x10;
			if (pwrite(rw, &c, 1, off) == 1)
				done = 1;
		}
		if (rw >= 0)
			(void)close(rw);
	}
	return real_fsync(fd);
}
