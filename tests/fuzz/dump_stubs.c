/*
 * dump_stubs.c - the output pipeline of dump (tape.h) for fuzz_fs: no
 * slaves, no writer.  Headers and memory blocks are counted and
 * dropped; a run of disk blocks, which the slaves would read from the
 * device, must lie inside the file system: dump maps blocks outside it
 * to zeros, so a read past the end here is a bug, and aborts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dump.h"
#include "tape.h"
#include "harness.h"
#include "fsfuzz.h"

static uint64_t queued;
uint64_t fuzz_fs_bytes;

void
tape_header(union u_spcl *h)
{
	(void)h;
	queued++;
}

void
tape_mem(const void *buf, size_t nblocks)
{
	(void)buf;
	queued += nblocks;
}

void
tape_disk(uint64_t off, size_t nblocks)
{
	if (off > fuzz_fs_bytes || nblocks * TP_BSIZE > fuzz_fs_bytes - off) {
		fprintf(stderr,
			"tape_disk: %zu blocks at byte %llu, past the "
			"file system's end (%llu bytes)\n",
			nblocks, (unsigned long long)off,
			(unsigned long long)fuzz_fs_bytes);
		abort();
	}
	queued += nblocks;
}

void
tape_zero(size_t nblocks)
{
	queued += nblocks;
}

uint64_t
tape_blocks(void)
{
	return queued;
}

uint64_t
tape_blocks_read(void)
{
	return queued;
}

void
tape_kill_helpers(void)
{
}

int
tape_output_is_pipe(void)
{
	return 0;
}
