/*
 * interactive.c - restore -i: a small shell over the archive's tree.
 *
 * The directories are read first (dirs.c) and turned into the in-memory
 * tree of names (symtab.c); the shell then walks that tree: ls, cd, pwd,
 * add and delete only change EF_SELECTED flags, and extract hands the
 * selection to the same passes -x uses (extract.c).  The archive is read
 * as one stream: each further extract reads it again from volume 1
 * (tape_restart(), after 0.4b47's volume questions); an inode extracted
 * before under a name not selected now gets the new names as hard links.
 * Prompts and listings mirror restore 0.4b47 (restore.8, MODES): the prompt and
 * the echoed command go to stdout, everything the commands say goes to
 * stderr.  On a terminal lines come from readline, with completion of
 * archive names; otherwise plain lines are read and echoed after the
 * prompt, as 0.4b47's readline does.  EOF means quit.  The commands
 * are one table (name, shortest abbreviation 0.4b47 takes, handler, help
 * line): the dispatcher and help both read it.
 */
#include <err.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_READLINE
#include <readline/readline.h>
#include <readline/history.h>
#endif

#include "restore.h"
#include "extern.h"
#include "symfile.h"
#include "xalloc.h"

/* Packed entry layout of dirs.c: ino (4), type (1), namlen (1), name. */
#define PACKED_HDR	6
/* ls fills lines of this many columns (0.4b47 divides 81 by the width). */
#define LS_COLUMNS	81

/* One name printed by ls. */
struct lsent {
	const char *name;
	uint32_t ino;
	char prefix, postfix;
};

static struct entry *cwd;
static bool long_prompt;
static bool extracted;
static bool use_readline;
static FILE *cmdin;
static int session_rc = R_SUCCESS;

/* "/" or "/a/b" for an entry; valid until the next sym_path() call. */
static const char *
slash_path(const struct entry *e)
{
	const char *p = sym_path(e);

	return p[1] == '\0' ? "/" : p + 1;
}

static bool
has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Resolve a name typed at the prompt: absolute from the root, else from
 * the current directory; "." and ".." are understood. */
static struct entry *
resolve(const char *arg)
{
	struct entry *e = arg[0] == '/' ? sym_root : cwd;

	while (e != NULL && *arg != '\0') {
		const char *end;
		size_t n;

		while (*arg == '/')
			arg++;
		end = strchrnul(arg, '/');
		n = (size_t)(end - arg);
		if (n == 0)
			break;
		if (n == 2 && arg[0] == '.' && arg[1] == '.')
			e = e->parent != NULL ? e->parent : e;
		else if (!(n == 1 && arg[0] == '.'))
			e = e->type == E_NODE ? sym_lookup_child(e, arg, n) :
			    NULL;
		arg = end;
	}
	return e;
}

/* The "./a/b" spelling 0.4b47 uses in messages about a typed name. */
static char *
canon(const char *arg)
{
	size_t cap = strlen(sym_path(cwd)) + strlen(arg) + 3;
	char *out = xmalloc(cap);
	size_t len;

	if (arg[0] == '/')
		strcpy(out, ".");
	else
		strcpy(out, sym_path(cwd));
	len = strlen(out);
	while (*arg != '\0') {
		const char *end;
		size_t n;

		while (*arg == '/')
			arg++;
		end = strchrnul(arg, '/');
		n = (size_t)(end - arg);
		if (n == 2 && arg[0] == '.' && arg[1] == '.') {
			while (len > 1 && out[len - 1] != '/')
				len--;
			if (len > 1)
				len--;
			out[len] = '\0';
		} else if (n > 0 && !(n == 1 && arg[0] == '.')) {
			out[len++] = '/';
			memcpy(out + len, arg, n);
			len += n;
			out[len] = '\0';
		}
		arg = end;
	}
	return out;
}

static void
not_on_tape(const char *arg)
{
	char *c = canon(arg);

	fprintf(stderr, "%s is not on the tape\n", c);
	free(c);
}

