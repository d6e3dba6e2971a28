/*
 * rmt.c - the command loop of the remote tape server (main.c starts it).
 *
 * One loop reads a command letter from stdin, reads that command's
 * argument lines, performs it on the open device (rmtops.c) and sends one
 * reply on stdout: "A<number>\n" (plus data for R and S) on success,
 * "E<errno>\n<strerror>\n" on failure.  The protocol and the replies are
 * those of dump 0.4b47's rmt (doc/rmt-protocol.md), byte for byte for
 * every well-formed request.
 *
 * Where 0.4b47 trusted its input we do not.  Every number goes through
 * strtoll with a range check; a malformed argument gets "E22" (EINVAL)
 * instead of being read as 0.  Argument lines are capped at RMT_LINE_MAX
 * and records at RMT_RECORD_MAX, so no request makes the server grow
 * without bound: a larger read is answered short, a larger write is
 * streamed to a file or refused on a tape, its payload read and dropped in
 * pieces.  Besides end of input (status 0), a session ends only when it
 * cannot go on: a W whose payload cannot be delimited or is cut short (2),
 * an unknown command letter (3), no memory (4), or a reply that cannot be
 * written (RMT_LOST_CLIENT).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rmt.h"

/* Symbolic open flags, in the order 0.4b47's client emits them. */
static const struct {
	const char *name;
	int value;
} open_flags[] = {
    {"O_RDONLY", O_RDONLY},	  {"O_WRONLY", O_WRONLY},
    {"O_RDWR", O_RDWR},		  {"O_CREAT", O_CREAT},
    {"O_EXCL", O_EXCL},		  {"O_NOCTTY", O_NOCTTY},
    {"O_TRUNC", O_TRUNC},	  {"O_APPEND", O_APPEND},
    {"O_NONBLOCK", O_NONBLOCK},	  {"O_NDELAY", O_NDELAY},
    {"O_SYNC", O_SYNC},
#ifdef O_FSYNC
    {"O_FSYNC", O_FSYNC},
#endif
#ifdef O_ASYNC
    {"O_ASYNC", O_ASYNC},
#endif
#ifdef O_TEXT
    {"O_TEXT", O_TEXT},
#endif
#ifdef O_DSYNC
    {"O_DSYNC", O_DSYNC},
#endif
#ifdef O_RSYNC
    {"O_RSYNC", O_RSYNC},
#endif
#ifdef O_PRIV
    {"O_PRIV", O_PRIV},
#endif
#ifdef O_LARGEFILE
    {"O_LARGEFILE", O_LARGEFILE},
#endif
};

#define FLAG_PREFIX "O_"
#define FLAG_SEP    '|'
#define FLAG_ENDS   " |" /* what ends a flag name */

/* KiB moved since the last open or close, for the debug log only. */
static unsigned long kblocks;

/* Set by I-1: I op codes are the portable ones from then on. */
static int portable_mtop;

/*
 * Strict writes, an extension for pipelining clients: after I-7337
 * while no device is open (a probe other servers answer with E9,
 * harmlessly; with a device open it is an ordinary I request), once a
 * W fails or is short every later W is refused (payload dropped, the
 * first failure's errno replied) until the client opens again.
 * Thus a client with many W in flight knows that nothing after the
 * first failed record landed.  strict_errno: that failure, 0 if none.
 */
#define RMT_STRICT_OP (-7337)
static int strict_writes;
static int strict_errno;

/* End of input: release the device (syncing it) and leave. */
static void __attribute__((noreturn)) end_of_input(void)
{
	if (rmtdev_is_open() && rmtdev_close() < 0)
		rmtio_log("close at end of input: %s", strerror(errno));
	exit(RMT_OK);
}

/* Read one argument line; end of input inside a request ends rmt. */
static void
need_line(char *buf, int *bad)
{
	if (rmtio_getline(buf, RMT_LINE_MAX + 1, bad) < 0)
		end_of_input();
}

