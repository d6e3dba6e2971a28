/*
 * unit.c - the harness of the unit tests (see unit.h).
 *
 * Nothing here knows dump: lines, forks and a temporary directory.
 * stdout is flushed before every fork, so that no TAP line is printed
 * twice by a child.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"

#define READ_CHUNK 4096
#define RM_FDS	   16

static int count, failed;
static char tmpdir[4096];

static void
line(const char *prefix, const char *fmt, va_list ap)
{
	printf("%s %d - ", prefix, ++count);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

int
unit_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(cond ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	if (!cond)
		failed++;
	return cond;
}

void
unit_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("ok %d # skip ", ++count);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

void
unit_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

int
unit_eq_long(long long got, long long want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(got == want ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	if (got == want)
		return 1;
	failed++;
	unit_diag("got %lld, expected %lld", got, want);
	return 0;
}

int
unit_eq_str(const char *got, const char *want, const char *fmt, ...)
{
	int same = got != NULL && strcmp(got, want) == 0;
	va_list ap;

	va_start(ap, fmt);
	line(same ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	if (same)
		return 1;
	failed++;
	unit_diag("got \"%s\", expected \"%s\"", got ? got : "(null)", want);
	return 0;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) != 0)
		fprintf(stderr, "unit: cannot remove %s: %s\n", path,
			strerror(errno));
	return 0;
}

int
unit_done(void)
{
	if (tmpdir[0] != '\0')
		(void)nftw(tmpdir, rm_one, RM_FDS, FTW_DEPTH | FTW_PHYS);
	printf("1..%d\n", count);
	fflush(stdout);
	return failed ? 1 : 0;
}

const char *
unit_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (tmpdir[0] != '\0')
		return tmpdir;
	if (base == NULL || *base == '\0')
		base = "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/dump-unit.XXXXXX", base);
	if (mkdtemp(tmpdir) == NULL) {
		fprintf(stderr, "unit: mkdtemp %s: %s\n", tmpdir,
			strerror(errno));
		exit(2);
	}
	return tmpdir;
}

int
unit_write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	const char *p = buf;

	if (fd < 0)
		return -1;
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			(void)close(fd);
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return close(fd);
}

/* All of fd up to end of file, NUL-terminated; NULL on error. */
static char *
slurp(int fd, size_t *lenp)
{
	size_t len = 0, cap = READ_CHUNK;
	char *buf = malloc(cap + 1);

	if (buf == NULL)
		return NULL;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (nb == NULL)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			buf[len] = '\0';
			if (lenp != NULL)
				*lenp = len;
			return buf;
		}
		len += (size_t)n;
	}
	free(buf);
	return NULL;
}

char *
unit_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	char *buf;

	if (fd < 0)
		return NULL;
	buf = slurp(fd, len);
	(void)close(fd);
	return buf;
}

int
unit_fork(void (*fn)(void *), void *arg, char **out)
{
	int p[2], status = -1;
	pid_t pid;
	char *text;

	fflush(stdout);
	fflush(stderr);
	if (pipe(p) < 0) {
		perror("unit: pipe");
		exit(2);
	}
	pid = fork();
	if (pid < 0) {
		perror("unit: fork");
		exit(2);
	}
	if (pid == 0) {
		(void)close(p[0]);
		if (dup2(p[1], STDOUT_FILENO) < 0 ||
		    dup2(p[1], STDERR_FILENO) < 0)
			_exit(2);
		(void)close(p[1]);
		fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(0);
	}
	(void)close(p[1]);
	text = slurp(p[0], NULL);
	(void)close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (out != NULL)
		*out = text != NULL ? text : strdup("");
	else
		free(text);
	return status;
}

int
unit_exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
