/*
 * itime.c - the dumpdates file (doc/dumpdates.md).
 *
 * Reading picks the base date of a level-N dump: the latest record of
 * the same identifier (the operand as given, or its block device with
 * --use-blockdev-for-dumpdates: o->dumpdates_name) with a lower level.
 * Only when there is none, and the operand is a whole file system, a
 * record under another name of it counts (doc/dumpdates.md 3.1): names
 * are compared by the block device they lead to now, never as text.  A
 * line that does not parse ends the reading, as in 0.4b47.  Updating (-u)
 * happens after a successful dump: under an exclusive fcntl lock on the
 * dumpdates file itself (no lock file: a dump run by a user who may
 * write the file but not its directory must work, as with 0.4b47) the
 * records are re-read, the one with the same identifier and level gets
 * the new date (or a record is appended), and the whole list is written
 * back.  Where the directory allows it, a temporary file with the old
 * owner, group and mode is fsynced and renamed over the old one, so a
 * crash leaves one whole file or the other; otherwise the file is
 * rewritten in place in an order that never leaves a line a reader
 * would misparse (see rewrite_in_place).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "optr.h"
#include "xalloc.h"
#include "xio.h"

#define LINE_MAX_LEN	8192 /* longer than BUFSIZ, as 0.4b47 reads */
#define IDENT_MAX	4096
#define DATE_MON_COL	4 /* fixed columns of the date text */
#define DATE_DAY_COL	8
#define DATE_HOUR_COL	11
#define DATE_MIN_COL	14
#define DATE_SEC_COL	17
#define DATE_YEAR_COL	20
#define DATE_TZ_COL	25
#define DATE_MIN_LEN	24 /* asctime text without the newline */
#define DATE_TZ_MIN_LEN 30 /* text + " +hhmm" + newline */
#define TM_YEAR_BASE	1900
#define SECS_PER_HOUR	3600
#define SECS_PER_MIN	60
#define TZ_HOUR_DIV	100
#define TMP_SUFFIX	".XXXXXX"
#define CREATE_MODE	0666 /* made empty by -u: the umask decides */

static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

static long
num_at(const char *s, size_t col)
{
	return strtol(s + col, NULL, 10);
}

/* Parse the date part of a line (doc/dumpdates.md 2.4, steps 3 to 5); also
 * the -T argument, which has the same syntax. */
int
itime_parse_date(const char *s, time_t *out)
{
	struct tm tm;
	const char *m;
	size_t len = strlen(s);
	long tz;

	if (len < DATE_MIN_LEN)
		return -1;
	memset(&tm, 0, sizeof(tm));
	for (m = months; *m != '\0'; m += 3)
		if (strncmp(s + DATE_MON_COL, m, 3) == 0)
			break;
	if (*m == '\0')
		return -1;
	tm.tm_mon = (int)((m - months) / 3);
	tm.tm_mday = (int)num_at(s, DATE_DAY_COL);
	tm.tm_hour = (int)num_at(s, DATE_HOUR_COL);
	tm.tm_min = (int)num_at(s, DATE_MIN_COL);
	tm.tm_sec = (int)num_at(s, DATE_SEC_COL);
	tm.tm_year = (int)num_at(s, DATE_YEAR_COL) - TM_YEAR_BASE;
	if (len >= DATE_TZ_MIN_LEN) {
		long mag;

		tz = num_at(s, DATE_TZ_COL);
		mag = tz < 0 ? -tz : tz;
		*out = timegm(&tm) -
		    (tz < 0 ? -1 : 1) *
			((mag / TZ_HOUR_DIV) * SECS_PER_HOUR +
			 (mag % TZ_HOUR_DIV) * SECS_PER_MIN);
	} else {
		tm.tm_isdst = -1;
		*out = mktime(&tm);
	}
	/* Like 0.4b47, a date before 1970 (or none) makes the line bad. */
	return *out < 0 ? -1 : 0;
}

