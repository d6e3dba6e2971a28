/*
 * interactive.c - restore -i: a small shell over the archive's tree.
 *
 * The directories are read first (dirs.c) and turned into the in-memory
 * tree of names (symtab.c); the shell then walks that tree: ls
 * (ishls.c), cd, pwd, add and delete only change EF_SELECTED flags, and
 * extract and setmodes (ishextract.c) hand the selection to the passes
 * -x uses.  Typed lines are cut into words by ishwords.c, names resolved and
 * globbed by ishnames.c.
 * Prompts and listings mirror restore 0.4b47 (restore.8, MODES): the
 * prompt and the echoed command go to stdout, everything the commands
 * say goes to stderr.  On a terminal lines come from readline, with completion of
 * archive names; otherwise plain lines are read and echoed after the
 * prompt, as 0.4b47's readline does.  EOF means quit.  The commands
 * are one table (name, shortest abbreviation 0.4b47 takes, handler, help
 * line): the dispatcher and help both read it.
 */
#include <err.h>
#include <errno.h>
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
#include "ish.h"
#include "xalloc.h"

static bool long_prompt;
static bool use_readline;
static FILE *cmdin;
static int session_rc = R_SUCCESS;

/* ---- cd, add, delete ---- */

static void
cmd_cd(const char *arg)
{
	struct entry *e = ish_resolve(arg);

	if (e == NULL) {
		ish_report(arg, " is not on the tape");
		return;
	}
	if (e->type != E_NODE) {
		ish_report(arg, ": not a directory");
		return;
	}
	ish_cwd = e;
}

static void
cmd_add(const char *arg)
{
	struct entry *e = ish_resolve(arg);

	if (e == NULL) {
		ish_report(arg, " is not on the tape");
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
	struct entry *e = ish_resolve(arg);

	if (e == NULL || !(e->flags & EF_SELECTED)) {
		ish_report(arg, ": not on extraction list");
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

static void
toggle(bool *flag, const char *what)
{
	*flag = !*flag;
	rmsg("%s mode %s\n", what, *flag ? "on" : "off");
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
			     ish_cwd == sym_root ? ""
						 : ish_slash_path(ish_cwd)) < 0)
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
			dir = ish_cwd;
		else {
			char *d = xmalloc(dirlen + 1);

			memcpy(d, text, dirlen);
			d[dirlen] = '\0';
			dir = ish_resolve(d);
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
		rl_completion_append_character = c->type == E_NODE ? '\0' : ' ';
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
	struct namelist l = {NULL, 0, 0};

	if (argc == 0)
		ish_nl_add(&l, xstrdup("."));
	for (int i = 0; i < argc; i++)
		ish_expand_arg(argv[i], &l);
	for (size_t i = 0; i < l.n; i++) {
		fn(l.v[i]);
		free(l.v[i]);
	}
	free(l.v);
}

/* ---- the command table ---- */

/* An answer to one of extract's questions: -q ends the run instead. */
static char *
operator_answer(void)
{
	ask_intervention();
	return read_answer();
}

static void
cmd_extract(void)
{
	if (ish_extract(operator_answer) != R_SUCCESS)
		session_rc = R_ERROR;
}

static void cmd_help(void);

static void
cmd_pwd(void)
{
	rmsg("%s\n", ish_slash_path(ish_cwd));
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
    {"ls", 1, false, ish_ls, NULL, "ls [arg]", "list directory"},
    {"cd", 1, false, cmd_cd, NULL, "cd arg", "change directory"},
    {"pwd", 1, false, NULL, cmd_pwd, "pwd", "print current directory"},
    {"add", 1, false, cmd_add, NULL, "add [arg]",
     "add `arg' to list of files to be extracted"},
    {"delete", 1, false, cmd_delete, NULL, "delete [arg]",
     "delete `arg' from list of files to be extracted"},
    {"extract", 1, false, NULL, cmd_extract, "extract",
     "extract requested files"},
    {"setmodes", 1, false, NULL, ish_setmodes, "setmodes",
     "set modes of requested directories"},
    {"quit", 1, false, NULL, NULL, "quit", "immediately exit program"},
    {"what", 1, false, NULL, cmd_what, "what", "list dump header information"},
    {"verbose", 1, false, NULL, cmd_verbose, "verbose",
     "toggle verbose flag (useful with ``ls'')"},
    {"prompt", 2, false, NULL, cmd_prompt, "prompt",
     "toggle the prompt display"},
    {"help", 1, false, NULL, cmd_help, "help or `?'", "print this list"},
    {"?", 1, true, NULL, cmd_help, NULL, NULL},
    {"xit", 1, false, NULL, NULL, NULL, NULL},
    {"Debug", 1, false, NULL, cmd_debug, NULL, NULL},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void
cmd_help(void)
{
	fputs("Available commands are:\n", stderr);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (commands[i].usage != NULL)
			rmsg("\t%s - %s\n", commands[i].usage,
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
		if (c->loose ? strncmp(word, c->name, c->minlen) == 0
			     : strncmp(word, c->name, len) == 0)
			return c;
	}
	return NULL;
}

/* Returns false when the shell should end. */
static bool
run_command(char *line)
{
	bool nonempty = line[0] != '\0'; /* before it is cut into words */
	char **argv;
	int argc = ish_split_words(line, &argv);
	const struct command *c;
	bool go_on = true;

	if (argc == 0) {
		/* 0.4b47 ignores an empty line but not one of blanks */
		if (nonempty)
			rmsg(": unknown command; type ? for help\n");
		free(argv);
		return true;
	}
	c = find_command(argv[0]);
	if (c == NULL)
		rmsg("%s: unknown command; type ? for help\n", argv[0]);
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
	ish_cwd = sym_root;
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
