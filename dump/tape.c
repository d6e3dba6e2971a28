/*
 * tape.c - the master side of the output pipeline (interface: tape.h).
 *
 * Processes.  The master (this file, called by the file-system walk)
 * never reads data blocks and never touches the output.  tape_start()
 * maps a ring of record slots in shared memory (ring.c), opens the
 * output and forks the writer (writer.c) with fork_clone_io(), drops
 * its own copy of the output descriptor, then forks SLAVE_COUNT slaves
 * (slave.c), each connected to the master by its own stream socket.
 *
 * Records.  The master groups the queued tape blocks into records of
 * ntrec blocks.  A record is described by a short list of items: inline
 * blocks (headers it built, memory it was handed: carried in the
 * packet), disk runs (offset and length; adjacent tape_disk() calls are
 * merged into one run, so a file extent is one pread) and zero runs.
 * Record r's packet goes to slave ring_slave_of(r) (groups of
 * consecutive records, ring.h) over a stream socket
 * (a socketpair rather than a pipe, so that sendmsg(MSG_NOSIGNAL) turns
 * a dead slave into EPIPE without touching the master's SIGPIPE
 * disposition, which belongs to the operator code).  The socket buffers
 * hold several packets, so the master only waits when that slave is
 * genuinely behind; while it waits it also watches the helpers, so a
 * dead slave or writer cannot leave it blocked.
 *
 * Hand-off.  Slave s assembles record r directly in ring slot
 * r % nslots (inline bytes copied, disk runs pread into the slot) once
 * the writer has released that slot (it held record r - nslots), then
 * posts the slot full.  Since nslots is a multiple of SLAVE_COUNT groups
 * every slot has a single owning slave, so records land in sequence
 * order without any slave waiting on another.  The writer drains the slots in
 * record order and writes them in the output's native block (large
 * chunks for files and pipes, one record per write for tapes).
 *
 * Errors.  A helper that fails writes the first error into the ring's
 * status area (kind, errno, record, and for the writer the first record
 * that did not land) and exits non-zero.  The master checks the status
 * after every record and whenever it waits; it reports the error in
 * dump 0.4b47's words and aborts (dump_abort() kills the helpers through
 * tape_kill_helpers()).  Helpers get PR_SET_PDEATHSIG so that they never
 * outlive a master that was killed outright, ignore SIGINT, SIGHUP and
 * SIGTERM (the master decides what they mean, sig.c, and looks at them
 * whenever it waits here) and leave only through _exit().
 *
 * tape_finish() pads the last record with TS_END headers and marks it
 * last, waits for the writer (which exits 0 only after the output was
 * fsynced - files, block devices - and closed; an end of media there
 * still starts a new volume), then closes the sockets and waits for the
 * slaves.
 *
 * Compression.  Each slave compresses the records it assembled (three
 * at once), so the master only sets DR_COMPRESSED in every header and
 * marks the first record of each volume "raw".
 *
 * Volumes.  With -B the master decides, when a record is complete,
 * whether it ends the volume (tape-format.md 14.2): uncompressed, when
 * the volume holds the rounded -B count of blocks; compressed, as 0.4b47
 * does, when the output bytes of the volume's records up to two before
 * this one, plus a look-ahead of 3 x (record + 4), reach -B KiB.  The
 * slaves publish each compressed size in the ring for that (a "feedback"
 * ring), so the master then runs at most about three records ahead of
 * compression, just as 0.4b47's three writer processes did.  That
 * record goes out marked VOLEND; the writer writes it, flushes and
 * closes the volume and reports; the master prints the volume lines,
 * finds the next name (-M, the -f list, or the operator on /dev/tty),
 * has the writer open it, and queues the new volume's TS_TAPE, built
 * from the last data header queued so that it carries that inode's
 * c_dinode and c_addr and, in c_count, how many of its data blocks are
 * still to come (tape-format.md 14.1).  Length mode (-s/-d/-c) is the
 * same with 0.4b47's tape arithmetic instead of a byte count.  Between
 * volumes the -F script runs, with its exit-status protocol.
 *
 * End of media.  When a write returns 0 or ENOSPC (not on pipes) the
 * writer cuts a regular file back to its last complete record, closes
 * the volume and reports the first record that did not land; it then
 * discards records as they arrive, so nobody blocks, until the master
 * reacts (after the record it is sending, or while it finishes).  The
 * master keeps every record it sent until the writer reports it written
 * (the slave packet's items and inline blocks: a few MiB at most), so
 * it can queue the lost records again, block for block with their own
 * numbers, behind the next volume's header, which shares the number of
 * the first of them (tape-format.md 14.3).  Being queued anew, they are
 * re-blocked, re-compressed and numbered like any records, and c_firstrec
 * counts the whole records really written on earlier volumes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compat.h"
#include "compress.h"
#include "cprefix.h"
#include "dumprestore.h"
#include "spcl.h"
#include "xalloc.h"
#include "xio.h"
#include "optr.h"
#include "qfa.h"
#include "ask.h"
#include "notify.h"
#include "ring.h"
#include "slave.h"
#include "rmtclient.h"
#include "sig.h"
#include "tape.h"
#include "writer.h"

#define NHELPERS	(SLAVE_COUNT + 1)	/* slaves, then the writer */
#define WRITER_IDX	SLAVE_COUNT
/* Socket buffer asked for per slave: room for several packets. */
#define SLAVE_SOCKBUF	(1024 * 1024)
/* Without pidfds: how often a waiting master looks at its helpers. */
#define POLL_INTERVAL_MS	100
/* Exit status recorded for a helper whose end waitpid cannot tell. */
#define WAIT_UNKNOWN	255
#define SECS_PER_HOUR	3600
#define SECS_PER_MIN	60
/* Compressed volumes: records whose size the master does not know yet
 * when it decides (0.4b47's three writers), counted as full size. */
#define LOOKAHEAD_RECORDS	3
#define LOOKBEHIND_RECORDS	2
/* Length mode (-s/-d/-c), in 0.1 inch like 0.4b47: tape length, bytes
 * per 0.1 inch, and the inter-record gap added per record. */
