/*
 * utilities.c - small verbs shared by the modes: verbose messages,
 * yes/no questions, and the safe way to reach a directory of the tree.
 *
 * Every directory is reached from the target directory one component at
 * a time with openat(O_NOFOLLOW | O_DIRECTORY): a symbolic link anywhere
 * on the way, whether made by this archive or found on disk, stops the
 * walk instead of being followed.  The path of the directory last reached
 * is kept, so that the next one is opened from the nearest directory the
 * two share, and a tree walk costs one openat() per directory whatever its
 * depth.  Only the deepest DIR_FDS levels keep a descriptor; a level above
 * them is opened again through ".." of the level below, and used only if
 * it is the very directory (device and inode) met on the way down.
 * Questions are asked only when one must be answered; with no terminal
 * the answer is "no" and nothing is printed about the missing terminal.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "xalloc.h"

int target_fd = -1;

/* Descriptors kept open along the path (plus the target's own). */
#define DIR_FDS 32

/* One level of the path: level 0 is the root of the tree (target_fd). */
struct level {
	struct entry *e;
	dev_t dev;
	ino_t ino;
	int fd; /* -1: closed */
};

static struct level *path;
static size_t depth, path_cap; /* levels in use */
static size_t nopen; /* open descriptors at levels >= 1 */
static struct entry **chain; /* entries still to open, deepest first */
static size_t chain_cap;

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

/* -d: one line per header read, worded as 0.4b47's trace on stderr. */
void
msg_debug_header(const struct s_spcl *h)
{
	if (!ropt.debug)
		return;
	switch (h->c_type) {
	case TS_TAPE:
		fprintf(stderr, "Volume header (%s inode format) \n",
			(h->c_flags & DR_NEWINODEFMT) ? "new" : "old");
		break;
	case TS_CLRI: fprintf(stderr, "Used inodes map header\n"); break;
	case TS_BITS: fprintf(stderr, "Dumped inodes map header\n"); break;
	case TS_INODE:
		fprintf(stderr, "File header, ino %d\n", h->c_inumber);
		break;
	case TS_ADDR:
		fprintf(stderr, "File continuation header, ino %d\n",
			h->c_inumber);
		break;
	default: break;
	}
}

/* Where the operator's answers come from, as in 0.4b47: standard input,
 * or /dev/tty when the archive is standard input; NULL if that cannot be
 * opened. */
static FILE *answer_in;
static int answer_errno; /* why /dev/tty could not be opened */

static FILE *
answers(void)
{
	static bool tried;

	if (!tried) {
		tried = true;
		if (ropt.from_stdin) {
			answer_in = fopen("/dev/tty", "r");
			if (answer_in == NULL)
				answer_errno = errno;
		} else
			answer_in = stdin;
	}
	return answer_in;
}

/* -q: a question to the operator, already on stderr, ends the run
 * instead of waiting for an answer. */
void
ask_intervention(void)
{
	if (!ropt.qflag)
		return;
	rmsg("\n");
	errx(R_ERROR, "operator intervention needed: aborting (-q)");
}

/* One answer line without its newline (malloc'ed); NULL at EOF or with
 * no terminal (errno from opening /dev/tty then). */
char *
ask_line(void)
{
	FILE *term;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	ask_intervention();
	term = answers();
	if (term == NULL) {
		errno = answer_errno;
		return NULL;
	}
	errno = 0;
	len = getline(&line, &cap, term);
	if (len < 0) {
		free(line);
		return NULL;
	}
	if (len > 0 && line[len - 1] == '\n')
		line[len - 1] = '\0';
	return line;
}

/* Ask "question? [yn] "; anything but an answer starting with y or n
 * asks again; EOF means no. */
