/*
 * qfa.c - the QFA position file (-Q) and the table of contents (-A) of
 * a dump, both fed by records.c as it queues blocks (doc/format.md 13, 14).
 *
 * Positions.  dump 0.4b47 asks the output for its position just before
 * it writes a record whose blocks hold a qualifying TS_INODE header (the
 * first one of the record: not a directory, block device or socket, not
 * an EA record).  The master never touches the output, so the position
 * is computed instead: uncompressed, a record is ntrec tape blocks, so
 * record k of a volume starts at k * ntrec * TP_BSIZE bytes (or, on a
 * local tape, at block k of the drive, counted from where the volume
 * began); compressed, the records vary in size, so lines wait in a short
 * queue until sizes.c reports the output size of every record before
 * theirs (qfa_sized, in record order).  Lines are in record order, hence
 * in increasing inode order, as restore -Q expects.
 *
 * Table of contents.  A copy of every header and memory block from the
 * start of the dump up to the first TS_INODE of a non-directory, leaving
 * out EA records, then every TS_END header; headers lose DR_COMPRESSED
 * (the TOC is never compressed) and get their checksum again.  Disk
 * blocks never reach qfa_mem(), so file data is never copied.
 *
 * A write error on either file is reported once and ends that file only:
 * the dump itself goes on, as 0.4b47's does when it cannot get a
 * position.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dumprestore.h"
#include "optr.h"
#include "qfa.h"
#include "qfafile.h"
#include "spcl.h"
#include "xalloc.h"
#include "xio.h"

#define CREATE_MODE 0666
/* The mode test of 0.4b47 is a single bit: directories, block devices
 * and sockets all have it. */
#define MODE_DIR_BIT 0040000
#define MODE_FMT     0170000
#define MODE_DIR     0040000
#define QUEUE_MIN    16

/* ---- position file ------------------------------------------------- */

/* A line waiting for the sizes of the records before its own, or the
 * first record of a volume (ino 0), whose start resets the offset. */
struct pending {
	uint64_t rec;
	uint32_t ino;
	int vol;
};

static FILE *posf;
static const char *pos_path;
static int32_t pos_date;
static int pos_failed;
static uint64_t rec_bytes; /* uncompressed record size */
static int pos_compressed;
static enum qfa_unit pos_unit;
static uint64_t last_line_rec = UINT64_MAX; /* one line per record */

/* Compressed: output bytes of records < sized_upto, from the start of
 * the dump and from the start of the current volume's first record. */
static uint64_t sized_upto;
static uint64_t cum_bytes;
static uint64_t vol_base;
static struct pending *queue;
static size_t q_head, q_len, q_cap;

/* ---- table of contents -------------------------------------------- */

static int toc_fd = -1;
static int toc_failed;
static int toc_main_done; /* the first non-directory inode came */
static int toc_in_ea; /* the current header is an EA record's */
/* Inode being dumped when volume v began (index v, 2 <= v < TP_NINOS). */
static uint32_t vol_first_ino[TP_NINOS];

int
qfa_toc_open(const char *path)
{
	toc_fd =
	    open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, CREATE_MODE);
	return toc_fd == -1 ? -1 : 0;
}

int
qfa_pos_open(const char *path, time_t date)
{
	int fd;

	msg("writing QFA positions to %s\n", path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, CREATE_MODE);
	if (fd == -1 || (posf = fdopen(fd, "w")) == NULL) {
		if (fd != -1)
			(void)close(fd);
		return -1;
	}
	pos_path = path;
	pos_date = (int32_t)date;
	if (fprintf(posf, "%s\n%s\n%" PRId32 "\n\n%s\n", QFA_MAGIC, QFA_VERSION,
		    pos_date, QFA_COLUMNS) < 0)
		return -1;
	return 0;
}

int
qfa_wants_sizes(int compressed)
{
	return posf != NULL && compressed;
}

void
qfa_setup(int ntrec, int compressed, enum qfa_unit unit)
{
	rec_bytes = (uint64_t)ntrec * TP_BSIZE;
	pos_compressed = compressed;
	pos_unit = unit;
}

static void
pos_error(void)
{
	if (!pos_failed)
		msg("Cannot write QFA file %s: %s\n", pos_path,
		    strerror(errno));
	pos_failed = 1;
}

static void
put_line(uint32_t ino, int vol, uint64_t pos)
{
	if (pos_failed)
		return;
	if (fprintf(posf, "%" PRIu32 "\t%d\t%" PRIu64 "\n", ino, vol, pos) < 0)
		pos_error();
}

/* Resolve the queued entries whose record's start is known now. */
static void
drain_queue(void)
{
	while (q_len > 0 && queue[q_head].rec <= sized_upto) {
		const struct pending *p = &queue[q_head];

		/* cum_bytes is the offset of record sized_upto: entries
		 * never wait behind a record already sized */
		if (p->ino == 0)
			vol_base = cum_bytes;
		else
			put_line(p->ino, p->vol, cum_bytes - vol_base);
		q_head = (q_head + 1) % q_cap;
		q_len--;
	}
}

