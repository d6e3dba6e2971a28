/*
 * qfa.c - quick file access (-Q), the table of contents (-A) and the
 * writing of position files (-P) for restore (doc/format.md 13, 14).
 *
 * -Q file: the position file of a dump (ino, volume, position lines in
 * increasing inode order) is loaded at start-up.  When extraction looks
 * for its next inode (before_find, the reader's find hook), the next
 * wanted inode is looked up: the last entry at or below it gives a volume
 * and a position from which that inode's header is at most one record
 * away, and when that is well beyond where the reader is (or on a later
 * volume), tape_seek_position() goes there.  Once no wanted inode is
 * left, reading stops, so extracting one file reads about one record of
 * the archive beyond its maps and directories.  The reader never seeks
 * backwards: a position that cannot be shown to lie ahead is ignored and
 * the archive is simply read on.
 *
 * -A file: the table of contents is an archive of its own (volume header,
 * maps, directories, TS_END with the volume table), so restore reads it
 * as the input; for -x and -i the real media is opened when extraction
 * starts, at the last volume whose first inode is below the first wanted
 * one (or at the -Q position of that inode).
 *
 * -P file: the archive is read as for -x, and for every selected
 * non-directory inode a line gives the start of the record holding its
 * header: exact, so the lines of dump -Q for the same archive appear
 * unchanged among them.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "cprefix.h"
#include "qfafile.h"
#include "spcl.h"
#include "xalloc.h"
#include "xio.h"

#define QFA_CREATE_MODE 0666
/* 0.4b47 seeks only when the target is more than this many position
 * units (bytes, or tape blocks) beyond the current position. */
#define SEEK_MIN_AHEAD 1000

struct qfa_entry {
	uint32_t ino;
	int vol;
	uint64_t pos;
};

static struct qfa_entry *table; /* -Q, sorted by inode */
static size_t ntable;
static int32_t qfa_date;
static bool pos_in_records; /* the archive is on a tape */

/* -A: where the archive really is, while the TOC is being read. */
static const char *media_tape;
static bool media_M, media_switched;
static const char *media_script;

/* Wanted inodes of the extraction, ascending, and a cursor into them. */
static uint32_t *wanted;
static size_t nwanted, wanted_at;
static bool wanted_built;

static void before_find(void);

/* ---- options and files ----------------------------------------------- */

void
qfa_options(void)
{
	if (ropt.qfa != NULL && strchr("itx", ropt.mode) == NULL)
		errx(R_ERROR, "Q option is not valid for %c command",
		     ropt.mode);
	if (ropt.toc != NULL && strchr("itx", ropt.mode) == NULL)
		errx(R_ERROR, "A option is not valid for %c command",
		     ropt.mode);
	if (ropt.qfa != NULL && ropt.mflag)
		errx(R_ERROR, "m and Q options are mutually exclusive");
	if (ropt.qfa != NULL || ropt.toc != NULL)
		ropt.aflag = true;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct qfa_entry *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	/* equal inodes keep file order: the later line wins a lookup */
	return x < y ? -1 : x > y;
}

/* Parse one "ino\tvol\tpos" line; false for anything else. */
static bool
parse_line(const char *s, struct qfa_entry *e)
{
	char *end;
	unsigned long long ino, pos;
	long vol;

	errno = 0;
	ino = strtoull(s, &end, 10);
	if (end == s || *end != '\t' || ino > UINT32_MAX)
		return false;
	s = end + 1;
	vol = strtol(s, &end, 10);
	if (end == s || *end != '\t' || vol < 0 || vol > INT32_MAX)
		return false;
	s = end + 1;
	pos = strtoull(s, &end, 10);
	if (end == s || (*end != '\n' && *end != '\0') || errno != 0)
		return false;
	e->ino = (uint32_t)ino;
	e->vol = (int)vol;
	e->pos = pos;
	return true;
}

static void __attribute__((noreturn)) bad_format(void)
{
	errx(R_ERROR, "not requested format of -- %s", ropt.qfa);
}

