/*
 * rmtclient.c - the client side of the remote tape protocol, as dump
 * and restore 0.4b47 speak it (doc/rmt-protocol.md 1-4).
 *
 * A name is remote when a ':' comes before any '/'.  The server is
 * started as "$RSH host -l user $RMT" on a pair of pipes.  0.4b47 uses
 * rcmd(3) when RSH is unset; rsh/rcmd is gone from today's systems and
 * every site that dumps remotely does it over ssh, so an unset RSH
 * means "ssh" here (documented in dump.8).  The link counts as made
 * only once the server has answered a first request: a remote shell
 * that fails itself (status 255, ssh's for an unknown host or a refused
 * login) is reported as 0.4b47 reports a failed rcmd(3), "login to HOST
 * as USER failed.", and the connection fails; a server that dies before
 * its first answer is a lost connection, as in 0.4b47.  Replies are read one byte
 * at a time up to a bounded length, so a hostile or broken server can
 * neither overrun a buffer nor make us read its data as a reply; an R
 * reply announcing more bytes than were asked for is refused for the
 * same reason.  Writes and reads may be pipelined by the caller
 * (dump/writer.c, restore/remote.c say when that is safe).
 * A lost connection, or a reply that is neither A nor E/F, prints
 * "Lost connection to remote host." and calls rmt_lost (exit 3).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mtio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcodes.h"
#include "rmtclient.h"
#include "xio.h"

#ifndef RMT_PATH
#define RMT_PATH "/etc/rmt"
#endif
/* Remote shell when RSH is unset (see above). */
#define RSH_DEFAULT "ssh"
/* Status of a remote shell that failed itself (ssh's; also ours when
 * the remote shell cannot be executed). */
#define RSH_FAILED 255
/* I request asking for strict writes (rmt/rmt.c). */
#define RMT_STRICT_PROBE "I-7337\n1\n"
/* Longest reply line we accept, as the 30-byte buffer of 0.4b47. */
#define REPLY_MAX 64
/* Chunk in which unwanted reply data are read and dropped. */
#define DISCARD_CHUNK 4096
/* Room for one R request line ("R" and 20 digits and "\n"), and how
 * many of them go out in one write. */
#define READ_REQ_MAX 24
#define READ_BATCH   32
/* Largest status reply we read (and drop) when its size is not ours. */
#define STATUS_MAX 4096

static int parse_num(const char *s, long long *v);
static long long get_reply(struct rmt_conn *c);
static void send_req(struct rmt_conn *c, const void *buf, size_t len);

static _Noreturn void
default_lost(void)
{
	exit(X_ABORT);
}

void (*rmt_lost)(void) = default_lost;
const char *rmt_msg_prefix = "";

static _Noreturn void
lost(struct rmt_conn *c)
{
	fprintf(stderr, "%sLost connection to remote host.\n", rmt_msg_prefix);
	rmt_disconnect(c);
	rmt_lost();
	exit(X_ABORT); /* in case the hook returned */
}

/* The server broke the protocol: say how, in 0.4b47's words ("Protocol
 * to remote tape server botched (WHAT)."), and give the link up. */
static _Noreturn void __attribute__((format(printf, 2, 3)))
botched(struct rmt_conn *c, const char *fmt, ...)
{
	char what[2 * REPLY_MAX];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%sProtocol to remote tape server botched (%s).\n",
		rmt_msg_prefix, what);
	lost(c);
}

int
rmt_is_remote(const char *name)
{
	const char *colon = strchr(name, ':');
	const char *slash = strchr(name, '/');

	return colon != NULL && (slash == NULL || colon < slash);
}

static int
valid_user(const char *u)
{
	if (*u == '\0')
		return 0;
	for (; *u != '\0'; u++)
		if (!isascii((unsigned char)*u) ||
		    !(isalnum((unsigned char)*u) || *u == '_' || *u == '-'))
			return 0;
	return 1;
}

