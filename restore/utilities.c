/*
 * utilities.c - small verbs shared by the modes: verbose messages,
 * yes/no questions, and the safe way to reach a directory of the tree.
 *
 * Every directory is reached from the target directory one component at
 * a time with openat(O_NOFOLLOW | O_DIRECTORY): a symbolic link anywhere
 * on the way, whether made by this archive or found on disk, stops the
 * walk instead of being followed.  Questions are asked only when one must
 * be answered; with no terminal the answer is "no" and nothing is
 * printed about the missing terminal.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "xalloc.h"

int target_fd = -1;

static struct entry *cached_dir;
static int cached_fd = -1;

void
msg_verbose(const char *fmt, ...)
{
	va_list ap;

	if (!ropt.verbose)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* Read one line from the terminal; false at EOF or with no terminal. */
static bool
term_line(char *buf, size_t size)
{
	static FILE *term;
	static bool tried;

	if (!tried) {
		tried = true;
		if (ropt.from_stdin)
			term = fopen("/dev/tty", "r");
		else
			term = stdin;
	}
	return term != NULL && fgets(buf, (int)size, term) != NULL;
}

/* Ask "question? [yn] "; anything but an answer starting with y or n
 * asks again; EOF means no. */
bool
ask_yn(const char *question)
{
	char line[256];

	for (;;) {
		fprintf(stderr, "%s? [yn] ", question);
		fflush(stderr);
		if (!term_line(line, sizeof(line))) {
			putc('\n', stderr);
			return false;
		}
		if (line[0] == 'y' || line[0] == 'Y')
			return true;
		if (line[0] == 'n' || line[0] == 'N')
			return false;
	}
}

/* Is a terminal (or, with -f file, standard input) there to ask? */
bool
can_ask(void)
{
	int fd;

	if (!ropt.from_stdin)
		return true;
	fd = open("/dev/tty", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	(void)close(fd);
	return true;
}

void
target_open(void)
{
	target_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (target_fd < 0)
		err(R_ERROR, "cannot open the current directory");
}

/* A new descriptor for directory entry d, walked from the target. */
int
dir_open_new(const struct entry *d)
{
	const struct entry *chain[64];
	const struct entry **path = chain;
	size_t n = 0, cap = sizeof(chain) / sizeof(chain[0]);
	int fd;

	for (const struct entry *x = d; x->parent != NULL; x = x->parent) {
		if (n == cap) {
			const struct entry **np = xreallocarray(NULL, cap * 2,
			    sizeof(*np));

			memcpy(np, path, n * sizeof(*np));
			if (path != chain)
				free(path);
			path = np;
			cap *= 2;
		}
		path[n++] = x;
	}
	fd = dup(target_fd);
	while (fd >= 0 && n > 0) {
		const struct entry *x = path[--n];
		int next = openat(fd, x->name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);

		if (next < 0) {
			int e = errno;

			(void)close(fd);
			errno = e == ELOOP ? ELOOP : e;
			fd = -1;
			break;
		}
		(void)close(fd);
		fd = next;
	}
	if (path != chain)
		free(path);
	return fd;
}

/* A cached descriptor for directory entry d (do not close it); -1 with
 * a message (once per directory) when it cannot be reached. */
int
dir_get(struct entry *d)
{
	int fd;

	if (d == cached_dir)
		return cached_fd;
	if (d->flags & EF_BAD)
		return -1;
	fd = dir_open_new(d);
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			warnx("%s: not a directory (a symbolic link?), "
			    "refusing to write through it", sym_path(d));
		else
			warn("%s: cannot open directory", sym_path(d));
		d->flags |= EF_BAD;
		return -1;
	}
	if (cached_fd >= 0)
		(void)close(cached_fd);
	cached_dir = d;
	cached_fd = fd;
	return fd;
}

void
dir_cache_drop(void)
{
	if (cached_fd >= 0)
		(void)close(cached_fd);
	cached_fd = -1;
	cached_dir = NULL;
}

/* Path through which lsetxattr/lgetxattr reach name inside dirfd without
 * following name itself. */
const char *
fd_name_path(int dirfd, const char *name)
{
	static char *buf;
	static size_t size;
	size_t need = strlen(name) + 40;

	if (need > size) {
		size = need;
		buf = xrealloc(buf, size);
	}
	snprintf(buf, size, "/proc/self/fd/%d/%s", dirfd, name);
	return buf;
}
