/*
 * fuzz_ea.c - EA records as restore reads and walks them: the record
 * size checks, the EA block and in-inode payload walk, ACL conversion,
 * and the comparison with a file (restore -C), which only reads
 * attributes.
 *
 * Input: one flags byte (bit 0: other byte order; bit 1: a second
 * record with the same payload; bit 2: announce 8 KiB more than given),
 * then the payload.  The target puts it in an EA record after a
 * regular file's inode.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "harness.h"

#define FILE_INO    12
#define MAX_PAYLOAD (4 * XATTR_MAXSIZE)

static char target[PATH_MAX];

static void
make_target(void)
{
	const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	int fd;

	if (target[0] != '\0')
		return;
	/* An empty file of our own to compare the attributes with; a
	 * TMPDIR too long for the name is refused, never cut short. */
	if ((size_t)snprintf(target, sizeof(target), "%s/fuzz-ea.XXXXXX",
			     tmp) >= sizeof(target) ||
	    (fd = mkstemp(target)) < 0 || close(fd) != 0) {
		perror(target);
		abort();
	}
}

static void
cleanup(void)
{
	if (target[0] != '\0')
		(void)unlink(target);
}

static void
run(void *arg)
{
	struct ealist ea = {0};

	(void)arg;
	tape_setup();
	tape_skipfile();
	ea_read_records(FILE_INO, &ea);
	(void)ea_compare(&ea, target, "fuzz");
	ea_free(&ea);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct abuf b = {NULL, 0, 0};
	union u_spcl h;
	int swapped, twice, over;
	size_t len;

	if (size < 1)
		return 0;
	if (target[0] == '\0') {
		make_target();
		atexit(cleanup);
	}
	swapped = data[0] & 1;
	twice = data[0] & 2;
	over = data[0] & 4;
	len = size - 1 < MAX_PAYLOAD ? size - 1 : MAX_PAYLOAD;
	ab_start(&b, swapped, 0, NTREC);
	ab_file(&b, swapped, FILE_INO, S_IFREG | 0644, 0, NULL, 0, 0);
	for (int i = 0; i < (twice ? 2 : 1); i++)
		ab_file(&b, swapped, FILE_INO, S_IFREG | 0644, DR_EXTATTRIBUTES,
			data + 1, len, over ? len + 2 * XATTR_MAXSIZE : len);
	ab_init_header(&h, TS_END, 0);
	ab_header(&b, &h, swapped);
	fuzz_restore_input(b.p, b.len);
	ab_free(&b);
	(void)fuzz_try(run, NULL);
	fuzz_restore_done();
	return 0;
}