#define TENTHS_PER_FOOT		120
#define DEFAULT_FEET		2300
#define CARTRIDGE_FEET		1700
#define DEFAULT_DENSITY		160	/* 1600 bpi */
#define CARTRIDGE_DENSITY	100
#define DENSITY_6250		625
#define GAP_CARTRIDGE		16
#define GAP_6250		5
#define GAP_OTHER		8
#define BPI_PER_DENSITY		10
/* Compressed length mode: records whose size the master does not know
 * yet, counted as full ones (as 0.4b47). */
#define LENGTH_LOOKAHEAD	2
/* Ratio printing: 0.4b47 rounds u/c to 3 decimals by adding 0.0005. */
#define RATIO_ROUND	0.0005

struct helper {
	pid_t pid;		/* 0 once reaped */
	int pidfd;		/* readable when it exits; -1 if unavailable */
	int status;		/* wait status once reaped */
};

/* The record being built. */
struct record {
	struct slave_item *items;	/* ntrec entries at most */
	uint32_t nitems;
	unsigned char *inline_data;	/* ntrec * TP_BSIZE */
	uint32_t ninline;		/* inline blocks queued */
	uint32_t fill;			/* blocks in the record so far */
};

static struct tape_config cfg;
static struct ring *ring;
static struct writer_output out;
static struct helper helpers[NHELPERS];
static int socks[SLAVE_COUNT] = { -1, -1, -1 };
static struct record cur;
static uint64_t nblocks;	/* tape blocks queued: next c_tapea */
static uint64_t nrecords;	/* records handed to slaves */
static int volume = 1;
static int32_t firstrec;	/* c_firstrec of the current volume */
static time_t vol_start;
static int started;
static int closing;		/* tape_finish is padding the last record */

/* Volumes. */
static char vol_name[RING_NAME_MAX];	/* output of the current volume */
static uint64_t vol_first_block;	/* c_tapea of its TS_TAPE */
static uint64_t vol_first_rec;		/* its first record */
static uint64_t vol_limit;	/* blocks (uncompressed) or bytes; 0: none */
static int feedback;		/* compressed volumes of limited size */
static uint64_t sized_next;	/* next record whose output size to learn */
static uint64_t vol_known_bytes;	/* output bytes of records < sized_next */
static uint64_t vol_known_tenths;	/* the same in 0.1 inch of tape */
static uint64_t tape_tenths;	/* length mode: tape length; 0 if off */
static uint64_t density;	/* length mode: bytes per 0.1 inch */
static uint64_t gap_tenths;	/* length mode: per record */
static uint64_t total_cbytes;	/* output bytes of the finished volumes */
static int compressed_totals_valid;

/* The last header that has data blocks behind it (TS_INODE, TS_ADDR,
 * TS_BITS, TS_CLRI, EA records): a new volume's header is made from it. */
struct hdr_state {
	union u_spcl hdr;
	int valid;
	uint64_t end;		/* logical block just after its data */
};
static struct hdr_state last;
static struct hdr_state rec_start;	/* `last` when cur began */
static uint64_t cur_first_block;	/* c_tapea of cur's first block */
static uint64_t phys_blocks;	/* blocks in whole records on past volumes */

/*
 * End of media: the records sent but maybe not on the medium are kept
 * (what the slave packet said, plus where the record starts) so that
 * they can be queued again behind the next volume's header; entries
 * go once the writer reports them written.  hist[rec % hist_cap] holds
 * record rec for hist_first <= rec < nrecords.
 */
struct hist_rec {
	uint64_t first_block;
	uint32_t nitems, ninline;
	struct slave_item *items;
	unsigned char *inline_data;
	struct hdr_state at_start;
};
#define HIST_MIN_CAP	64
static struct hist_rec *hist;
static size_t hist_cap;
static uint64_t hist_first;
static int hist_on;		/* outputs that can reach end of media */
/* Queuing records again: blocks keep their numbers (replay_pos is the
 * number of the next one) and nblocks does not move. */
static int replaying;
static uint64_t replay_pos;
static int nocount;		/* the block being added takes no number */
static int final_pending;	/* the next flushed record is the last */

static void report_failure(void);
static void queue_mem(const void *buf, size_t n);

/* ---- helpers: starting, watching, stopping -------------------------- */

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
	static const int reset[] = { SIGQUIT, SIGALRM, SIGTRAP, SIGFPE,
	    SIGBUS, SIGSEGV, SIGUSR1, SIGUSR2, SIGCHLD };
	static const int ignored[] = { SIGHUP, SIGINT, SIGTERM };
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

static int
start_writer(void)
{
	pid_t master = getpid();
	pid_t pid = fork_clone_io();

	if (pid == -1)
		return -1;
	if (pid == 0) {
		child_setup(master);
		writer_main(&out, ring, cfg.ntrec);
	}
	helpers[WRITER_IDX].pid = pid;
	helpers[WRITER_IDX].pidfd = open_pidfd(pid);
	return 0;
}

/* The master gives up the output: only the writer may write to it.
 * For standard output, fd 1 is pointed at /dev/null so that no stray
 * output of this process can land in the archive, and the reader sees
 * end of file as soon as the writer is done. */
static int
release_output(void)
{
	int fd;

	if (!out.is_stdout)
		return close(out.fd);
	fd = open("/dev/null", O_WRONLY);
	if (fd == -1)
		return -1;
	if (dup2(fd, STDOUT_FILENO) == -1) {
		(void)close(fd);
		return -1;
	}
	return close(fd);
}

static int
start_slaves(void)
{
	int pairs[SLAVE_COUNT][2];
	pid_t master = getpid();
	int i, j, bufsize = SLAVE_SOCKBUF;
	struct slave_config sc;

	memset(&sc, 0, sizeof(sc));
	sc.device = cfg.device;
	sc.ntrec = cfg.ntrec;
	sc.method = cfg.compress;
	sc.level = cfg.compress_level;

	for (i = 0; i < SLAVE_COUNT; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
		    pairs[i]) == -1)
			return -1;
		/* a smaller buffer than asked for only means more waiting */
		(void)setsockopt(pairs[i][0], SOL_SOCKET, SO_SNDBUF, &bufsize,
		    sizeof(bufsize));
		socks[i] = pairs[i][0];
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
		helpers[i].pid = pid;
		helpers[i].pidfd = open_pidfd(pid);
		if (close(pairs[i][1]) == -1)
			return -1;
	}
	return 0;
}

