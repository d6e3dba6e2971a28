/*
 * sig.h - dump's answer to signals (dump.8, OPERATOR INTERACTION).
 */
#ifndef DUMP_SIG_H
#define DUMP_SIG_H

/*
 * Install the master's handlers (signals ignored at start stay
 * ignored).  output is the -f name, noask the -q flag: an interrupt
 * asks "Do you want to abort dump?" unless -q.
 */
void sig_setup(const char *output, int noask);

/*
 * Act on a signal received since the last call: after SIGINT ask the
 * operator whether to abort; after SIGHUP, SIGTERM, SIGALRM or a SIGTRAP,
 * SIGFPE or SIGBUS sent by kill, abort the dump (exit 3).  Called
 * wherever the master may wait or loop for long.
 */
void sig_check(void);

/* Register the test sig_check() uses to tell whether the opened output
 * is a pipe (NULL: only the -f name decides). */
void sig_on_pipe_test(int (*test)(void));

#endif /* DUMP_SIG_H */
