/*
 * volume.c - choosing the file or device that holds the next volume.
 *
 * tape.c calls volume_choose() when a volume ends before the dump does.
 * The name comes from -M (<prefix>%03d), from the -F script (exit 0 means
 * "it is ready, do not ask"), or from the operator, asked on /dev/tty with
 * the words of restore 0.4b47 because standard input may be
 * the archive itself.  tape.c opens and checks the volume; when that fails
 * it calls again with must_ask set, exactly as 0.4b47 re-prompts.
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

/* Ask the operator on /dev/tty.  NULL means "none" (or no terminal). */
static char *
ask_name(int n, const char *dflt)
{
	FILE *tty;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	rmsg("Mount tape volume %d\n", n);
	rmsg("Enter ``none'' if there are no more tapes\n");
	rmsg("otherwise enter tape name (default: %s) ", dflt);
	(void)fflush(stderr);
	tty = fopen("/dev/tty", "r");
	if (tty == NULL) {
		/* 0.4b47 gives up silently here; say why. */
		rmsg("\ncannot ask for volume %d: /dev/tty: %s\n", n,
		     strerror(errno));
		return NULL;
	}
	len = getline(&line, &cap, tty);
	(void)fclose(tty);
	if (len < 0) {
		free(line);
		rmsg("\n");
		return NULL;
	}
	if (len > 0 && line[len - 1] == '\n')
		line[--len] = '\0';
	if (strcmp(line, "none") == 0) {
		free(line);
		return NULL;
	}
	if (len == 0) {
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
