/*
 * warnline.c - warn(3), warnx(3), err(3) and errx(3), each message
 * written to stderr whole, in one write.
 *
 * glibc writes such a message in three or four pieces (the program's
 * name, the text, ": ", the error), so two threads reporting at once
 * (restore's file workers, restore/filepool.c) interleave them into
 * lines no script can parse ("restore: restore: ./a: ...").  A single
 * fprintf to the unbuffered stderr is one write; these definitions take
 * the place of the C library's in every program linking libcommon.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of fmt, or NULL if it cannot be formatted (then only the
 * program's name and the error are printed). */
static char *
text_of(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (fmt == NULL || vasprintf(&s, fmt, ap) < 0)
		return NULL;
	return s;
}

static void
say(const char *fmt, va_list ap, const int *errnum)
{
	char *text = text_of(fmt, ap);
	const char *name = program_invocation_short_name;

	if (errnum != NULL && text != NULL)
		fprintf(stderr, "%s: %s: %s\n", name, text, strerror(*errnum));
	else if (errnum != NULL)
		fprintf(stderr, "%s: %s\n", name, strerror(*errnum));
	else
		fprintf(stderr, "%s: %s\n", name, text != NULL ? text : "");
	free(text);
}

void
vwarn(const char *fmt, va_list ap)
{
	int e = errno;

	say(fmt, ap, &e);
	errno = e;
}

void
vwarnx(const char *fmt, va_list ap)
{
	int e = errno;

	say(fmt, ap, NULL);
	errno = e;
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

void
verr(int status, const char *fmt, va_list ap)
{
	vwarn(fmt, ap);
	exit(status);
}

void
verrx(int status, const char *fmt, va_list ap)
{
	vwarnx(fmt, ap);
	exit(status);
}

void
err(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(status, fmt, ap);
}

void
errx(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrx(status, fmt, ap);
}
