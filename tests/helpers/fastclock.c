/*
 * fastclock.c - an LD_PRELOAD shim whose time() runs with the output:
 * each FASTCLOCK_BYTES bytes in the file FASTCLOCK_FILE are one second
 * after FASTCLOCK_BASE.  A dump's periodic lines then come at points
 * fixed by what it has written, in every process of it (the file is
 * looked at, not a counter of one process), without minutes of waiting
 * and whatever the speed of the machine.
 *
 * Environment:
 *   FASTCLOCK_FILE   the file whose size drives the clock (missing: 0)
 *   FASTCLOCK_BYTES  bytes per second (default 10240)
 *   FASTCLOCK_BASE   the time at size 0 (default 1000000000)
 * Only time() is replaced: clock_gettime() stays real, for the timeouts
 * of semaphore waits.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

static long long
env_num(const char *name, long long dflt)
{
	const char *s = getenv(name);
	char *end;
	long long v;

	if (s == NULL || *s == '\0')
		return dflt;
	v = strtoll(s, &end, 10);
	return *end == '\0' && v > 0 ? v : dflt;
}

time_t
time(time_t *tp)
{
	const char *file = getenv("FASTCLOCK_FILE");
	long long base = env_num("FASTCLOCK_BASE", 1000000000LL);
	long long bps = env_num("FASTCLOCK_BYTES", 10240);
	struct stat st;
	time_t t = (time_t)base;

	if (file != NULL && stat(file, &st) == 0)
		t += (time_t)(st.st_size / bps);
	if (tp != NULL)
		*tp = t;
	return t;
}
