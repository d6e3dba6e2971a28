/*
 * main.c - `rmt [-c ignored] [debug-file]`: set up the process, then run
 * the command loop of rmt.c, which ends it.  Kept apart so that the
 * loop can be linked into the unit tests (tests/unit/t-rmt.c).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rmt.h"

/*
 * Make sure descriptors 0-2 exist, so that the debug log or the device
 * can never become "stdout" and receive replies.
 */
static void
guard_std_fds(void)
{
	int fd;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDWR) < 0)
			exit(RMT_LOST_CLIENT);
}

int
main(int argc, char **argv)
{
	guard_std_fds();
	/* A vanished client must show up as a failed write, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	/* "-c <command>": we were started as a login shell. */
	if (argc > 2 && strcmp(argv[1], "-c") == 0) {
		argc -= 2;
		argv += 2;
	}
	if (argc > 1 && rmtio_open_log(argv[1]) < 0)
		err(RMT_BAD_DEBUG, "%s", argv[1]);
	rmt_serve();
}
