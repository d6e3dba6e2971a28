/*
 * report.c - how restore tells the operator about trouble.
 *
 * One family of reporters, so that every message takes one of two
 * shapes, both those of restore 0.4b47:
 *  - with the program name in front ("restore: ..."): err(3), errx(3),
 *    warn(3) and warnx(3) of the C library, which also add the reason
 *    of errno (err, warn);
 *  - as the line itself, as 0.4b47 prints most of its messages:
 *    rmsg() to report and carry on, rfatal() to report and end restore
 *    with an exit status (exitcodes.h).
 * Nothing else in restore formats a message for stderr or exits after
 * reporting (remote.c exits when the rmt client has already said why).
 * The listing of ls in restore -i goes to stderr as well, as in 0.4b47,
 * but it is output, not a report: ishls.c writes it itself.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "restore.h"
#include "extern.h"

void
rmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void
rfatal(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(status);
}

/* Write a name with anything unprintable escaped as \ooo, so that a
 * message about it stays one line (names of encrypted directories hold
 * any byte). */
void
report_name(const char *name, size_t len, FILE *fp)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (isprint(c) && c != '\\' && c != '"')
			putc(c, fp);
		else
			fprintf(fp, "\\%03o", c);
	}
}