static void
enqueue(uint64_t rec, uint32_t ino, int vol)
{
	if (q_len == q_cap) {
		size_t ncap = q_cap ? q_cap * 2 : QUEUE_MIN, i;
		struct pending *n = xreallocarray(NULL, ncap, sizeof(*n));

		for (i = 0; i < q_len; i++)
			n[i] = queue[(q_head + i) % q_cap];
		free(queue);
		queue = n;
		q_cap = ncap;
		q_head = 0;
	}
	queue[(q_head + q_len) % q_cap] = (struct pending){rec, ino, vol};
	q_len++;
	drain_queue();
}

/* Whether 0.4b47 would write a position line for this header. */
static int
qualifies(const struct s_spcl *s)
{
	return s->c_magic == NFS_MAGIC && s->c_type == TS_INODE &&
	    s->c_date == pos_date &&
	    (s->c_dinode.di_mode & MODE_DIR_BIT) == 0 &&
	    (s->c_flags & DR_EXTATTRIBUTES) == 0;
}

static void
pos_header(const struct s_spcl *s, int vol, uint64_t rec,
	   uint64_t vol_first_rec)
{
	if (pos_compressed && s->c_type == TS_TAPE && rec == vol_first_rec)
		enqueue(rec, 0, vol);
	if (rec == last_line_rec || !qualifies(s))
		return;
	last_line_rec = rec;
	if (pos_compressed)
		enqueue(rec, (uint32_t)s->c_inumber, vol);
	else
		put_line((uint32_t)s->c_inumber, vol,
			 pos_unit == QFA_RECORDS
			     ? rec - vol_first_rec
			     : (rec - vol_first_rec) * rec_bytes);
}

void
qfa_sized(uint64_t rec, size_t len)
{
	if (posf == NULL || rec != sized_upto)
		return;
	cum_bytes += len;
	sized_upto = rec + 1;
	drain_queue();
}

/* ---- table of contents -------------------------------------------- */

static void
toc_write(const void *buf, size_t nblocks)
{
	if (toc_failed)
		return;
	if (full_write(toc_fd, buf, nblocks * TP_BSIZE) !=
	    (ssize_t)(nblocks * TP_BSIZE)) {
		msg("Cannot write the table of contents: %s\n",
		    strerror(errno));
		toc_failed = 1;
	}
}

static void
toc_header(const union u_spcl *h)
{
	const struct s_spcl *s = &h->s_spcl;
	union u_spcl copy;

	/* volume headers are seen whatever the phase */
	if (s->c_type == TS_TAPE && s->c_volume >= 2 && s->c_volume < TP_NINOS)
		vol_first_ino[s->c_volume] = (uint32_t)s->c_inumber;
	if (s->c_type != TS_END) {
		if (toc_main_done)
			return;
		toc_in_ea = (s->c_flags & DR_EXTATTRIBUTES) != 0;
		if (toc_in_ea)
			return;
		if (s->c_type == TS_INODE &&
		    (s->c_dinode.di_mode & MODE_FMT) != MODE_DIR) {
			toc_main_done = 1;
			return;
		}
	}
	copy = *h;
	copy.s_spcl.c_flags &= ~DR_COMPRESSED;
	spcl_set_checksum(&copy);
	toc_write(&copy, 1);
}

void
qfa_header(const union u_spcl *h, int vol, uint64_t rec, uint64_t vol_first_rec)
{
	if (posf != NULL)
		pos_header(&h->s_spcl, vol, rec, vol_first_rec);
	if (toc_fd != -1)
		toc_header(h);
}

void
qfa_mem(const void *buf, size_t nblocks)
{
	if (toc_fd != -1 && !toc_main_done && !toc_in_ea)
		toc_write(buf, nblocks);
}

void
qfa_end_header(union u_spcl *end)
{
	int v;

	if (toc_fd == -1)
		return;
	memset(end->s_spcl.c_inos, 0, sizeof(end->s_spcl.c_inos));
	end->s_spcl.c_inos[1] = ROOTINO;
	for (v = 2; v < TP_NINOS && vol_first_ino[v] != 0; v++)
		end->s_spcl.c_inos[v] = vol_first_ino[v];
	end->s_spcl.c_flags |= DR_INODEINFO;
}

int
qfa_close(void)
{
	int rc = 0;

	if (posf != NULL) {
		/* every record was sized by now; whatever is left is a
		 * volume start without a line behind it */
		size_t i, unknown = 0;

		for (i = 0; i < q_len; i++)
			if (queue[(q_head + i) % q_cap].ino != 0)
				unknown++;
		if (unknown > 0)
			msg("QFA file %s: %zu positions were never known\n",
			    pos_path, unknown);
		if (fclose(posf) != 0 && !pos_failed)
			pos_error();
		if (pos_failed)
			rc = -1;
		posf = NULL;
		free(queue);
		queue = NULL;
	}
	if (toc_fd != -1) {
		/* 0.4b47 names no file here (it prints a null pointer) */
		msg("Archiving dump to (null)\n");
		if (close(toc_fd) != 0 && !toc_failed) {
			msg("Cannot write the table of contents: %s\n",
			    strerror(errno));
			toc_failed = 1;
		}
		toc_fd = -1;
		if (toc_failed)
			rc = -1;
	}
	return rc;
}