/* Parse one line; -1 if it is not a valid record. */
static int
parse_line(char *line, struct itime_rec *r)
{
	char *sp = strchr(line, ' '), *p;
	long lvl;

	if (sp == NULL || (size_t)(sp - line) > IDENT_MAX)
		return -1;
	*sp = '\0';
	p = sp + 1;
	while (*p == ' ')
		p++;
	lvl = strtol(p, &p, 10);
	while (*p == ' ')
		p++;
	if (itime_parse_date(p, &r->date) < 0)
		return -1;
	r->ident = xstrdup(line);
	r->level = (int)lvl;
	return 0;
}

static void
read_records(FILE *f, const char *path, struct itime_list *l)
{
	char line[LINE_MAX_LEN];
	struct itime_rec r;

	while (fgets(line, sizeof(line), f) != NULL) {
		if (parse_line(line, &r) < 0) {
			msg("Unknown format in %s, line 1\n", path);
			return;
		}
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 16;
			l->r = xreallocarray(l->r, l->cap, sizeof(*l->r));
		}
		l->r[l->n++] = r;
	}
}

void
itime_free(struct itime_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->r[i].ident);
	free(l->r);
	memset(l, 0, sizeof(*l));
}

/*
 * All valid records of path (up to the first bad line), read under a
 * shared lock.  A missing file gets 0.4b47's warning; returns -1 then.
 */
int
itime_load(const char *path, struct itime_list *l)
{
	struct flock fl;
	FILE *f;

	memset(l, 0, sizeof(*l));
	f = fopen(path, "r");
	if (f == NULL) {
		msg("WARNING: no file `%s'\n", path);
		return -1;
	}
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_RDLCK;
	fl.l_whence = SEEK_SET;
	(void)fcntl(fileno(f), F_SETLKW, &fl);
	read_records(f, path, l);
	fclose(f);
	return 0;
}

/* r as the base if it is of a lower level and later than the one so
 * far (the first of equal dates wins). */
static int
better(const struct itime_rec *r, int level, const struct itime_base *base)
{
	return r->level < level && (!base->found || r->date > base->ddate);
}

static void
take(const struct itime_rec *r, struct itime_base *base)
{
	base->found = 1;
	base->ddate = r->date;
	base->level = r->level;
}

/*
 * No line of the name as typed: a line of another name of the same file
 * system (its device, mount point, LABEL= or UUID=, e.g. written with
 * --use-blockdev-for-dumpdates or by a dump given another name) is the
 * base, and says so; rather than a silent level 0.  Only records that
 * could win are resolved: a LABEL= may cost a device probe.
 */
static void
other_name_base(const struct itime_list *l, const struct dump_opts *o,
		int (*fs_rdev)(const char *, dev_t *), struct itime_base *base)
{
	const struct itime_rec *best = NULL;
	dev_t want, got;
	size_t i;

	if (fs_rdev(o->operand, &want) < 0)
		return;
	for (i = 0; i < l->n; i++) {
		if (!better(&l->r[i], o->level, base) ||
		    fs_rdev(l->r[i].ident, &got) < 0 || got != want)
			continue;
		take(&l->r[i], base);
		best = &l->r[i];
	}
	if (best != NULL)
		msg("Using the level %d dump recorded for %s, the same file "
		    "system as %s\n",
		    best->level, best->ident, o->dumpdates_name);
}

void
itime_read(const struct dump_opts *o,
	   int (*fs_rdev)(const char *name, dev_t *rdev),
	   struct itime_base *base)
{
	struct itime_list l;
	struct stat st;
	size_t i;
	int fd;

	memset(base, 0, sizeof(*base));
	if (o->update && stat(o->dumpdates, &st) < 0 && errno == ENOENT) {
		msg("WARNING: no file `%s', making an empty one\n",
		    o->dumpdates);
		/* Never truncating: a dump running at the same time may
		 * have made and filled it since the stat. */
		fd = open(o->dumpdates, O_WRONLY | O_CREAT, CREATE_MODE);
		if (fd < 0 || close(fd) != 0) {
			msg("cannot create %s: %s\n", o->dumpdates,
			    strerror(errno));
			dump_abort();
		}
		return;
	}
	if (itime_load(o->dumpdates, &l) < 0)
		return;
	for (i = 0; i < l.n; i++)
		if (strcmp(l.r[i].ident, o->dumpdates_name) == 0 &&
		    better(&l.r[i], o->level, base))
			take(&l.r[i], base);
	/* A date of 0 is no base (main.c): look further then too. */
	if (o->level > 0 && fs_rdev != NULL &&
	    (!base->found || base->ddate == 0)) {
		memset(base, 0, sizeof(*base));
		other_name_base(&l, o, fs_rdev, base);
	}
	itime_free(&l);
}

