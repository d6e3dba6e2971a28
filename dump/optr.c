/*
 * optr.c - operator messages of the dump master.
 *
 * Every line dump writes on stderr starts with "  DUMP: " exactly as in
 * dump 0.4b47, because backup schedulers parse them.  Besides the plain
 * message functions this file prints the periodic progress line
 * ("X.XX% done at N kB/s, finished in H:MM"), formats dates and
 * libext2fs errors in one place, and reports damage of the file system
 * being dumped, counting the inodes concerned for one closing line.
 * It calls nothing of dump's above it: the output side registers what
 * an abort must stop (optr_on_abort).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <et/com_err.h>

#include "dump.h"
#include "exitcodes.h"
#include "optr.h"
#include "xalloc.h"

#define MSG_PREFIX "  DUMP: "
/* Progress lines are printed at most this often... */
#define PROGRESS_INTERVAL (5 * 60)
/* ...and only once this many tape blocks were written. */
#define PROGRESS_MIN_BLOCKS 500
#define SECS_PER_HOUR	    3600
#define SECS_PER_MIN	    60

static uint64_t progress_estimate;
/* Inodes reported damaged (bit n-1 is inode n), each counted once. */
static uint8_t *damaged;
static ext2_ino_t damaged_max;
static unsigned long damaged_count;
static time_t progress_start;
static time_t progress_next;
/* Registered by the output side: stops its processes before an abort. */
static void (*abort_hook)(void);

void
optr_on_abort(void (*hook)(void))
{
	abort_hook = hook;
}

void
msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(MSG_PREFIX, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

void
msgtail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

_Noreturn void
dump_abort(void)
{
	if (abort_hook != NULL)
		abort_hook();
	msg("The ENTIRE dump is aborted.\n");
	exit(X_ABORT);
}

/* One reporting path for libext2fs error codes. */
void
optr_fs_error(long code, const char *what, const char *obj)
{
	msg("%s %s: %s\n", what, obj, error_message(code));
}

/* Same for an inode of the file system being dumped. */
void
optr_ino_error(long code, const char *what, ext2_ino_t ino)
{
	msg("%s %u: %s\n", what, ino, error_message(code));
}

void
optr_damage_setup(ext2_ino_t maxino)
{
	damaged_max = maxino;
}

static void
damage_count(ext2_ino_t ino)
{
	if (ino == 0 || ino >= damaged_max) {
		damaged_count++;
		return;
	}
	if (damaged == NULL)
		damaged = xcalloc(TAPE_MAPSIZE(damaged_max), 1);
	if (!map_test(damaged, ino)) {
		map_set(damaged, ino);
		damaged_count++;
	}
}

/*
 * Damage met while walking the file system: one line per finding, the
 * word "Error" in it so that schedulers parsing the lines (Amanda)
 * flag the run, and the inode counted once for optr_damage_summary().
 * code, when not 0, is the libext2fs error that found the damage.
 */
void
optr_damage(ext2_ino_t ino, long code, const char *fmt, ...)
{
	va_list ap;

	damage_count(ino);
	fflush(stdout);
	fprintf(stderr, MSG_PREFIX "Error in inode %u: ", ino);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (code != 0)
		fprintf(stderr, ": %s", error_message(code));
	fputc('\n', stderr);
	fflush(stderr);
}

/* Damage reported by the caller that costs n inodes it cannot name. */
void
optr_damage_add(unsigned long n)
{
	damaged_count += n;
}

/* One closing count of the damaged inodes, when there were any;
 * returns the count. */
unsigned long
optr_damage_summary(void)
{
	if (damaged_count != 0)
		msg("%lu damaged inode(s) reported above: dumped as far as "
		    "they could be read, or skipped\n",
		    damaged_count);
	free(damaged);
	damaged = NULL;
	return damaged_count;
}

/* ctime() text, newline included, as 0.4b47 prints dates. */
const char *
optr_ctime(time_t t)
{
	static char buf[64];
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL ||
	    strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y\n", &tm) == 0)
		snprintf(buf, sizeof(buf), "%lld\n", (long long)t);
	return buf;
}

void
optr_progress_start(uint64_t estimate)
{
	progress_estimate = estimate;
	progress_start = time(NULL);
	progress_next = progress_start + PROGRESS_INTERVAL;
}

/*
 * Called by the writer after each write with the blocks written so far
 * (also in the middle of a big file); cheap unless the interval has
 * passed.  The time left is extrapolated from the average rate so far,
 * as 0.4b47 does.
 */
void
optr_progress(uint64_t blocks)
{
	time_t now;
	double pct;
	long elapsed, left;
	unsigned long rate;

	if (blocks < PROGRESS_MIN_BLOCKS || progress_estimate == 0)
		return;
	now = time(NULL);
	if (now < progress_next)
		return;
	progress_next = now + PROGRESS_INTERVAL;
	elapsed = (long)(now - progress_start);
	pct = (double)blocks * 100.0 / (double)progress_estimate;
	left = 0;
	if (blocks < progress_estimate)
		left = (long)((double)elapsed *
			      (double)(progress_estimate - blocks) /
			      (double)blocks);
	if (elapsed <= 0) {
		msg("%3.2f%% done, finished in %ld:%02ld\n", pct,
		    left / SECS_PER_HOUR,
		    (left % SECS_PER_HOUR) / SECS_PER_MIN);
		return;
	}
	rate = (unsigned long)(blocks / (uint64_t)elapsed);
	msg("%3.2f%% done at %lu kB/s, finished in %ld:%02ld\n", pct, rate,
	    left / SECS_PER_HOUR, (left % SECS_PER_HOUR) / SECS_PER_MIN);
}
