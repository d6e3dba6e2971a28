/*
 * tape.h - the master's interface to the output pipeline.
 *
 * The master (traverse.c) describes the archive as a sequence of 1 KiB
 * tape blocks: headers it built, blocks copied from memory, and blocks
 * to be read from the file-system device.  tape.c groups them into
 * records of ntrec blocks, hands each record's description to one of
 * three slaves in turn (they pread the disk blocks and assemble the
 * record in a shared-memory ring), and a writer process drains the ring
 * to the output in its native block.  The master never touches the
 * output file descriptor.
 */
#ifndef DUMP_TAPE_H
#define DUMP_TAPE_H

#include <stdint.h>
#include <sys/types.h>

#include "dumprestore.h"

/*
 * Every field added after the first version is off when zero, so a caller that
 * memsets the structure and sets only the first five gets a single
 * uncompressed volume as before.
 */
struct tape_config {
	/* -f name; "-" is standard output.  A comma-separated list
	 * "a,b,c" names volumes 1, 2, 3 (the last name is reused for any
	 * further volume, after the operator changed the media). */
	const char *output;
	const char *device; /* file-system device or image the slaves read */
	unsigned fsblock; /* its block size (read-error messages) */
	int ntrec; /* tape blocks per record (-b) */
	int verbose;
	/* Fields every header of this dump carries: c_date, c_ddate,
	 * c_level, c_label, c_filesys, c_dev, c_host.  tape.c builds each
	 * volume's TS_TAPE header from it. */
	const union u_spcl *ident;

	/* -z / -j / -y: enum compress_method (compress.h), 0 = off; and the
	 * level given with it (-z6 -> 6), 0 = default (2, as 0.4b47). */
	int compress;
	int compress_level;
	/* -B n[,n...]: volume sizes in 1 KiB blocks, for volumes 1, 2, ...;
	 * the last value repeats.  nvolsize == 0: no size limit. */
	const long *volsize;
	int nvolsize;
	int multi; /* -M: volume n goes to <output>%03d */
	int noask; /* -q: a question aborts the dump */
	/* -s feet, -d bpi, -c: volumes end by computed tape length
	 * (ignored with -B or a pipe).  Zero: not given; the mode is on
	 * when any of the three is (defaults 2300 ft, 1700 with -c; 1600
	 * bpi, 100 bytes per 0.1" with -c). */
	long length_feet;
	long density;
	int cartridge;
	/* -F script: run as "/bin/sh -c '<script> <output> <volume>'" after
	 * each volume but the last; exit 0: go on without asking, 1: ask as
	 * usual, else abort.  NULL: none. */
	const char *volscript;
	/* --verify: each volume is read back from its file and checked
	 * before it is reported complete (verify.c). */
	int verify;
};

/*
 * Open the output, start the writer and the three slaves, and queue the
 * TS_TAPE header of volume 1 (printing "Dumping volume 1 on <name>" for
 * -M and -f lists, then "Volume 1 started with block 1 at: <date>").
 * Later volumes start by themselves while blocks are queued: when -B is
 * reached, or at end of media (ENOSPC or a write of 0 bytes on anything
 * but a pipe), with the volume lines of 0.4b47 and, when no name is
 * left, the operator's answer on /dev/tty.  An output that cannot be
 * opened makes it ask "Do you want to retry the open?" (no, -q or no
 * terminal: the dump aborts, status 3).  Reports its own errors;
 * returns 0, or -1 when the pipeline cannot be set up.
 */
int tape_start(const struct tape_config *cfg);
/* --verify: whether a volume did not verify (after tape_finish). */
int tape_verify_failed(void);

/*
 * Queue one header.  The pipeline fills c_tapea (the block's logical number),
 * c_volume, c_firstrec, c_ntrec, c_magic, sets DR_NEWINODEFMT in
 * c_flags, and computes c_checksum; the caller fills everything else.
 * The caller's header is updated with those values.
 */
void tape_header(union u_spcl *h);

/* Queue nblocks tape blocks copied from buf (nblocks * TP_BSIZE bytes). */
void tape_mem(const void *buf, size_t nblocks);

/* Queue nblocks tape blocks read from the device starting at byte
 * offset off (a multiple of TP_BSIZE); consecutive calls for adjacent
 * ranges are read by the slave in one pread. */
void tape_disk(uint64_t off, size_t nblocks);

/* Queue nblocks tape blocks of zeros. */
void tape_zero(size_t nblocks);

/* Number of tape blocks queued so far: the c_tapea of the next block. */
uint64_t tape_blocks(void);

/* Tape blocks whose records have reached the output, so whose disk
 * data the slaves have read: at least the first tape_blocks_read()
 * queued blocks (more after an end-of-media replay, never fewer). */
uint64_t tape_blocks_read(void);

/*
 * End the dump: queue TS_END headers (built from *end, whose c_type and
 * c_inumber the caller set) until the record is full - at least one -
 * then wait for every record to reach the output, flush it (fsync for
 * files and block devices), close it and print the volume lines
 * ("Closing <name>", "Volume 1 completed at: ...", "Volume 1 N blocks
 * (X.XXMB)", and "took"/"transfer rate" when it took a second or more).
 * Returns 0, or -1 after reporting an error.
 */
int tape_finish(union u_spcl *end);
/* (With compression the "N blocks" line is left out and, when the volume
 * took a second or more, "Volume N <u>kB uncompressed, <c>kB compressed,
 * <ratio>:1" added, as 0.4b47.) */

/* Volumes written so far (after tape_finish: the total, for "on V
 * volume(s)"). */
int tape_volumes(void);
/* After tape_finish: how many unreadable ranges of the device the
 * slaves dumped as zeros (each reported on its own line). */
unsigned long tape_read_errors(void);

/*
 * Compression totals for "Wrote <u>kB uncompressed, <c>kB compressed,
 * <ratio>:1": *ukb = tape blocks dumped, *ckb = bytes written / 1024.
 * Returns 0 when the dump is not compressed (nothing set).
 */
int tape_compress_totals(uint64_t *ukb, uint64_t *ckb);

/*
 * Name of the output of volume vol (1-based) of -f output: with multi
 * (-M) <output>%03d, with a comma list its vol-th element (the last one
 * reused), else output itself.  Written into buf (len bytes).  main.c
 * uses it for volume 1 in "Dumping ... to <name>", before any
 * tape_config exists.
 */
void tape_volume_name(const char *output, int multi, int vol, char *buf,
		      size_t len);

/* Kill the slaves and the writer (used when the dump aborts). */
void tape_kill_helpers(void);

/* Whether the output is standard output or a FIFO (messages differ). */
int tape_output_is_pipe(void);

#endif /* DUMP_TAPE_H */
