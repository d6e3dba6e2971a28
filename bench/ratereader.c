/*
 * ratereader.c - benchmark helper: a slow output device.  Reads its
 * standard input and throws the bytes away at a fixed rate, like a tape
 * drive or a throttled link that takes RATE bytes per second and never
 * more, and exits at end of input.  Used as the far end of a pipe by
 * bench/media-bench.sh.
 *
 *   ratereader [-v] [-p PIPESIZE] RATE
 *
 * RATE is in bytes per second (> 0).  -p sets the capacity of the pipe
 * on standard input (F_SETPIPE_SZ; the default is 64 KiB), i.e. how
 * much a device buffer holds.
 *
 * The device is busy for n/RATE seconds after each n bytes it takes; it
 * banks no time while it waits for data (a device left idle does not
 * write faster afterwards), so a writer that pauses pays for it.  The
 * busy time runs on an absolute monotonic clock, so late wake-ups (a
 * loaded machine) and rounding in the sleeps do not add up.  With -v,
 * at the end, on stderr: bytes, seconds, the average rate, when the
 * first byte came, and how long the device stood idle waiting for data
 * (the wait for the first byte included).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#endif
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Largest read: a pipe's default capacity, so one read drains it. */
#define CHUNK	     (64 * 1024)
#define NSEC_PER_SEC 1000000000LL
#define EX_USAGE     2
/* A read that takes longer than this waited for data. */
#define IDLE_NS (2 * 1000 * 1000)

static int64_t
ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

static int64_t
now_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_MONOTONIC, &t) != 0)
		err(1, "clock_gettime");
	return ts_ns(&t);
}

/* Sleep until the monotonic clock reads at least `until' ns. */
static void
sleep_until(int64_t until)
{
	struct timespec t;
	int r;

	t.tv_sec = (time_t)(until / NSEC_PER_SEC);
	t.tv_nsec = (long)(until % NSEC_PER_SEC);
	while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t,
				    NULL)) == EINTR)
		continue;
	if (r != 0) {
		errno = r;
		err(1, "clock_nanosleep");
	}
}

static double
parse_num(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v > 0))
		errx(EX_USAGE, "bad %s %s (a number > 0)", what, s);
	return v;
}

static void
usage(void)
{
	fprintf(stderr,
		"usage: ratereader [-v] [-p pipe-size] "
		"bytes-per-second\n");
	exit(EX_USAGE);
}

int
main(int argc, char **argv)
{
	static char buf[CHUNK];
	int verbose = 0;
	double rate, pipesz = 0;
	int64_t start, busy, first = -1, total = 0, idle = 0;
	ssize_t n;

	int c;

	while ((c = getopt(argc, argv, "p:v")) != -1) {
		switch (c) {
		case 'p': pipesz = parse_num(optarg, "pipe size"); break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (argc - optind != 1)
		usage();
	rate = parse_num(argv[optind], "rate");
	if (pipesz > 0 && fcntl(STDIN_FILENO, F_SETPIPE_SZ, (int)pipesz) < 0)
		err(1, "F_SETPIPE_SZ %.0f", pipesz);
	start = busy = now_ns();
	for (;;) {
		int64_t asked = now_ns(), got;

		n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err(1, "read");
		}
		if (n == 0)
			break;
		total += n;
		got = now_ns();
		if (first < 0)
			first = got - start;
		/* A read that blocked means the device stood idle waiting
		 * for data: it starts anew when the data comes.  Otherwise
		 * it writes on from where it was, even if a late wake-up
		 * put the clock past that (so the delay is made up). */
		if (got - asked > IDLE_NS && busy < got) {
			idle += got - (busy > asked ? busy : asked);
			busy = got;
		}
		busy += (int64_t)((double)n / rate * NSEC_PER_SEC);
		sleep_until(busy);
	}
	if (verbose) {
		double secs = (double)(now_ns() - start) / NSEC_PER_SEC;

		fprintf(stderr,
			"ratereader: %lld bytes in %.3f s, %.0f bytes/s, "
			"first byte after %.3f s, idle %.3f s\n",
			(long long)total, secs,
			secs > 0 ? (double)total / secs : 0,
			first < 0 ? 0 : (double)first / NSEC_PER_SEC,
			(double)idle / NSEC_PER_SEC);
	}
	return 0;
}
