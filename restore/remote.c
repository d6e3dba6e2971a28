/*
 * remote.c - restore's input from a remote volume ([user@]host:path)
 * through rmt, with reads kept in flight so that latency does not set
 * the pace.
 *
 * One link per volume: it is made when the volume is opened and closed
 * (C) with it, because GNU rmt exits after C.  Right after the open an
 * I request with MTNOP tells a tape (it succeeds) from anything else
 * (ENOTTY from every rmt: 0.4b47's, GNU's and ours).
 *
 * Why pipelining is safe only off tape: each R reply carries the next
 * bytes the server's read() returned.  On a file or pipe the replies,
 * joined in order, are the byte stream whatever their sizes, a reply
 * of 0 bytes is the end (every later one is 0 as well, its data are
 * dropped), and a failed read changes no position.  So there up to
 * FILE_WINDOW requests of FILE_REQ bytes are kept outstanding, the
 * window growing from one as replies come back (restore -t stops after
 * the directories: it should not have asked for megabytes).  On a tape
 * one R reads one record, a short one is normal and a 0 is a file mark
 * that moves the tape: a request sent beyond it would read the next
 * dump file.  So a tape gets one request at a time of TAPE_RECORD_MAX,
 * the largest record dump writes and more, so no record is cut; when
 * the probe fails in another way than ENOTTY the volume is read like a
 * tape too, which is slow but never wrong.
 *
 * The link is closed at exit as well (C, so a tape drive is released
 * in order); a link lost then ends the program at once with
 * R_LOST_REMOTE, after stdout is flushed.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mtio.h>
#include <unistd.h>

#include "restore.h"
#include "remote.h"
#include "exitcodes.h"
#include "rmtclient.h"

/* One R request on a file, and the most of them in flight (4 MiB:
 * 400 MB/s at a 10 ms round trip). */
#define FILE_REQ    (256 * 1024)
#define FILE_WINDOW 16

static struct rmt_conn conn = {.to = -1, .from = -1};
static bool is_tape;
static size_t req_size; /* count of each R request */
static unsigned window; /* R requests allowed in flight now */
static unsigned inflight; /* R requests whose reply is not read */
static size_t pending; /* data bytes of the current reply left */
static bool at_end; /* the volume ended (0 bytes or an error) */
static bool closing_at_exit;
static bool hooks_set;

static _Noreturn void
lost_link(void)
{
	/* exit() again from inside an atexit handler is undefined */
	if (closing_at_exit) {
		(void)fflush(stdout);
		_exit(R_LOST_REMOTE);
	}
	exit(R_LOST_REMOTE);
}

static void
close_at_exit(void)
{
	closing_at_exit = true;
	remote_close();
}

/* Read and drop every reply still owed, and the rest of the current. */
static void
drain(void)
{
	if (pending > 0)
		rmt_read_data(&conn, NULL, pending);
	pending = 0;
	for (; inflight > 0; inflight--) {
		ssize_t n = rmt_read_head(&conn, req_size);

		if (n > 0)
			rmt_read_data(&conn, NULL, (size_t)n);
	}
}

int
remote_open(const char *name)
{
	const char *path;
	int e;

	remote_close();
	/* "invalid user name" was said; 0.4b47 stops there too */
	if (rmt_split(name, &conn, &path) == -1)
		exit(R_ERROR);
	if (!hooks_set) {
		rmt_lost = lost_link;
		if (atexit(close_at_exit) != 0)
			err(R_ERROR, "atexit");
		hooks_set = true;
	}
	if (rmt_connect(&conn) == -1) {
		errno = ECONNREFUSED;
		return -1;
	}
	if (rmt_open(&conn, path, O_RDONLY) == -1) {
		e = errno;
		rmt_disconnect(&conn);
		errno = e;
		return -1;
	}
	is_tape = rmt_ioctl(&conn, MTNOP, 1) == 0 || errno != ENOTTY;
	req_size = is_tape ? TAPE_RECORD_MAX : FILE_REQ;
	window = 1;
	inflight = 0;
	pending = 0;
	at_end = false;
	return 0;
}

bool
remote_is_tape(void)
{
	return is_tape;
}

/* Send requests until the window is full. */
static void
fill_window(void)
{
	unsigned max = is_tape ? 1 : window;

	if (inflight < max) {
		rmt_read_send(&conn, req_size, max - inflight);
		inflight = max;
	}
}

ssize_t
remote_read(void *buf, size_t len)
{
	size_t k;

	if (conn.to == -1 || at_end || len == 0)
		return 0;
	while (pending == 0) {
		ssize_t n;

		fill_window();
		n = rmt_read_head(&conn, req_size);
		inflight--;
		if (n <= 0) { /* the end, or an error (errno) */
			at_end = true;
			return n;
		}
		pending = (size_t)n;
		if (window < FILE_WINDOW)
			window *= 2;
	}
	k = pending < len ? pending : len;
	rmt_read_data(&conn, buf, k);
	pending -= k;
	return (ssize_t)k;
}

int
remote_skip_files(int n, const char **why)
{
	drain();
	if (rmt_ioctl(&conn, MTFSF, n) == 0)
		return 0;
	*why = conn.msg;
	return -1;
}

off_t
remote_seek(off_t offset, int whence)
{
	drain();
	at_end = false;
	return rmt_seek(&conn, offset, whence);
}

void
remote_close(void)
{
	if (conn.to == -1)
		return;
	drain();
	if (rmt_close(&conn) == -1)
		warnx("closing %s: %s", conn.host, conn.msg);
	rmt_disconnect(&conn);
}