/* ---- glob expansion over the tree ---- */

struct namelist {
	char **v;
	size_t n, cap;
};

static void
nl_add(struct namelist *l, char *s)
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
		    done[0] != '\0' && done[strlen(done) - 1] != '/' &&
		    rest[0] != '\0' ? "/" : "", rest);
		nl_add(out, next);
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
		(void)snprintf(next, len, "%s%s%s", done,
		    done[0] != '\0' && done[strlen(done) - 1] != '/' ?
		    "/" : "", comp);
		expand(next, end, out);
		free(next);
		free(comp);
		return;
	}
	dir = resolve(done[0] != '\0' ? done : ".");
	if (dir != NULL && dir->type == E_NODE) {
		for (struct entry *c = dir->child; c != NULL; c = c->sibling) {
			size_t len;

			if (fnmatch(comp, c->name, FNM_PERIOD) != 0)
				continue;
			len = strlen(done) + strlen(c->name) + 2;
			next = xmalloc(len);
			(void)snprintf(next, len, "%s%s%s", done,
			    done[0] != '\0' && done[strlen(done) - 1] != '/' ?
			    "/" : "", c->name);
			expand(next, end, out);
			free(next);
		}
	}
	free(comp);
}

/* The names an argument stands for, sorted as glob(3) sorts them; an
 * argument matching nothing stands for itself. */
static void
expand_arg(const char *arg, struct namelist *out)
{
	size_t before = out->n;

	if (!has_glob(arg)) {
		nl_add(out, xstrdup(arg));
		return;
	}
	expand(arg[0] == '/' ? "/" : "", arg, out);
	if (out->n == before)
		nl_add(out, xstrdup(arg));
	else
		qsort(out->v + before, out->n - before, sizeof(*out->v),
		    cmp_str);
}

/* ---- ls ---- */

