/*
 * ishwords.c - restore -i: a typed line cut into words, as 0.4b47 cuts
 * it (restore.8, -i).
 *
 * Words are separated by blanks (spaces and tabs).  Inside a word, text
 * between single or double quotes is taken as it is, blanks included,
 * and a backslash takes the character after it as it is; the quotes and
 * the backslash themselves are dropped.  So "a b", 'a b' and a\ b all
 * name the file "a b".  One thing differs from 0.4b47: a backslash
 * before three octal digits (\000 to \377) is kept, because that is how
 * restore -t and ls write a byte of an encrypted name, and the name
 * lookup (ishnames.c) undoes such escapes when the name as typed is not
 * found.  0.4b47 dropped that backslash, which no one needs: a digit
 * means itself either way.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "ish.h"
#include "xalloc.h"

/*
 * Copy one word from *in to out (which may be the same buffer: a word
 * never grows), its quotes and backslashes taken away; advance *in past
 * it.  A quote left open or a backslash at the end of the line is
 * reported as 0.4b47 reports it, and the word ends there.
 */
static void
copy_word(char **in, char *out)
{
	char *p = *in;

	while (*p != '\0' && !isblank((unsigned char)*p)) {
		if (sym_octal_escape(p)) {
			*out++ = *p++;
		} else if (*p == '\\') {
			if (p[1] == '\0') {
				rmsg("command lines cannot be continued\n");
				p++;
				break;
			}
			*out++ = p[1];
			p += 2;
		} else if (*p == '\'' || *p == '"') {
			char quote = *p++;

			while (*p != '\0' && *p != quote)
				*out++ = *p++;
			if (*p == '\0') {
				rmsg("missing %c\n", quote);
				break;
			}
			p++;
		} else {
			*out++ = *p++;
		}
	}
	if (isblank((unsigned char)*p))
		p++; /* read before out's NUL may land on it */
	*out = '\0';
	*in = p;
}

int
ish_split_words(char *line, char ***argvp)
{
	char **v = NULL;
	char *in = line, *out = line;
	int n = 0;
	size_t cap = 0;

	for (;;) {
		while (isblank((unsigned char)*in))
			in++;
		if (*in == '\0')
			break;
		if ((size_t)n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		/* The word is written where the line was read: out never
		 * passes in, which moves ahead by each quote or backslash
		 * taken away. */
		v[n++] = out;
		copy_word(&in, out);
		out += strlen(out) + 1;
	}
	*argvp = v;
	return n;
}
