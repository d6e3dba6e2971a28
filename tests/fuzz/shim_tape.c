/*
 * shim_tape.c - restore/tape.c with a reset, for the fuzz targets.
 *
 * The reader keeps its state in file-scope variables; the fuzz targets
 * link this file instead of tape.o and call fuzz_tape_reset() before
 * each input.  A variable added to tape.c must be reset here too.
 */
#include "../../restore/tape.c"

#include "harness.h"

void
fuzz_tape_reset(void)
{
	free(inbuf);
	free(blkbuf);
	free(volname);
	free(dumpmap);
	free(usedmap);
	memset(&curhdr, 0, sizeof(curhdr));
	memset(&tapehdr, 0, sizeof(tapehdr));
	dumpdate = dumpprev = 0;
	maxino = 0;
	dumpmap = usedmap = NULL;
	dumpmap_len = usedmap_len = 0;
	infd = -1;
	in_remote = in_tape = false;
	first_read = 0;
	inbuf = NULL;
	inbuf_size = in_start = in_end = 0;
	in_eof = swapped = compressed = false;
	ntrec = 0;
	raw_left = 0;
	blkbuf = NULL;
	blk_pos = blk_len = 0;
	blocks_read = 0;
	seen_end = input_error = hdr_synth = newinodefmt = resynced = false;
	volno = 1;
	volname = NULL;
	phys_blocks = 0;
	no_more_volumes = false;
}
