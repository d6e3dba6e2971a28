/*
 * ishnames.c - restore -i: names as the operator types them.
 *
 * A typed name is resolved in the tree of names (symtab.c) from the
 * root when absolute, else from the shell's current directory ("." and
 * ".." understood); messages spell it "./a/b" as 0.4b47 does; and glob
 * patterns are expanded over the tree, sorted as glob(3) sorts them.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "ish.h"
#include "xalloc.h"

struct entry *ish_cwd;

/* "/" or "/a/b" for an entry; valid until the next sym_path() call. */
const char *
ish_slash_path(const struct entry *e)
{
	const char *p = sym_path(e);

	return p[1] == '\0' ? "/" : p + 1;
}

static bool
has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static struct entry *
resolve(const char *arg)
{
	struct entry *e = arg[0] == '/' ? sym_root : ish_cwd;
	const char *comp;
	size_t n;

	while (e != NULL && (comp = sym_next_component(&arg, &n)) != NULL) {
		if (n == 2 && comp[0] == '.' && comp[1] == '.')
			e = e->parent != NULL ? e->parent : e;
		else
			e = e->type == E_NODE ? sym_lookup_child(e, comp, n)
					      : NULL;
	}
	return e;
}

/* Resolve a name typed at the prompt: absolute from the root, else from
 * the current directory; "." and ".." are understood.  A name not found
 * as typed is tried with its \ooo escapes undone (as -t and ls list
 * encrypted names). */
struct entry *
ish_resolve(const char *arg)
{
	return sym_lookup_escaped(resolve, arg);
}

/* The "./a/b" spelling 0.4b47 uses in messages about a typed name. */
static char *
ish_canon(const char *arg)
{
	size_t cap = strlen(sym_path(ish_cwd)) + strlen(arg) + 3;
	char *out = xmalloc(cap);
	const char *comp;
	size_t len, n;

	if (arg[0] == '/')
		strcpy(out, ".");
	else
		strcpy(out, sym_path(ish_cwd));
	len = strlen(out);
	while ((comp = sym_next_component(&arg, &n)) != NULL) {
		if (n == 2 && comp[0] == '.' && comp[1] == '.') {
			while (len > 1 && out[len - 1] != '/')
				len--;
			if (len > 1)
				len--;
			out[len] = '\0';
		} else {
			out[len++] = '/';
			memcpy(out + len, comp, n);
			len += n;
			out[len] = '\0';
		}
	}
	return out;
}

/* A message about a typed name: its "./a/b" spelling, then what. */
void
ish_report(const char *arg, const char *what)
{
	char *c = ish_canon(arg);

	rmsg("%s%s\n", c, what);
	free(c);
}

/* ---- glob expansion over the tree ---- */

void
ish_nl_add(struct namelist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Expand the components of rest below the typed prefix done. */
static void
expand(const char *done, const char *rest, struct namelist *out)
{
	const char *end;
	char *comp, *next;
	struct entry *dir;
	size_t n;

	while (*rest == '/')
		rest++;
	if (!has_glob(rest)) {
		size_t len = strlen(done) + strlen(rest) + 2;

		next = xmalloc(len);
		(void)snprintf(next, len, "%s%s%s", done,
			       done[0] != '\0' &&
				       done[strlen(done) - 1] != '/' &&
				       rest[0] != '\0'
				   ? "/"
				   : "",
			       rest);
		ish_nl_add(out, next);
		return;
	}
	end = strchrnul(rest, '/');
	n = (size_t)(end - rest);
	comp = xmalloc(n + 1);
	memcpy(comp, rest, n);
	comp[n] = '\0';
	if (!has_glob(comp)) {
		size_t len = strlen(done) + n + 2;

		next = xmalloc(len);
		(void)snprintf(
		    next, len, "%s%s%s", done,
		    done[0] != '\0' && done[strlen(done) - 1] != '/' ? "/" : "",
		    comp);
		expand(next, end, out);
		free(next);
		free(comp);
		return;
	}
	dir = ish_resolve(done[0] != '\0' ? done : ".");
	if (dir != NULL && dir->type == E_NODE) {
		for (struct entry *c = dir->child; c != NULL; c = c->sibling) {
			size_t len;

			if (fnmatch(comp, c->name, FNM_PERIOD) != 0)
				continue;
			len = strlen(done) + strlen(c->name) + 2;
			next = xmalloc(len);
			(void)snprintf(next, len, "%s%s%s", done,
				       done[0] != '\0' &&
					       done[strlen(done) - 1] != '/'
					   ? "/"
					   : "",
				       c->name);
			expand(next, end, out);
			free(next);
		}
	}
	free(comp);
}

/* The names an argument stands for, sorted as glob(3) sorts them; an
 * argument matching nothing stands for itself. */
void
ish_expand_arg(const char *arg, struct namelist *out)
{
	size_t before = out->n;

	if (!has_glob(arg)) {
		ish_nl_add(out, xstrdup(arg));
		return;
	}
	expand(arg[0] == '/' ? "/" : "", arg, out);
	if (out->n == before)
		ish_nl_add(out, xstrdup(arg));
	else
		qsort(out->v + before, out->n - before, sizeof(*out->v),
		      cmp_str);
}
