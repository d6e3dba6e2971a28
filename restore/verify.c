/*
 * verify.c - restore --verify: read a whole archive, every volume, with
 * no file system, and check everything that can be checked: every
 * header (checksum, ranges), the block map of every file, the
 * directories, the data against the checksums of the header extension
 * (datacheck.c), that every file the directories name is there, and
 * that the dump ends with its end-of-dump record.
 * Prints a summary; exit status 0 only when all of it checked, which an
 * archive without data checksums (any dump but ours) cannot give.
 */
#include <stdio.h>
#include <stdlib.h>

#include "restore.h"
#include "extern.h"
#include "xalloc.h"

/* Inodes the dump's map lists and the directories name but the archive
 * did not hold (their header was lost with a damaged record): each named
 * as restore -r names it, and counted.  Those no directory names (a file
 * deleted while it was dumped, or one whose directory was lost too) are
 * only counted in *nameless. */
static unsigned long
report_lost(const unsigned char *seen, unsigned long *nameless)
{
	unsigned long lost = 0;

	*nameless = 0;
	for (uint32_t ino = 1; (size_t)(ino - 1) / 8 < dumpmap_len; ino++) {
		const struct entry *e;

		if (!map_test(dumpmap, dumpmap_len, ino) ||
		    map_test(seen, dumpmap_len, ino) || dirs_is_dir(ino))
			continue;
		if ((e = sym_lookup_ino(ino)) == NULL) {
			(*nameless)++;
			continue;
		}
		rmsg("%s: (inode %lu) not found on tape\n", sym_path(e),
		     (unsigned long)ino);
		lost++;
	}
	return lost;
}

int
verify_run(void)
{
	const struct datacheck_stats *st;
	uint64_t files = 0, bytes = 0;
	unsigned char *seen = xcalloc(dumpmap_len + 1, 1);
	unsigned long lost, nameless;
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
			if (h->c_inumber >= 1 &&
			    (size_t)(h->c_inumber - 1) / 8 < dumpmap_len)
				seen[(h->c_inumber - 1) / 8] |=
				    (unsigned char)(1u << ((h->c_inumber - 1) %
							   8));
		}
		tape_skipfile();
	}
	lost = report_lost(seen, &nameless);
	free(seen);
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
	if (lost > 0)
		printf("%lu files named in the directories are not on the "
		       "archive\n",
		       lost);
	if (nameless > 0)
		printf("%lu inodes of the dump's map, named by no directory, "
		       "are not on the archive\n",
		       nameless);
	good = complete && lost == 0 && st->damaged == 0 &&
	    st->unchecked_blocks == 0 && st->any_extension &&
	    !tape_had_error() && !tape_resynced() && dirs_refused() == 0;
	printf("%s\n", good ? "The archive verifies" : "VERIFY FAILED");
	if (fflush(stdout) != 0)
		return R_ERROR;
	return good ? R_SUCCESS : R_ERROR;
}
