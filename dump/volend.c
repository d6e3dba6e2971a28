/*
 * volend.c - where a volume ends (doc/format.md 10.1).  With -B the
 * master decides, when a record is complete, whether it ends the
 * volume: uncompressed, when the volume holds the rounded -B count of
 * blocks; compressed, as 0.4b47 does, when the output bytes of the
 * volume's records up to two before this one, plus a look-ahead of
 * 3 x (record + 4), reach -B KiB (the sizes come from sizes.c).  Length
 * mode (-s/-d/-c) is the same with 0.4b47's tape arithmetic instead of
 * a byte count.
 */
#include <stdint.h>

#include "compress.h"
#include "cprefix.h"
#include "dumprestore.h"
#include "tapeint.h"
#include "writer.h"

/* Compressed volumes: records whose size the master does not know yet
 * when it decides (0.4b47's three writers), counted as full size. */
#define LOOKAHEAD_RECORDS 3
/* Length mode (-s/-d/-c), in 0.1 inch like 0.4b47: tape length, bytes
 * per 0.1 inch, and the inter-record gap added per record. */
#define TENTHS_PER_FOOT	  120
#define DEFAULT_FEET	  2300
#define CARTRIDGE_FEET	  1700
#define DEFAULT_DENSITY	  160 /* 1600 bpi */
#define CARTRIDGE_DENSITY 100
#define DENSITY_6250	  625
#define GAP_CARTRIDGE	  16
#define GAP_6250	  5
#define GAP_OTHER	  8
#define BPI_PER_DENSITY	  10
/* Compressed length mode: records whose size the master does not know
 * yet, counted as full ones (as 0.4b47). */
#define LENGTH_LOOKAHEAD 2

/* The size limit of volume vol: blocks (a multiple of ntrec, at least
 * one record) uncompressed, output bytes compressed; 0 for none. */
uint64_t
volend_limit(const struct tape_state *ts, int vol)
{
	long kb;
	uint64_t blocks;

	if (ts->cfg.nvolsize <= 0 || writer_is_pipe(&ts->out))
		return 0;
	kb = ts->cfg.volsize[vol <= ts->cfg.nvolsize ? vol - 1
						     : ts->cfg.nvolsize - 1];
	if (kb <= 0)
		return 0;
	if (ts->cfg.compress != COMP_NONE)
		return (uint64_t)kb * TP_BSIZE;
	blocks =
	    (uint64_t)kb / (uint64_t)ts->cfg.ntrec * (uint64_t)ts->cfg.ntrec;
	return blocks > 0 ? blocks : (uint64_t)ts->cfg.ntrec;
}

/* Set up length mode from -s/-d/-c (not with -B, nor on a pipe). */
void
volend_setup(struct tape_state *ts)
{
	if ((ts->cfg.length_feet == 0 && ts->cfg.density == 0 &&
	     !ts->cfg.cartridge) ||
	    ts->cfg.nvolsize > 0 || writer_is_pipe(&ts->out))
		return;
	ts->density = ts->cfg.density > 0
	    ? (uint64_t)ts->cfg.density / BPI_PER_DENSITY
	    : ts->cfg.cartridge ? CARTRIDGE_DENSITY
				: DEFAULT_DENSITY;
	if (ts->density == 0)
		ts->density = 1;
	ts->tape_tenths =
	    (uint64_t)(ts->cfg.length_feet > 0 ? ts->cfg.length_feet
			   : ts->cfg.cartridge ? CARTRIDGE_FEET
					       : DEFAULT_FEET) *
	    TENTHS_PER_FOOT;
	ts->gap_tenths = ts->cfg.cartridge ? GAP_CARTRIDGE
	    : ts->density == DENSITY_6250  ? GAP_6250
					   : GAP_OTHER;
}

/* Length mode: whether the tape is used up after record rec, the tape
 * used being (record bytes / density + gap) per record.  Compressed,
 * the sizes of the last two records are not known yet and count as
 * full records (as 0.4b47). */
static int
length_full(struct tape_state *ts, uint64_t rec)
{
	uint64_t full =
	    ((uint64_t)ts->cfg.ntrec * TP_BSIZE + CPREFIX_SIZE) / ts->density +
	    ts->gap_tenths;

	if (ts->cfg.compress == COMP_NONE)
		return (rec + 1 - ts->vol_first_rec) *
		    ((uint64_t)ts->cfg.ntrec * TP_BSIZE / ts->density +
		     ts->gap_tenths) >
		    ts->tape_tenths;
	if (rec >= ts->vol_first_rec + LOOKBEHIND_RECORDS)
		sizes_learn(ts, rec + 1 - LOOKBEHIND_RECORDS);
	return ts->vol_known_tenths + LENGTH_LOOKAHEAD * full > ts->tape_tenths;
}

/* Whether record rec (now complete) is the last of its volume. */
int
volend_full(struct tape_state *ts, uint64_t rec)
{
	uint64_t nrec = rec + 1 - ts->vol_first_rec;

	if (ts->tape_tenths != 0 && !ts->closing)
		return length_full(ts, rec);
	if (ts->vol_limit == 0 || ts->closing)
		return 0;
	if (ts->cfg.compress == COMP_NONE)
		return nrec * (uint64_t)ts->cfg.ntrec >= ts->vol_limit;
	/* 0.4b47 knows the sizes of records up to two before this one;
	 * the rest is covered by the look-ahead allowance */
	if (rec >= ts->vol_first_rec + LOOKBEHIND_RECORDS)
		sizes_learn(ts, rec + 1 - LOOKBEHIND_RECORDS);
	return ts->vol_known_bytes +
	    LOOKAHEAD_RECORDS *
		((uint64_t)ts->cfg.ntrec * TP_BSIZE + CPREFIX_SIZE) >=
	    ts->vol_limit;
}
