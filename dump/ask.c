/*
 * ask.c - the operator's yes/no questions of dump (dump.8, OPERATOR INTERACTION).
 *
 * Questions go to stderr with the "  DUMP: " prefix of every message;
 * answers come from /dev/tty, never from standard input, which may be
 * the archive's reader or a script.  Anything that is not a yes or a no
 * asks again; a terminal that cannot be read is an abort, as in 0.4b47,
 * because a dump that needs the operator cannot go on without one.
 * With -n the question also goes to the operators' terminals (notify.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "optr.h"
#include "ask.h"
#include "notify.h"

#define TTY_PATH "/dev/tty"
/* Failed reads of the terminal before giving up, as 0.4b47. */
#define MAX_QUERY_FAILURES 30
#define ANSWER_MAX	   256

int
ask_operator(const char *question, int noask)
{
	char answer[ANSWER_MAX];
	int failures = 0;
	FILE *tty;

	if (noask) {
		msg("%s - forced abort\n", question);
		dump_abort();
	}
	tty = fopen(TTY_PATH, "r");
	if (tty == NULL) {
		msg("fopen on %s fails: %s\n", TTY_PATH, strerror(errno));
		dump_abort();
	}
	msg("%s: (\"yes\" or \"no\") ", question);
	notify_operators(question); /* -n */
	for (;;) {
		if (fgets(answer, sizeof(answer), tty) == NULL) {
			clearerr(tty);
			if (++failures > MAX_QUERY_FAILURES) {
				msg("excessive operator query failures\n");
				(void)fclose(tty);
				dump_abort();
			}
			continue;
		}
		if (answer[0] == 'y' || answer[0] == 'Y' || answer[0] == 'n' ||
		    answer[0] == 'N')
			break;
		msg("\"Yes\" or \"No\"?\n");
		msg("%s: (\"yes\" or \"no\") ", question);
	}
	/* read only: nothing to lose when close fails */
	(void)fclose(tty);
	return answer[0] == 'y' || answer[0] == 'Y';
}