static char
type_suffix(uint32_t ino, uint8_t type)
{
	if (dirs_is_dir(ino))
		return '/';
	switch (type) {
	case DT_TAPE_DIR:	return '/';
	case DT_TAPE_LNK:	return '@';
	case DT_TAPE_FIFO:
	case DT_TAPE_SOCK:	return '=';
	case DT_TAPE_CHR:
	case DT_TAPE_BLK:	return '#';
	default:		return ' ';
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
		int digits = snprintf(NULL, 0, "%lu",
		    (unsigned long)list[i].ino);

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
				len += (size_t)fprintf(stderr, "%*lu ",
				    precision, (unsigned long)list[k].ino);
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
		list[n++] = (struct lsent){ ".", d->ino, ' ', '/' };
		list[n++] = (struct lsent){ "..", up->ino, ' ', '/' };
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
		if (ents[off + 5] == strlen(e->name) && memcmp(ents + off +
		    PACKED_HDR, e->name, ents[off + 5]) == 0) {
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

/* A name not on the archive lists as nothing, as in 0.4b47. */
static void
cmd_ls(const char *arg)
{
	struct entry *e = resolve(arg);

	if (e == NULL)
		return;
	if (e->type == E_NODE)
		ls_dir(e);
	else
		ls_leaf(e, arg);
}

/* ---- the other commands ---- */

static void
cmd_cd(const char *arg)
{
	struct entry *e = resolve(arg);

	if (e == NULL) {
		not_on_tape(arg);
		return;
	}
	if (e->type != E_NODE) {
		char *c = canon(arg);

		fprintf(stderr, "%s: not a directory\n", c);
		free(c);
		return;
	}
	cwd = e;
}

static void
cmd_add(const char *arg)
{
	struct entry *e = resolve(arg);

	if (e == NULL) {
		not_on_tape(arg);
		return;
	}
	select_tree(e);
	/* 0.4b47 marks the directories on the way as well. */
	for (struct entry *p = e->parent; p != NULL; p = p->parent)
		p->flags |= EF_SELECTED;
}

static void
cmd_delete(const char *arg)
{
	struct entry *e = resolve(arg);

	if (e == NULL || !(e->flags & EF_SELECTED)) {
		char *c = canon(arg);

		fprintf(stderr, "%s: not on extraction list\n", c);
		free(c);
		return;
	}
	e->flags &= (uint16_t)~EF_SELECTED;
	if (ropt.hflag)
		return;
	for (struct entry *x = e; x != NULL; x = sym_next(e, x))
		x->flags &= (uint16_t)~EF_SELECTED;
}

/* The next line from the operator, without its newline; NULL at EOF. */
static char *
read_answer(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	fflush(stderr);
	len = getline(&line, &cap, cmdin);
	if (len <= 0) {
		free(line);
		return NULL;
	}
	if (line[len - 1] == '\n')
		line[len - 1] = '\0';
	return line;
}

/* The volume question of 0.4b47; false when the operator says none. */
static bool
ask_volume(void)
{
	if (ropt.aflag)
		return true;
	for (;;) {
		char *ans, *end;
		long v;

		/* repeated with every question, as 0.4b47 does */
		fprintf(stderr, "You have not read any volumes yet.\n"
		    "Unless you know which volume your file(s) are on you "
		    "should start\nwith the last volume and work towards "
		    "the first.\n");
		fprintf(stderr, "Specify next volume # (none if no more "
		    "volumes): ");
		if ((ans = read_answer()) == NULL) {
			putc('\n', stderr);
			return false;
		}
		if (strcmp(ans, "none") == 0) {
			free(ans);
			return false;
		}
		errno = 0;
		v = strtol(ans, &end, 10);
		if (errno == 0 && end != ans && *end == '\0' && v > 0) {
			free(ans);
			return true;
		}
		fprintf(stderr, "Volume numbers are positive numerics\n");
		free(ans);
	}
}

/* "Mount tape volume 1" of 0.4b47 before the archive is read again: the
 * name to open (malloc'ed), or NULL when the operator says none or
 * (*eof set) input ends. */
static char *
ask_first_volume(bool *eof)
{
	char *dflt = volume_first_name(), *ans;

	fprintf(stderr, "Mount tape volume 1\n"
	    "Enter ``none'' if there are no more tapes\n"
	    "otherwise enter tape name (default: %s) ", dflt);
	if ((ans = read_answer()) == NULL) {
		putc('\n', stderr);
		*eof = true;
	}
	if (ans == NULL || strcmp(ans, "none") == 0) {
		free(ans);
		free(dflt);
		return NULL;
	}
	if (ans[0] == '\0') {
		free(ans);
		return dflt;
	}
	free(dflt);
	return ans;
}

/* Open the archive again for a further extract; false when it cannot
 * be or the operator gives up. */
static bool
reread_archive(void)
{
	if (ropt.from_stdin) {
		fprintf(stderr, "Standard input cannot be read again: leave "
		    "restore and start again to extract more\n");
		return false;
	}
	for (;;) {
		char *name;
		bool ok, eof = false;

		if (!ask_volume())
			return false;
		/* "none" here asks for the volume number again. */
		if ((name = ask_first_volume(&eof)) == NULL) {
			if (eof)
				return false;
			continue;
		}
		ok = tape_restart(name);
		free(name);
		if (ok) {
			dirs_skip();
			return true;
		}
	}
}

/* Names to extract again start afresh; a selected name whose inode an
 * earlier extract made under another name becomes a link to it (as in
 * 0.4b47), so it is hidden from extract_files(): the names hidden are
 * returned, to be selected again for extract_links(). */
static struct entry **
hide_linked(size_t *np)
{
	struct entry **hidden = NULL;
	size_t n = 0, cap = 0;

	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		if (e->type == E_LEAF && (e->flags & EF_SELECTED))
			e->flags &= (uint16_t)~EF_DONE;
	/* Each inode once, from its first name: one pass over its names
	 * finds whether one is done, a second hides the selected ones. */
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e)) {
		struct entry *p;

		if (sym_lookup_ino(e->ino) != e)
			continue;
		for (p = e; p != NULL; p = p->links)
			if (p->flags & EF_DONE)
				break;
		if (p == NULL)
			continue;
		for (p = e; p != NULL; p = p->links) {
			if (p->type != E_LEAF || !(p->flags & EF_SELECTED))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				hidden = xreallocarray(hidden, cap,
				    sizeof(*hidden));
			}
			hidden[n++] = p;
		}
	}
	for (size_t i = 0; i < n; i++)
		hidden[i]->flags &= (uint16_t)~EF_SELECTED;
	*np = n;
	return hidden;
}