/* "<ident> <level> <asctime> <+hhmm>\n" in the current local zone. */
static int
write_record(FILE *f, const struct itime_rec *r)
{
	struct tm tm;
	char date[64];
	long off, mag;

	if (localtime_r(&r->date, &tm) == NULL ||
	    strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", &tm) == 0)
		return -1;
	off = tm.tm_gmtoff;
	mag = off < 0 ? -off : off;
	return fprintf(f, "%s %d %s %c%02ld%02ld\n", r->ident, r->level, date,
		       off < 0 ? '-' : '+', mag / SECS_PER_HOUR,
		       (mag % SECS_PER_HOUR) / SECS_PER_MIN) < 0
	    ? -1
	    : 0;
}

/* The new file's text in memory (malloc'ed); -1 if it cannot be made. */
static int
render(const struct itime_list *l, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	size_t i;
	int bad = 0;

	if (f == NULL)
		return -1;
	for (i = 0; i < l->n && !bad; i++)
		bad = write_record(f, &l->r[i]) < 0;
	if (fclose(f) != 0)
		bad = 1;
	if (bad)
		free(*buf);
	return bad ? -1 : 0;
}

/*
 * path opened read-write under an exclusive lock on the file itself.  A
 * dump that replaced the file (rename) while this one waited leaves it
 * holding the lock of the old inode: then the path is opened and locked
 * again, until the locked file is the one the path names.  st gets its
 * status.  -1 with errno if it cannot be opened.
 */
static int
open_locked(const char *path, struct stat *st)
{
	struct flock fl;
	struct stat cur;
	int fd, rc;

	for (;;) {
		fd = open(path, O_RDWR);
		if (fd < 0)
			return -1;
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		while ((rc = fcntl(fd, F_SETLKW, &fl)) < 0 && errno == EINTR)
			;
		if (rc < 0) /* e.g. no locks on this file system */
			msg("cannot lock %s: %s\n", path, strerror(errno));
		if (fstat(fd, st) < 0) {
			close(fd);
			return -1;
		}
		if (stat(path, &cur) == 0 && cur.st_dev == st->st_dev &&
		    cur.st_ino == st->st_ino)
			return fd;
		if (close(fd) < 0)
			return -1;
	}
}

/*
 * Whether a new file can stand in for the old one: a regular file with
 * one name and no extended attributes (ACLs, security labels), which a
 * new file would not carry.  A symbolic link stays one.
 */
static int
replaceable(const char *path, int fd)
{
	struct stat st;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1)
		return 0;
	return flistxattr(fd, NULL, 0) <= 0;
}

/*
 * Replace path by a new file holding buf: a temporary file beside it
 * gets the old owner, group and mode, is written, fsynced and renamed
 * over it, so a crash leaves either file whole.  1 when this cannot be
 * done here (the directory is not writable, or a user other than root
 * cannot give the file its owner or group): the caller rewrites in
 * place then.  -1 on other errors, reported.
 */