/* Reap helper i if it has exited; 1 if it is gone, 0 if still running,
 * -1 when waitpid fails. */
static int
reap(int i, int block)
{
	pid_t r;

	if (helpers[i].pid == 0)
		return 1;
	do
		r = waitpid(helpers[i].pid, &helpers[i].status,
		    block ? 0 : WNOHANG);
	while (r == -1 && errno == EINTR);
	if (r == 0)
		return 0;
	if (r == -1)	/* cannot learn how it ended: count it as failed */
		helpers[i].status = W_EXITCODE(WAIT_UNKNOWN, 0);
	helpers[i].pid = 0;
	if (helpers[i].pidfd != -1) {
		(void)close(helpers[i].pidfd);
		helpers[i].pidfd = -1;
	}
	return r == -1 ? -1 : 1;
}

static int
helper_ok(int i)
{
	return WIFEXITED(helpers[i].status) &&
	    WEXITSTATUS(helpers[i].status) == 0;
}

/*
 * Wait until fd (if >= 0) is ready for events, or some helper exits.
 * Returns 1 when fd is ready, 0 when a helper exited (reaped; the
 * caller decides whether that is an error).
 */
static int
wait_event(int fd, short events)
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
			if (helpers[i].pid == 0)
				continue;
			if (helpers[i].pidfd == -1)
				timeout = POLL_INTERVAL_MS;
			else {
				pfd[n].fd = helpers[i].pidfd;
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
			if (helpers[i].pid != 0 && reap(i, 0) != 0)
				return 0;
		}
		if (fd < 0 || ring_failed(ring))
			return 0;
	}
}

/* A helper exited or reported an error while the dump goes on. */
static _Noreturn void
helper_failed(void)
{
	report_failure();
	dump_abort();
}

void
tape_kill_helpers(void)
{
	int i;

	for (i = 0; i < SLAVE_COUNT; i++) {
		if (socks[i] != -1) {
			(void)close(socks[i]);
			socks[i] = -1;
		}
	}
	for (i = 0; i < NHELPERS; i++) {
		if (helpers[i].pid == 0)
			continue;
		(void)kill(helpers[i].pid, SIGKILL);
		(void)reap(i, 1);
	}
}

/* ---- error reports --------------------------------------------------- */

static void
report_write_error(const struct ring_status *st)
{
	if (out.is_stdout)
		msg("write error on standard output: %s\n", strerror(st->err));
	else
		msg("write error %ju blocks into volume %d: %s\n",
		    (uintmax_t)(st->offset / TP_BSIZE), volume,
		    strerror(st->err));
}

/* Say what went wrong, from the ring status or, failing that, from the
 * way a helper ended. */
static void
report_failure(void)
{
	const struct ring_status *st = ring_status(ring);
	int i;

	switch (ring_failed(ring) ? st->error : RING_OK) {
	case RING_SLAVE_READ:
		msg("read error from %s: %s: [block %ju]: count=%zu\n",
		    cfg.device, strerror(st->err),
		    (uintmax_t)(st->offset / DEV_BSIZE), st->count);
		return;
	case RING_SLAVE_SHORT:
		msg("short read error from %s: [block %ju]: count=%zu, got=%zu\n",
		    cfg.device, (uintmax_t)(st->offset / DEV_BSIZE), st->count,
		    st->got);
		return;
	case RING_SLAVE_OPEN:
		msg("Cannot open %s: %s\n", cfg.device, strerror(st->err));
		return;
	case RING_WRITER_EOM:
		msg("End of tape detected\n");
		report_write_error(st);
		return;
	case RING_WRITER_WRITE:
		report_write_error(st);
		return;
	case RING_WRITER_PIPE:
		msg("Broken pipe\n");
		return;
	case RING_WRITER_FSYNC:
		msg("Cannot flush output \"%s\": %s\n", cfg.output,
		    strerror(st->err));
		return;
	case RING_WRITER_CLOSE:
		msg("Cannot close output \"%s\": %s\n", cfg.output,
		    strerror(st->err));
		return;
	case RING_SLAVE_PROTO:
	case RING_INTERNAL:
		msg("internal error in the output pipeline at record %ju: %s\n",
		    (uintmax_t)st->record, strerror(st->err));
		return;
	default:
		break;
	}
	for (i = 0; i < NHELPERS; i++) {
		const char *who = i == WRITER_IDX ? "writer" : "slave";

		if (helpers[i].pid != 0 || helper_ok(i))
			continue;
		if (WIFSIGNALED(helpers[i].status))
			msg("The %s process was killed by signal %d\n", who,
			    WTERMSIG(helpers[i].status));
		else
			msg("The %s process exited with status %d\n", who,
			    WEXITSTATUS(helpers[i].status));
		return;
	}
	msg("A helper process stopped unexpectedly\n");
}

/* ---- sending records -------------------------------------------------- */

/* Send the iovecs completely to slave s, waiting (and watching the
 * helpers) whenever its socket is full. */
static void
send_all(int s, struct iovec *iov, int iovcnt)
{
	struct msghdr mh;

	memset(&mh, 0, sizeof(mh));
	while (iovcnt > 0) {
		ssize_t n;

		mh.msg_iov = iov;
		mh.msg_iovlen = (size_t)iovcnt;
		n = sendmsg(socks[s], &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1) {
			if (errno == EINTR)
				continue;
			if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
			    wait_event(socks[s], POLLOUT) == 1)
				continue;
			/* EPIPE: the slave closed its end, so it is exiting;
			 * collect it to say how it ended */
			if (errno == EPIPE || errno == ECONNRESET)
				(void)reap(s, 1);
			helper_failed();
		}
		iov_advance(&iov, &iovcnt, (size_t)n);
	}
}

static void switch_volume(void);

/* Wait for something from the helpers through poll_fn (a timed wait on
 * a ring semaphore: 1 done, 0 timed out, -1 failed), watching them
 * meanwhile: any helper that exits or reports an error ends the dump. */
