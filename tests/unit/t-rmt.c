/*
 * t-rmt.c - the remote tape protocol end to end in one program: the
 * server's command loop (rmt/rmt.c, rmtio.c, rmtops.c) runs in a child
 * on one end of a socketpair, the client of common/rmtclient.c talks to
 * it on the other: open, write (also pipelined), seek, read (also
 * pipelined), close, the E replies of failed requests, and how the
 * client gives up on a server that dies or speaks nonsense.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mtio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rmt.h"
#include "rmtclient.h"
#include "unit.h"

#define REC	    10240
#define NREC	    3
#define LOST_STATUS 42 /* exit status of our rmt_lost hook */
#define STRICT_OP   (-7337) /* the strict-writes probe (rmt.c) */

static char path[4096];

/* Start a server, or with fake set a child that answers every request
 * line with the text fake; c is connected to it. */
static void
start(struct rmt_conn *c, const char *fake)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		perror("socketpair");
		exit(2);
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		(void)close(sv[0]);
		if (dup2(sv[1], STDIN_FILENO) < 0 ||
		    dup2(sv[1], STDOUT_FILENO) < 0)
			_exit(2);
		(void)close(sv[1]);
		signal(SIGPIPE, SIG_IGN);
		if (fake != NULL) {
			char ch;

			while (read(STDIN_FILENO, &ch, 1) == 1)
				if (ch == '\n' &&
				    write(STDOUT_FILENO, fake, strlen(fake)) <
					0)
					_exit(2);
			_exit(0);
		}
		rmt_serve();
	}
	(void)close(sv[1]);
	memset(c, 0, sizeof(*c));
	c->to = sv[0];
	c->from = dup(sv[0]);
	c->pid = pid;
	strcpy(c->host, "unit");
	signal(SIGPIPE, SIG_IGN);
}

static void
fill(unsigned char *buf, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 7 + seed);
}

static void
test_write_read(void)
{
	static unsigned char rec[NREC][REC], back[REC];
	struct rmt_conn c;
	char *file;
	size_t len = 0;
	int good = 1;
	ssize_t n;

	start(&c, NULL);
	unit_ok(rmt_ioctl(&c, STRICT_OP, 1) == 0,
		"the strict-writes probe is answered A");
	unit_ok(rmt_open(&c, path, O_WRONLY | O_CREAT | O_TRUNC) == 0,
		"O: create a file");
	for (int i = 0; i < NREC; i++)
		fill(rec[i], REC, (unsigned)i);
	unit_eq_long(rmt_write(&c, rec[0], REC), REC, "W: one record");
	rmt_write_send(&c, rec[1], REC);
	rmt_write_send(&c, rec[2], REC);
	n = rmt_write_reply(&c, REC);
	unit_ok(n == REC && rmt_write_reply(&c, REC) == REC,
		"W: two records in flight, two replies");
	unit_eq_long(rmt_seek(&c, 0, SEEK_END), NREC * REC,
		     "L: the end is at %d", NREC * REC);
	unit_ok(rmt_close(&c) == 0, "C: close");
	file = unit_read_file(path, &len);
	for (int i = 0; file != NULL && i < NREC; i++)
		good = good && memcmp(file + i * REC, rec[i], REC) == 0;
	unit_ok(file != NULL && len == NREC * REC && good,
		"the file holds the records in order");
	free(file);

	unit_ok(rmt_open(&c, path, O_RDONLY) == 0, "O: open for reading");
	unit_ok(rmt_read(&c, back, REC) == REC &&
		    memcmp(back, rec[0], REC) == 0,
		"R: the first record");
	rmt_read_send(&c, REC, 2);
	n = rmt_read_head(&c, REC);
	if (n > 0)
		rmt_read_data(&c, back, (size_t)n);
	good = n == REC && memcmp(back, rec[1], REC) == 0;
	n = rmt_read_head(&c, REC);
	if (n > 0)
		rmt_read_data(&c, NULL, (size_t)n);
	unit_ok(good && n == REC, "R: two requests in flight, in order");
	unit_eq_long(rmt_read(&c, back, REC), 0, "R at the end: 0 bytes");
	unit_eq_long(rmt_seek(&c, REC + 100, SEEK_SET), REC + 100,
		     "L: seek to an offset");
	unit_ok(rmt_read(&c, back, 50) == 50 &&
		    memcmp(back, rec[1] + 100, 50) == 0,
		"R after L: the bytes at that offset");
	unit_eq_long(rmt_seek(&c, -10, SEEK_CUR), REC + 140,
		     "L: relative seek");
	unit_ok(rmt_close(&c) == 0, "C: close again");
	rmt_disconnect(&c);
}