static void
load_table(void)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0, tcap = 0;
	ssize_t len;
	int n;
	char *end;
	long long date;

	rmsg("reading QFA positions from %s\n", ropt.qfa);
	if ((f = fopen(ropt.qfa, "r")) == NULL)
		errx(R_ERROR, "can't open file for reading -- %s", ropt.qfa);
	for (n = 0; (len = getline(&line, &cap, f)) > 0; n++) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (n == 0 && strcmp(line, QFA_MAGIC) != 0)
			bad_format();
		if (n == 1 && strcmp(line, QFA_VERSION) != 0)
			bad_format();
		if (n == 2) {
			errno = 0;
			date = strtoll(line, &end, 10);
			if (end == line || *end != '\0' || errno != 0 ||
			    date < INT32_MIN || date > INT32_MAX)
				bad_format();
			qfa_date = (int32_t)date;
		}
		if (n < 5 || len == 0)
			continue;
		if (ntable == tcap) {
			tcap = tcap ? tcap * 2 : 256;
			table = xreallocarray(table, tcap, sizeof(*table));
		}
		if (!parse_line(line, &table[ntable]))
			bad_format();
		ntable++;
	}
	free(line);
	if (ferror(f) || n < 3)
		bad_format();
	(void)fclose(f);
	qsort(table, ntable, sizeof(*table), entry_cmp);
}

static FILE *pfile;

/* The title lines of a position file for this dump. */
static void
pfile_start(void)
{
	int fd;

	rmsg("writing QFA positions to %s\n", ropt.pfile);
	fd = open(ropt.pfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  QFA_CREATE_MODE);
	if (fd < 0 || (pfile = fdopen(fd, "w")) == NULL)
		err(R_ERROR, "can't open file for writing -- %s", ropt.pfile);
}

void
qfa_open_files(void)
{
	struct stat st;

	if (ropt.qfa != NULL) {
		load_table();
		pos_in_records = !ropt.from_stdin &&
		    stat(ropt.tape, &st) == 0 && S_ISCHR(st.st_mode);
	}
	if (ropt.qfa != NULL || ropt.toc != NULL)
		tape_set_find_hook(before_find);
	if (ropt.pfile != NULL)
		pfile_start();
	if (ropt.toc != NULL) {
		/* read the TOC as the input; the media comes later */
		media_tape = ropt.tape;
		media_M = ropt.Mflag;
		media_script = ropt.script;
		ropt.tape = ropt.toc;
		ropt.Mflag = false;
		ropt.script = NULL;
		ropt.from_stdin = false;
	}
}

void
qfa_check_date(void)
{
	if (ropt.qfa != NULL && qfa_date != dumpdate)
		errx(R_ERROR, "different QFA/dumpdates detected");
	if (pfile != NULL &&
	    fprintf(pfile, "%s\n%s\n%" PRId32 "\n\n%s\n", QFA_MAGIC,
		    QFA_VERSION, dumpdate, QFA_COLUMNS) < 0)
		err(R_ERROR, "%s", ropt.pfile);
}

/* ---- wanted inodes and seeking --------------------------------------- */

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether some name of ino is a selected leaf. */
static bool
ino_selected(uint32_t ino)
{
	for (const struct entry *e = sym_lookup_ino(ino); e != NULL;
	     e = e->links)
		if (e->type == E_LEAF && (e->flags & EF_SELECTED))
			return true;
	return false;
}

static void
build_wanted(void)
{
	size_t cap = 0;

	for (const struct entry *e = sym_root; e != NULL;
	     e = sym_next(sym_root, e)) {
		if (e->type != E_LEAF || !(e->flags & EF_SELECTED) ||
		    dirs_is_dir(e->ino))
			continue;
		if (nwanted == cap) {
			cap = cap ? cap * 2 : 256;
			wanted = xreallocarray(wanted, cap, sizeof(*wanted));
		}
		wanted[nwanted++] = e->ino;
	}
	qsort(wanted, nwanted, sizeof(*wanted), u32_cmp);
	wanted_built = true;
}

/* The QFA entry for ino: the last one at or below it, or NULL. */
static const struct qfa_entry *
lookup_below(uint32_t ino)
{
	size_t lo = 0, hi = ntable;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table[mid].ino <= ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? &table[lo - 1] : NULL;
}

/* The exact QFA entry for ino, or NULL. */
static const struct qfa_entry *
lookup_exact(uint32_t ino)
{
	const struct qfa_entry *e = lookup_below(ino);

	return e != NULL && e->ino == ino ? e : NULL;
}

/* The current header's block index in its volume (c_tapea - c_firstrec,
 * modulo 2^32: both wrap past 4 TiB) and the record size in blocks. */
static bool
header_index(uint64_t *idx, uint64_t *ntrec)
{
	const struct s_spcl *h = &curhdr.s_spcl;

	*ntrec = h->c_ntrec > 0 ? (uint64_t)h->c_ntrec : 1;
	*idx = spcl_volume_index(h);
	return true;
}

/*
 * A bound above the position of the reader: the current header is block
 * c_tapea - c_firstrec of its volume; its whole record, and the prefixes
 * of compressed records, are counted in.
 */
