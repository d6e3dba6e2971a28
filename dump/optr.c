/*
 * optr.c - operator messages of the dump master.
 *
 * Every line dump writes on stderr starts with "  DUMP: " exactly as in
 * dump 0.4b47, because backup schedulers parse them.  Besides the plain
 * message functions this file prints the periodic progress line
 * ("X.XX% done at N kB/s, finished in H:MM") and formats dates and
 * libext2fs errors in one place.
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
#include "sig.h"
#include "tape.h"

#define MSG_PREFIX		"  DUMP: "
/* Progress lines are printed at most this often... */
#define PROGRESS_INTERVAL	(5 * 60)
/* ...and only once this many tape blocks were written. */
#define PROGRESS_MIN_BLOCKS	500
#define SECS_PER_HOUR		3600
#define SECS_PER_MIN		60

static uint64_t progress_estimate;
static time_t progress_start;
static time_t progress_next;

void msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(MSG_PREFIX, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

void msgtail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

_Noreturn void dump_abort(void)
{
	tape_kill_helpers();
	msg("The ENTIRE dump is aborted.\n");
	exit(X_ABORT);
}

/* One reporting path for libext2fs error codes. */
void optr_fs_error(long code, const char *what, const char *obj)
{
	msg("%s %s: %s\n", what, obj, error_message(code));
}

/* Same for an inode of the file system being dumped. */
void optr_ino_error(long code, const char *what, ext2_ino_t ino)
{
	msg("%s %u: %s\n", what, ino, error_message(code));
}

/* ctime() text, newline included, as 0.4b47 prints dates. */
const char *optr_ctime(time_t t)
{
	static char buf[64];
	struct tm tm;

	if (localtime_r(&t, &tm) == NULL || strftime(buf, sizeof(buf),
	    "%a %b %e %H:%M:%S %Y\n", &tm) == 0)
		snprintf(buf, sizeof(buf), "%lld\n", (long long)t);
	return buf;
}

void optr_progress_start(uint64_t estimate)
{
	progress_estimate = estimate;
	progress_start = time(NULL);
	progress_next = progress_start + PROGRESS_INTERVAL;
}

/*
 * Called by the traversal after each inode; cheap unless the interval
 * has passed.  The time left is extrapolated from the average rate so
 * far, as 0.4b47 does.
 */
void optr_progress(uint64_t blocks)
{
	time_t now;
	double pct;
	long elapsed, left;
	unsigned long rate;

	sig_check();	/* once per inode: a signal is acted on soon */
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
		    left / SECS_PER_HOUR, (left % SECS_PER_HOUR) / SECS_PER_MIN);
		return;
	}
	rate = (unsigned long)(blocks / (uint64_t)elapsed);
	msg("%3.2f%% done at %lu kB/s, finished in %ld:%02ld\n", pct, rate,
	    left / SECS_PER_HOUR, (left % SECS_PER_HOUR) / SECS_PER_MIN);
}
