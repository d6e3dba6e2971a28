/*
 * main.c - restore's command line: options (and the old key-letter form)
 * into struct ropts, then one function per mode.
 *
 * Modes: -t list, -x extract, -r rebuild into the current directory,
 * -C compare, -i the interactive shell (interactive.c), -R finish an
 * interrupted -r (resume.c), -P write a QFA file (qfa.c, which
 * also handles -A and -Q).  Exit statuses are those
 * of restore.8, EXIT STATUS (exitcodes.h).
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "exitcodes.h"
#include "symfile.h"
#include "xalloc.h"

#define OPTSTRING "0aA:b:cCdD:eE:f:F:hH:ilL:mMNoP:Q:qrRs:tT:uvVxX:y"
/* Key letters of the old syntax that take the next word as argument. */
#define OLD_ARG_LETTERS "AbDfFHLQsTX"
/* getopt_long's values for the options without a letter */
enum {
	OPT_NO_DOT = 256,
	OPT_IGNORE_ZFLAG,
	OPT_VERIFY,
};
/* --debug's bit of -d's output; without a value --debug is -d */
#define DEBUG_PLAIN 0x1UL
#define HEX	    16

/*
 * 0.4b56's long names, in its order (getopt_long lists the candidates
 * of an ambiguous prefix in this order); each letter's under the
 * letter's value, so that one switch handles both spellings.  The
 * modes (C, i, P, R, r, t, x) have none, in 0.4b56 either.
 */
static const struct option long_opts[] = {
    {"no-set-curr-dir-perms", no_argument, NULL, OPT_NO_DOT},
    {"ignore-compression-flag-for-0.4b45-dumps", no_argument, NULL,
     OPT_IGNORE_ZFLAG},
    /* ours: a mode without a letter (upstream may take any free one) */
    {"verify", no_argument, NULL, OPT_VERIFY},
    {"archive-file", required_argument, NULL, 'A'},
    {"no-ask-volume", no_argument, NULL, 'a'},
    {"block-size", required_argument, NULL, 'b'},
    {"old-format", no_argument, NULL, 'c'},
    {"debug", optional_argument, NULL, 'd'},
    {"filesystem-name", required_argument, NULL, 'D'},
    {"input-file", required_argument, NULL, 'f'},
    {"sot-script", required_argument, NULL, 'F'},
    {"no-hierarchical-restore", no_argument, NULL, 'h'},
    {"hash-size", required_argument, NULL, 'H'},
    {"max-miscompares", required_argument, NULL, 'L'},
    {"extract-by-inode", no_argument, NULL, 'm'},
    {"multivolume", no_argument, NULL, 'M'},
    {"no-write", no_argument, NULL, 'N'},
    {"set-curr-dir-perms", no_argument, NULL, 'o'},
    {"abort-on-intervention", no_argument, NULL, 'q'},
    {"QFAfile", required_argument, NULL, 'Q'},
    {"read-from-tape-fileno", required_argument, NULL, 's'},
    {"tmp-dir", required_argument, NULL, 'T'},
    {"unlink-existing", no_argument, NULL, 'u'},
    {"verbose", no_argument, NULL, 'v'},
    {"multi-volume-non-tape-medium", no_argument, NULL, 'V'},
    {"extractlist-file", required_argument, NULL, 'X'},
    {"no-abort-on-error", no_argument, NULL, 'y'},
    {"zero-terminator", no_argument, NULL, '0'},
    {NULL, 0, NULL, 0},
};

struct ropts ropt;

static char **names;
static int nnames, names_cap;

static void __attribute__((noreturn)) usage(void)
{
	rfatal(
	    R_ERROR,
	    "usage:\trestore -C [-cdeHlMvVy] [-b blocksize] [-D filesystem] [-E mls] [-f file] [-F script] [-L limit] [-s fileno]\n"
	    "\trestore -i [-acdehHlmMouvVy] [-A file] [-b blocksize] [-E mls] [-f file] [-F script] [-Q file] [-s fileno]\n"
	    "\trestore -P file [-acdhHlmMuvVy] [-b blocksize] [-f file] [-F script] [-s fileno] [-X filelist] [file ...]\n"
	    "\trestore -r [-cdeHlMuvVy] [-b blocksize] [-E mls] [-f file] [-F script] [-s fileno] [-T directory]\n"
	    "\trestore -R [-cdeHlMuvVy] [-b blocksize] [-E mls] [-f file] [-F script] [-s fileno] [-T directory]\n"
	    "\trestore -t [-cdhHlMuvVy] [-A file] [-b blocksize] [-f file] [-F script] [-Q file] [-s fileno] [-X filelist] [file ...]\n"
	    "\trestore -x [-acdehHlmMouvVy] [-A file] [-b blocksize] [-E mls] [-f file] [-F script] [-Q file] [-s fileno] [-X filelist] [file ...]\n");
}

