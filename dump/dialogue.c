/*
 * dialogue.c - the operator's part in a volume change: the -F script
 * and its exit-status protocol, "Change Volumes" with its questions,
 * and the question after an output that cannot be opened.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ask.h"
#include "notify.h"
#include "optr.h"
#include "tapeint.h"
#include "xalloc.h"

/* Exit statuses of the -F script (dump.8, -F). */
#define SCRIPT_GO_ON 0 /* next volume ready: do not ask */
#define SCRIPT_ASK   1 /* ask the operator as usual */

/*
 * Run the -F script after volume `finished` (written to name), with the
 * real user and group ids.  Returns 1 when the next volume is ready
 * without asking, 0 when the operator is to be asked; aborts the dump
 * on any other outcome.
 */
int
dialogue_script(const struct tape_config *cfg, const char *name, int finished)
{
	size_t len = strlen(cfg->volscript) + strlen(name) + 32;
	char *cmd = xmalloc(len);
	int status;
	pid_t pid, r;

	(void)snprintf(cmd, len, "%s %s %d", cfg->volscript, name, finished);
	msg("Launching %s\n", cfg->volscript);
	pid = fork();
	if (pid == 0) {
		if (setgid(getgid()) == -1 || setuid(getuid()) == -1)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	free(cmd);
	if (pid == -1) {
		msg("Cannot run %s: %s\n", cfg->volscript, strerror(errno));
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
void
dialogue_media_change(const struct tape_config *cfg, int volume)
{
	msg("Change Volumes: Mount volume #%d\n", volume);
	notify_operators("CHANGE DUMP VOLUMES!\a\a");
	while (!ask_operator("Is the new volume mounted and ready to go?",
			     cfg->noask)) {
		if (ask_operator("Do you want to abort?", cfg->noask))
			dump_abort();
	}
}

/* The output of a volume cannot be opened: the operator may fix it and
 * have it tried again (with -q or without a terminal the dump aborts,
 * status 3). */
void
dialogue_open_failed(const struct tape_config *cfg, const char *name, int err)
{
	msg("Cannot open output \"%s\": %s\n", name, strerror(err));
	if (!ask_operator("Do you want to retry the open?", cfg->noask))
		dump_abort();
}
