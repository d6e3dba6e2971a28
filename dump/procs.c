/*
 * procs.c - the helper processes of the output pipeline: start the
 * writer and the slaves, watch them while the master waits, reap them,
 * and kill them when the dump aborts.
 *
 * Helpers get PR_SET_PDEATHSIG so that they never outlive a master that
 * was killed outright, ignore SIGINT, SIGHUP and SIGTERM (the master
 * decides what they mean, sig.c, and looks at them whenever it waits
 * here) and leave only through _exit().  Each slave is connected to the
 * master by its own stream socket (a socketpair rather than a pipe, so
 * that sendmsg(MSG_NOSIGNAL) turns a dead slave into EPIPE without
 * touching the master's SIGPIPE disposition, which belongs to the
 * operator code).  Nothing here prints: the callers say what went wrong
 * (failmsg.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat.h"
#include "ring.h"
#include "sig.h"
#include "slave.h"
#include "tapeint.h"
#include "writer.h"

/* Socket buffer asked for per slave: room for several packets. */
#define SLAVE_SOCKBUF (1024 * 1024)
/* Exit status recorded for a helper whose end waitpid cannot tell. */
#define WAIT_UNKNOWN 255
/* How often the finishing master looks for an end of media report. */
#define FINISH_POLL_MS 20

static int
open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/*
 * Common set-up of a freshly forked helper: die with the master, leave
 * interrupts and termination requests to the master (sig.c: a signal
 * sent to the whole process group is its to handle; it kills the
 * helpers when the dump ends), and drop the master's other signal
 * handlers (they only set flags nobody in this process would look at).
 */
static void
child_setup(pid_t master)
{
	static const int reset[] = {SIGQUIT, SIGALRM, SIGTRAP, SIGFPE, SIGBUS,
				    SIGSEGV, SIGUSR1, SIGUSR2, SIGCHLD};
	static const int ignored[] = {SIGHUP, SIGINT, SIGTERM};
	sigset_t none;
	size_t i;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != master)
		_exit(1);
	for (i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		signal(reset[i], SIG_DFL);
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		signal(ignored[i], SIG_IGN);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

int
procs_start_writer(struct procs *p, struct writer_output *out,
		   struct ring *ring, int ntrec)
{
	pid_t master = getpid();
	pid_t pid = fork_clone_io();

	if (pid == -1)
		return -1;
	if (pid == 0) {
		child_setup(master);
		writer_main(out, ring, ntrec);
	}
	p->helpers[WRITER_IDX].pid = pid;
	p->helpers[WRITER_IDX].pidfd = open_pidfd(pid);
	return 0;
}

/* The master gives up the output: only the writer may write to it.
 * For standard output, fd 1 is pointed at /dev/null so that no stray
 * output of this process can land in the archive, and the reader sees
 * end of file as soon as the writer is done. */
int
procs_release_output(const struct writer_output *out)
{
	int fd;

	if (!out->is_stdout)
		return close(out->fd);
	fd = open("/dev/null", O_WRONLY);
	if (fd == -1)
		return -1;
	if (dup2(fd, STDOUT_FILENO) == -1) {
		(void)close(fd);
		return -1;
	}
	return close(fd);
}

int
procs_start_slaves(struct procs *p, const struct tape_config *cfg,
		   struct ring *ring)
{
	int pairs[SLAVE_COUNT][2];
	pid_t master = getpid();
	int i, j, bufsize = SLAVE_SOCKBUF;
	struct slave_config sc;

	memset(&sc, 0, sizeof(sc));
	sc.device = cfg->device;
	sc.ntrec = cfg->ntrec;
	sc.method = cfg->compress;
	sc.level = cfg->compress_level;
	sc.fsblock = cfg->fsblock;

	for (i = 0; i < SLAVE_COUNT; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
			       pairs[i]) == -1)
			return -1;
		/* a smaller buffer than asked for only means more waiting */
		(void)setsockopt(pairs[i][0], SOL_SOCKET, SO_SNDBUF, &bufsize,
				 sizeof(bufsize));
		p->socks[i] = pairs[i][0];
	}
	for (i = 0; i < SLAVE_COUNT; i++) {
		pid_t pid = fork_clone_io();

		if (pid == -1)
			return -1;
		if (pid == 0) {
			child_setup(master);
			for (j = 0; j < SLAVE_COUNT; j++) {
				(void)close(pairs[j][0]);
				if (j > i)
					(void)close(pairs[j][1]);
			}
			slave_main(pairs[i][1], &sc, ring);
		}
		p->helpers[i].pid = pid;
		p->helpers[i].pidfd = open_pidfd(pid);
		if (close(pairs[i][1]) == -1)
			return -1;
	}
	return 0;
}

/* Reap helper i if it has exited; 1 if it is gone, 0 if still running,
 * -1 when waitpid fails. */
int
procs_reap(struct procs *p, int i, int block)
{
	pid_t r;

	if (p->helpers[i].pid == 0)
		return 1;
	do
		r = waitpid(p->helpers[i].pid, &p->helpers[i].status,
			    block ? 0 : WNOHANG);
	while (r == -1 && errno == EINTR);
	if (r == 0)
		return 0;
	if (r == -1) /* cannot learn how it ended: count it as failed */
		p->helpers[i].status = W_EXITCODE(WAIT_UNKNOWN, 0);
	p->helpers[i].pid = 0;
	if (p->helpers[i].pidfd != -1) {
		(void)close(p->helpers[i].pidfd);
		p->helpers[i].pidfd = -1;
	}
	return r == -1 ? -1 : 1;
}