static void
wait_ring(int (*poll_fn)(void *), void *arg)
{
	int i;

	for (;;) {
		int rc = poll_fn(arg);

		sig_check();
		if (rc == 1)
			return;
		if (rc == -1 || ring_failed(ring))
			helper_failed();
		for (i = 0; i < NHELPERS; i++) {
			if (helpers[i].pid != 0 && reap(i, 0) != 0)
				helper_failed();
		}
	}
}

struct sized_arg {
	uint64_t rec;
	size_t len;
};

static int
poll_sized(void *arg)
{
	struct sized_arg *a = arg;

	return ring_wait_sized(ring, a->rec, POLL_INTERVAL_MS, &a->len);
}

/* Learn the output sizes of the records before rec (feedback rings). */
static void
learn_sizes(uint64_t rec)
{
	struct sized_arg a;

	while (sized_next < rec) {
		a.rec = sized_next;
		wait_ring(poll_sized, &a);
		qfa_sized(sized_next, a.len);	/* -Q positions (qfa.c) */
		if (sized_next >= vol_first_rec) {
			vol_known_bytes += a.len;
			if (tape_tenths != 0)
				vol_known_tenths += a.len / density +
				    gap_tenths;
		}
		sized_next++;
	}
}

/* Length mode: whether the tape is used up after record rec, the tape
 * used being (record bytes / density + gap) per record.  Compressed,
 * the sizes of the last two records are not known yet and count as
 * full records (as 0.4b47). */
static int
length_full(uint64_t rec)
{
	uint64_t full = ((uint64_t)cfg.ntrec * TP_BSIZE + CPREFIX_SIZE) /
	    density + gap_tenths;

	if (cfg.compress == COMP_NONE)
		return (rec + 1 - vol_first_rec) *
		    ((uint64_t)cfg.ntrec * TP_BSIZE / density + gap_tenths) >
		    tape_tenths;
	if (rec >= vol_first_rec + LOOKBEHIND_RECORDS)
		learn_sizes(rec + 1 - LOOKBEHIND_RECORDS);
	return vol_known_tenths + LENGTH_LOOKAHEAD * full > tape_tenths;
}

/* Set up length mode from -s/-d/-c (not with -B, nor on a pipe). */
static void
length_setup(void)
{
	if ((cfg.length_feet == 0 && cfg.density == 0 && !cfg.cartridge) ||
	    cfg.nvolsize > 0 || writer_is_pipe(&out))
		return;
	density = cfg.density > 0 ? (uint64_t)cfg.density / BPI_PER_DENSITY :
	    cfg.cartridge ? CARTRIDGE_DENSITY : DEFAULT_DENSITY;
	if (density == 0)
		density = 1;
	tape_tenths = (uint64_t)(cfg.length_feet > 0 ? cfg.length_feet :
	    cfg.cartridge ? CARTRIDGE_FEET : DEFAULT_FEET) * TENTHS_PER_FOOT;
	gap_tenths = cfg.cartridge ? GAP_CARTRIDGE :
	    density == DENSITY_6250 ? GAP_6250 : GAP_OTHER;
}

/* Whether record rec (now complete) is the last of its volume. */
static int
volume_full(uint64_t rec)
{
	uint64_t nrec = rec + 1 - vol_first_rec;

	if (tape_tenths != 0 && !closing)
		return length_full(rec);
	if (vol_limit == 0 || closing)
		return 0;
	if (cfg.compress == COMP_NONE)
		return nrec * (uint64_t)cfg.ntrec >= vol_limit;
	/* 0.4b47 knows the sizes of records up to two before this one;
	 * the rest is covered by the look-ahead allowance */
	if (rec >= vol_first_rec + LOOKBEHIND_RECORDS)
		learn_sizes(rec + 1 - LOOKBEHIND_RECORDS);
	return vol_known_bytes + LOOKAHEAD_RECORDS *
	    ((uint64_t)cfg.ntrec * TP_BSIZE + CPREFIX_SIZE) >= vol_limit;
}

/* The logical number of the next block queued. */
static uint64_t
next_lblock(void)
{
	return replaying ? replay_pos : nblocks;
}

uint64_t
tape_blocks_read(void)
{
	return ring == NULL ? 0 : ring_written(ring) * (uint64_t)cfg.ntrec;
}

/* Drop the entries of records the writer has put on the medium. */
static void
hist_trim(void)
{
	uint64_t done = ring_written(ring);

	while (hist_first < done && hist_first < nrecords) {
		struct hist_rec *h = &hist[hist_first % hist_cap];

		free(h->items);
		free(h->inline_data);
		h->items = NULL;
		h->inline_data = NULL;
		hist_first++;
	}
}

/* Make room for one more entry, keeping every entry at rec % cap. */
static void
hist_grow(void)
{
	size_t ncap = hist_cap ? hist_cap * 2 : HIST_MIN_CAP;
	struct hist_rec *n = xcalloc(ncap, sizeof(*n));
	uint64_t r;

	for (r = hist_first; r < nrecords; r++)
		n[r % ncap] = hist[r % hist_cap];
	free(hist);
	hist = n;
	hist_cap = ncap;
}

/* Keep record nrecords (in cur) until it is known to be written. */
static void
hist_add(void)
{
	struct hist_rec *h;

	hist_trim();
	if (nrecords - hist_first >= hist_cap)
		hist_grow();
	h = &hist[nrecords % hist_cap];
	h->first_block = cur_first_block;
	h->nitems = cur.nitems;
	h->ninline = cur.ninline;
	h->items = xreallocarray(NULL, cur.nitems, sizeof(*cur.items));
	memcpy(h->items, cur.items, cur.nitems * sizeof(*cur.items));
	h->inline_data = NULL;
	if (cur.ninline > 0) {
		h->inline_data = xreallocarray(NULL, cur.ninline, TP_BSIZE);
		memcpy(h->inline_data, cur.inline_data,
		    (size_t)cur.ninline * TP_BSIZE);
	}
	h->at_start = rec_start;
}

