/*
 * pincache.c - hold part of a block device's page cache in memory.
 *
 *     pincache DEVICE OFFSET LENGTH STOPFILE
 *
 * Maps LENGTH bytes of DEVICE from OFFSET (shared, read-only), reads
 * every page into the device's page cache and locks it there, prints
 * "pinned" and waits until STOPFILE exists (or 15 minutes pass).  A
 * mapped page is never dropped by drop_caches nor, locked, reclaimed:
 * a test that needs the cached copy of some blocks to outlive writes
 * made through the mounted file system (a buffered reader of the
 * device then sees the old bytes) sets that condition up itself,
 * whatever else runs on the machine.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long off, len, start;
	volatile unsigned char sum = 0;
	unsigned char *p;
	int fd, waited;

	if (argc != 5) {
		fprintf(stderr,
			"usage: pincache DEVICE OFFSET LENGTH STOPFILE\n");
		return 2;
	}
	off = strtoull(argv[2], NULL, 0);
	len = strtoull(argv[3], NULL, 0);
	start = off - off % (unsigned long long)page;
	len += off - start;
	fd = open(argv[1], O_RDONLY);
	if (fd == -1 || len == 0) {
		perror(argv[1]);
		return 1;
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)start);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (unsigned long long i = 0; i < len; i += (unsigned long long)page)
		sum ^= p[i];
	if (mlock(p, len) == -1)
		perror("mlock (pages stay mapped)");
	printf("pinned\n");
	fflush(stdout);
	for (waited = 0; waited < 9000; waited++) {
		if (access(argv[4], F_OK) == 0)
			break;
		usleep(100000);
	}
	return 0;
}
