/*
 * fuzz_header.c - restore's archive reader on raw archive bytes: the
 * volume header, the maps, the header gate (magic, byte order, checksum,
 * range checks), resync over garbage, compressed records when the volume
 * header says so, and the directories and EA records found on the way.
 * Seeds: the first blocks of archives of our dump and of dump 0.4b47.
 */
#include "harness.h"
#include "walk.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_restore_input(data, size);
	(void)fuzz_try(fuzz_restore_walk, NULL);
	fuzz_restore_done();
	return 0;
}
