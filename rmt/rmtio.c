/*
 * rmtio.c - the byte streams of the rmt server: requests in on stdin,
 * replies out on stdout, the optional debug log, and the one record
 * buffer that R and W share.
 *
 * Requests are read through a buffer of our own instead of byte by byte:
 * nothing else reads stdin, so the buffer never steals bytes from anyone,
 * and a pipelining client can queue many requests without paying one
 * system call per byte.  W payloads are taken first from what is buffered,
 * then straight from the descriptor.
 *
 * Every reply goes out whole (full_write).  When that fails the client is
 * gone: we log it and exit, since no later reply could arrive either.
 * The log keeps 0.4b47's "rmtd: ..." lines so that old notes about
 * reading it stay true.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rmt.h"
#include "xio.h"

/* Longest reply header: "A" or "E", a 64-bit number, "\n", NUL. */
#define REPLY_HEAD_MAX 32

static unsigned char inbuf[RMT_INBUF_SIZE];
static size_t inpos, inlen;

static FILE *logfile;

static unsigned char *record;
static size_t record_size;

int
rmtio_open_log(const char *path)
{
	logfile = fopen(path, "w");
	if (logfile == NULL)
		return -1;
	/* Line buffering: the log must be complete when rmt is killed. */
	setvbuf(logfile, NULL, _IOLBF, 0);
	return 0;
}

void
rmtio_log(const char *fmt, ...)
{
	va_list ap;
	int failed;

	if (logfile == NULL)
		return;
	va_start(ap, fmt);
	failed = fputs("rmtd: ", logfile) == EOF ||
	    vfprintf(logfile, fmt, ap) < 0 || fputc('\n', logfile) == EOF;
	va_end(ap);
	if (failed) {
		/* A full disk must not stop the service: drop the log. */
		warn("debug log");
		(void)fclose(logfile);
		logfile = NULL;
	}
}

/* Refill the input buffer when empty; 0 at end of input. */
static int
fill(void)
{
	ssize_t n;

	if (inpos < inlen)
		return 1;
	do
		n = read(STDIN_FILENO, inbuf, sizeof(inbuf));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		/* A read error on the request stream ends it like EOF. */
		if (n < 0)
			rmtio_log("read error on input: %s", strerror(errno));
		return 0;
	}
	inpos = 0;
	inlen = (size_t)n;
	return 1;
}

/* The next request byte, or -1 at end of input. */
int
rmtio_getc(void)
{
	if (!fill())
		return -1;
	return inbuf[inpos++];
}

/*
 * Read one argument line into buf (newline dropped, NUL-terminated).
 * A line that does not fit, or that holds a NUL byte, is still consumed
 * up to its newline, so the next request stays in step; *bad is then set
 * to ENAMETOOLONG or EINVAL, else to 0.  Returns -1 at end of input.
 */
int
rmtio_getline(char *buf, size_t size, int *bad)
{
	size_t len = 0;

	*bad = 0;
	for (;;) {
		unsigned char *start, *nl;
		size_t avail, take;

		if (!fill())
			return -1;
		start = inbuf + inpos;
		avail = inlen - inpos;
		nl = memchr(start, '\n', avail);
		take = nl != NULL ? (size_t)(nl - start) : avail;
		if (memchr(start, '\0', take) != NULL && *bad == 0)
			*bad = EINVAL;
		if (take > size - 1 - len) {
			if (*bad == 0)
				*bad = ENAMETOOLONG;
			take = size - 1 - len;
		}
		memcpy(buf + len, start, take);
		len += take;
		if (nl != NULL) {
			inpos += (size_t)(nl - start) + 1;
			break;
		}
		inpos = inlen;
	}
	buf[len] = '\0';
	return 0;
}

/* Read len payload bytes; fewer only at end of input. */
size_t
rmtio_read(void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	if (inpos < inlen) {
		done = inlen - inpos < len ? inlen - inpos : len;
		memcpy(buf, inbuf + inpos, done);
		inpos += done;
	}
	if (done == len)
		return done;
	n = full_read(STDIN_FILENO, (char *)buf + done, len - done);
	if (n < 0) {
		rmtio_log("read error on input: %s", strerror(errno));
		return done;
	}
	return done + (size_t)n;
}

static void
send_bytes(const void *data, size_t len)
{
	if (full_write(STDOUT_FILENO, data, len) != (ssize_t)len) {
		rmtio_log("write error");
		exit(RMT_LOST_CLIENT);
	}
}

void
rmtio_reply(long long value)
{
	char head[REPLY_HEAD_MAX];
	int n;

	rmtio_log("A %lld", value);
	n = snprintf(head, sizeof(head), "A%lld\n", value);
	send_bytes(head, (size_t)n);
}

/* A reply carrying data (R, S): 0.4b47 did not log these. */
void
rmtio_reply_data(long long value, const void *data, size_t len)
{
	char head[REPLY_HEAD_MAX];
	int n;

	n = snprintf(head, sizeof(head), "A%lld\n", value);
	send_bytes(head, (size_t)n);
	if (len > 0)
		send_bytes(data, len);
}

void
rmtio_reply_error(int errnum)
{
	char head[REPLY_HEAD_MAX];
	const char *msg = strerror(errnum);
	int n;

	rmtio_log("E %d (%s)", errnum, msg);
	n = snprintf(head, sizeof(head), "E%d\n", errnum);
	send_bytes(head, (size_t)n);
	send_bytes(msg, strlen(msg));
	send_bytes("\n", 1);
}

/*
 * Ask for socket buffers of a record's size when the client talks to us
 * over a socket (rcmd, inetd).  Only a hint: failures, including "not a
 * socket" on pipes, are ignored.
 */
void
rmtio_tune_socket(size_t len)
{
	int size = len > (size_t)RMT_RECORD_MAX ? RMT_RECORD_MAX : (int)len;

	(void)setsockopt(STDIN_FILENO, SOL_SOCKET, SO_RCVBUF, &size,
			 sizeof(size));
	(void)setsockopt(STDOUT_FILENO, SOL_SOCKET, SO_SNDBUF, &size,
			 sizeof(size));
}

/*
 * The record buffer, grown to at least len bytes (len never exceeds
 * RMT_RECORD_MAX: the callers cut requests to that).  Running out of
 * memory ends rmt with its own status, which is why this is not xrealloc.
 */
void *
rmtio_buffer(size_t len)
{
	unsigned char *p;

	if (len <= record_size)
		return record;
	p = realloc(record, len);
	if (p == NULL) {
		rmtio_log("cannot allocate buffer space");
		exit(RMT_NO_MEMORY);
	}
	record = p;
	record_size = len;
	rmtio_tune_socket(len);
	return record;
}
