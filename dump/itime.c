/*
 * itime.c - the dumpdates file (dumpdates.md).
 *
 * Reading picks the base date of a level-N dump: the latest record of
 * the same identifier (the operand as given) with a lower level.  A line
 * that does not parse ends the reading, as in 0.4b47.  Updating (-u)
 * happens after a successful dump: under an exclusive lock on
 * "<file>.lock" the records are re-read, the one with the same identifier
 * and level gets the new date (or a record is appended), and the whole
 * list is written to a temporary file that is fsynced and renamed over
 * the old one, so a crash never leaves a half-written dumpdates.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "optr.h"
#include "xalloc.h"

#define LINE_MAX_LEN	8192	/* longer than BUFSIZ, as 0.4b47 reads */
#define IDENT_MAX	4096
#define DATE_MON_COL	4	/* fixed columns of the date text */
#define DATE_DAY_COL	8
#define DATE_HOUR_COL	11
#define DATE_MIN_COL	14
#define DATE_SEC_COL	17
#define DATE_YEAR_COL	20
#define DATE_TZ_COL	25
#define DATE_MIN_LEN	24	/* asctime text without the newline */
#define DATE_TZ_MIN_LEN	30	/* text + " +hhmm" + newline */
#define TM_YEAR_BASE	1900
#define SECS_PER_HOUR	3600
#define SECS_PER_MIN	60
#define TZ_HOUR_DIV	100
#define LOCK_SUFFIX	".lock"
#define TMP_SUFFIX	".XXXXXX"
#define NEW_FILE_MODE	0644
#define CREATE_MODE	0666	/* made empty by -u: the umask decides */

static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

static long num_at(const char *s, size_t col)
{
	return strtol(s + col, NULL, 10);
}

/* Parse the date part of a line (dumpdates.md 3, step 4 and 5); also
 * the -T argument, which has the same syntax. */
int itime_parse_date(const char *s, time_t *out)
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
		*out = timegm(&tm) - (tz < 0 ? -1 : 1) *
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
static int parse_line(char *line, struct itime_rec *r)
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

static void read_records(FILE *f, const char *path, struct itime_list *l)
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

void itime_free(struct itime_list *l)
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
int itime_load(const char *path, struct itime_list *l)
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

void itime_read(const struct dump_opts *o, struct itime_base *base)
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
	for (i = 0; i < l.n; i++) {
		if (strcmp(l.r[i].ident, o->operand) != 0 ||
		    l.r[i].level >= o->level)
			continue;
		if (!base->found || l.r[i].date > base->ddate) {
			base->found = 1;
			base->ddate = l.r[i].date;
			base->level = l.r[i].level;
		}
	}
	itime_free(&l);
}

/* "<ident> <level> <asctime> <+hhmm>\n" in the current local zone. */
static int write_record(FILE *f, const struct itime_rec *r)
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
		       (mag % SECS_PER_HOUR) / SECS_PER_MIN) < 0 ? -1 : 0;
}

static int write_all(const char *path, const struct itime_list *l)
{
	size_t plen = strlen(path);
	char *tmp = xmalloc(plen + sizeof(TMP_SUFFIX));
	struct stat st;
	FILE *f;
	size_t i;
	int fd, bad = 0;

	memcpy(tmp, path, plen);
	memcpy(tmp + plen, TMP_SUFFIX, sizeof(TMP_SUFFIX));
	fd = mkstemp(tmp);
	if (fd < 0) {
		msg("cannot create temporary file %s: %s\n", tmp,
		    strerror(errno));
		free(tmp);
		return -1;
	}
	if (fchmod(fd, stat(path, &st) == 0 ? st.st_mode & 07777
					    : NEW_FILE_MODE) < 0)
		bad = 1;
	f = fdopen(fd, "w");
	if (f == NULL) {
		close(fd);
		bad = 1;
	} else {
		for (i = 0; i < l->n && !bad; i++)
			bad = write_record(f, &l->r[i]) < 0;
		if (fflush(f) != 0 || fsync(fd) != 0)
			bad = 1;
		if (fclose(f) != 0)
			bad = 1;
	}
	if (!bad && rename(tmp, path) < 0)
		bad = 1;
	if (bad) {
		msg("cannot update %s: %s\n", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return bad ? -1 : 0;
}

int itime_update(const struct dump_opts *o, time_t date)
{
	struct itime_list l;
	struct flock fl;
	char *lockpath;
	FILE *f;
	size_t i;
	int lfd, rc;

	lockpath = xmalloc(strlen(o->dumpdates) + sizeof(LOCK_SUFFIX));
	strcpy(lockpath, o->dumpdates);
	strcat(lockpath, LOCK_SUFFIX);
	lfd = open(lockpath, O_RDWR | O_CREAT, NEW_FILE_MODE);
	if (lfd < 0) {
		msg("cannot open %s: %s\n", lockpath, strerror(errno));
		free(lockpath);
		return -1;
	}
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(lfd, F_SETLKW, &fl) < 0)
		msg("cannot lock %s: %s\n", lockpath, strerror(errno));
	memset(&l, 0, sizeof(l));
	f = fopen(o->dumpdates, "r");
	if (f != NULL) {
		read_records(f, o->dumpdates, &l);
		fclose(f);
	}
	for (i = 0; i < l.n; i++)
		if (strcmp(l.r[i].ident, o->operand) == 0 &&
		    l.r[i].level == o->level)
			break;
	if (i == l.n) {
		if (l.n == l.cap) {
			l.cap = l.cap ? l.cap * 2 : 1;
			l.r = xreallocarray(l.r, l.cap, sizeof(*l.r));
		}
		l.r[l.n].ident = xstrdup(o->operand);
		l.r[l.n].level = o->level;
		l.n++;
	}
	l.r[i].date = date;
	rc = write_all(o->dumpdates, &l);
	itime_free(&l);
	if (close(lfd) < 0)
		rc = -1;
	free(lockpath);
	return rc;
}
