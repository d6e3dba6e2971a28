/*
 * volume.c - choosing the file or device that holds the next volume.
 *
 * tape.c calls volume_choose() when a volume ends before the dump does.
 * The name comes from -M (<prefix>%03d), from the -F script (exit 0 means
 * "it is ready, do not ask"), or from the operator, asked with the words
 * of restore 0.4b47 and answered, as there, on standard input (on
 * /dev/tty when standard input is the archive itself).  tape.c opens and
 * checks the volume; when that fails it calls again with must_ask set,
 * exactly as 0.4b47 re-prompts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "restore.h"
#include "extern.h"
#include "exitcodes.h"
#include "xalloc.h"

/* Digits of the -M volume suffix ("%03d"). */
#define MVOL_SUFFIX_MAX 16
/* -F script exit statuses (restore.8, -F). */
#define SCRIPT_GO_ON  0
#define SCRIPT_PROMPT 1

/* The name of volume n under -M, malloc'ed. */
static char *
mvol_name(int n)
{
	size_t len = strlen(ropt.tape) + MVOL_SUFFIX_MAX;
	char *s = xmalloc(len);

	(void)snprintf(s, len, "%s%03d", ropt.tape, n);
	return s;
}

static void __attribute__((noreturn)) script_abort(void)
{
	/* Without the program name prefix, as 0.4b47 prints it. */
	rfatal(R_ERROR, "Restore aborted by the beginning of tape script\n");
}

/* Run "<script> <device> <volume>"; its exit status, or -1. */
static int
run_script(const char *name, int n)
{
	size_t len = strlen(ropt.script) + strlen(name) + MVOL_SUFFIX_MAX + 3;
	char *cmd = xmalloc(len);
	int st;

	(void)snprintf(cmd, len, "%s %s %d", ropt.script, name, n);
	rmsg("Launching %s\n", ropt.script);
	(void)fflush(stdout);
	(void)fflush(stderr);
	st = system(cmd);
	free(cmd);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* Ask the operator (ask_line(): standard input, /dev/tty when the
 * archive is standard input).  NULL means "none" (or no answer). */
static char *
ask_name(int n, const char *dflt)
{
	char *line;

	rmsg("Mount tape volume %d\n", n);
	rmsg("Enter ``none'' if there are no more tapes\n");
	rmsg("otherwise enter tape name (default: %s) ", dflt);
	(void)fflush(stderr);
	line = ask_line();
	if (line == NULL) {
		/* 0.4b47 gives up silently here; say why. */
		if (ropt.from_stdin && errno != 0)
			rmsg("\ncannot ask for volume %d: /dev/tty: %s\n", n,
			     strerror(errno));
		else
			rmsg("\n");
		return NULL;
	}
	if (strcmp(line, "none") == 0) {
		free(line);
		return NULL;
	}
	if (line[0] == '\0') {
		free(line);
		return xstrdup(dflt);
	}
	return line;
}

/* The name volume 1 is read from, malloc'ed. */
char *
volume_first_name(void)
{
	return ropt.Mflag ? mvol_name(1) : xstrdup(ropt.tape);
}

/* -F before volume 1: only an abort matters (there is no other name). */
void
volume_first_script(const char *name)
{
	int rc;

	if (ropt.script == NULL)
		return;
	rc = run_script(name, 1);
	if (rc != SCRIPT_GO_ON && rc != SCRIPT_PROMPT)
		script_abort();
}

/*
 * The name to open as volume n (malloc'ed), or NULL when there are no
 * more volumes.  prev is the name volume n-1 was read from.
 */
char *
volume_choose(int n, const char *prev, bool must_ask)
{
	char *name = ropt.Mflag ? mvol_name(n) : xstrdup(prev);
	bool ask = must_ask || !ropt.Mflag;
	char *answer;

	if (ropt.script != NULL) {
		int rc = run_script(name, n);

		if (rc == SCRIPT_GO_ON && !must_ask)
			return name;
		if (rc != SCRIPT_GO_ON && rc != SCRIPT_PROMPT)
			script_abort();
		ask = true;
	}
	if (!ask)
		return name;
	answer = ask_name(n, name);
	free(name);
	return answer;
}

/* The volume question of 0.4b47 before -x and -i extract read files;
 * false when the operator says none or (*eof set, eof may be NULL) the
 * answers end.  Every volume is read from the first whatever the
 * number. */
bool
volume_ask_number(char *(*read_answer)(void), bool *eof)
{
	if (ropt.aflag)
		return true;
	for (;;) {
		char *ans, *end;
		long v;

		/* repeated with every question, as 0.4b47 does */
		rmsg("You have not read any volumes yet.\n"
		     "Unless you know which volume your file(s) are on you "
		     "should start\nwith the last volume and work towards "
		     "the first.\n");
		rmsg("Specify next volume # (none if no more "
		     "volumes): ");
		if ((ans = read_answer()) == NULL) {
			putc('\n', stderr);
			if (eof != NULL)
				*eof = true;
			return false;
		}
		if (strcmp(ans, "none") == 0) {
			free(ans);
			return false;
		}
		errno = 0;
		v = strtol(ans, &end, 10);
		if (errno == 0 && end != ans && *end == '\0' && v > 0) {
			free(ans);
			return true;
		}
		rmsg("Volume numbers are positive numerics\n");
		free(ans);
	}
}
