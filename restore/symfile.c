/*
 * symfile.c - read ./restoresymtable back (the writer is sym_write() in
 * symtab.c, which documents the format).
 *
 * The table is input like the archive: it is opened without following a
 * symbolic link and every line is checked (indexes in order, parents
 * before children and directories, names one safe path component), so
 * whatever is read can be used as names below the target directory.
 * Anything else ends restore with the line number and the reason.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "exitcodes.h"
#include "symfile.h"
#include "xalloc.h"

#define NAME_MAX_LEN 255

/* Undo put_escaped() of symtab.c in place; false on a malformed escape. */
static bool
unescape(char *s)
{
	char *o = s;

	for (; *s != '\0'; s++) {
		unsigned int v;

		if (*s != '%') {
			*o++ = *s;
			continue;
		}
		if (sscanf(s + 1, "%2x", &v) != 1 || v == 0 || s[1] == '\0' ||
		    s[2] == '\0')
			return false;
		*o++ = (char)v;
		s += 2;
	}
	*o = '\0';
	return true;
}

static bool
name_safe(const char *n)
{
	size_t len = strlen(n);

	return len > 0 && len <= NAME_MAX_LEN && strchr(n, '/') == NULL &&
	    strcmp(n, ".") != 0 && strcmp(n, "..") != 0;
}

static void __attribute__((noreturn)) bad_table(long lineno, const char *why)
{
	errx(R_ERROR,
	     "./%s: line %ld: %s; not a symbol table of this "
	     "restore",
	     SYMTAB_NAME, lineno, why);
}

/* Parse one "<index> <parent> <ino> <D|L|K> <name>" line. */
static void
parse_entry(struct symfile *t, size_t *cap, char *line, long lineno)
{
	long idx, parent;
	unsigned long ino;
	char type;
	int off = 0;
	struct oent *o;

	if (sscanf(line, "%ld %ld %lu %c %n", &idx, &parent, &ino, &type,
		   &off) != 4 ||
	    off == 0)
		bad_table(lineno, "malformed entry");
	if (idx != (long)t->n || ino > UINT32_MAX ||
	    (type != 'D' && type != 'L' && (type != 'K' || !t->checkpoint)))
		bad_table(lineno, "bad entry");
	if (idx == 0 ? parent != -1 || type != 'D' || ino != ROOTINO
		     : parent < 0 || parent >= idx || !t->ent[parent].dir)
		bad_table(lineno, "bad parent");
	if (!unescape(line + off) ||
	    (idx == 0 ? strcmp(line + off, ".") != 0 : !name_safe(line + off)))
		bad_table(lineno, "bad name");
	if (t->n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		t->ent = xreallocarray(t->ent, *cap, sizeof(*t->ent));
	}
	o = &t->ent[t->n++];
	o->ino = (uint32_t)ino;
	o->dir = type == 'D';
	o->done = type == 'K';
	o->parent = parent;
	o->child = o->sibling = -1;
	o->name = xstrdup(line + off);
}

/* "checkpoint <holding directory or ->" of an unfinished -r. */
static void
parse_checkpoint(struct symfile *t, const char *line, long lineno)
{
	const char *hold = line + strlen("checkpoint ");

	t->checkpoint = true;
	if (strcmp(hold, "-") == 0)
		return;
	if (strncmp(hold, HOLD_PREFIX, strlen(HOLD_PREFIX)) != 0 ||
	    strlen(hold) >= sizeof(t->hold) || !name_safe(hold))
		bad_table(lineno, "bad holding directory");
	strcpy(t->hold, hold);
}

/* Load dirfd's restoresymtable into t; exits on any error. */
void
symfile_load(int dirfd, struct symfile *t)
{
	int fd = openat(dirfd, SYMTAB_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f;
	char *line = NULL;
	size_t cap = 0, entcap = 0;
	ssize_t len;
	long lineno = 0, count = -1;
	unsigned long mino;
	int vol;

	memset(t, 0, sizeof(*t));
	if (fd < 0 || (f = fdopen(fd, "r")) == NULL)
		err(R_ERROR, "cannot open symbol table file ./%s", SYMTAB_NAME);
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (line[len - 1] != '\n')
			bad_table(lineno, "unterminated line");
		line[--len] = '\0';
		if (count >= 0)
			bad_table(lineno, "data after the end");
		if (lineno == 1) {
			if (strcmp(line, SYMTAB_MAGIC) != 0)
				bad_table(lineno, "bad magic");
		} else if (lineno == 2) {
			if (sscanf(line,
				   "date %ld prev %ld maxino %lu volume "
				   "%d",
				   &t->date, &t->prev, &mino, &vol) != 4)
				bad_table(lineno, "bad header");
		} else if (lineno == 3 &&
			   strncmp(line, "checkpoint ",
				   strlen("checkpoint ")) == 0)
			parse_checkpoint(t, line, lineno);
		else if (strncmp(line, "end ", 4) == 0) {
			if (sscanf(line, "end %ld", &count) != 1 ||
			    count != (long)t->n)
				bad_table(lineno, "bad count");
		} else
			parse_entry(t, &entcap, line, lineno);
	}
	if (ferror(f))
		err(R_ERROR, "./%s", SYMTAB_NAME);
	free(line);
	(void)fclose(f);
	if (count < 0 || t->n == 0)
		bad_table(lineno, "truncated");
	/* Children lists in table order: prepend from the last entry. */
	for (size_t i = t->n - 1; i > 0; i--) {
		t->ent[i].sibling = t->ent[t->ent[i].parent].child;
		t->ent[t->ent[i].parent].child = (long)i;
	}
}