static void
add_name(const char *n)
{
	if (nnames == names_cap) {
		names_cap = names_cap ? names_cap * 2 : 16;
		names = xreallocarray(names, (size_t)names_cap, sizeof(*names));
	}
	names[nnames++] = xstrdup(n);
}

/* A number as 0.4b47 takes it: "illegal NAME -- ARG" when it is not one
 * (or does not fit), "WHAT must be greater than 0" below min. */
static long
numarg(const char *name, const char *what, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*end != '\0' || errno != 0 || v > max)
		errx(R_ERROR, "illegal %s -- %s", name, s);
	if (v < min)
		errx(R_ERROR, "%s must be greater than 0", what);
	return v;
}

/* -d, or --debug[=HEX] as 0.4b56 takes it (any hex number): only the
 * bit of -d's output means anything to ours. */
static bool
debug_arg(const char *arg)
{
	char *end;
	unsigned long v;

	if (arg == NULL)
		return true;
	v = strtoul(arg, &end, HEX);
	if (*end != '\0')
		errx(R_ERROR, "illegal --debug value -- %s", arg);
	return (v & DEBUG_PLAIN) != 0;
}

/* "restore xbf 2 - a" -> "restore -x -b 2 -f - a".  The new vector and
 * its option words are two allocations, freed by parse_args(). */
static char **
expand_old_syntax(int *argcp, char **argv, char **optwords)
{
	static char dashdash[] = "--";
	int argc = *argcp, ai = 2, n = 1;
	const char *keys = argv[1];
	size_t nkeys = strlen(keys);
	char **nv = xreallocarray(NULL, (size_t)argc + nkeys + 2, sizeof(*nv));
	char *words = xreallocarray(NULL, nkeys + 1, 3);

	*optwords = words;
	nv[0] = argv[0];
	for (size_t k = 0; k < nkeys; k++) {
		char *opt = words + 3 * k;

		opt[0] = '-';
		opt[1] = keys[k];
		opt[2] = '\0';
		nv[n++] = opt;
		if (strchr(OLD_ARG_LETTERS, keys[k]) != NULL) {
			if (ai >= argc)
				errx(R_ERROR, "missing argument to %c",
				     keys[k]);
			nv[n++] = argv[ai++];
		}
	}
	/* What follows the key-letter arguments are operands only. */
	nv[n++] = dashdash;
	while (ai < argc)
		nv[n++] = argv[ai++];
	nv[n] = NULL;
	*argcp = n;
	return nv;
}

/* How a mode is named in messages: its letter, or --verify. */
static const char *
mode_name(int c)
{
	static char letter[2][2];
	static int which;

	if (c == MODE_VERIFY)
		return "--verify";
	which ^= 1;
	letter[which][0] = (char)c;
	return letter[which];
}

static void
set_mode(int c)
{
	if (ropt.mode != 0 && ropt.mode != c)
		errx(R_ERROR, "%s and %s options are mutually exclusive",
		     mode_name(ropt.mode), mode_name(c));
	ropt.mode = c;
}

static void
read_filelist(const char *file)
{
	FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (f == NULL)
		err(R_ERROR, "cannot open %s", file);
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 0)
			add_name(line);
	}
	free(line);
	if (f != stdin)
		(void)fclose(f);
}

