/*
 * shim_tape.c - restore/tape.c with a reset, for the fuzz targets.
 *
 * The reader keeps its state in file-scope variables; the fuzz targets
 * link this file instead of tape.o and call fuzz_tape_reset() before
 * each input, which also resets the media layer below it
 * (shim_media.c).  A variable added to tape.c must be reset here too.
 */
#include "../../restore/tape.c"

#include "harness.h"

void
fuzz_tape_reset(void)
{
	fuzz_media_reset();
	free(dumpmap);
	free(usedmap);
	memset(&curhdr, 0, sizeof(curhdr));
	memset(&tapehdr, 0, sizeof(tapehdr));
	dumpdate = dumpprev = 0;
	maxino = 0;
	dumpmap = usedmap = NULL;
	dumpmap_len = usedmap_len = 0;
	hdr_synth = newinodefmt = resynced = false;
	vol_serial = 0;
}