static uint64_t
position_bound(void)
{
	uint64_t idx, ntrec;

	if (!header_index(&idx, &ntrec))
		return UINT64_MAX;
	if (pos_in_records)
		return idx / ntrec + 1;
	return (idx + ntrec) * TP_BSIZE + (idx / ntrec + 1) * CPREFIX_SIZE;
}

/* -A: leave the table of contents for the real media, at the volume
 * (or -Q position) of the first wanted inode. */
static void
switch_to_media(uint32_t first)
{
	const struct qfa_entry *q = table != NULL ? lookup_below(first) : NULL;
	const uint32_t *inos = curhdr.s_spcl.c_inos;
	int vol = 1;
	uint64_t pos = 0;

	media_switched = true;
	ropt.tape = media_tape;
	ropt.Mflag = media_M;
	ropt.script = media_script;
	ropt.from_stdin = strcmp(media_tape, "-") == 0;
	if (q != NULL && q->pos != 0 && q->vol > 0) {
		vol = q->vol;
		pos = q->pos;
	} else if (curhdr.s_spcl.c_type == TS_END && inos[1] == ROOTINO) {
		for (int v = 2; v < TP_NINOS && inos[v] != 0; v++)
			if (inos[v] < first)
				vol = v;
	}
	if (ropt.from_stdin)
		errx(R_ERROR,
		     "the archive of a table of contents cannot be "
		     "standard input");
	(void)tape_seek_position(vol, pos, first, true);
}

/*
 * The reader's find hook, plugged in with -Q or -A: acts once the tree
 * of names exists (extraction, not pass III).
 */
static void
before_find(void)
{
	const struct s_spcl *h = &curhdr.s_spcl;
	const struct qfa_entry *q;
	uint32_t next;

	if ((ropt.qfa == NULL && ropt.toc == NULL) || sym_root == NULL ||
	    ropt.mode == 'P' || ropt.mode == 't')
		return;
	if (!wanted_built)
		build_wanted();
	if (ropt.toc != NULL && !media_switched) {
		if (h->c_type != TS_END)
			return;
		if (nwanted == 0) { /* nothing to read from the media */
			media_switched = true;
			return;
		}
		switch_to_media(wanted[0]);
		h = &curhdr.s_spcl;
	}
	if (h->c_type != TS_INODE || (h->c_flags & DR_EXTATTRIBUTES) ||
	    (h->c_dinode.di_mode & S_IFMT) == S_IFDIR ||
	    (uint32_t)h->c_inumber == 0)
		return;
	while (wanted_at < nwanted &&
	       (wanted[wanted_at] < (uint32_t)h->c_inumber ||
		!ino_selected(wanted[wanted_at])))
		wanted_at++;
	if (wanted_at == nwanted) {
		/* nothing more to extract: stop reading here */
		(void)tape_seek_position(h->c_volume, 0, 0, false);
		return;
	}
	next = wanted[wanted_at];
	/* a pipe cannot seek: it is read on */
	if (next == (uint32_t)h->c_inumber || table == NULL || ropt.from_stdin)
		return;
	q = lookup_below(next);
	if (q == NULL || q->pos == 0 || q->vol < h->c_volume)
		return;
	if (q->vol == h->c_volume &&
	    (position_bound() == UINT64_MAX ||
	     q->pos <= position_bound() + SEEK_MIN_AHEAD))
		return;
	if (ropt.debug)
		rmsg("QFA: inode %" PRIu32 " at volume %d "
		     "position %" PRIu64 "\n",
		     next, q->vol, q->pos);
	(void)tape_seek_position(q->vol, q->pos, next, false);
}

/* ---- -t with -A or -Q ------------------------------------------------- */

static void
print_volume_table(void)
{
	const uint32_t *inos = curhdr.s_spcl.c_inos;

	if (curhdr.s_spcl.c_type != TS_END || inos[1] != ROOTINO)
		return;
	printf("Starting inode numbers by volume:\n");
	for (int v = 1; v < TP_NINOS && inos[v] != 0; v++)
		printf("\tVolume %d: %" PRIu32 "\n", v, inos[v]);
}

/* Names with their QFA volume and position ("0 0": not in the table). */
static void
list_positions(char **names, int nnames)
{
	dirs_build_tree();
	select_names(names, nnames);
	for (const struct entry *e = sym_root; e != NULL;
	     e = sym_next(sym_root, e)) {
		const struct qfa_entry *q;

		if (!(e->flags & EF_SELECTED) ||
		    !map_test(dumpmap, dumpmap_len, e->ino))
			continue;
		q = lookup_exact(e->ino);
		if (ropt.verbose)
			fputs(e->type == E_NODE ? "dir " : "leaf", stdout);
		printf("%10lu\t%d\t%" PRIu64 "\t%s", (unsigned long)e->ino,
		       q != NULL ? q->vol : 0, q != NULL ? q->pos : 0,
		       e == sym_root ? "." : sym_path(e));
		putchar(ropt.nulterm ? '\0' : '\n');
	}
}