static void
parse_args(int argc, char **argv)
{
	const char *xfile = NULL;
	char **expanded = NULL, *optwords = NULL;
	bool eflag = false, Eflag = false;
	int c;

	if (argc > 1 && argv[1][0] != '-')
		argv = expanded = expand_old_syntax(&argc, argv, &optwords);
	while ((c = getopt_long(argc, argv, OPTSTRING, long_opts, NULL)) !=
	       -1) {
		switch (c) {
		case '0': ropt.nulterm = true; break;
		case 'a': ropt.aflag = true; break;
		case 'F': ropt.script = optarg; break;
		case 'M': ropt.Mflag = true; break;
		case 'A': ropt.toc = optarg; break; /* qfa.c */
		case 'Q': ropt.qfa = optarg; break; /* qfa.c */
		case 'c': break; /* 0.4b47 reads new-format dumps anyway */
		case 'b':
			/* Only a ceiling on the record size: any size. */
			ropt.blocksize = numarg("blocksize", "block size",
						optarg, 1, LONG_MAX);
			break;
		case 'C':
		case 'r':
		case 't':
		case 'x': set_mode(c); break;
		case 'i':
		case 'R': set_mode(c); break;
		case 'P':
			set_mode(c);
			ropt.pfile = optarg;
			break;
		case 'd': ropt.debug = debug_arg(optarg); break;
		case 'D': ropt.cmpdir = optarg; break;
		case 'e': eflag = true; break;
		case 'E': Eflag = true; break;
		case 'H':
			(void)numarg("hash size", "hash size", optarg, 1,
				     INT_MAX);
			break;
		case 'l':
		case 'V': break;
		case 'f': ropt.tape = optarg; break;
		case 'h': ropt.hflag = true; break;
		case 'L':
			ropt.cmplimit =
			    numarg("limit", "limit", optarg, 0, INT_MAX);
			break;
		case 'm': ropt.mflag = true; break;
		case 'N': ropt.Nflag = true; break;
		case 'o': ropt.oflag = true; break;
		case 'q': ropt.qflag = true; break;
		case 's':
			ropt.skipfiles = numarg("dump number", "dump number",
						optarg, 1, INT_MAX);
			break;
		case 'T': ropt.tmpdir = optarg; break;
		case 'u': ropt.uflag = true; break;
		case 'v': ropt.verbose = true; break;
		case 'X': xfile = optarg; break;
		case 'y': ropt.yflag = true; break;
		case OPT_NO_DOT: ropt.no_dot = true; break;
		case OPT_IGNORE_ZFLAG: ropt.ignore_zflag = true; break;
		case OPT_VERIFY: set_mode(MODE_VERIFY); break;
		default: usage();
		}
	}
	if (ropt.mode == 0)
		errx(R_ERROR, "none of C, i, R, r, t or x options specified");
	if (ropt.mode == MODE_VERIFY && optind < argc)
		errx(R_ERROR,
		     "--verify reads the whole archive: no file "
		     "names");
	/* -e and -E (SELinux) only matter where files are made. */
	if ((eflag || Eflag) && (ropt.mode == 't' || ropt.mode == 'P'))
		errx(R_ERROR, "%c option is not valid for %c command",
		     eflag ? 'e' : 'E', ropt.mode);
	if (ropt.tape == NULL)
		ropt.tape =
		    getenv("TAPE") != NULL ? getenv("TAPE") : DEFAULT_TAPE;
	ropt.from_stdin = strcmp(ropt.tape, "-") == 0;
	if (xfile != NULL && strcmp(xfile, "-") == 0 && ropt.from_stdin)
		errx(R_ERROR, "can't handle standard input for both -f and -X");
	for (int i = optind; i < argc; i++)
		add_name(argv[i]);
	/* Every pointer kept (optarg) is into the original argv. */
	free(expanded);
	free(optwords);
	if (xfile != NULL)
		read_filelist(xfile);
}

/* Read to the end of the input; false (with the message every mode
 * gives) if the archive ended before its end-of-dump record.  whole:
 * the archive was read through (not -t, which stops after pass III). */
static bool
drain_complete(bool whole)
{
	tape_drain();
	if (whole ? !tape_truncated() : !tape_cut_short())
		return true;
	rmsg("Input ended before the end-of-dump record: "
	     "the archive is truncated\n");
	return false;
}

static int
finish(void)
{
	extract_flags();
	extract_sync();
	if (!drain_complete(true))
		return R_ERROR;
	return extract_errors() > 0 || tape_had_error() || tape_resynced() ||
		dirs_refused() > 0 || ea_skipped() > 0
	    ? R_ERROR
	    : R_SUCCESS;
}