int
rmt_split(const char *name, struct rmt_conn *c, const char **path)
{
	const char *colon = strchr(name, ':'), *at;
	size_t hlen = (size_t)(colon - name);
	char hostpart[RMT_HOST_MAX];

	memset(c, 0, sizeof(*c));
	c->to = c->from = -1;
	if (hlen >= sizeof(hostpart)) {
		fprintf(stderr, "%shost name too long in %s\n", rmt_msg_prefix,
			name);
		return -1;
	}
	memcpy(hostpart, name, hlen);
	hostpart[hlen] = '\0';
	at = strchr(hostpart, '@');
	if (at != NULL) {
		size_t ulen = (size_t)(at - hostpart);

		if (ulen >= sizeof(c->user))
			ulen = sizeof(c->user) - 1;
		memcpy(c->user, hostpart, ulen);
		c->user[ulen] = '\0';
		if (!valid_user(c->user)) {
			fprintf(stderr, "%sinvalid user name %s\n",
				rmt_msg_prefix, c->user);
			return -1;
		}
		memcpy(c->host, at + 1, strlen(at + 1) + 1);
	} else {
		struct passwd *pw = getpwuid(getuid());

		if (pw == NULL) {
			fprintf(stderr, "%swho are you?\n", rmt_msg_prefix);
			return -1;
		}
		(void)snprintf(c->user, sizeof(c->user), "%s", pw->pw_name);
		memcpy(c->host, hostpart, hlen + 1);
	}
	*path = colon + 1;
	if (strlen(*path) >= RMT_PATH_MAX || strchr(*path, '\n') != NULL) {
		fprintf(stderr, "%sinvalid characters in tape\n",
			rmt_msg_prefix);
		return -1;
	}
	return 0;
}

/*
 * Read one reply line without its '\n' into buf (REPLY_MAX bytes, always
 * terminated): 0, or -1 when the link ended or failed, or -2 when the
 * line is too long (buf then holds its start).
 */
static int
read_line(struct rmt_conn *c, char *buf)
{
	size_t n = 0;

	for (;;) {
		char ch;
		ssize_t r = read(c->from, &ch, 1);

		if (r == -1 && errno == EINTR)
			continue;
		if (r != 1) {
			buf[n] = '\0';
			return -1;
		}
		if (ch == '\n')
			break;
		if (n + 1 >= REPLY_MAX) {
			buf[n] = '\0';
			return -2;
		}
		buf[n++] = ch;
	}
	buf[n] = '\0';
	return 0;
}

/* One reply line of the first exchange; -1 if the server is not there
 * (the remote shell failed) or does not speak the protocol. */
static int
probe_line(struct rmt_conn *c, char *buf)
{
	return read_line(c, buf) == 0 ? 0 : -1;
}

/*
 * The strict-writes probe: I with op -7337 before any open.  0.4b47's
 * rmt and GNU rmt answer E9 (no device open) and carry on; ours answers
 * A1 and from then on refuses every write after a failed one, which
 * makes pipelined writes safe.  -1 when no server answered.
 */

static int
probe(struct rmt_conn *c)
{
	char line[REPLY_MAX];
	long long v;

	if (full_write(c->to, RMT_STRICT_PROBE, sizeof(RMT_STRICT_PROBE) - 1) !=
		(ssize_t)(sizeof(RMT_STRICT_PROBE) - 1) ||
	    probe_line(c, line) == -1)
		return -1;
	if (line[0] == 'A' && parse_num(line + 1, &v) == 0) {
		c->strict = v == 1;
		return 0;
	}
	c->strict = 0;
	if (line[0] == 'E' || line[0] == 'F')
		return probe_line(c, c->msg);
	botched(c, "code \"%s\"", line);
}

/* The link ended before the server's first answer: the remote shell's
 * own failure is a failed login (-1); otherwise the server started and
 * died, a lost connection. */
static int
probe_failed(struct rmt_conn *c)
{
	int status = 0;

	(void)close(c->to);
	(void)close(c->from);
	c->to = c->from = -1;
	while (waitpid(c->pid, &status, 0) == -1 && errno == EINTR)
		;
	c->pid = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == RSH_FAILED) {
		fprintf(stderr, "%slogin to %s as %s failed.\n", rmt_msg_prefix,
			c->host, c->user);
		return -1;
	}
	fprintf(stderr, "%sConnection to %s established.\n", rmt_msg_prefix,
		c->host);
	lost(c);
}