static void
cmd_extract(void)
{
	bool root, verbose;
	struct entry **hidden;
	size_t nhidden;

	msg_verbose("Extract requested files\n");
	if (extracted ? !reread_archive() : !ask_volume())
		return;
	extracted = true;
	if (!ropt.Nflag && target_fd < 0)
		target_open();
	/* 0.4b47 -i makes the directories silently, even with verbose. */
	verbose = ropt.verbose;
	ropt.verbose = false;
	extract_make_dirs();
	ropt.verbose = verbose;
	hidden = hide_linked(&nhidden);
	extract_files();
	for (size_t i = 0; i < nhidden; i++)
		hidden[i]->flags |= EF_SELECTED;
	free(hidden);
	extract_links();
	if (ropt.oflag)
		root = true;
	else if (ropt.Nflag || ropt.mflag)
		root = false;
	else
		root = ask_yn("set owner/mode for '.'");
	extract_dirmodes(root);
	extract_flags();
	extract_sync();
	/* Once extracted, nothing is selected any more (0.4b47's ls). */
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		e->flags &= (uint16_t)~EF_SELECTED;
	tape_drain();
	if (tape_truncated())
		fprintf(stderr, "Input ended before the end-of-dump record: "
		    "the archive is truncated\n");
	if (extract_errors() > 0 || tape_had_error() || tape_resynced() ||
	    tape_truncated() || dirs_refused() > 0)
		session_rc = R_ERROR;
}

static void
cmd_setmodes(void)
{
	if (!ropt.Nflag && target_fd < 0)
		target_open();
	/* An explicit request: 0.4b47 sets '.' too without asking, and
	 * the directories are then no longer marked for extraction. */
	extract_dirmodes(!ropt.Nflag && !ropt.mflag);
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		if (e->type == E_NODE)
			e->flags &= (uint16_t)~EF_SELECTED;
}

static void
toggle(bool *flag, const char *what)
{
	*flag = !*flag;
	fprintf(stderr, "%s mode %s\n", what, *flag ? "on" : "off");
}

/* ---- reading commands ---- */

static char *
make_prompt(void)
{
	char *p;

	if (long_prompt) {
		char fs[NAMELEN + 1];

		memcpy(fs, tapehdr.s_spcl.c_filesys, NAMELEN);
		fs[NAMELEN] = '\0';
		/* The root shows as nothing here, unlike pwd's "/". */
		if (asprintf(&p, "%s:%s:%s > ", program_invocation_name, fs,
		    cwd == sym_root ? "" : slash_path(cwd)) < 0)
			err(R_ERROR, "prompt");
	} else if (asprintf(&p, "%s > ", program_invocation_name) < 0)
		err(R_ERROR, "prompt");
	return p;
}