static int
do_extract(void)
{
	bool root;

	dirs_read();
	dirs_build_tree();
	select_names(names, nnames);
	if (!ropt.Nflag)
		target_open();
	extract_make_dirs();
	msg_verbose("Extract requested files\n");
	if (!ropt.aflag && !ropt.from_stdin) {
		bool eof = false;

		/* "none" asks again, as in 0.4b47; no answer at all reads
		 * on (0.4b47 ends with status 1, nothing extracted). */
		while (!volume_ask_number(ask_line, &eof) && !eof)
			continue;
	}
	extract_files();
	extract_links();
	/* Asked as 0.4b47 asks it: also for a subset, -N or -m (where the
	 * answer changes nothing).  --no-set-curr-dir-perms wins over -o
	 * (as in 0.4b56). */
	if (ropt.no_dot)
		root = false;
	else if (ropt.oflag)
		root = true;
	else
		root = can_ask() && ask_yn("set owner/mode for '.'");
	extract_dirmodes(root);
	return finish();
}

static int
do_rebuild(void)
{
	if (dumpprev != 0) /* incremental.c */
		return incr_restore() != R_SUCCESS ? R_ERROR : finish();
	msg_verbose("Begin level 0 restore\n");
	msg_verbose("Initialize symbol table.\n");
	dirs_read();
	dirs_link_tree();
	msg_verbose("Calculate extraction list.\n");
	sym_debug_level0();
	select_tree(sym_root);
	if (!ropt.Nflag)
		target_open();
	extract_make_dirs();
	msg_verbose("Extract new leaves.\n");
	/* -R finishes from here if this run is interrupted. */
	if (!ropt.Nflag) {
		msg_verbose("Check pointing the restore\n");
		if (sym_write_checkpoint(target_fd, NULL) != 0)
			return R_ERROR;
	}
	extract_files();
	extract_links();
	/* The table first: creating it changes the target's times, which
	 * the directory pass then sets. */
	if (!ropt.Nflag) {
		msg_verbose("Check pointing the restore\n");
		if (sym_write(target_fd, "restoresymtable") != 0)
			return R_ERROR;
	}
	extract_dirmodes(true);
	return finish();
}

/* The name of inode ino for the messages of the data checks, once the
 * directories are known (NULL before, or for a nameless inode). */
static const char *
name_of_inode(uint32_t ino)
{
	const struct entry *e = sym_lookup_ino(ino);

	return e != NULL ? sym_path(e) : NULL;
}

int
main(int argc, char **argv)
{
	int rc;

	parse_args(argc, argv);
	qfa_options(); /* -A, -Q, -P: checks (qfa.c) */
	if ((ropt.mode == 'r' || ropt.mode == 'R') && ropt.hflag)
		errx(R_ERROR, "-h cannot be used with -%c", ropt.mode);
	umask(077);
	if (ropt.mode == 'C')
		msg_verbose("Begin compare restore\n");
	qfa_open_files();
	datacheck_set_namer(name_of_inode);
	tape_setup();
	qfa_check_date();
	switch (ropt.mode) {
	case 'P': rc = qfa_positions(names, nnames); break;
	case 't':
		if (ropt.toc != NULL || ropt.qfa != NULL) {
			rc = qfa_list(names, nnames);
			break;
		}
		dirs_read();
		msg_verbose("Initialize symbol table.\n");
		list_names(names, nnames);
		if (fflush(stdout) != 0)
			err(R_ERROR, "standard output");
		rc = !drain_complete(false) || tape_had_error() ||
			dirs_refused() > 0
		    ? R_ERROR
		    : R_SUCCESS;
		break;
	case 'x': rc = do_extract(); break;
	case MODE_VERIFY: rc = verify_run(); break;
	case 'r': rc = do_rebuild(); break;
	case 'R':
		rc = resume_run();
		if (finish() != R_SUCCESS)
			rc = R_ERROR;
		break;
	case 'i': rc = interactive_run(); break;
	default: rc = compare_run(names, nnames); break;
	}
	if (fflush(stdout) != 0)
		err(R_ERROR, "standard output");
	return rc;
}
