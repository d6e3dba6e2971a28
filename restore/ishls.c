/*
 * ishls.c - restore -i: the ls command.
 *
 * A directory's names (or one leaf) in columns as 0.4b47 prints them:
 * sorted, each with its selection mark and type suffix, with inode
 * numbers in verbose mode, LS_COLUMNS wide.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "ish.h"
#include "xalloc.h"

/* ls fills lines of this many columns (0.4b47 divides 81 by the width). */
#define LS_COLUMNS 81

/* One name printed by ls. */
struct lsent {
	const char *name;
	uint32_t ino;
	char prefix, postfix;
};

static char
type_suffix(uint32_t ino, uint8_t type)
{
	if (dirs_is_dir(ino))
		return '/';
	switch (type) {
	case DT_TAPE_DIR: return '/';
	case DT_TAPE_LNK: return '@';
	case DT_TAPE_FIFO:
	case DT_TAPE_SOCK: return '=';
	case DT_TAPE_CHR:
	case DT_TAPE_BLK: return '#';
	default: return ' ';
	}
}

static int
cmp_lsent(const void *a, const void *b)
{
	return strcmp(((const struct lsent *)a)->name,
		      ((const struct lsent *)b)->name);
}

/* Print names in columns, down then across, as 0.4b47 does. */
static void
print_columns(struct lsent *list, size_t n)
{
	size_t width = 0, columns, lines;
	bool haveprefix = false, havepostfix = false;
	int precision = 0;

	if (n == 0)
		return;
	qsort(list, n, sizeof(*list), cmp_lsent);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(list[i].name);
		int digits =
		    snprintf(NULL, 0, "%lu", (unsigned long)list[i].ino);

		if (len > width)
			width = len;
		if (list[i].prefix != ' ')
			haveprefix = true;
		if (list[i].postfix != ' ')
			havepostfix = true;
		if (digits > precision)
			precision = digits;
	}
	if (haveprefix)
		width++;
	if (havepostfix)
		width++;
	if (ropt.verbose)
		width += (size_t)precision + 1;
	width++;
	columns = LS_COLUMNS / width;
	if (columns == 0)
		columns = 1;
	lines = (n + columns - 1) / columns;
	for (size_t i = 0; i < lines; i++) {
		for (size_t j = 0; j < columns; j++) {
			size_t k = j * lines + i, len = 0;

			if (k >= n)
				break;
			if (ropt.verbose)
				len +=
				    (size_t)fprintf(stderr, "%*lu ", precision,
						    (unsigned long)list[k].ino);
			if (haveprefix) {
				putc(list[k].prefix, stderr);
				len++;
			}
			len += (size_t)fprintf(stderr, "%s", list[k].name);
			if (havepostfix) {
				putc(list[k].postfix, stderr);
				len++;
			}
			if (k + lines >= n) {
				putc('\n', stderr);
				break;
			}
			for (; len < width; len++)
				putc(' ', stderr);
		}
	}
}

/* A packed (unterminated) name as a string. */
static char *
name_dup(const char *name, size_t len)
{
	char *s = xmalloc(len + 1);

	memcpy(s, name, len);
	s[len] = '\0';
	return s;
}

static char
sel_prefix(const struct entry *e)
{
	return e != NULL && (e->flags & EF_SELECTED) ? '*' : ' ';
}

static void
ls_dir(struct entry *d)
{
	unsigned char *ents;
	struct lsent *list = NULL;
	size_t len = 0, n = 0, cap = 0;

	fprintf(stderr, "%s:\n", sym_path(d));
	ents = d->dir != NULL ? dirs_load(d->ino, &len) : NULL;
	if (ropt.verbose) {
		const struct entry *up = d->parent != NULL ? d->parent : d;

		cap = 16;
		list = xreallocarray(NULL, cap, sizeof(*list));
		/* 0.4b47 never marks these two. */
		list[n++] = (struct lsent){".", d->ino, ' ', '/'};
		list[n++] = (struct lsent){"..", up->ino, ' ', '/'};
	}
	for (size_t off = 0; ents != NULL && off < len;
	     off += PACKED_HDR + ents[off + 5]) {
		uint32_t ino;
		uint8_t nlen = ents[off + 5];
		char *name = (char *)ents + off + PACKED_HDR;
		struct entry *c;

		memcpy(&ino, ents + off, sizeof(ino));
		if (!ropt.debug && !map_test(dumpmap, dumpmap_len, ino))
			continue;
		c = sym_lookup_child(d, name, nlen);
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			list = xreallocarray(list, cap, sizeof(*list));
		}
		/* Names are packed back to back: copy to terminate. */
		list[n].name = name_dup(name, nlen);
		list[n].ino = ino;
		list[n].prefix = sel_prefix(c);
		list[n].postfix = type_suffix(ino, ents[off + 4]);
		n++;
	}
	print_columns(list, n);
	putc('\n', stderr);
	for (size_t i = ropt.verbose ? 2 : 0; i < n; i++)
		free((char *)list[i].name);
	free(list);
	free(ents);
}

/* A file lists as the name typed, marked like a directory's entries. */
static void
ls_leaf(const struct entry *e, const char *arg)
{
	struct lsent one;
	unsigned char *ents;
	size_t len = 0;
	uint8_t type = DT_TAPE_UNKNOWN;

	while (*arg == '/' || (arg[0] == '.' && arg[1] == '/'))
		arg += *arg == '/' ? 1 : 2;
	ents = dirs_load(e->parent->ino, &len);
	for (size_t off = 0; ents != NULL && off < len;
	     off += PACKED_HDR + ents[off + 5]) {
		if (ents[off + 5] == strlen(e->name) &&
		    memcmp(ents + off + PACKED_HDR, e->name, ents[off + 5]) ==
			0) {
			type = ents[off + 4];
			break;
		}
	}
	free(ents);
	one.name = arg;
	one.ino = e->ino;
	one.prefix = sel_prefix(e);
	one.postfix = type_suffix(e->ino, type);
	print_columns(&one, 1);
}

/* ls: a name not on the archive lists as nothing, as in 0.4b47. */
void
ish_ls(const char *arg)
{
	struct entry *e = ish_resolve(arg);

	if (e == NULL)
		return;
	if (e->type == E_NODE)
		ls_dir(e);
	else
		ls_leaf(e, arg);
}