static int
replace_file(const char *path, const struct stat *old, const char *buf,
	     size_t len)
{
	size_t plen = strlen(path);
	char *tmp = xmalloc(plen + sizeof(TMP_SUFFIX));
	int fd, err, rc = -1;

	memcpy(tmp, path, plen);
	memcpy(tmp + plen, TMP_SUFFIX, sizeof(TMP_SUFFIX));
	fd = mkstemp(tmp);
	if (fd < 0) {
		if (errno == EACCES || errno == EPERM)
			rc = 1;
		else
			msg("cannot create temporary file %s: %s\n", tmp,
			    strerror(errno));
		free(tmp);
		return rc;
	}
	if (fchown(fd, old->st_uid, old->st_gid) < 0)
		rc = errno == EPERM ? 1 : -1;
	else if (fchmod(fd, old->st_mode & 07777) == 0 &&
		 full_write(fd, buf, len) == (ssize_t)len && fsync(fd) == 0)
		rc = 0;
	err = errno;
	if (close(fd) < 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	if (rc == 0 && rename(tmp, path) < 0) {
		rc = -1;
		err = errno;
	}
	if (rc < 0)
		msg("cannot update %s: %s\n", path, strerror(err));
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/*
 * Rewrite the locked file fd (old bytes long) in place with buf.
 *
 * Our reader, like 0.4b47's, stops at the first line that does not
 * parse, and a tail of an old line can parse as a record of another
 * identifier (the end of "LABEL=/home 0 ..." is "/home 0 ...").  So the
 * file never holds the new text followed by old bytes: if the new text
 * is shorter, it is first written padded to the old length with blanks
 * before its last newline (blanks after the zone are ignored by both
 * readers), then cut to the new length, then the newline is written.
 * Truncating first would be worse: a cut last line can still parse,
 * with its zone lost.  A dump killed between the steps leaves whole
 * records only, the old ones or the new ones.  What stays unguarded is
 * a write cut short inside itself (a crash, or SIGKILL in a write of
 * more than a page, can keep some pages of it and not others): that is
 * why the rename is used wherever the directory allows.  (Padding longer
 * than a line can hold only makes a reader stop after the last record.)
 */
static int
rewrite_in_place(int fd, const char *path, const char *buf, size_t len,
		 off_t old)
{
	char *pad;
	int bad = 0;

	if (len > 0 && (off_t)len < old) {
		pad = xmalloc((size_t)old);
		memcpy(pad, buf, len - 1);
		memset(pad + len - 1, ' ', (size_t)old - len);
		pad[old - 1] = '\n';
		bad = full_pwrite(fd, pad, (size_t)old, 0) != old ||
		    fsync(fd) != 0 || ftruncate(fd, (off_t)len) != 0;
		free(pad);
	}
	if (bad || full_pwrite(fd, buf, len, 0) != (ssize_t)len ||
	    fsync(fd) != 0) {
		msg("cannot rewrite %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Give the dumpdates name at level date in l: its record or a new one
 * at the end. */
static void
set_record(struct itime_list *l, const struct dump_opts *o, time_t date)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->r[i].ident, o->dumpdates_name) == 0 &&
		    l->r[i].level == o->level)
			break;
	if (i == l->n) {
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 1;
			l->r = xreallocarray(l->r, l->cap, sizeof(*l->r));
		}
		l->r[l->n].ident = xstrdup(o->dumpdates_name);
		l->r[l->n].level = o->level;
		l->n++;
	}
	l->r[i].date = date;
}

int
itime_update(const struct dump_opts *o, time_t date)
{
	struct itime_list l;
	struct stat st;
	char *buf;
	size_t len;
	FILE *f;
	int fd, rc;

	fd = open_locked(o->dumpdates, &st);
	if (fd < 0) {
		msg("cannot rewrite %s: %s\n", o->dumpdates, strerror(errno));
		return -1;
	}
	/* Read through fd and close it last: closing any descriptor of
	 * the file would drop the lock. */
	f = fdopen(fd, "r");
	if (f == NULL) {
		msg("cannot read %s: %s\n", o->dumpdates, strerror(errno));
		close(fd);
		return -1;
	}
	memset(&l, 0, sizeof(l));
	read_records(f, o->dumpdates, &l);
	if (ferror(f)) { /* never write back a part of the records */
		msg("cannot read %s: %s\n", o->dumpdates, strerror(errno));
		itime_free(&l);
		fclose(f);
		return -1;
	}
	set_record(&l, o, date);
	rc = render(&l, &buf, &len);
	itime_free(&l);
	if (rc < 0) {
		msg("cannot update %s: %s\n", o->dumpdates, strerror(errno));
	} else {
		rc = replaceable(o->dumpdates, fd)
		    ? replace_file(o->dumpdates, &st, buf, len)
		    : 1;
		if (rc == 1)
			rc = rewrite_in_place(fd, o->dumpdates, buf, len,
					      st.st_size);
		free(buf);
	}
	if (fclose(f) != 0 && rc == 0) { /* releases the lock */
		msg("cannot update %s: %s\n", o->dumpdates, strerror(errno));
		rc = -1;
	}
	return rc;
}
