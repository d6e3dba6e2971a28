/*
 * volname.c - the output name of each volume: -M numbering, the
 * elements of a -f list, or the one name reused.
 */
#include <stdio.h>
#include <string.h>

#include "tape.h"
#include "tapeint.h"

void
tape_volume_name(const char *output, int multi, int vol, char *buf, size_t len)
{
	const char *p = output, *comma;
	int i;

	if (multi) {
		(void)snprintf(buf, len, "%s%03d", output, vol);
		return;
	}
	/* the vol-th element of a comma list, the last one reused */
	for (i = 1; i < vol && (comma = strchr(p, ',')) != NULL; i++)
		p = comma + 1;
	comma = strchr(p, ',');
	(void)snprintf(buf, len, "%.*s",
		       (int)(comma != NULL ? (size_t)(comma - p) : strlen(p)),
		       p);
}

/* Whether volume vol has a name of its own (-M, or a list element):
 * then no media change has to be asked for. */
int
volname_named(const struct tape_config *cfg, int vol)
{
	const char *p = cfg->output;
	int n = 1;

	if (cfg->multi)
		return 1;
	while ((p = strchr(p, ',')) != NULL) {
		n++;
		p++;
	}
	return n > 1 && vol <= n;
}