/* The record is complete: hand it to its slave and start the next. */
static void
flush_record(void)
{
	struct slave_req req;
	struct iovec iov[3];
	int iovcnt = 2;
	int volend = volume_full(nrecords);

	memset(&req, 0, sizeof(req));
	req.magic = SLAVE_REQ_MAGIC;
	req.flags = final_pending && !replaying ? SLAVE_REQ_LAST : 0;
	if (nrecords == vol_first_rec)
		req.flags |= SLAVE_REQ_RAW;
	if (volend)
		req.flags |= SLAVE_REQ_VOLEND;
	req.record = nrecords;
	req.nitems = cur.nitems;
	req.ninline = cur.ninline;
	iov[0].iov_base = &req;
	iov[0].iov_len = sizeof(req);
	iov[1].iov_base = cur.items;
	iov[1].iov_len = cur.nitems * sizeof(*cur.items);
	if (cur.ninline > 0) {
		iov[2].iov_base = cur.inline_data;
		iov[2].iov_len = (size_t)cur.ninline * TP_BSIZE;
		iovcnt = 3;
	}
	send_all(ring_slave_of(ring, nrecords), iov, iovcnt);
	if (feedback && nrecords >= LOOKBEHIND_RECORDS)	/* -Q (qfa.c) */
		learn_sizes(nrecords + 1 - LOOKBEHIND_RECORDS);
	if (req.flags & SLAVE_REQ_LAST)
		final_pending = 0;
	if (hist_on)
		hist_add();
	nrecords++;
	cur.nitems = cur.ninline = cur.fill = 0;
	if (!replaying)
		rec_start = last;
	if (ring_failed(ring))
		helper_failed();
	sig_check();
	if (volend || (!replaying && ring_volume_eom_pending(ring)))
		switch_volume();
}

/*
 * Add up to n blocks of one kind to the record, merging with the last
 * item when it continues it.  Returns how many blocks were taken (they
 * stop at the end of the record, which is then flushed).
 */
static size_t
add_item(enum slave_item_kind kind, uint64_t off, size_t n)
{
	struct slave_item *it = cur.nitems ? &cur.items[cur.nitems - 1] :
	    NULL;
	size_t room = (size_t)cfg.ntrec - cur.fill;
	size_t k = n < room ? n : room;

	if (cur.fill == 0)
		cur_first_block = next_lblock();
	if (it != NULL && it->kind == (uint32_t)kind &&
	    (kind != SLAVE_DISK ||
	     it->off + (uint64_t)it->nblocks * TP_BSIZE == off))
		it->nblocks += (uint32_t)k;
	else {
		it = &cur.items[cur.nitems++];
		it->kind = (uint32_t)kind;
		it->nblocks = (uint32_t)k;
		it->off = kind == SLAVE_DISK ? off : 0;
	}
	cur.fill += (uint32_t)k;
	if (nocount)
		;
	else if (replaying)
		replay_pos += k;
	else
		nblocks += k;
	return k;
}

static void
record_done_check(void)
{
	if (cur.fill == (uint32_t)cfg.ntrec)
		flush_record();
}

/* Queue blocks from memory (tape_mem without the -A copy). */
static void
queue_mem(const void *buf, size_t n)
{
	const unsigned char *p = buf;

	while (n > 0) {
		size_t room = (size_t)cfg.ntrec - cur.fill;
		size_t k = n < room ? n : room;

		memcpy(cur.inline_data + (size_t)cur.ninline * TP_BSIZE, p,
		    k * TP_BSIZE);
		(void)add_item(SLAVE_INLINE, 0, k);
		cur.ninline += (uint32_t)k;
		p += k * TP_BSIZE;
		n -= k;
		record_done_check();
	}
}

void
tape_mem(const void *buf, size_t n)
{
	qfa_mem(buf, n);		/* -A table of contents */
	queue_mem(buf, n);
}

void
tape_disk(uint64_t off, size_t n)
{
	while (n > 0) {
		size_t k = add_item(SLAVE_DISK, off, n);

		off += (uint64_t)k * TP_BSIZE;
		n -= k;
		record_done_check();
	}
}

void
tape_zero(size_t n)
{
	while (n > 0) {
		n -= add_item(SLAVE_ZERO, 0, n);
		record_done_check();
	}
}

/* Remember the last header with data behind it, and where its data
 * ends (a volume switch before that point continues it). */
static void
note_header(const union u_spcl *h)
{
	const struct s_spcl *s = &h->s_spcl;
	uint64_t data = 0;
	int32_t i, n = s->c_count;

	switch (s->c_type) {
	case TS_TAPE:
	case TS_END:
		return;
	case TS_BITS:
	case TS_CLRI:
		data = n > 0 ? (uint64_t)n : 0;
		break;
	default:
		if (n > TP_NINDIR)
			n = TP_NINDIR;
		for (i = 0; i < n; i++)
			if (s->c_addr[i] != 0)
				data++;
		break;
	}
	last.hdr = *h;
	last.valid = 1;
	last.end = next_lblock() + 1 + data;
}

void
tape_header(union u_spcl *h)
{
	struct s_spcl *s = &h->s_spcl;

	s->c_tapea = (uint32_t)next_lblock();
	s->c_volume = volume;
	s->c_firstrec = firstrec;
	s->c_ntrec = cfg.ntrec;
	s->c_magic = NFS_MAGIC;
	s->c_flags |= DR_NEWINODEFMT;
	if (cfg.compress != COMP_NONE)
		s->c_flags |= DR_COMPRESSED;
	spcl_set_checksum(h);
	note_header(h);
	qfa_header(h, volume, nrecords, vol_first_rec);	/* -Q, -A */
	queue_mem(h, 1);
}

uint64_t
tape_blocks(void)
{
	return nblocks;
}

int
tape_output_is_pipe(void)
{
	return writer_is_pipe(&out);
}

/* ---- volumes ----------------------------------------------------------- */

void
tape_volume_name(const struct tape_config *c, int vol, char *buf, size_t len)
{
	const char *p = c->output, *comma;
	int i;

	if (c->multi) {
		(void)snprintf(buf, len, "%s%03d", c->output, vol);
		return;
	}
	/* the vol-th element of a comma list, the last one reused */
	for (i = 1; i < vol && (comma = strchr(p, ',')) != NULL; i++)
		p = comma + 1;
	comma = strchr(p, ',');
	(void)snprintf(buf, len, "%.*s",
	    (int)(comma != NULL ? (size_t)(comma - p) : strlen(p)), p);
}

