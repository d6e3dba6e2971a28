/*
 * eiofault.c - an LD_PRELOAD shim that makes byte ranges of one device
 * or file unreadable (EIO), as a disk with bad sectors or a
 * device-mapper "error" target does, where neither can be set up.
 *
 * Environment:
 *   EIOFAULT_PATH    the device or file (matched by device number for a
 *                    block device, else by device and inode)
 *   EIOFAULT_RANGES  START:LENGTH[,START:LENGTH...] in bytes
 *   EIOFAULT_LOG     optional file: one line "eio OFFSET LENGTH" per
 *                    failed read
 * A read(), pread() or pread64() of that file that touches a range fails
 * as a whole with EIO (as an O_DIRECT read of a failing disk does); all
 * other reads are passed on.  The ranges count from the start of the
 * file, whatever descriptor or offset the reader uses.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_RANGES 16

static struct {
	uint64_t start, len;
} ranges[MAX_RANGES];
static int nranges = -1;
static struct stat target;

static void
setup(void)
{
	const char *path = getenv("EIOFAULT_PATH");
	const char *r = getenv("EIOFAULT_RANGES");

	nranges = 0;
	if (path == NULL || r == NULL || stat(path, &target) != 0)
		return;
	while (*r != '\0' && nranges < MAX_RANGES) {
		char *end;
		unsigned long long s = strtoull(r, &end, 0), l;

		if (*end != ':')
			break;
		l = strtoull(end + 1, &end, 0);
		ranges[nranges].start = s;
		ranges[nranges].len = l;
		nranges++;
		if (*end != ',')
			break;
		r = end + 1;
	}
}

static int
is_target(int fd)
{
	struct stat st;

	if (nranges < 0)
		setup();
	if (nranges == 0 || fstat(fd, &st) != 0)
		return 0;
	if (S_ISBLK(target.st_mode))
		return S_ISBLK(st.st_mode) && st.st_rdev == target.st_rdev;
	return st.st_dev == target.st_dev && st.st_ino == target.st_ino;
}

/* Whether [off, off + len) touches a range; logs the failure. */
static int
fails(int fd, uint64_t off, size_t len)
{
	const char *log;

	if (len == 0 || !is_target(fd))
		return 0;
	for (int i = 0; i < nranges; i++) {
		if (off < ranges[i].start + ranges[i].len &&
		    ranges[i].start < off + len) {
			log = getenv("EIOFAULT_LOG");
			if (log != NULL) {
				FILE *f = fopen(log, "a");

				if (f != NULL) {
					fprintf(f, "eio %llu %zu\n",
						(unsigned long long)off, len);
					fclose(f);
				}
			}
			errno = EIO;
			return 1;
		}
	}
	return 0;
}

ssize_t
pread64(int fd, void *buf, size_t len, off64_t off)
{
	static ssize_t (*real)(int, void *, size_t, off64_t);

	if (real == NULL)
		real = (ssize_t(*)(int, void *, size_t, off64_t))dlsym(
		    RTLD_NEXT, "pread64");
	if (fails(fd, (uint64_t)off, len))
		return -1;
	return real(fd, buf, len, off);
}

ssize_t
pread(int fd, void *buf, size_t len, off_t off)
{
	return pread64(fd, buf, len, (off64_t)off);
}

ssize_t
read(int fd, void *buf, size_t len)
{
	static ssize_t (*real)(int, void *, size_t);
	off64_t off;

	if (real == NULL)
		real =
		    (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (is_target(fd) && (off = lseek64(fd, 0, SEEK_CUR)) >= 0 &&
	    fails(fd, (uint64_t)off, len))
		return -1;
	return real(fd, buf, len);
}