#ifdef HAVE_READLINE
/* Complete archive names relative to the current directory. */
static char *
complete_name(const char *text, int state)
{
	static struct entry *dir, *next;
	static size_t dirlen;
	const char *slash = strrchr(text, '/');
	const char *base = slash != NULL ? slash + 1 : text;

	if (state == 0) {
		next = NULL;
		dirlen = slash != NULL ? (size_t)(slash - text) + 1 : 0;
		if (slash == NULL)
			dir = cwd;
		else {
			char *d = xmalloc(dirlen + 1);

			memcpy(d, text, dirlen);
			d[dirlen] = '\0';
			dir = resolve(d);
			free(d);
		}
		if (dir != NULL && dir->type == E_NODE)
			next = dir->child;
	}
	for (; next != NULL; next = next->sibling) {
		struct entry *c = next;
		char *out;
		size_t len;

		if (strncmp(c->name, base, strlen(base)) != 0)
			continue;
		next = c->sibling;
		len = dirlen + strlen(c->name) + 2;
		out = xmalloc(len);
		memcpy(out, text, dirlen);
		(void)snprintf(out + dirlen, len - dirlen, "%s%s", c->name,
		    c->type == E_NODE ? "/" : "");
		rl_completion_append_character = c->type == E_NODE ? '\0' :
		    ' ';
		return out;
	}
	return NULL;
}
#endif

/* One command line, malloc'ed; NULL at EOF. */
static char *
get_line(void)
{
	char *prompt = make_prompt(), *line;

#ifdef HAVE_READLINE
	if (use_readline) {
		line = readline(prompt);
		if (line != NULL && *line != '\0')
			add_history(line);
		if (line == NULL)
			putchar('\n');
		free(prompt);
		return line;
	}
#endif
	fputs(prompt, stdout);
	fflush(stdout);
	line = read_answer();
	/* 0.4b47's readline echoes what it read when not on a terminal. */
	printf("%s\n", line != NULL ? line : "");
	fflush(stdout);
	free(prompt);
	return line;
}

/* Run one argument-taking command over every name the arguments give. */
static void
for_args(char **argv, int argc, void (*fn)(const char *))
{
	struct namelist l = { NULL, 0, 0 };

	if (argc == 0)
		nl_add(&l, xstrdup("."));
	for (int i = 0; i < argc; i++)
		expand_arg(argv[i], &l);
	for (size_t i = 0; i < l.n; i++) {
		fn(l.v[i]);
		free(l.v[i]);
	}
	free(l.v);
}

/* Split a line into words at blanks; the words point into line. */
static int
split(char *line, char ***argvp)
{
	char **v = NULL;
	int n = 0;
	size_t cap = 0;

	for (char *tok = strtok(line, " \t"); tok != NULL;
	    tok = strtok(NULL, " \t")) {
		if ((size_t)n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n++] = tok;
	}
	*argvp = v;
	return n;
}

/* ---- the command table ---- */

static void cmd_help(void);

static void
cmd_pwd(void)
{
	fprintf(stderr, "%s\n", slash_path(cwd));
}

static void
cmd_what(void)
{
	print_dump_info(&tapehdr.s_spcl);
	fflush(stdout);
}

static void
cmd_verbose(void)
{
	toggle(&ropt.verbose, "verbose");
}

static void
cmd_prompt(void)
{
	toggle(&long_prompt, "prompt");
}

static void
cmd_debug(void)
{
	toggle(&ropt.debug, "debugging");
}

/*
 * What the shell accepts, in the order help lists it.  A typed word
 * names a command when it is a prefix of the name at least minlen long
 * (0.4b47 tells commands apart by their first letter, "pr" from "pwd");
 * with loose set, the first minlen characters alone decide, as 0.4b47
 * takes any word starting with '?' for help.  A command takes either
 * arguments (each_arg, called for every name they expand to, "." when
 * none) or none (run); one with neither ends the shell.  Entries with
 * no usage are accepted but not listed by help.
 */
struct command {
	const char *name;
	size_t minlen;
	bool loose;
	void (*each_arg)(const char *arg);
	void (*run)(void);
	const char *usage;
	const char *help;
};