/* Whether volume vol has a name of its own (-M, or a list element):
 * then no media change has to be asked for. */
static int
volume_named(int vol)
{
	const char *p = cfg.output;
	int n = 1;

	if (cfg.multi)
		return 1;
	while ((p = strchr(p, ',')) != NULL) {
		n++;
		p++;
	}
	return n > 1 && vol <= n;
}

/* The size limit of volume vol: blocks (a multiple of ntrec, at least
 * one record) uncompressed, output bytes compressed; 0 for none. */
static uint64_t
volume_limit(int vol)
{
	long kb;
	uint64_t blocks;

	if (cfg.nvolsize <= 0 || writer_is_pipe(&out))
		return 0;
	kb = cfg.volsize[vol <= cfg.nvolsize ? vol - 1 : cfg.nvolsize - 1];
	if (kb <= 0)
		return 0;
	if (cfg.compress != COMP_NONE)
		return (uint64_t)kb * TP_BSIZE;
	blocks = (uint64_t)kb / (uint64_t)cfg.ntrec * (uint64_t)cfg.ntrec;
	return blocks > 0 ? blocks : (uint64_t)cfg.ntrec;
}

static void
print_ratio(const char *what, uint64_t ukb, uint64_t ckb)
{
	msg("%s%jukB uncompressed, %jukB compressed, %1.3f:1\n", what,
	    (uintmax_t)ukb, (uintmax_t)ckb,
	    RATIO_ROUND + (double)ukb / (double)(ckb > 0 ? ckb : 1));
}

/* The lines that close a volume ("Closing", "completed", sizes): blocks
 * is what the volume holds (its whole records), vol_bytes its output
 * size. */
static void
print_volume_stats(time_t end, uint64_t blocks, uint64_t vol_bytes)
{
	time_t took = end - vol_start;
	uint64_t ckb = vol_bytes / TP_BSIZE;

	if (!out.is_stdout)	/* a remote volume by its path, as 0.4b47 */
		msg("Closing %s\n", rmt_is_remote(vol_name) ?
		    strchr(vol_name, ':') + 1 : vol_name);
	msg("Volume %d completed at: %s", volume, ctime(&end));
	if (cfg.compress == COMP_NONE)
		msg("Volume %d %ju blocks (%.2fMB)\n", volume,
		    (uintmax_t)blocks,
		    (double)blocks * TP_BSIZE / (1024.0 * 1024.0));
	if (took >= 1) {
		char what[64];

		msg("Volume %d took %d:%02d:%02d\n", volume,
		    (int)(took / SECS_PER_HOUR),
		    (int)(took % SECS_PER_HOUR / SECS_PER_MIN),
		    (int)(took % SECS_PER_MIN));
		msg("Volume %d transfer rate: %ju kB/s\n", volume,
		    (uintmax_t)((cfg.compress != COMP_NONE ? ckb : blocks) /
		    (uint64_t)took));
		if (cfg.compress != COMP_NONE) {
			(void)snprintf(what, sizeof(what), "Volume %d ",
			    volume);
			print_ratio(what, blocks, ckb);
		}
	}
}

/* The TS_TAPE header of a volume (tape-format.md 6.1, 14.1), made from
 * vs, the last data header before the volume's first block. */
static void
queue_volume_header(const struct hdr_state *vs)
{
	const struct s_spcl *id = &cfg.ident->s_spcl;
	union u_spcl h;
	struct s_spcl *s = &h.s_spcl;
	uint64_t at = next_lblock();

	if (volume > 1 && vs->valid) {
		/* carries the interrupted inode's c_dinode, c_addr and
		 * number; c_count = its data blocks still to come */
		h = vs->hdr;
		s->c_count = vs->end > at ? (int32_t)(vs->end - at) : 0;
	} else {
		memset(&h, 0, sizeof(h));
		s->c_inumber = 0;
		s->c_count = 1;
	}
	s->c_type = TS_TAPE;
	s->c_date = id->c_date;
	s->c_ddate = id->c_ddate;
	s->c_level = id->c_level;
	memcpy(s->c_label, id->c_label, sizeof(s->c_label));
	memcpy(s->c_filesys, id->c_filesys, sizeof(s->c_filesys));
	memcpy(s->c_dev, id->c_dev, sizeof(s->c_dev));
	memcpy(s->c_host, id->c_host, sizeof(s->c_host));
	s->c_flags |= DR_NEWHEADER | DR_NEWINODEFMT;
	tape_header(&h);
}

/*
 * Start volume `volume` (its output is open): header and messages.  The
 * header normally takes the next block number; when blocks already
 * numbered are queued again (end of media, replaying) it shares the
 * number of the first of them (tape-format.md 14.3).
 */
static void
begin_volume(const struct hdr_state *vs, int shared_number)
{
	vol_start = time(NULL);
	vol_first_block = next_lblock();
	vol_first_rec = nrecords;
	vol_known_bytes = 0;
	vol_known_tenths = 0;
	firstrec = (int32_t)phys_blocks;
	vol_limit = volume_limit(volume);
	if (volume_named(volume))
		msg("Dumping volume %d on %s\n", volume, vol_name);
	nocount = shared_number;
	queue_volume_header(vs);
	nocount = 0;
	/* a counted volume header moves the rest of the interrupted
	 * inode's data one block on */
	if (!shared_number && last.valid && last.end > vol_first_block)
		last.end++;
	msg("Volume %d started with block %ju at: %s", volume,
	    (uintmax_t)vol_first_block + 1, ctime(&vol_start));
	if (volume > 1)
		msg("Volume %d begins with blocks from inode %u\n", volume,
		    (unsigned)(vs->valid ? vs->hdr.s_spcl.c_inumber : 0));
}

static int
poll_closed(void *arg)
{
	(void)arg;
	return ring_volume_wait_closed(ring, POLL_INTERVAL_MS);
}

struct opened_arg {
	int err;
};

static int
poll_opened(void *arg)
{
	struct opened_arg *a = arg;

	return ring_volume_wait_opened(ring, POLL_INTERVAL_MS, &a->err);
}

