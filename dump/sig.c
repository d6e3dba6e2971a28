/*
 * sig.c - signals received by the dump master (dump.8, OPERATOR INTERACTION).
 *
 * The handlers only record the signal; sig_check(), called from the
 * loops of the passes and wherever the master waits for its helpers,
 * acts on it, so that no stdio or process handling runs inside a
 * handler.  An interrupt (SIGINT) asks the operator whether to abort.
 * SIGHUP, SIGTERM, SIGALRM, and SIGTRAP, SIGFPE, SIGBUS when sent by
 * kill, end the dump with 0.4b47's words: "Signal on pipe: cannot
 * recover" when the archive goes to a pipe or FIFO, otherwise "Rewriting
 * attempted as response to unknown signal: N." - where 0.4b47 would
 * then restart the volume on new media, this dump does not restart
 * volumes, so either way the helpers are killed, dumpdates is left
 * alone and the dump exits 3 ("The ENTIRE dump is aborted.").
 *
 * A real fault (SIGSEGV, or SIGFPE/SIGBUS/SIGTRAP raised by the CPU)
 * cannot be deferred: the handler says "SIGSEGV: ABORTING!" for a
 * SIGSEGV with write(2), restores the default action and returns, so
 * the faulting instruction ends the process; the helpers follow by
 * their parent-death signal.  SIGXCPU and SIGXFSZ are ignored (a file
 * too large then shows as a write error).  Signals that were ignored
 * when dump started (SIGHUP under nohup, SIGINT in the background) stay
 * ignored.  The helpers ignore SIGHUP, SIGINT and SIGTERM (procs.c): a
 * signal sent to the whole process group is the master's to handle.
 * This file calls only the message layer below it (optr.c, ask.c); what
 * it needs to know of the output comes through sig_on_pipe_test().
 */
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ask.h"
#include "optr.h"
#include "rmtclient.h"
#include "sig.h"

static volatile sig_atomic_t pending;
static int noask_flag;
static int fifo_output; /* -f - or a FIFO, known before the open */
/* Registered by the output side: whether the opened output is a pipe. */
static int (*pipe_test)(void);

static const char segv_text[] = "  DUMP: SIGSEGV: ABORTING!\n";

static void
on_signal(int signo, siginfo_t *info, void *ctx)
{
	(void)ctx;
	if (signo == SIGSEGV ||
	    ((signo == SIGFPE || signo == SIGBUS || signo == SIGTRAP) &&
	     info != NULL && info->si_code > 0)) {
		/* a fault: the instruction runs again and ends us */
		if (signo == SIGSEGV)
			(void)!write(STDERR_FILENO, segv_text,
				     sizeof(segv_text) - 1);
		(void)signal(signo, SIG_DFL);
		return;
	}
	/* a fatal signal outranks a pending interrupt */
	if (signo != SIGINT || pending == 0)
		pending = signo;
}

static void
catch_signal(int signo)
{
	struct sigaction sa, old;

	if (sigaction(signo, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(signo, &sa, NULL);
}

void
sig_setup(const char *output, int noask)
{
	static const int handled[] = {SIGHUP,  SIGINT, SIGTERM, SIGALRM,
				      SIGTRAP, SIGFPE, SIGBUS,	SIGSEGV};
	struct stat st;
	size_t i;

	noask_flag = noask;
	fifo_output = strcmp(output, "-") == 0 ||
	    (!rmt_is_remote(output) && stat(output, &st) == 0 &&
	     S_ISFIFO(st.st_mode));
	for (i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		catch_signal(handled[i]);
	(void)signal(SIGXCPU, SIG_IGN);
	(void)signal(SIGXFSZ, SIG_IGN);
}

void
sig_on_pipe_test(int (*test)(void))
{
	pipe_test = test;
}

void
sig_check(void)
{
	int signo = pending;

	if (signo == 0)
		return;
	pending = 0;
	if (signo == SIGINT) {
		msg("Interrupt received.\n");
		if (ask_operator("Do you want to abort dump?", noask_flag))
			dump_abort();
		return;
	}
	if (fifo_output || (pipe_test != NULL && pipe_test())) {
		msg("Signal on pipe: cannot recover\n");
		dump_abort();
	}
	msg("Rewriting attempted as response to unknown signal: %d.\n", signo);
	dump_abort();
}