int
qfa_list(char **names, int nnames)
{
	dirs_read();
	if (ropt.toc != NULL)
		print_volume_table();
	msg_verbose("Initialize symbol table.\n");
	if (ropt.qfa != NULL)
		list_positions(names, nnames);
	else
		list_names(names, nnames);
	if (fflush(stdout) != 0)
		err(R_ERROR, "standard output");
	tape_drain();
	return tape_had_error() ? R_ERROR : R_SUCCESS;
}

/* ---- -P ---------------------------------------------------------------- */

/* Offsets of the records of a compressed volume, found by walking the
 * record prefixes of its file (record 0 is raw). */
static int zvol = -1;
static int zfd = -1;
static uint64_t *zoff;
static size_t nzoff, zcap;

static bool
zrecord_offset(int vol, uint64_t rec, uint64_t ntrec, uint64_t *off)
{
	if (vol != zvol) {
		char *name = ropt.Mflag ? NULL : xstrdup(ropt.tape);

		if (ropt.Mflag) {
			size_t len = strlen(ropt.tape) + 16;

			name = xmalloc(len);
			(void)snprintf(name, len, "%s%03d", ropt.tape, vol);
		}
		if (zfd >= 0)
			(void)close(zfd);
		zfd = open(name, O_RDONLY | O_CLOEXEC);
		free(name);
		zvol = vol;
		nzoff = 0;
		if (zfd < 0)
			return false;
	}
	if (zfd < 0)
		return false;
	while (nzoff <= rec) {
		unsigned char word[CPREFIX_SIZE];
		struct cprefix pfx;

		if (nzoff == zcap) {
			zcap = zcap ? zcap * 2 : 1024;
			zoff = xreallocarray(zoff, zcap, sizeof(*zoff));
		}
		if (nzoff == 0) {
			zoff[nzoff++] = 0;
			continue;
		}
		if (nzoff == 1) {
			zoff[nzoff] = ntrec * TP_BSIZE;
			nzoff++;
			continue;
		}
		if (full_pread(zfd, word, sizeof(word),
			       (off_t)zoff[nzoff - 1]) != (ssize_t)sizeof(word))
			return false;
		cprefix_decode(word, tape_swapped(), &pfx);
		zoff[nzoff] = zoff[nzoff - 1] + CPREFIX_SIZE + pfx.length;
		nzoff++;
	}
	*off = zoff[rec];
	return true;
}

/* The position of the record holding the current header. */
static uint64_t
header_position(void)
{
	const struct s_spcl *h = &curhdr.s_spcl;
	uint64_t idx, ntrec, rec, off;

	if (!header_index(&idx, &ntrec))
		return 0;
	rec = idx / ntrec;
	if (pos_in_records)
		return rec;
	if (!(tapehdr.s_spcl.c_flags & DR_COMPRESSED) || ropt.ignore_zflag)
		return rec * ntrec * TP_BSIZE;
	if (ropt.from_stdin || !zrecord_offset(h->c_volume, rec, ntrec, &off))
		return 0;
	return off;
}

int
qfa_positions(char **names, int nnames)
{
	struct stat st;

	pos_in_records = !ropt.from_stdin && stat(ropt.tape, &st) == 0 &&
	    S_ISCHR(st.st_mode);
	dirs_read();
	dirs_build_tree();
	select_names(names, nnames);
	for (;;) {
		const struct s_spcl *h = &curhdr.s_spcl;

		tape_find_inode();
		if (h->c_type != TS_INODE)
			break;
		if (!(h->c_flags & DR_EXTATTRIBUTES) &&
		    (h->c_dinode.di_mode & S_IFMT) != S_IFDIR &&
		    ino_selected((uint32_t)h->c_inumber) &&
		    fprintf(pfile, "%" PRIu32 "\t%d\t%" PRIu64 "\n",
			    (uint32_t)h->c_inumber, h->c_volume,
			    header_position()) < 0)
			err(R_ERROR, "%s", ropt.pfile);
		tape_skipfile();
	}
	if (fclose(pfile) != 0)
		err(R_ERROR, "%s", ropt.pfile);
	if (zfd >= 0)
		(void)close(zfd);
	free(zoff);
	tape_drain();
	return tape_had_error() ? R_ERROR : R_SUCCESS;
}