bool
ask_yn(const char *question)
{
	for (;;) {
		char *line;
		char c;

		rmsg("%s? [yn] ", question);
		fflush(stderr);
		line = ask_line();
		if (line == NULL) {
			putc('\n', stderr);
			return false;
		}
		c = line[0];
		free(line);
		if (c == 'y' || c == 'Y')
			return true;
		if (c == 'n' || c == 'N')
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

static void
chain_push(size_t n, struct entry *e)
{
	if (n == chain_cap) {
		chain_cap = chain_cap ? chain_cap * 2 : 64;
		chain = xreallocarray(chain, chain_cap, sizeof(*chain));
	}
	chain[n] = e;
}

/* Close and forget the deepest level; with keep, the level above it gets
 * a descriptor again (through "..") if it had lost its own. */
static void
path_pop(bool keep)
{
	struct level *l = &path[depth - 1], *up = &path[depth - 2];

	if (keep && up->fd < 0 && l->fd >= 0) {
		int fd =
		    openat(l->fd, "..",
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;

		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == up->dev &&
		    st.st_ino == up->ino) {
			up->fd = fd;
			nopen++;
		} else if (fd >= 0)
			(void)close(fd);
		/* Else up stays closed: path_reach() starts again from the
		 * top. */
	}
	if (l->fd >= 0) {
		(void)close(l->fd);
		nopen--;
	}
	l->e->flags &= (uint16_t)~EF_ONPATH;
	depth--;
}

static void
path_reset(struct entry *root)
{
	while (depth > 1)
		path_pop(false);
	if (path_cap == 0) {
		path_cap = 64;
		path = xreallocarray(NULL, path_cap, sizeof(*path));
	}
	if (depth == 1)
		path[0].e->flags &= (uint16_t)~EF_ONPATH;
	path[0].e = root;
	path[0].fd = target_fd;
	root->flags |= EF_ONPATH;
	depth = 1;
}

/* Open e below the deepest level and make it the deepest level. */
static int
path_push(struct entry *e)
{
	struct level *l;
	struct stat st;
	int fd = openat(path[depth - 1].fd, e->name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		int err = errno;

		(void)close(fd);
		errno = err;
		return -1;
	}
	if (depth == path_cap) {
		path_cap *= 2;
		path = xreallocarray(path, path_cap, sizeof(*path));
	}
	if (nopen == DIR_FDS) {
		/* Give up the shallowest open level (never level 0). */
		size_t i = depth - DIR_FDS;

		(void)close(path[i].fd);
		path[i].fd = -1;
		nopen--;
	}
	l = &path[depth++];
	l->e = e;
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->fd = fd;
	nopen++;
	e->flags |= EF_ONPATH;
	return fd;
}

/*
 * The descriptor of directory d (owned here: valid until the next call),
 * or -1 with errno set and *failed the entry that could not be opened
 * (NULL when d lies below a directory that failed before, EF_BAD).
 */
static int
path_reach(struct entry *d, struct entry **failed)
{
	struct entry *x = d;
	size_t n = 0;

	*failed = NULL;
	if (depth > 0 && path[0].fd != target_fd)
		dir_cache_drop(); /* another target (-i, -C) */
	for (; !(x->flags & EF_ONPATH) && x->parent != NULL; x = x->parent) {
		if (x->flags & EF_BAD) {
			/* Remember for next time that all of these fail. */
			for (size_t i = 0; i < n; i++)
				chain[i]->flags |= EF_BAD;
			errno = ENOENT;
			return -1;
		}
		chain_push(n++, x);
	}
	if (!(x->flags & EF_ONPATH))
		path_reset(x); /* x is the root of the tree */
	while (path[depth - 1].e != x)
		path_pop(true);
	if (path[depth - 1].fd < 0) {
		/* ".." failed: the levels above are walked again. */
		for (x = path[depth - 1].e; x->parent != NULL; x = x->parent)
			chain_push(n++, x);
		path_reset(x);
	}
	while (n > 0) {
		struct entry *e = chain[--n];

		if (path_push(e) < 0) {
			int err = errno;

			e->flags |= EF_BAD;
			while (n > 0)
				chain[--n]->flags |= EF_BAD;
			*failed = e;
			errno = err;
			return -1;
		}
	}
	return path[depth - 1].fd;
}

/* A new descriptor for directory entry d, walked from the target. */
int
dir_open_new(struct entry *d)
{
	struct entry *failed;
	int fd = path_reach(d, &failed);

	return fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

/* A descriptor for directory entry d, valid until the next call here (do
 * not close it); -1 with a message, once per directory that cannot be
 * reached, naming that directory. */
int
dir_get(struct entry *d)
{
	struct entry *failed;
	int fd = path_reach(d, &failed);

	if (fd >= 0 || failed == NULL)
		return fd;
	if (errno == ELOOP || errno == ENOTDIR)
		warnx("%s: not a directory (a symbolic link?), refusing to "
		      "write through it",
		      sym_path(failed));
	else
		warn("%s: cannot open directory", sym_path(failed));
	return -1;
}

/* Like dir_get(), silent: *failed is the directory newly found missing
 * (to report once), NULL if the failure is an old one. */
int
dir_get_quiet(struct entry *d, struct entry **failed)
{
	return path_reach(d, failed);
}

void
dir_cache_drop(void)
{
	while (depth > 1)
		path_pop(false);
	if (depth == 1)
		path[0].e->flags &= (uint16_t)~EF_ONPATH;
	depth = 0;
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
