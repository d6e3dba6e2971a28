/*
 * shim_media.c - restore/media.c with a reset, for the fuzz targets.
 *
 * The media layer (volumes, reads, records, blocks) keeps its state in
 * file-scope variables; fuzz_tape_reset() calls fuzz_media_reset()
 * before each input.  A variable added to media.c must be reset here.
 */
#include "../../restore/media.c"

#include "harness.h"

void
fuzz_media_reset(void)
{
	free(inbuf);
	free(blkbuf);
	free(volname);
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
	seen_end = input_error = false;
	volno = 1;
	volname = NULL;
	phys_blocks = 0;
	no_more_volumes = false;
	vol_serial = 0;
	vol_rejoined = false;
	memset(&vol_header, 0, sizeof(vol_header));
}