/*
 * A decimal number in [min, max], surrounding blanks allowed; anything
 * else is malformed.  Returns 0, or -1 with errno EINVAL.
 */
static int
parse_number(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno != 0)
		goto bad;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != '\0' || v < min || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

static int
parse_int(const char *s, int *out)
{
	long long v;

	if (parse_number(s, INT_MIN, INT_MAX, &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* The flag named by the len bytes at name, or -1 if none is. */
static int
lookup_flag(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(open_flags) / sizeof(open_flags[0]); i++)
		if (strlen(open_flags[i].name) == len &&
		    memcmp(open_flags[i].name, name, len) == 0)
			return open_flags[i].value;
	return -1;
}

static const char *
skip_blanks(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/*
 * Decode O's mode line the way 0.4b47 does (probed name by name against
 * it, odd inputs included).  The scan walks the line: at each position,
 * after blanks, a word not starting with O_ (the numeric mode in
 * "1 O_WRONLY|...") is skipped up to the next blank, or ends the scan if
 * no blank follows; the word there, ended by a blank, '|' or the end, is
 * looked up as a flag name (an unknown name counts for nothing); the scan
 * goes on after the next '|'.  If any name matched, the flags are their
 * OR.  Otherwise the leading number counts, but only its access mode
 * bits, so a numeric O_CREAT or O_TRUNC is ignored.  Returns 0, or -1
 * (EINVAL) when the line has neither a name nor a number.
 */
static int
decode_open_mode(const char *mode, int *flags)
{
	const char *p = mode;
	int found = 0, result = 0;
	long long num;
	char *end;

	for (;;) {
		size_t len;
		int flag;

		p = skip_blanks(p);
		if (strncmp(p, FLAG_PREFIX, strlen(FLAG_PREFIX)) != 0) {
			p = strchr(p, ' ');
			if (p == NULL)
				break;
			p = skip_blanks(p);
		}
		len = strcspn(p, FLAG_ENDS);
		if ((flag = lookup_flag(p, len)) >= 0) {
			result |= flag;
			found = 1;
		}
		p = strchr(p, FLAG_SEP);
		if (p == NULL)
			break;
		p++;
	}
	if (found) {
		*flags = result;
		return 0;
	}
	errno = 0;
	num = strtoll(mode, &end, 10);
	if (end == mode || errno != 0 || num < INT_MIN || num > INT_MAX) {
		errno = EINVAL;
		return -1;
	}
	*flags = (int)num & O_ACCMODE;
	return 0;
}

/* The reply to an open or close whose result (-1 and errno on failure)
 * is rc: on success the counts of the device before are forgotten. */
static void
reply_device_change(int rc)
{
	if (rc < 0) {
		rmtio_reply_error(errno);
		return;
	}
	kblocks = 0;
	strict_errno = 0;
	rmtio_reply(0);
}

/* O<path>\n<mode>\n: open, closing whatever was open before. */
static void
cmd_open(void)
{
	char path[RMT_LINE_MAX + 1], mode[RMT_LINE_MAX + 1];
	int path_bad, mode_bad, flags = 0, decode_errno = 0;

	need_line(path, &path_bad);
	need_line(mode, &mode_bad);
	rmtio_log("O %s %s", path, mode);
	if (mode_bad != 0 || decode_open_mode(mode, &flags) < 0)
		decode_errno = EINVAL;
	else
		rmtio_log("O %s %d", path, flags);
	if (rmtdev_is_open()) {
		if (rmtdev_close() < 0) {
			rmtio_reply_error(errno);
			return;
		}
	}
	if (path_bad != 0 || decode_errno != 0) {
		rmtio_reply_error(path_bad != 0 ? path_bad : decode_errno);
		return;
	}
	reply_device_change(rmtdev_open(path, flags));
}

/* C<ignored>\n */
static void
cmd_close(void)
{
	char arg[RMT_LINE_MAX + 1];
	int bad;

	rmtio_log("C  (%lu blocks)", kblocks);
	need_line(arg, &bad);
	reply_device_change(rmtdev_close());
}

/* L<offset>\n<whence>\n */
static void
cmd_seek(void)
{
	char off_line[RMT_LINE_MAX + 1], whence_line[RMT_LINE_MAX + 1];
	int off_bad, whence_bad, whence;
	long long offset, result;

	need_line(off_line, &off_bad);
	need_line(whence_line, &whence_bad);
	rmtio_log("L %s %s", off_line, whence_line);
	if (off_bad != 0 || whence_bad != 0 ||
	    parse_number(off_line, LLONG_MIN, LLONG_MAX, &offset) < 0 ||
	    parse_int(whence_line, &whence) < 0) {
		rmtio_reply_error(EINVAL);
		return;
	}
	if (rmtdev_seek(offset, whence, &result) < 0) {
		rmtio_reply_error(errno);
		return;
	}
	rmtio_reply(result);
}

/* Read and drop len payload bytes, an input buffer's worth at a time. */
static void
discard_payload(long long len)
{
	while (len > 0) {
		size_t n = len > RMT_INBUF_SIZE ? RMT_INBUF_SIZE : (size_t)len;

		if (rmtio_read(rmtio_buffer(n), n) != n) {
			rmtio_log("premature eof");
			exit(RMT_BAD_WRITE);
		}
		len -= (long long)n;
	}
}

/*
 * Take count payload bytes and write them, at most RMT_RECORD_MAX at a
 * time (so a tape record, which is never larger, goes out in one write).
 * After a failure the rest of the payload is still consumed.  Returns the
 * bytes written, or -1 with errno when nothing was.
 */
static long long
write_payload(long long count)
{
	long long done = 0;
	int failed = 0, fail_errno = 0;

	while (count > 0) {
		size_t n =
		    count > RMT_RECORD_MAX ? RMT_RECORD_MAX : (size_t)count;
		void *buf = rmtio_buffer(n);
		ssize_t w;

		if (rmtio_read(buf, n) != n) {
			rmtio_log("premature eof");
			exit(RMT_BAD_WRITE);
		}
		count -= (long long)n;
		if (failed)
			continue;
		w = rmtdev_write(buf, n);
		if (w < 0) {
			fail_errno = errno;
			failed = 1;
		} else {
			done += w;
			failed = (size_t)w < n;
		}
	}
	if (done == 0 && fail_errno != 0) {
		errno = fail_errno;
		return -1;
	}
	return done;
}

/* W<count>\n<count bytes> */
static void
cmd_write(void)
{
	char line[RMT_LINE_MAX + 1];
	long long count, done;
	int bad;

	need_line(line, &bad);
	/* Without a valid count the payload cannot be skipped: stop. */
	if (bad != 0 || parse_number(line, 1, LLONG_MAX, &count) < 0)
		exit(RMT_BAD_WRITE);
	rmtio_log("W %s (block = %lu)", line, kblocks);
	if (!rmtdev_is_open() || (rmtdev_is_tape() && count > RMT_RECORD_MAX)) {
		int errnum = rmtdev_is_open() ? EINVAL : EBADF;

		discard_payload(count);
		rmtio_reply_error(errnum);
		return;
	}
	if (strict_errno != 0) {
		discard_payload(count);
		rmtio_reply_error(strict_errno);
		return;
	}
	done = write_payload(count);
	if (done < 0) {
		if (strict_writes)
			strict_errno = errno;
		rmtio_reply_error(errno);
		return;
	}
	if (strict_writes && done < count)
		strict_errno = ENOSPC;
	kblocks += (unsigned long)(count >> RMT_KIB_SHIFT);
	rmtio_reply(done);
}

/* R<count>\n: reply A<n>\n and n bytes, n <= RMT_RECORD_MAX. */
static void
cmd_read(void)
{
	char line[RMT_LINE_MAX + 1];
	long long count;
	size_t len;
	ssize_t n;
	void *buf;
	int bad;

	need_line(line, &bad);
	rmtio_log("R %s (block %lu)", line, kblocks);
	if (bad != 0 || parse_number(line, 0, LLONG_MAX, &count) < 0) {
		rmtio_reply_error(EINVAL);
		return;
	}
	len = count > RMT_RECORD_MAX ? RMT_RECORD_MAX : (size_t)count;
	buf = rmtio_buffer(len);
	n = rmtdev_read(buf, len);
	if (n < 0) {
		rmtio_reply_error(errno);
		return;
	}
	kblocks += (unsigned long)(count >> RMT_KIB_SHIFT);
	rmtio_reply_data(n, buf, (size_t)n);
}

/* I<op>\n<count>\n and i<op>\n<count>\n */
static void
cmd_mtop(int letter)
{
	char op_line[RMT_LINE_MAX + 1], count_line[RMT_LINE_MAX + 1];
	int op_bad, count_bad, op, count, r;

	need_line(op_line, &op_bad);
	need_line(count_line, &count_bad);
	rmtio_log("%c %s %s", letter, op_line, count_line);
	if (op_bad != 0 || count_bad != 0 || parse_int(op_line, &op) < 0 ||
	    parse_int(count_line, &count) < 0) {
		rmtio_reply_error(EINVAL);
		return;
	}
	if (letter == 'I' && op == RMT_STRICT_OP && !rmtdev_is_open()) {
		strict_writes = 1;
		strict_errno = 0;
		rmtio_reply(count);
		return;
	}
	if (letter == 'I' && op == RMT_MTOP_VERSION_OP) {
		portable_mtop = 1;
		rmtio_reply(RMT_MTOP_VERSION);
		return;
	}
	if (letter == 'I')
		r = rmtdev_mtop(op, count, portable_mtop);
	else
		r = rmtdev_ext_mtop(op, count);
	if (r < 0) {
		rmtio_reply_error(errno);
		return;
	}
	rmtio_reply(count);
}

/* S: the whole struct mtget, raw (see rmtdev_status for version 1). */
static void
cmd_status(void)
{
	struct mtget mt;

	rmtio_log("S");
	if (rmtdev_status(&mt, portable_mtop) < 0) {
		rmtio_reply_error(errno);
		return;
	}
	rmtio_reply_data((long long)sizeof(mt), &mt, sizeof(mt));
}

/* s<letter>: one member of struct mtget (no newline follows). */
static void
cmd_status_field(void)
{
	long long value;
	int which;

	rmtio_log("s");
	which = rmtio_getc();
	if (which < 0)
		end_of_input();
	rmtio_log("s %d", which);
	if (rmtdev_status_field(which, &value) < 0) {
		rmtio_reply_error(errno);
		return;
	}
	rmtio_reply(value);
}

/* V<ignored>\n: protocol version. */
static void
cmd_version(void)
{
	char arg[RMT_LINE_MAX + 1];
	int bad;

	need_line(arg, &bad);
	rmtio_log("V %s", arg);
	rmtio_reply(RMT_PROTOCOL_VERSION);
}

/* The command loop; ends the process at end of input or on a fatal
 * request (see the top). */
void
rmt_serve(void)
{
	int c;

	for (;;) {
		c = rmtio_getc();
		if (c < 0)
			end_of_input();
		switch (c) {
		case 'C': cmd_close(); break;
		case 'I':
		case 'i': cmd_mtop(c); break;
		case 'L': cmd_seek(); break;
		case 'O': cmd_open(); break;
		case 'R': cmd_read(); break;
		case 'S': cmd_status(); break;
		case 's': cmd_status_field(); break;
		case 'V': cmd_version(); break;
		case 'W': cmd_write(); break;
		default:
			rmtio_log("garbage command %c", c);
			exit(RMT_BAD_COMMAND);
		}
	}
}