/* Exit statuses of the -F script (cli.md 1.5). */
#define SCRIPT_GO_ON	0	/* next volume ready: do not ask */
#define SCRIPT_ASK	1	/* ask the operator as usual */

/*
 * Run the -F script after volume `finished` (written to name), with the
 * real user and group ids.  Returns 1 when the next volume is ready
 * without asking, 0 when the operator is to be asked; aborts the dump
 * on any other outcome.
 */
static int
run_volume_script(const char *name, int finished)
{
	size_t len = strlen(cfg.volscript) + strlen(name) + 32;
	char *cmd = xmalloc(len);
	int status;
	pid_t pid, r;

	(void)snprintf(cmd, len, "%s %s %d", cfg.volscript, name, finished);
	msg("Launching %s\n", cfg.volscript);
	pid = fork();
	if (pid == 0) {
		if (setgid(getgid()) == -1 || setuid(getuid()) == -1)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	if (pid == -1) {
		msg("Cannot run %s: %s\n", cfg.volscript, strerror(errno));
		dump_abort();
	}
	do
		r = waitpid(pid, &status, 0);
	while (r == -1 && errno == EINTR);
	if (r == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == SCRIPT_GO_ON)
		return 1;
	if (r == pid && WIFEXITED(status) && WEXITSTATUS(status) == SCRIPT_ASK)
		return 0;
	msg("Dump aborted by the end of tape script\n");
	dump_abort();
}

/* No name of its own for the next volume: the operator changes media. */
static void
ask_media_change(void)
{
	msg("Change Volumes: Mount volume #%d\n", volume);
	notify_operators("CHANGE DUMP VOLUMES!\a\a");
	while (!ask_operator("Is the new volume mounted and ready to go?",
	    cfg.noask)) {
		if (ask_operator("Do you want to abort?", cfg.noask))
			dump_abort();
	}
}

/* Queue the blocks of the kept records again, in order, with their own
 * numbers, then free them.  skip_header: the first block is the header
 * of the volume that took nothing (the new header replaces it). */
static void
replay(struct hist_rec *h, size_t n, int skip_header)
{
	size_t i;
	uint32_t j, skip = skip_header ? 1 : 0;

	replaying++;
	for (i = 0; i < n; i++) {
		const unsigned char *inl = h[i].inline_data;

		replay_pos = h[i].first_block;
		rec_start = h[i].at_start;
		for (j = 0; j < h[i].nitems; j++) {
			const struct slave_item *it = &h[i].items[j];
			uint32_t nb = it->nblocks - skip;
			uint64_t off = it->off + (uint64_t)skip * TP_BSIZE;

			/* the old header is the first block: inline */
			if (it->kind == SLAVE_INLINE) {
				queue_mem(inl + (size_t)skip * TP_BSIZE, nb);
				inl += (size_t)it->nblocks * TP_BSIZE;
			} else if (it->kind == SLAVE_DISK)
				tape_disk(off, nb);
			else
				tape_zero(nb);
			skip = 0;
		}
		free(h[i].items);
		free(h[i].inline_data);
	}
	replaying--;
	rec_start = last;
}

/*
 * The current volume is over: the writer closed it, either after a
 * record marked VOLEND or at end of media.  Print the volume lines,
 * run the -F script, find the next output (-M, the -f list, or the
 * operator unless the script said the volume is ready), have the
 * writer open it, then start the volume.  After end of media, every
 * record from the first one that did not land is queued again behind
 * the new header (tape-format.md 14.3).
 */
static void
switch_volume(void)
{
	struct hdr_state vs;
	struct opened_arg a;
	struct hist_rec *lost_recs = NULL;
	uint64_t bytes, lost, r, old_first_rec;
	size_t nlost = 0;
	int eom, ready;

	wait_ring(poll_closed, NULL);
	eom = ring_volume_take_eom(ring, &lost);
	if (!eom || lost > nrecords)
		lost = nrecords;
	if (eom)
		msg("End of tape detected\n");
	if (eom && lost == vol_first_rec && volume_named(volume + 1)) {
		/* not one record fitted, and the next volume is no new
		 * medium the operator mounted: it would do the same */
		msg("Volume %d holds no complete record: the medium is full\n",
		    volume);
		dump_abort();
	}
	bytes = ring_volume_bytes(ring);
	total_cbytes += bytes;
	/* every size still to come gets posted (the writer has written or
	 * discards every record sent): consume them, so that the next
	 * volume counts from its own records */
	if (feedback)
		learn_sizes(nrecords);
	/* the blocks of the records that landed: after end of media the
	 * master has queued more, which go to the next volume */
	print_volume_stats(time(NULL), (lost - vol_first_rec) *
	    (uint64_t)cfg.ntrec, bytes);
	old_first_rec = vol_first_rec;
	phys_blocks += (lost - vol_first_rec) * (uint64_t)cfg.ntrec;
	/* records that landed before the lost one: no longer needed */
	for (r = hist_first; hist_on && r < lost; r++) {
		free(hist[r % hist_cap].items);
		free(hist[r % hist_cap].inline_data);
	}
	if (hist_on && hist_first < lost)
		hist_first = lost;
	if (eom && lost < nrecords) {
		/* take the lost records out of the history before the
		 * writer's progress on the next volume trims them */
		nlost = (size_t)(nrecords - lost);
		lost_recs = xreallocarray(NULL, nlost, sizeof(*lost_recs));
		for (r = lost; r < nrecords; r++)
			lost_recs[r - lost] = hist[r % hist_cap];
		hist_first = nrecords;
	}
	ready = cfg.volscript != NULL &&
	    run_volume_script(vol_name, volume);
	volume++;
	tape_volume_name(&cfg, volume, vol_name, sizeof(vol_name));
	if (!ready && !volume_named(volume))
		ask_media_change();
	for (;;) {
		ring_volume_next(ring, vol_name, nrecords);
		wait_ring(poll_opened, &a);
		if (a.err == 0)
			break;
		msg("Cannot open output \"%s\": %s\n", vol_name,
		    strerror(a.err));
		if (!ask_operator("Do you want to retry the open?", cfg.noask))
			dump_abort();
	}
	if (nlost > 0) {
		vs = lost_recs[0].at_start;
		replaying++;
		replay_pos = lost_recs[0].first_block;
		begin_volume(&vs, 1);
		replaying--;
		replay(lost_recs, nlost, lost == old_first_rec);
		free(lost_recs);
	} else {
		vs = last;
		begin_volume(&vs, replaying > 0);
	}
	/* the new volume may have ended already */
	if (!replaying && ring_volume_eom_pending(ring))
		switch_volume();
}

/* ---- start and finish ------------------------------------------------- */

int
tape_start(const struct tape_config *c)
{
	int i;

	cfg = *c;
	for (i = 0; i < NHELPERS; i++)
		helpers[i].pidfd = -1;
	if (cfg.ntrec < 1 || cfg.ntrec > MAXNTREC) {
		msg("Please choose a blocksize <= %dkB\n", MAXNTREC);
		return -1;
	}
	if (cfg.compress != COMP_NONE &&
	    !compress_available((enum compress_method)cfg.compress)) {
		msg("This dump was built without support for the requested "
		    "compression\n");
		return -1;
	}
	tape_volume_name(&cfg, 1, vol_name, sizeof(vol_name));
	/* as for later volumes: the operator may fix it and retry (with
	 * -q or without a terminal the dump aborts, status 3) */
	while (writer_open(vol_name, &out) == -1) {
		msg("Cannot open output \"%s\": %s\n", vol_name,
		    strerror(errno));
		if (!ask_operator("Do you want to retry the open?", cfg.noask))
			dump_abort();
	}
	length_setup();
	feedback = cfg.compress != COMP_NONE &&
	    (volume_limit(1) != 0 || tape_tenths != 0 ||
	    qfa_wants_sizes(1));
	qfa_setup(cfg.ntrec, cfg.compress != COMP_NONE,
	    out.kind == WRITER_TAPE ? QFA_RECORDS : QFA_BYTES);
	ring = ring_create(cfg.ntrec, cfg.compress != COMP_NONE, feedback);
	if (ring == NULL) {
		msg("Cannot allocate the record ring: %s\n", strerror(errno));
		if (!out.is_stdout)
			(void)close(out.fd);
		return -1;
	}
	cur.items = xreallocarray(NULL, (size_t)cfg.ntrec, sizeof(*cur.items));
	cur.inline_data = xreallocarray(NULL, (size_t)cfg.ntrec, TP_BSIZE);
	if (start_writer() == -1 || release_output() == -1 ||
	    start_slaves() == -1) {
		msg("Cannot start the output processes: %s\n", strerror(errno));
		tape_kill_helpers();
		return -1;
	}
	started = 1;
	hist_on = !writer_is_pipe(&out);
	begin_volume(&last, 0);
	return 0;
}

/* Sleep until a helper exits or ms pass. */
static void
nap(int ms)
{
	struct pollfd pfd[NHELPERS];
	int i;
	nfds_t n = 0;

	for (i = 0; i < NHELPERS; i++) {
		if (helpers[i].pid != 0 && helpers[i].pidfd != -1) {
			pfd[n].fd = helpers[i].pidfd;
			pfd[n++].events = POLLIN;
		}
	}
	(void)poll(pfd, n, ms);
}

/* How often the finishing master looks for an end of media report. */
#define FINISH_POLL_MS	20

/*
 * Wait for the writer to put the last record on the medium: 0 when it
 * exited 0, 1 when it reported end of media (the last records go to a
 * new volume), -1 on a failure.  The slaves stay connected meanwhile,
 * since records may have to be queued again.
 */
static int
wait_writer(void)
{
	int i;

	for (;;) {
		if (ring_failed(ring))
			return -1;
		if (ring_volume_eom_pending(ring))
			return 1;
		for (i = 0; i < NHELPERS; i++) {
			if (helpers[i].pid != 0 && reap(i, 0) != 0) {
				if (i != WRITER_IDX || !helper_ok(i))
					return -1;
				/* a report may have come just before it left */
				return ring_volume_eom_pending(ring) ? 1 : 0;
			}
		}
		nap(FINISH_POLL_MS);
		sig_check();
	}
}

/* Close the sockets and wait for every helper; 0 when all exited 0. */
static int
wait_helpers(void)
{
	int i, live;

	for (i = 0; i < SLAVE_COUNT; i++) {
		if (socks[i] != -1 && close(socks[i]) == -1)
			return -1;
		socks[i] = -1;
	}
	for (;;) {
		live = 0;
		for (i = 0; i < NHELPERS; i++) {
			if (reap(i, 0) == 0)
				live++;
			else if (!helper_ok(i))
				return -1;
		}
		if (ring_failed(ring))
			return -1;
		if (live == 0)
			return 0;
		sig_check();
		(void)wait_event(-1, 0);
	}
}

/* Complete the last record with TS_END headers (at least one) and send
 * it marked as the final record. */
static void
pad_final(union u_spcl *end)
{
	size_t n = (size_t)cfg.ntrec - cur.fill;

	final_pending = 1;
	while (n-- > 0)
		tape_header(end);
}

int
tape_finish(union u_spcl *end)
{
	uint64_t bytes;
	int rc;

	if (!started)
		return -1;
	closing = 1;
	pad_final(end);
	while ((rc = wait_writer()) == 1) {
		/* end of media among the last records: they go again on
		 * the next volume, completed anew */
		switch_volume();
		pad_final(end);
	}
	if (rc == -1 || wait_helpers() == -1) {
		report_failure();
		tape_kill_helpers();
		return -1;
	}
	if (feedback)		/* the last -Q positions (qfa.c) */
		learn_sizes(nrecords);
	bytes = ring_volume_bytes(ring);
	total_cbytes += bytes;
	compressed_totals_valid = cfg.compress != COMP_NONE;
	print_volume_stats(time(NULL), (nrecords - vol_first_rec) *
	    (uint64_t)cfg.ntrec, bytes);
	ring_destroy(ring);
	ring = NULL;
	started = 0;
	return 0;
}

int
tape_volumes(void)
{
	return volume;
}

int
tape_compress_totals(uint64_t *ukb, uint64_t *ckb)
{
	if (!compressed_totals_valid)
		return 0;
	*ukb = nblocks;
	*ckb = total_cbytes / TP_BSIZE;
	return 1;
}
