/*
 * verify.c - restore --verify: read a whole archive, every volume, with
 * no file system, and check everything that can be checked: every
 * header (checksum, ranges), the block map of every file, the
 * directories, the data against the checksums of the header extension
 * (datacheck.c), and that the dump ends with its end-of-dump record.
 * Prints a summary; exit status 0 only when all of it checked, which an
 * archive without data checksums (any dump but ours) cannot give.
 */
#include <stdio.h>

#include "restore.h"
#include "extern.h"

int
verify_run(void)
{
	const struct datacheck_stats *st;
	uint64_t files = 0, bytes = 0;
	bool complete, good;

	dirs_read();
	dirs_build_tree();
	for (;;) {
		const struct s_spcl *h = &curhdr.s_spcl;

		tape_find_inode();
		if (h->c_type == TS_END)
			break;
		if (!(h->c_flags & DR_EXTATTRIBUTES)) {
			files++;
			bytes += h->c_dinode.di_size;
		}
		tape_skipfile();
	}
	tape_drain();
	complete = !tape_truncated();
	st = datacheck_stats();
	printf("Verified %llu files after the directories, %llu bytes of "
	       "file data\n",
	       (unsigned long long)files, (unsigned long long)bytes);
	printf("Data checksums: %llu blocks checked, %lu damaged, %llu "
	       "blocks not covered\n",
	       (unsigned long long)st->checked_blocks, st->damaged,
	       (unsigned long long)st->unchecked_blocks);
	if (!st->any_extension)
		printf("The archive carries no data checksums (not written by "
		       "this dump): its data could not be verified\n");
	if (!complete)
		printf("The archive ends before its end-of-dump record\n");
	good = complete && st->damaged == 0 && st->unchecked_blocks == 0 &&
	    st->any_extension && !tape_had_error() && !tape_resynced() &&
	    dirs_refused() == 0;
	printf("%s\n", good ? "The archive verifies" : "VERIFY FAILED");
	if (fflush(stdout) != 0)
		return R_ERROR;
	return good ? R_SUCCESS : R_ERROR;
}