int
procs_helper_ok(const struct procs *p, int i)
{
	return WIFEXITED(p->helpers[i].status) &&
	    WEXITSTATUS(p->helpers[i].status) == 0;
}

/*
 * Wait until fd (if >= 0) is ready for events, or some helper exits.
 * Returns 1 when fd is ready, 0 when a helper exited (reaped; the
 * caller decides whether that is an error).
 */
int
procs_wait_event(struct procs *p, struct ring *ring, int fd, short events)
{
	struct pollfd pfd[NHELPERS + 1];
	int i, n, timeout;

	for (;;) {
		n = 0;
		timeout = -1;
		if (fd >= 0) {
			pfd[n].fd = fd;
			pfd[n++].events = events;
		}
		for (i = 0; i < NHELPERS; i++) {
			if (p->helpers[i].pid == 0)
				continue;
			if (p->helpers[i].pidfd == -1)
				timeout = POLL_INTERVAL_MS;
			else {
				pfd[n].fd = p->helpers[i].pidfd;
				pfd[n++].events = POLLIN;
			}
		}
		if (poll(pfd, (nfds_t)n, timeout) == -1) {
			if (errno != EINTR)
				return 0;
			/* a signal for the master's own handlers: act on it
			 * (sig.c); the revents are not set, look again */
			sig_check();
			continue;
		}
		if (fd >= 0 && (pfd[0].revents & (events | POLLERR | POLLHUP)))
			return 1;
		for (i = 0; i < NHELPERS; i++) {
			if (p->helpers[i].pid != 0 && procs_reap(p, i, 0) != 0)
				return 0;
		}
		if (fd < 0 || ring_failed(ring))
			return 0;
	}
}

void
procs_kill(struct procs *p)
{
	int i;

	for (i = 0; i < SLAVE_COUNT; i++) {
		if (p->socks[i] != -1) {
			(void)close(p->socks[i]);
			p->socks[i] = -1;
		}
	}
	for (i = 0; i < NHELPERS; i++) {
		if (p->helpers[i].pid == 0)
			continue;
		(void)kill(p->helpers[i].pid, SIGKILL);
		(void)procs_reap(p, i, 1);
	}
}

/* Sleep until a helper exits or ms pass. */
static void
nap(struct procs *p, int ms)
{
	struct pollfd pfd[NHELPERS];
	int i;
	nfds_t n = 0;

	for (i = 0; i < NHELPERS; i++) {
		if (p->helpers[i].pid != 0 && p->helpers[i].pidfd != -1) {
			pfd[n].fd = p->helpers[i].pidfd;
			pfd[n++].events = POLLIN;
		}
	}
	(void)poll(pfd, n, ms);
}

/*
 * Wait for the writer to put the last record on the medium: 0 when it
 * exited 0, 1 when it reported end of media (the last records go to a
 * new volume), -1 on a failure.  The slaves stay connected meanwhile,
 * since records may have to be queued again.
 */
int
procs_wait_writer(struct procs *p, struct ring *ring)
{
	int i;

	for (;;) {
		if (ring_failed(ring))
			return -1;
		if (ring_volume_eom_pending(ring))
			return 1;
		for (i = 0; i < NHELPERS; i++) {
			if (p->helpers[i].pid != 0 &&
			    procs_reap(p, i, 0) != 0) {
				if (i != WRITER_IDX || !procs_helper_ok(p, i))
					return -1;
				/* a report may have come just before it left */
				return ring_volume_eom_pending(ring) ? 1 : 0;
			}
		}
		nap(p, FINISH_POLL_MS);
		sig_check();
	}
}

/* Close the sockets and wait for every helper; 0 when all exited 0. */
int
procs_wait_helpers(struct procs *p, struct ring *ring)
{
	int i, live;

	for (i = 0; i < SLAVE_COUNT; i++) {
		if (p->socks[i] != -1 && close(p->socks[i]) == -1)
			return -1;
		p->socks[i] = -1;
	}
	for (;;) {
		live = 0;
		for (i = 0; i < NHELPERS; i++) {
			if (procs_reap(p, i, 0) == 0)
				live++;
			else if (!procs_helper_ok(p, i))
				return -1;
		}
		if (ring_failed(ring))
			return -1;
		if (live == 0)
			return 0;
		sig_check();
		(void)procs_wait_event(p, ring, -1, 0);
	}
}

/* Wait for something from the helpers through poll_fn (a timed wait on
 * a ring semaphore: 1 done, 0 timed out, -1 failed), watching them
 * meanwhile: 0 when done, -1 when a helper exited or reported an
 * error (the caller ends the dump). */
int
procs_wait_ring(struct procs *p, struct ring *ring, int (*poll_fn)(void *),
		void *arg)
{
	int i;

	for (;;) {
		int rc = poll_fn(arg);

		sig_check();
		if (rc == 1)
			return 0;
		if (rc == -1 || ring_failed(ring))
			return -1;
		for (i = 0; i < NHELPERS; i++) {
			if (p->helpers[i].pid != 0 && procs_reap(p, i, 0) != 0)
				return -1;
		}
	}
}