int
rmt_connect(struct rmt_conn *c)
{
	const char *rsh = getenv("RSH"), *rmt = getenv("RMT");
	int req[2], rep[2];

	if (rsh == NULL || *rsh == '\0')
		rsh = RSH_DEFAULT;
	if (rmt == NULL || *rmt == '\0')
		rmt = RMT_PATH;
	if (pipe2(req, O_CLOEXEC) == -1)
		goto fail;
	if (pipe2(rep, O_CLOEXEC) == -1) {
		(void)close(req[0]);
		(void)close(req[1]);
		goto fail;
	}
	/* a server that died must show up as a failed write (EPIPE), to
	 * be reported as a lost connection, not kill us */
	(void)signal(SIGPIPE, SIG_IGN);
	c->pid = fork();
	if (c->pid == -1) {
		(void)close(req[0]);
		(void)close(req[1]);
		(void)close(rep[0]);
		(void)close(rep[1]);
		goto fail;
	}
	if (c->pid == 0) {
		/* own process group: the operator's ^C must not cut the
		 * link before dump has said what it wants to say */
		(void)setpgid(0, 0);
		if (dup2(req[0], STDIN_FILENO) == -1 ||
		    dup2(rep[1], STDOUT_FILENO) == -1)
			_exit(X_STARTUP);
		if (setgid(getgid()) == -1 || setuid(getuid()) == -1)
			_exit(X_STARTUP);
		(void)signal(SIGPIPE, SIG_DFL);
		execlp(rsh, rsh, c->host, "-l", c->user, rmt, (char *)NULL);
		fprintf(stderr, "%scannot exec %s: %s\n", rmt_msg_prefix, rsh,
			strerror(errno));
		_exit(RSH_FAILED);
	}
	(void)close(req[0]);
	(void)close(rep[1]);
	c->to = req[1];
	c->from = rep[0];
	if (probe(c) == -1)
		return probe_failed(c);
	fprintf(stderr, "%sConnection to %s established.\n", rmt_msg_prefix,
		c->host);
	return 0;
fail:
	fprintf(stderr, "%scannot connect to %s: %s\n", rmt_msg_prefix, c->host,
		strerror(errno));
	return -1;
}

void
rmt_disconnect(struct rmt_conn *c)
{
	int status;

	if (c->to != -1)
		(void)close(c->to);
	if (c->from != -1)
		(void)close(c->from);
	c->to = c->from = -1;
	if (c->pid > 0)
		while (waitpid(c->pid, &status, 0) == -1 && errno == EINTR)
			;
	c->pid = 0;
}

/* Send a request; a failure means the link is gone. */
static void
send_req(struct rmt_conn *c, const void *buf, size_t len)
{
	if (c->to == -1 || full_write(c->to, buf, len) != (ssize_t)len)
		lost(c);
}

/* One reply line without its '\n' into buf (REPLY_MAX bytes). */
static void
get_line(struct rmt_conn *c, char *buf)
{
	int r = read_line(c, buf);

	if (r == -2)
		botched(c, "rmtgets got \"%s\"", buf);
	if (r != 0)
		lost(c);
}

/* Parse a decimal number filling the whole string. */
static int
parse_num(const char *s, long long *v)
{
	char *end;

	if (*s == '\0')
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	return 0;
}

/* Read the reply to a request: its number (>= 0), or -1 with errno set
 * to the server's errno for an E or F reply. */
static long long
get_reply(struct rmt_conn *c)
{
	char line[REPLY_MAX];
	long long v;

	get_line(c, line);
	if (line[0] == 'A' && parse_num(line + 1, &v) == 0 && v >= 0)
		return v;
	if ((line[0] == 'E' || line[0] == 'F') &&
	    parse_num(line + 1, &v) == 0 && v > 0 && v < INT_MAX) {
		get_line(c, c->msg);
		errno = (int)v;
		return -1;
	}
	botched(c, "code \"%s\"", line);
}

/* The symbolic open flags, as 0.4b47 sends them. */
static void
flag_string(int flags, char *buf, size_t len)
{
	static const struct {
		int bit;
		const char *name;
	} names[] = {
	    {O_CREAT, "O_CREAT"},   {O_EXCL, "O_EXCL"},
	    {O_NOCTTY, "O_NOCTTY"}, {O_TRUNC, "O_TRUNC"},
	    {O_APPEND, "O_APPEND"}, {O_NONBLOCK, "O_NONBLOCK"},
	    {O_SYNC, "O_SYNC"},	    {O_ASYNC, "O_ASYNC"},
	};
	int acc = flags & O_ACCMODE;
	size_t i, n;

	n = (size_t)snprintf(buf, len, "%d %s", acc,
			     acc == O_WRONLY	 ? "O_WRONLY"
				 : acc == O_RDWR ? "O_RDWR"
						 : "O_RDONLY");
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && n < len; i++)
		if ((flags & names[i].bit) == names[i].bit)
			n += (size_t)snprintf(buf + n, len - n, "|%s",
					      names[i].name);
}

