/*
 * volreport.c - the lines that close a volume ("Closing <name>",
 * "Volume N completed at", its size, time, rate and, compressed, its
 * ratio), printed as 0.4b47 prints them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "compress.h"
#include "dumprestore.h"
#include "optr.h"
#include "rmtclient.h"
#include "tapeint.h"

#define SECS_PER_HOUR 3600
#define SECS_PER_MIN  60
/* Ratio printing: 0.4b47 rounds u/c to 3 decimals by adding 0.0005. */
#define RATIO_ROUND 0.0005

static void
print_ratio(const char *what, uint64_t ukb, uint64_t ckb)
{
	msg("%s%jukB uncompressed, %jukB compressed, %1.3f:1\n", what,
	    (uintmax_t)ukb, (uintmax_t)ckb,
	    RATIO_ROUND + (double)ukb / (double)(ckb > 0 ? ckb : 1));
}

/* The lines that close a volume ("Closing", "completed", sizes): blocks
 * is what the volume holds (its whole records), vol_bytes its output
 * size. */
void
volreport_volume(const struct tape_state *ts, time_t end, uint64_t blocks,
		 uint64_t vol_bytes)
{
	time_t took = end - ts->vol_start;
	uint64_t ckb = vol_bytes / TP_BSIZE;

	if (!ts->out.is_stdout) /* a remote volume by its path, as 0.4b47 */
		msg("Closing %s\n",
		    rmt_is_remote(ts->vol_name) ? strchr(ts->vol_name, ':') + 1
						: ts->vol_name);
	msg("Volume %d completed at: %s", ts->volume, ctime(&end));
	if (ts->cfg.compress == COMP_NONE)
		msg("Volume %d %ju blocks (%.2fMB)\n", ts->volume,
		    (uintmax_t)blocks,
		    (double)blocks * TP_BSIZE / (1024.0 * 1024.0));
	if (took >= 1) {
		char what[64];

		msg("Volume %d took %d:%02d:%02d\n", ts->volume,
		    (int)(took / SECS_PER_HOUR),
		    (int)(took % SECS_PER_HOUR / SECS_PER_MIN),
		    (int)(took % SECS_PER_MIN));
		msg("Volume %d transfer rate: %ju kB/s\n", ts->volume,
		    (uintmax_t)((ts->cfg.compress != COMP_NONE ? ckb : blocks) /
				(uint64_t)took));
		if (ts->cfg.compress != COMP_NONE) {
			(void)snprintf(what, sizeof(what), "Volume %d ",
				       ts->volume);
			print_ratio(what, blocks, ckb);
		}
	}
}
