/*
 * qfa.h - the two side files of a dump (doc/format.md 13, 14): the QFA
 * position file of -Q (where each inode's header lies on the media) and
 * the table of contents of -A (the archive's headers, maps and
 * directories, without file data).
 *
 * main.c opens them; the output pipeline, which numbers the records
 * and volumes, shows every header and every block from memory to
 * qfa_header() and qfa_mem(), and the output size of each record of a
 * compressed dump to qfa_sized().
 */
#ifndef DUMP_QFA_H
#define DUMP_QFA_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "dumprestore.h"

/* How a position is counted on the output (doc/format.md 13). */
enum qfa_unit {
	QFA_BYTES, /* files, pipes, rmt: byte offset in the volume */
	QFA_RECORDS, /* local tape: record (tape block) number */
};

/* -A: create the table of contents now (start-up).  -1 with errno. */
int qfa_toc_open(const char *path);

/* -Q: create the position file and write its five title lines for a
 * dump of this date, printing "writing QFA positions to <path>".
 * -1 with errno. */
int qfa_pos_open(const char *path, time_t date);

/* Whether the positions need the output size of every record (a
 * compressed dump with -Q): sizes.c then reports them to qfa_sized(). */
int qfa_wants_sizes(int compressed);

/* sizes.c, before the first record: record size and position unit. */
void qfa_setup(int ntrec, int compressed, enum qfa_unit unit);

/*
 * A header was queued as a block of record rec, the record number
 * rec - vol_first_rec of volume vol (headers carry their final c_tapea
 * and checksum).  Writes its position line when it is the first
 * qualifying TS_INODE of the record, and copies it into the TOC.
 */
void qfa_header(const union u_spcl *h, int vol, uint64_t rec,
		uint64_t vol_first_rec);

/* nblocks tape blocks from memory were queued (not headers). */
void qfa_mem(const void *buf, size_t nblocks);

/* Record rec of a compressed dump takes len bytes on the output. */
void qfa_sized(uint64_t rec, size_t len);

/* -A: store the volume table (doc/format.md 10.6) in the TS_END header
 * the caller is about to queue: c_inos[1] = ROOTINO, c_inos[v] = the
 * inode being dumped when volume v began. */
void qfa_end_header(union u_spcl *end);

/* End of the dump: flush and close both files ("Archiving dump to" for
 * -A).  Returns 0, or -1 after reporting an error. */
int qfa_close(void);

#endif /* DUMP_QFA_H */
