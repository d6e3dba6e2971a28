/*
 * list.c - restore -t: print the names on the archive.
 *
 * Lines are 0.4b47's: "%10lu\t./path" (root "."), with -v prefixed by
 * "dir " or "leaf", ended by a newline or, with -0, a NUL.  Names in an
 * encrypted directory (ciphertext) are listed with unprintable bytes
 * escaped as \ooo; all others raw, as 0.4b47 lists them.  Only inodes in
 * the dump map are printed; the walk is depth-first in on-tape order.
 * It reads the directories straight from dirs.c's (spilled) arena and
 * builds no tree of names, so listing a huge archive costs little memory:
 * only the entries of the directories on the current path are held.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "xalloc.h"

/* Bytes an escaped byte takes at most: "\ooo". */
#define ESCAPED_LEN 4

struct frame {
	uint32_t ino;
	unsigned char *ents;
	size_t len, pos;
	size_t pathlen; /* path length of this directory */
	bool encrypted; /* names are ciphertext: list them escaped */
};

static char *path;
static size_t path_cap;

static void
path_set(size_t at, const char *name, size_t len)
{
	if (at + len + 2 > path_cap) {
		path_cap = (at + len + 2) * 2;
		path = xrealloc(path, path_cap);
	}
	path[at] = '/';
	memcpy(path + at + 1, name, len);
	path[at + 1 + len] = '\0';
}

/*
 * Append a name of an encrypted directory: ciphertext, any byte but NUL
 * and '/', so it is written with bytes that are not printable as \ooo
 * (one line per name, nothing raw on a terminal).  Returns the path
 * length.
 */
static size_t
path_set_escaped(size_t at, const char *name, size_t len)
{
	size_t o = at + 1;

	if (at + len * ESCAPED_LEN + 2 > path_cap) {
		path_cap = (at + len * ESCAPED_LEN + 2) * 2;
		path = xrealloc(path, path_cap);
	}
	path[at] = '/';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (isprint(c) && c != '\\')
			path[o++] = (char)c;
		else
			o += (size_t)sprintf(path + o, "\\%03o", c);
	}
	path[o] = '\0';
	return o;
}

static void
list_one(uint32_t ino, bool dir)
{
	if (!map_test(dumpmap, dumpmap_len, ino))
		return;
	if (ropt.verbose)
		fputs(dir ? "dir " : "leaf", stdout);
	printf("%10lu\t%s", (unsigned long)ino, path);
	putchar(ropt.nulterm ? '\0' : '\n');
}

/* List path (already in the buffer) and, unless -h, what is below. */
static void
list_tree(uint32_t ino, bool dir)
{
	struct frame *st = NULL;
	size_t depth = 0, cap = 0;

	list_one(ino, dir);
	if (ropt.hflag || !dirs_is_dir(ino))
		return;
	cap = 16;
	st = xreallocarray(NULL, cap, sizeof(*st));
	st[0].ino = ino;
	st[0].encrypted = dirs_encrypted(ino);
	st[0].ents = dirs_load(ino, &st[0].len);
	st[0].pos = 0;
	st[0].pathlen = strlen(path);
	depth = 1;
	while (depth > 0) {
		struct frame *f = &st[depth - 1];
		uint32_t cino;
		uint8_t type, nlen;
		size_t pos, pathlen;
		bool sub;

		if (f->pos >= f->len) {
			free(f->ents);
			depth--;
			continue;
		}
		pos = f->pos;
		memcpy(&cino, f->ents + pos, sizeof(cino));
		type = f->ents[pos + 4];
		nlen = f->ents[pos + 5];
		if (f->encrypted)
			pathlen = path_set_escaped(
			    f->pathlen,
			    (const char *)f->ents + pos + PACKED_HDR, nlen);
		else {
			path_set(f->pathlen,
				 (const char *)f->ents + pos + PACKED_HDR,
				 nlen);
			/* Not strlen(path): that would make a deep tree
			 * cost its depth squared. */
			pathlen = f->pathlen + 1 + nlen;
		}
		f->pos += PACKED_HDR + nlen;
		sub = dirs_is_dir(cino);
		if (sub && !dirs_kept_name(f->ino, pos, cino))
			continue; /* refused when the archive was read */
		list_one(cino, sub || type == DT_TAPE_DIR);
		if (!sub) {
			dirs_report_missing(path, cino, type);
			continue;
		}
		if (depth == cap) {
			cap *= 2;
			st = xreallocarray(st, cap, sizeof(*st));
		}
		st[depth].pathlen = pathlen;
		st[depth].ino = cino;
		st[depth].encrypted = dirs_encrypted(cino);
		st[depth].ents = dirs_load(cino, &st[depth].len);
		st[depth].pos = 0;
		depth++;
	}
	free(st);
}

/* Find a command-line name by walking the directories; sets path. */
static bool
lookup(const char *name, uint32_t *inop, bool *dirp)
{
	uint32_t ino = ROOTINO;
	bool dir = true;
	const char *comp;
	size_t n;

	path_set(0, "", 0);
	path[0] = '.';
	while ((comp = sym_next_component(&name, &n)) != NULL) {
		unsigned char *ents;
		size_t len, off;
		bool found = false;

		if (!dir || (ents = dirs_load(ino, &len)) == NULL)
			return false;
		for (off = 0; off < len; off += PACKED_HDR + ents[off + 5]) {
			if (ents[off + 5] == n &&
			    memcmp(ents + off + PACKED_HDR, comp, n) == 0) {
				memcpy(&ino, ents + off, sizeof(ino));
				dir = dirs_is_dir(ino) ||
				    ents[off + 4] == DT_TAPE_DIR;
				found = true;
				break;
			}
		}
		free(ents);
		if (!found)
			return false;
		path_set(strlen(path), comp, n);
	}
	*inop = ino;
	*dirp = dir;
	return true;
}

void
list_names(char **names, int nnames)
{
	uint32_t ino;
	bool dir;

	if (nnames == 0) {
		(void)lookup(".", &ino, &dir);
		list_tree(ino, dir);
		return;
	}
	for (int i = 0; i < nnames; i++) {
		if (!lookup(names[i], &ino, &dir)) {
			fflush(stdout);
			sym_not_on_tape(names[i]);
			continue;
		}
		list_tree(ino, dir);
	}
}
