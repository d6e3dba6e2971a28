/*
 * notify.c - dump -n: tell the operators on their terminals (dump.8, OPERATOR INTERACTION).
 *
 * The operators are the members of group "operator" who are logged in
 * (utmp).  Each of their terminals gets a short banner and the message;
 * serial lines (ttyS*) are left alone because a write there may block
 * on a modem or a console that nobody watches.  Everything is best
 * effort: a terminal that cannot be opened or written is skipped, since
 * the message is also on dump's own stderr.
 */
#include <fcntl.h>
#include <grp.h>
#include <paths.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <utmp.h>

#include "optr.h"
#include "notify.h"
#include "xalloc.h"
#include "xio.h"

#define OPERATOR_GROUP "operator"
#define SERIAL_PREFIX  "ttyS"

static bool enabled;
static gid_t operator_gid;
static char **members; /* copy of the group's member list */

void
notify_setup(void)
{
	struct group *gr = getgrnam(OPERATOR_GROUP);
	size_t n = 0;

	if (gr == NULL) {
		msg("No group entry for %s.\n", OPERATOR_GROUP);
		return;
	}
	operator_gid = gr->gr_gid;
	while (gr->gr_mem[n] != NULL)
		n++;
	members = xcalloc(n + 1, sizeof(*members));
	for (size_t i = 0; i < n; i++)
		members[i] = xstrdup(gr->gr_mem[i]);
	enabled = true;
}

static bool
is_operator(const char *user)
{
	struct passwd *pw;

	for (char **m = members; *m != NULL; m++)
		if (strcmp(*m, user) == 0)
			return true;
	pw = getpwnam(user);
	return pw != NULL && pw->pw_gid == operator_gid;
}

static void
tell_terminal(const char *line, const char *text, size_t len)
{
	char path[sizeof(_PATH_DEV) + UT_LINESIZE + 1];
	int fd;

	/* utmp is not ours to trust with paths */
	if (strstr(line, "..") != NULL ||
	    (strchr(line, '/') != NULL && strncmp(line, "pts/", 4) != 0))
		return;
	(void)snprintf(path, sizeof(path), "%s%s", _PATH_DEV, line);
	fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	/* Best effort: the same text went to stderr already. */
	(void)full_write(fd, text, len);
	(void)close(fd);
}

void
notify_operators(const char *message)
{
	char text[1024], user[UT_NAMESIZE + 1], line[UT_LINESIZE + 1];
	time_t now = time(NULL);
	struct tm *tm = localtime(&now);
	struct utmp *u;
	int len;

	if (!enabled)
		return;
	len = snprintf(text, sizeof(text),
		       "\n\a\a\aMessage from the dump program to all operators "
		       "at %d:%02d ...\r\n\nDUMP: NEEDS ATTENTION: %s\r\n",
		       tm != NULL ? tm->tm_hour : 0,
		       tm != NULL ? tm->tm_min : 0, message);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(text))
		len = sizeof(text) - 1;
	setutent();
	while ((u = getutent()) != NULL) {
		if (u->ut_type != USER_PROCESS)
			continue;
		(void)snprintf(user, sizeof(user), "%.*s",
			       (int)sizeof(u->ut_user), u->ut_user);
		(void)snprintf(line, sizeof(line), "%.*s",
			       (int)sizeof(u->ut_line), u->ut_line);
		if (strncmp(line, SERIAL_PREFIX, strlen(SERIAL_PREFIX)) == 0 ||
		    !is_operator(user))
			continue;
		tell_terminal(line, text, (size_t)len);
	}
	endutent();
}