static void
test_errors(void)
{
	char missing[4200];
	unsigned char buf[16] = {0};
	struct rmt_conn c;
	struct mtget mt;

	snprintf(missing, sizeof(missing), "%s.missing/x", path);
	start(&c, NULL);
	errno = 0;
	unit_ok(rmt_read(&c, buf, sizeof(buf)) == -1 && errno == EBADF,
		"R without an open device: EBADF");
	errno = 0;
	unit_ok(rmt_open(&c, missing, O_RDONLY) == -1 && errno == ENOENT,
		"O of a missing file: ENOENT");
	unit_eq_str(c.msg, strerror(ENOENT), "... with the text of the error");
	unit_ok(rmt_open(&c, path, O_RDONLY) == 0, "O: an existing file");
	errno = 0;
	unit_ok(rmt_write(&c, buf, sizeof(buf)) == -1 && errno == EBADF,
		"W to a file open for reading: EBADF");
	errno = 0;
	unit_ok(rmt_seek(&c, 0, 7) == -1 && errno == EINVAL,
		"L with whence 7: EINVAL");
	errno = 0;
	unit_ok(rmt_seek(&c, -1, SEEK_SET) == -1 && errno == EINVAL,
		"L before the start: EINVAL");
	unit_ok(rmt_status(&c, &mt) == -1, "S on a plain file fails");
	unit_ok(rmt_ioctl(&c, MTREW, -1) == -1 && errno == EINVAL,
		"I with a negative count is refused before sending");
	unit_ok(rmt_close(&c) == 0, "C");
	errno = 0;
	unit_ok(rmt_close(&c) == -1 && errno == EBADF,
		"C without an open device: EBADF");
	rmt_disconnect(&c);
}

static void
lost_hook(void)
{
	fflush(stdout);
	_exit(LOST_STATUS);
}

/* A server that ends at an unknown command: the next request finds
 * the link gone. */
static void
server_gone_child(void *arg)
{
	struct rmt_conn c;
	int status;

	(void)arg;
	rmt_lost = lost_hook;
	rmt_msg_prefix = "  DUMP: ";
	start(&c, NULL);
	if (write(c.to, "X\n", 2) != 2)
		_exit(2);
	while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("server exit %d\n", unit_exit_code(status));
	c.pid = 0;
	(void)rmt_close(&c);
	printf("not reached\n");
}

/* A server that answers nonsense. */
static void
botched_child(void *arg)
{
	struct rmt_conn c;

	rmt_lost = lost_hook;
	start(&c, arg);
	(void)rmt_close(&c);
	printf("not reached\n");
}

/* A server that announces more data than the client asked for. */
static void
overlong_child(void *arg)
{
	struct rmt_conn c;
	unsigned char buf[16];

	(void)arg;
	rmt_lost = lost_hook;
	start(&c, "A99\n");
	(void)rmt_read(&c, buf, sizeof(buf));
	printf("not reached\n");
}

static void
test_lost(void)
{
	static char bad_code[] = "Zxy\n", bad_number[] = "A12x\n";
	char *out = NULL;
	int st;

	st = unit_fork(server_gone_child, NULL, &out);
	unit_ok(strstr(out, "server exit 3\n") != NULL,
		"an unknown command ends the server with status %d",
		RMT_BAD_COMMAND);
	unit_ok(unit_exit_code(st) == LOST_STATUS &&
		    strstr(out, "  DUMP: Lost connection to remote host.\n") !=
			NULL &&
		    strstr(out, "not reached") == NULL,
		"the client reports the lost connection and calls rmt_lost");
	free(out);

	st = unit_fork(botched_child, bad_code, &out);
	unit_ok(
	    unit_exit_code(st) == LOST_STATUS &&
		strstr(
		    out,
		    "Protocol to remote tape server botched (code \"Zxy\")") !=
		    NULL,
	    "a reply that is neither A nor E: botched, lost");
	free(out);

	st = unit_fork(botched_child, bad_number, &out);
	unit_ok(unit_exit_code(st) == LOST_STATUS &&
		    strstr(out, "botched (code \"A12x\")") != NULL,
		"a reply number with trailing junk: botched");
	free(out);

	st = unit_fork(overlong_child, NULL, &out);
	unit_ok(unit_exit_code(st) == LOST_STATUS &&
		    strstr(out, "botched (read 99 of 16)") != NULL,
		"R answered with more bytes than asked: botched, lost");
	free(out);
}

int
main(void)
{
	snprintf(path, sizeof(path), "%s/remote", unit_tmpdir());
	test_write_read();
	test_errors();
	test_lost();
	return unit_done();
}