int
rmt_open(struct rmt_conn *c, const char *path, int flags)
{
	char req[RMT_PATH_MAX + 256], fl[200];
	int n;

	flag_string(flags, fl, sizeof(fl));
	n = snprintf(req, sizeof(req), "O%s\n%s\n", path, fl);
	if (n < 0 || (size_t)n >= sizeof(req)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	send_req(c, req, (size_t)n);
	return get_reply(c) < 0 ? -1 : 0;
}

void
rmt_write_send(struct rmt_conn *c, const void *buf, size_t len)
{
	char req[32];
	int n = snprintf(req, sizeof(req), "W%zu\n", len);

	send_req(c, req, (size_t)n);
	send_req(c, buf, len);
}

ssize_t
rmt_write(struct rmt_conn *c, const void *buf, size_t len)
{
	rmt_write_send(c, buf, len);
	return rmt_write_reply(c, len);
}

/*
 * The count of a W or R reply.  More than asked for could only be read
 * as the next reply: the stream is out of step and nothing after it can
 * be trusted, so the link is given up.
 */
static ssize_t
get_count_reply(struct rmt_conn *c, size_t len, const char *verb)
{
	long long v = get_reply(c);

	if (v > (long long)len)
		botched(c, "%s %lld of %zu", verb, v, len);
	return (ssize_t)v;
}

ssize_t
rmt_write_reply(struct rmt_conn *c, size_t len)
{
	return get_count_reply(c, len, "wrote");
}

void
rmt_read_send(struct rmt_conn *c, size_t len, unsigned count)
{
	char req[READ_BATCH * READ_REQ_MAX];
	size_t n = 0;

	/* one write for a batch: one packet on the link, not count */
	while (count > 0) {
		int k = snprintf(req + n, sizeof(req) - n, "R%zu\n", len);

		n += (size_t)k;
		count--;
		if (count == 0 || n + READ_REQ_MAX > sizeof(req)) {
			send_req(c, req, n);
			n = 0;
		}
	}
}

ssize_t
rmt_read_head(struct rmt_conn *c, size_t len)
{
	return get_count_reply(c, len, "read");
}

void
rmt_read_data(struct rmt_conn *c, void *buf, size_t n)
{
	char junk[DISCARD_CHUNK];

	while (n > 0) {
		size_t k = buf != NULL ? n
		    : n < sizeof(junk) ? n
				       : sizeof(junk);
		ssize_t r = full_read(c->from, buf != NULL ? buf : junk, k);

		if (r != (ssize_t)k)
			lost(c);
		if (buf != NULL)
			buf = (char *)buf + k;
		n -= k;
	}
}

ssize_t
rmt_read(struct rmt_conn *c, void *buf, size_t len)
{
	ssize_t n;

	rmt_read_send(c, len, 1);
	n = rmt_read_head(c, len);
	if (n > 0)
		rmt_read_data(c, buf, (size_t)n);
	return n;
}

off_t
rmt_seek(struct rmt_conn *c, off_t offset, int whence)
{
	char req[64];
	int n = snprintf(req, sizeof(req), "L%lld\n%d\n", (long long)offset,
			 whence);

	send_req(c, req, (size_t)n);
	return (off_t)get_reply(c);
}

int
rmt_ioctl(struct rmt_conn *c, int op, int count)
{
	char req[64];
	int n;

	if (count < 0) {
		errno = EINVAL;
		return -1;
	}
	n = snprintf(req, sizeof(req), "I%d\n%d\n", op, count);
	send_req(c, req, (size_t)n);
	return get_reply(c) < 0 ? -1 : 0;
}

int
rmt_status(struct rmt_conn *c, struct mtget *mt)
{
	long long v;

	/* no newline: 0.4b47's server reads none after S */
	send_req(c, "S", 1);
	v = get_reply(c);
	if (v < 0)
		return -1;
	if (v > STATUS_MAX)
		botched(c, "status of %lld bytes", v);
	if ((size_t)v != sizeof(*mt)) {
		fprintf(stderr,
			"%smtget sizes different between host (%zu) "
			"and remote tape (%lld)\n",
			rmt_msg_prefix, sizeof(*mt), v);
		rmt_read_data(c, NULL, (size_t)v);
		errno = EPROTO;
		return -1;
	}
	rmt_read_data(c, mt, sizeof(*mt));
	return 0;
}

int
rmt_close(struct rmt_conn *c)
{
	send_req(c, "C\n", 2);
	return get_reply(c) < 0 ? -1 : 0;
}