static const struct command commands[] = {
	{ "ls", 1, false, cmd_ls, NULL, "ls [arg]", "list directory" },
	{ "cd", 1, false, cmd_cd, NULL, "cd arg", "change directory" },
	{ "pwd", 1, false, NULL, cmd_pwd, "pwd",
	    "print current directory" },
	{ "add", 1, false, cmd_add, NULL, "add [arg]",
	    "add `arg' to list of files to be extracted" },
	{ "delete", 1, false, cmd_delete, NULL, "delete [arg]",
	    "delete `arg' from list of files to be extracted" },
	{ "extract", 1, false, NULL, cmd_extract, "extract",
	    "extract requested files" },
	{ "setmodes", 1, false, NULL, cmd_setmodes, "setmodes",
	    "set modes of requested directories" },
	{ "quit", 1, false, NULL, NULL, "quit",
	    "immediately exit program" },
	{ "what", 1, false, NULL, cmd_what, "what",
	    "list dump header information" },
	{ "verbose", 1, false, NULL, cmd_verbose, "verbose",
	    "toggle verbose flag (useful with ``ls'')" },
	{ "prompt", 2, false, NULL, cmd_prompt, "prompt",
	    "toggle the prompt display" },
	{ "help", 1, false, NULL, cmd_help, "help or `?'",
	    "print this list" },
	{ "?", 1, true, NULL, cmd_help, NULL, NULL },
	{ "xit", 1, false, NULL, NULL, NULL, NULL },
	{ "Debug", 1, false, NULL, cmd_debug, NULL, NULL },
};

#define NCOMMANDS	(sizeof(commands) / sizeof(commands[0]))

static void
cmd_help(void)
{
	fputs("Available commands are:\n", stderr);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (commands[i].usage != NULL)
			fprintf(stderr, "\t%s - %s\n", commands[i].usage,
			    commands[i].help);
	fputs("If no `arg' is supplied, the current directory is used\n",
	    stderr);
}

/* The command the typed word names, NULL if none. */
static const struct command *
find_command(const char *word)
{
	size_t len = strlen(word);

	for (size_t i = 0; i < NCOMMANDS; i++) {
		const struct command *c = &commands[i];

		if (len < c->minlen)
			continue;
		if (c->loose ? strncmp(word, c->name, c->minlen) == 0 :
		    strncmp(word, c->name, len) == 0)
			return c;
	}
	return NULL;
}

/* Returns false when the shell should end. */
static bool
run_command(char *line)
{
	bool nonempty = line[0] != '\0';	/* before split() cuts it */
	char **argv;
	int argc = split(line, &argv);
	const struct command *c;
	bool go_on = true;

	if (argc == 0) {
		/* 0.4b47 ignores an empty line but not one of blanks */
		if (nonempty)
			fprintf(stderr, ": unknown command; type ? for help\n");
		free(argv);
		return true;
	}
	c = find_command(argv[0]);
	if (c == NULL)
		fprintf(stderr, "%s: unknown command; type ? for help\n",
		    argv[0]);
	else if (c->each_arg != NULL)
		for_args(argv + 1, argc - 1, c->each_arg);
	else if (c->run != NULL)
		c->run();
	else
		go_on = false;
	free(argv);
	return go_on;
}

int
interactive_run(void)
{
	char *line;

	dirs_read();
	dirs_build_tree();
	cwd = sym_root;
	cmdin = stdin;
	/* With the archive on standard input the operator is on the
	 * terminal; without one there is nobody to ask: as at EOF. */
	if (ropt.from_stdin && (cmdin = fopen("/dev/tty", "r")) == NULL) {
		warn("cannot open /dev/tty");
		return R_SUCCESS;
	}
#ifdef HAVE_READLINE
	use_readline = isatty(fileno(cmdin));
	if (use_readline) {
		rl_instream = cmdin;
		rl_readline_name = "restore";
		rl_completion_entry_function = complete_name;
	}
#endif
	while ((line = get_line()) != NULL) {
		bool go_on = run_command(line);

		free(line);
		fflush(stdout);
		if (!go_on)
			break;
	}
	return session_rc;
}
