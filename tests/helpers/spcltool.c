/*
 * spcltool.c - command-line access to the header codec of common/spcl.c,
 * for the format tests (tests/t1*). It never interprets the format on its
 * own: checksums, classification and byte swapping all go through the
 * shared code, so the tests exercise exactly what dump and restore use.
 *
 *   spcltool sum   < block      print the native and swapped word sums
 *   spcltool setsum < in > out  set c_checksum (spcl_set_checksum)
 *   spcltool check [-s] < block print native, swapped, bad-checksum or
 *                               not-header (spcl_check; -s: foreign first)
 *   spcltool swap  < in > out   spcl_swap_header only (its own inverse)
 *   spcltool foreign < in > out a native header as the other byte order
 *                               writes it: swapped, and its checksum made
 *                               over the swapped words
 *   spcltool walk ARCHIVE       follow an uncompressed single-volume
 *                               archive header by header, one line each;
 *                               exit 1 at the first bad header
 *
 * Blocks are 1024 bytes (TP_BSIZE); a short block on input is an error.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockmap.h"
#include "dumprestore.h"
#include "spcl.h"
#include "xio.h"

#define EXIT_BAD   1 /* a check failed */
#define EXIT_USAGE 2 /* wrong command line */

static void
usage(void)
{
	fprintf(stderr,
		"usage: spcltool sum|setsum|check [-s]|swap|foreign < block\n"
		"       spcltool walk archive\n");
	exit(EXIT_USAGE);
}

static void
read_block(int fd, union u_spcl *h)
{
	ssize_t n = full_read(fd, h, sizeof(*h));

	if (n < 0)
		err(EXIT_BAD, "read");
	if ((size_t)n != sizeof(*h))
		errx(EXIT_BAD, "short block: %zd bytes", n);
}

static void
write_block(const union u_spcl *h)
{
	if (full_write(STDOUT_FILENO, h, sizeof(*h)) != (ssize_t)sizeof(*h))
		err(EXIT_BAD, "write");
}

static const char *
kind_name(enum spcl_kind k)
{
	switch (k) {
	case SPCL_NATIVE: return "native";
	case SPCL_SWAPPED: return "swapped";
	case SPCL_BAD_CHECKSUM: return "bad-checksum";
	case SPCL_NOT_HEADER: break;
	}
	return "not-header";
}

/* Data blocks that follow a header: the map size for the bitmaps, the
 * data runs of the block map for inode data, none otherwise. */
static int
data_blocks(const struct s_spcl *s, int64_t *count)
{
	if (s->c_count < 0 || s->c_count > TP_NINDIR)
		return -1;
	switch (s->c_type) {
	case TS_CLRI:
	case TS_BITS: *count = s->c_count; return 0;
	case TS_INODE:
	case TS_ADDR: {
		uint64_t data, all;

		(void)blockmap_count(s->c_addr, (size_t)s->c_count, &data,
				     &all);
		*count = (s->c_flags & DR_EXTATTRIBUTES) ? (int64_t)all
							 : (int64_t)data;
		return 0;
	}
	case TS_TAPE:
	case TS_END: *count = 0; return 0;
	}
	return -1;
}

static int
walk(const char *path)
{
	union u_spcl h;
	int64_t blockno = 0, skip;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		err(EXIT_BAD, "%s", path);
	for (;;) {
		n = full_read(fd, &h, sizeof(h));
		if (n < 0)
			err(EXIT_BAD, "%s", path);
		if (n == 0)
			break;
		if ((size_t)n != sizeof(h))
			errx(EXIT_BAD, "block %" PRId64 ": short (%zd bytes)",
			     blockno, n);
		enum spcl_kind k = spcl_check(&h, 0);
		if (k != SPCL_NATIVE)
			errx(EXIT_BAD,
			     "block %" PRId64 ": %s where a header "
			     "was expected",
			     blockno, kind_name(k));
		const struct s_spcl *s = &h.s_spcl;
		printf("block=%" PRId64 " type=%d tapea=%" PRIu32
		       " ino=%" PRIu32 " count=%d size=%" PRIu64 " flags=%#x\n",
		       blockno, s->c_type, s->c_tapea, s->c_inumber, s->c_count,
		       s->c_dinode.di_size, (unsigned)s->c_flags);
		if (s->c_tapea != (uint32_t)blockno)
			errx(EXIT_BAD, "block %" PRId64 ": c_tapea %" PRIu32,
			     blockno, s->c_tapea);
		if (data_blocks(s, &skip) < 0)
			errx(EXIT_BAD,
			     "block %" PRId64 ": type %d count %d "
			     "out of range",
			     blockno, s->c_type, s->c_count);
		blockno++;
		if (skip > 0 && lseek(fd, (off_t)skip * TP_BSIZE, SEEK_CUR) < 0)
			err(EXIT_BAD, "%s: seek", path);
		blockno += skip;
	}
	if (close(fd) != 0)
		err(EXIT_BAD, "%s: close", path);
	if (fflush(stdout) != 0)
		err(EXIT_BAD, "stdout");
	return 0;
}

int
main(int argc, char **argv)
{
	union u_spcl h;

	if (argc < 2)
		usage();
	if (strcmp(argv[1], "walk") == 0) {
		if (argc != 3)
			usage();
		return walk(argv[2]);
	}
	if (strcmp(argv[1], "check") == 0) {
		int swapped = argc == 3 && strcmp(argv[2], "-s") == 0;
		if (argc > 3 || (argc == 3 && !swapped))
			usage();
		read_block(STDIN_FILENO, &h);
		printf("%s\n", kind_name(spcl_check(&h, swapped)));
		return 0;
	}
	if (argc != 2)
		usage();
	read_block(STDIN_FILENO, &h);
	if (strcmp(argv[1], "sum") == 0) {
		printf("%" PRIu32 " %" PRIu32 "\n", spcl_sum(&h),
		       spcl_sum_swapped(&h));
	} else if (strcmp(argv[1], "setsum") == 0) {
		spcl_set_checksum(&h);
		write_block(&h);
	} else if (strcmp(argv[1], "swap") == 0) {
		spcl_swap_header(&h);
		write_block(&h);
	} else if (strcmp(argv[1], "foreign") == 0) {
		spcl_swap_header(&h);
		h.s_spcl.c_checksum = 0;
		h.s_spcl.c_checksum = (int32_t)spcl_bswap32(
		    (uint32_t)CHECKSUM - spcl_sum_swapped(&h));
		write_block(&h);
	} else {
		usage();
	}
	return 0;
}
