/*
 * options.c - the command line of dump into struct dump_opts.
 *
 * Both forms are accepted: getopt style, with 0.4b56's long names beside
 * the letters, and the old key letters Amanda sends ("dump 0usf 1048576
 * - /dev/sdX"), rewritten into getopt style first (letters of
 * KEY_ARG_LETTERS take the following words in order).
 * Numbers go through one bounded parser with 0.4b47's messages; bad
 * options print the usage; everything exits X_STARTUP on error, before
 * any work is done.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitcodes.h"
#include "compress.h"
#include "dump.h"
#include "optr.h"
#include "rmtclient.h"
#include "writer.h"
#include "xalloc.h"

#define OPTSTRING                                                              \
	"0123456789A:aB:b:cd:D:e:E:f:F:h:I:j::L:mMnqQ:s:ST:uvWwyz::Z::"
/* getopt_long's values for the options without a letter */
enum {
	OPT_STRICT = 256,
	OPT_VERIFY,
	OPT_DUMPDATES_TIME,
	OPT_FILESYS_NAME,
	OPT_BLOCKDEV_DUMPDATES,
	OPT_DEBUG,
};
/* --debug without a value: 0.4b56's plain debug bit, no trace of ours */
#define DEBUG_DEFAULT_MASK 0x1UL
#define HEX		   16
/* Old-syntax key letters that take the next word as their argument. */
#define KEY_ARG_LETTERS	   "ABbdDeEfFhLQsT"
#define KEY_OPT_LEN	   3 /* "-X" and its NUL */
#define MAX_BLOCKS_ARG	   1048576L /* -b accepted by the parser... */
#define NO_UPPER_BOUND	   0L
#define MIN_DENSITY	   10L /* -d, bpi */
#define MAX_DENSITY	   327670L
#define HIGH_DENSITY	   6250L /* -d from which records grow */
#define DECIMAL		   10
#define MIN_COMPRESS_LEVEL 1
#define MAX_COMPRESS_LEVEL 9

/*
 * 0.4b56's long names, in its order (getopt_long lists the candidates
 * of an ambiguous prefix in this order): those without a letter, then
 * each letter's under the letter's value, so that one switch handles
 * both spellings.  --strict is ours only.
 */
static const struct option long_opts[] = {
    {"dumpdates-time", required_argument, NULL, OPT_DUMPDATES_TIME},
    {"filesys-name", required_argument, NULL, OPT_FILESYS_NAME},
    {"use-blockdev-for-dumpdates", no_argument, NULL, OPT_BLOCKDEV_DUMPDATES},
    {"debug", optional_argument, NULL, OPT_DEBUG},
    {"archive-file", required_argument, NULL, 'A'},
    {"auto-size", no_argument, NULL, 'a'},
    {"blocks-per-volume", required_argument, NULL, 'B'},
    {"block-size", required_argument, NULL, 'b'},
    {"cartridge", no_argument, NULL, 'c'},
    {"density", required_argument, NULL, 'd'},
    {"dumpdates-file", required_argument, NULL, 'D'},
    {"excluded-inodes", required_argument, NULL, 'e'},
    {"excluded-inodes-file", required_argument, NULL, 'E'},
    {"output-file", required_argument, NULL, 'f'},
    {"eot-script", required_argument, NULL, 'F'},
    {"honor-nodump-level", required_argument, NULL, 'h'},
    {"max-ignore-errors", required_argument, NULL, 'I'},
    {"bz-compress", optional_argument, NULL, 'j'},
    {"label", required_argument, NULL, 'L'},
    {"metadata-only", no_argument, NULL, 'm'},
    {"multivolume", no_argument, NULL, 'M'},
    {"notify-operators", no_argument, NULL, 'n'},
    {"abort-on-intervention", no_argument, NULL, 'q'},
    {"QFAfile", required_argument, NULL, 'Q'},
    {"tape-feet-per-volume", required_argument, NULL, 's'},
    {"size-estimate-only", no_argument, NULL, 'S'},
    {"dump-changed-since-time", required_argument, NULL, 'T'},
    {"update-dumpdates", no_argument, NULL, 'u'},
    {"verbose", no_argument, NULL, 'v'},
    {"print-all-dump-stats", no_argument, NULL, 'W'},
    {"print-dump-stats", no_argument, NULL, 'w'},
    {"lzo-compress", no_argument, NULL, 'y'},
    {"z-compress", optional_argument, NULL, 'z'},
    {"strict", no_argument, NULL, OPT_STRICT},
    /* ours: read each finished volume back (upstream has no such one) */
    {"verify", no_argument, NULL, OPT_VERIFY},
    {NULL, 0, NULL, 0},
};

static const char *progname = "dump";
/* The getopt-style argv made from old key letters, freed at the end. */
static char **key_argv;
static char *key_opts;

static _Noreturn void
usage(void)
{
	const char *ver = NULL, *date = NULL;
	int indent = (int)strlen(progname) + 1;

	ext2fs_get_library_version(&ver, &date);
	fprintf(stderr, "%s %s (using libext2fs %s of %s)\n", progname,
		PACKAGE_VERSION, ver, date);
	/* Continuation lines line up under the first option, whatever
	 * the length of the program name (as 0.4b47). */
	fprintf(
	    stderr,
	    "usage:\t%s [-level#] [-acmMnqSuv] [-A file] [-B records] [-b blocksize]\n"
	    "\t%*s[-d density] [-D file] [-e inode#,inode#,...] [-E file]\n"
	    "\t%*s[-f file] [-h level] [-I nr errors] [-j zlevel] [-Q file]\n"
	    "\t%*s[-s feet] [-T date] [-y] [-z zlevel] filesystem\n"
	    "\t%s [-W | -w]\n",
	    progname, indent, "", indent, "", indent, "", progname);
	exit(X_STARTUP);
}

/*
 * Bounded decimal option argument, with 0.4b47's messages; max
 * NO_UPPER_BOUND means unbounded (and is printed as 0, as 0.4b47 does).
 */
static long
numarg(const char *what, const char *arg, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, DECIMAL);
	if (end == arg || *end != '\0' || errno == ERANGE) {
		fprintf(stderr, "%s: illegal %s -- %s\n", progname, what, arg);
		exit(X_STARTUP);
	}
	if (v < min || (max != NO_UPPER_BOUND && v > max)) {
		fprintf(stderr, "%s: %s must be between %ld and %ld\n",
			progname, what, min, max);
		exit(X_STARTUP);
	}
	return v;
}

/* A date of -T or --dumpdates-time, checked when seen: a bad one wins
 * over any error of a later option (as 0.4b47 and 0.4b56). */
static time_t
date_arg(const char *arg)
{
	time_t t;

	if (itime_parse_date(arg, &t) < 0) {
		msg("bad time \"%s\"\n", arg);
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
	return t;
}

/* --debug[=HEX]: any hex number, as 0.4b56 takes it (one too large for
 * the mask sets every bit). */
static unsigned long
debug_arg(const char *arg)
{
	char *end;
	unsigned long v;

	if (arg == NULL)
		return DEBUG_DEFAULT_MASK;
	v = strtoul(arg, &end, HEX);
	if (*end != '\0') {
		fprintf(stderr, "%s: illegal --debug value -- %s\n", progname,
			arg);
		exit(X_STARTUP);
	}
	return v;
}

static void
add_excluded(struct dump_opts *o, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, DECIMAL);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (end == s || *end != '\0' || errno != 0 || v <= EXT2_ROOT_INO ||
	    v > UINT32_MAX) {
		msg("Invalid inode argument %s\n", s);
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
	o->excluded =
	    xreallocarray(o->excluded, o->nexcluded + 1, sizeof(*o->excluded));
	o->excluded[o->nexcluded++] = (uint32_t)v;
	/* Said when parsed, so only after a -v given before (0.4b47). */
	if (o->verbose)
		msg("Excluding inode %lu from dump\n", v);
}

static void
exclude_list(struct dump_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save))
		add_excluded(o, tok);
	free(copy);
}

static void
exclude_file(struct dump_opts *o, const char *path)
{
	char line[LINE_MAX];
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		msg("Cannot open %s: %s\n", path, strerror(errno));
		exit(X_STARTUP);
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '\n' || line[0] == '\0')
			continue;
		add_excluded(o, line);
	}
	fclose(f);
}

static void
set_label(struct dump_opts *o, const char *l)
{
	if (strlen(l) > LABEL_MAX) {
		msg("WARNING Label `%s' is larger than limit of %d characters.\n",
		    l, LABEL_MAX);
		memset(o->label, 0, sizeof(o->label));
		memcpy(o->label, l, LABEL_MAX);
		msg("WARNING: Using truncated label `%s'.\n", o->label);
	} else {
		memset(o->label, 0, sizeof(o->label));
		memcpy(o->label, l, strlen(l));
	}
	o->label_given = 1;
}

static void
set_compress(struct dump_opts *o, int method, const char *arg)
{
	o->compress = method;
	o->compress_level = COMPRESS_DEFAULT_LEVEL;
	if (arg != NULL)
		o->compress_level =
		    (int)numarg("compress level", arg, MIN_COMPRESS_LEVEL,
				MAX_COMPRESS_LEVEL);
}

/* -B n[,n...]; 0.4b47 words its range error with an upper bound of 0. */
static void
parse_volsizes(struct dump_opts *o, const char *arg)
{
	const char *p = arg;
	char *end;
	long v;

	free(o->volsize);
	o->volsize = NULL;
	o->nvolsize = 0;
	for (;;) {
		errno = 0;
		v = strtol(p, &end, DECIMAL);
		if (end == p || (*end != '\0' && *end != ',') ||
		    errno == ERANGE) {
			fprintf(stderr,
				"%s: illegal number of blocks per file "
				"-- %s\n",
				progname, arg);
			exit(X_STARTUP);
		}
		if (v < 1) {
			fprintf(stderr,
				"%s: number of blocks per file must be "
				"between 1 and 0\n",
				progname);
			exit(X_STARTUP);
		}
		o->volsize = xreallocarray(o->volsize, (size_t)o->nvolsize + 1,
					   sizeof(*o->volsize));
		o->volsize[o->nvolsize++] = v;
		if (*end == '\0')
			break;
		p = end + 1;
	}
}

/*
 * Old syntax: argv[1] holds key letters; letters of KEY_ARG_LETTERS take
 * the following words in order.  Returns a getopt-style argv.
 */
static char **
convert_key_letters(int *argcp, char **argv)
{
	int argc = *argcp, next = 2, n = 0;
	size_t nkeys = strlen(argv[1]);
	const char *k;
	char **nv =
	    xreallocarray(NULL, (size_t)argc + nkeys + 1, sizeof(char *));
	char *opts = xcalloc(nkeys + 1, KEY_OPT_LEN);

	nv[n++] = argv[0];
	for (k = argv[1]; *k != '\0'; k++) {
		char *opt = opts + (size_t)(k - argv[1]) * KEY_OPT_LEN;

		opt[0] = '-';
		opt[1] = *k;
		nv[n++] = opt;
		if (strchr(KEY_ARG_LETTERS, *k) != NULL) {
			if (next >= argc) {
				/* unquoted, unlike getopt's */
				fprintf(stderr,
					"%s: option requires an "
					"argument -- %c\n",
					progname, *k);
				usage();
			}
			nv[n++] = argv[next++];
		}
	}
	while (next < argc)
		nv[n++] = argv[next++];
	nv[n] = NULL;
	*argcp = n;
	key_argv = nv;
	key_opts = opts;
	return nv;
}

static void
parse_output(struct dump_opts *o, const char *f)
{
	/* host:file and user@host:file go through rmt (writer.c); the
	 * name is checked here, as 0.4b47 does before anything else */
	if (rmt_is_remote(f)) {
		struct rmt_conn c;
		const char *path;

		rmt_msg_prefix = "  DUMP: ";
		if (rmt_split(f, &c, &path) == -1)
			exit(X_STARTUP);
		writer_preconnect(f);
	}
	o->output = f;
}

/*
 * A tape drive in fixed-block mode takes only writes of whole blocks.
 * Without -b the records grow from the default to the smallest size
 * that is a whole number of blocks (-b 64 on a 64 KiB drive); a -b that
 * does not fit is refused now, rather than as a write error once the
 * first record is written.  The drive is the first volume's.
 */
static void
fit_tape_block(struct dump_opts *o, int b_given)
{
	char name[PATH_MAX];
	long blk, a, b, t, unit, n;

	if (o->estimate_only)
		return;
	if (o->multi)
		(void)snprintf(name, sizeof(name), "%s001", o->output);
	else
		(void)snprintf(name, sizeof(name), "%.*s",
			       (int)strcspn(o->output, ","), o->output);
	blk = writer_tape_blksize(name);
	if (blk <= 0 || ((long)o->ntrec * TP_BSIZE) % blk == 0)
		return;
	a = blk; /* a = gcd(blk, TP_BSIZE) */
	b = TP_BSIZE;
	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	unit = blk / a; /* records of unit KiB are whole blocks */
	n = ((long)o->ntrec + unit - 1) / unit * unit;
	if (!b_given && n <= MAXNTREC) {
		o->ntrec = (int)n;
		return;
	}
	if (b_given)
		msg("Records of %dkB (-b %d) do not fit the fixed %ld-byte "
		    "blocks of the tape drive %s\n",
		    o->ntrec, o->ntrec, blk, name);
	else
		msg("No record size up to %dkB fits the fixed %ld-byte blocks "
		    "of the tape drive %s\n",
		    MAXNTREC, blk, name);
	if (unit <= MAXNTREC)
		msg("Use -b %ld (or a multiple of it), or set the drive to "
		    "variable block mode\n",
		    unit);
	else
		msg("Set the drive to variable block mode or to a block size "
		    "of whole kilobytes\n");
	msg("The ENTIRE dump is aborted.\n");
	exit(X_STARTUP);
}

/*
 * -a (write until end of media) excludes every volume-size option; the
 * one named is the first of B, c, d, s given, whatever their order on
 * the command line (as 0.4b47).
 */
static void
check_all_media(const struct dump_opts *o)
{
	int c;

	if (!o->all_media)
		return;
	if (o->nvolsize > 0)
		c = 'B';
	else if (o->cartridge)
		c = 'c';
	else if (o->density != 0)
		c = 'd';
	else if (o->length_feet != 0)
		c = 's';
	else
		return;
	msg("You cannot use the a and %c flags together.\n", c);
	msg("The ENTIRE dump is aborted.\n");
	exit(X_STARTUP);
}

/*
 * One switch over all option letters, sorted as in OPTSTRING: it stays
 * whole so that every letter's handling is found in one place.
 */
static void
parse_options(int argc, char **argv, struct dump_opts *o)
{
	int c, b_given = 0;
	long b;

	while ((c = getopt_long(argc, argv, OPTSTRING, long_opts, NULL)) !=
	       -1) {
		switch (c) {
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
			if (o->level > (INT_MAX - (c - '0')) / DECIMAL) {
				fprintf(stderr, "%s: level too large\n",
					progname);
				exit(X_STARTUP);
			}
			o->level = o->level * DECIMAL + (c - '0');
			break;
		case 'a': o->all_media = 1; break;
		case 'B': parse_volsizes(o, optarg); break;
		case 'b':
			b = numarg("number of blocks per write", optarg, 1,
				   MAX_BLOCKS_ARG);
			if (b > MAXNTREC) {
				msg("Please choose a blocksize <= %dkB\n",
				    MAXNTREC);
				msg("The ENTIRE dump is aborted.\n");
				exit(X_STARTUP);
			}
			o->ntrec = (int)b;
			b_given = 1;
			break;
		case 'c': o->cartridge = 1; break;
		case 'd':
			o->density =
			    numarg("density", optarg, MIN_DENSITY, MAX_DENSITY);
			if (o->density >= HIGH_DENSITY && !b_given)
				o->ntrec = HIGHDENSITYTREC;
			break;
		case 's':
			o->length_feet =
			    numarg("tape size", optarg, 1, NO_UPPER_BOUND);
			break;
		case 'D': o->dumpdates = optarg; break;
		case 'e': exclude_list(o, optarg); break;
		case 'E': exclude_file(o, optarg); break;
		case 'f': parse_output(o, optarg); break;
		case 'F': o->volscript = optarg; break;
		case 'j': set_compress(o, COMP_BZLIB, optarg); break;
		case 'm': o->metadata_only = 1; break;
		case 'M': o->multi = 1; break;
		case 'y':
			set_compress(o, COMP_LZO, NULL);
			o->compress_level = 0;
			break;
		case 'z': set_compress(o, COMP_ZLIB, optarg); break;
		case 'Z':
			set_compress(o, COMP_ZSTD, NULL);
			o->compress_level = ZSTD_DEFAULT_LEVEL;
			if (optarg != NULL)
				o->compress_level = (int)numarg(
				    "compress level", optarg,
				    MIN_COMPRESS_LEVEL, ZSTD_MAX_LEVEL);
			break;
		case 'h':
			o->honor_level = (int)numarg("honor level", optarg, 0,
						     MAX_HONOR_LEVEL);
			break;
		case 'I':
			(void)numarg("number of errors to ignore", optarg, 0,
				     NO_UPPER_BOUND);
			break;
		case 'L': set_label(o, optarg); break;
		case 'q': o->quiet = 1; break;
		case 'S': o->estimate_only = 1; break;
		case 'T':
			o->base_date = optarg;
			o->base_ddate = date_arg(optarg);
			break;
		case 'u': o->update = 1; break;
		case 'v': o->verbose = 1; break;
		case 'W':
		case 'w':
			/* Done when seen: later options do not apply. */
			exit(report_dumpdates(o, c == 'W'));
		case 'A': /* table of contents, qfa.c */
			o->toc_file = optarg;
			break;
		case 'Q': /* QFA positions, qfa.c */
			o->qfa_file = optarg;
			break;
		case 'n': o->notify = 1; break;
		case OPT_STRICT: o->strict = 1; break;
		case OPT_VERIFY: o->verify = 1; break;
		case OPT_DUMPDATES_TIME:
			o->dump_date = date_arg(optarg);
			o->dump_date_given = 1;
			break;
		case OPT_FILESYS_NAME: o->filesys_name = optarg; break;
		case OPT_BLOCKDEV_DUMPDATES: o->blockdev_dumpdates = 1; break;
		case OPT_DEBUG: o->debug = debug_arg(optarg); break;
		default: usage();
		}
	}
	if (optind >= argc) {
		msg("Must specify disk or filesystem\n");
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
	if (o->base_date != NULL && o->update) {
		msg("You cannot use the T and u flags together.\n");
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
	check_all_media(o);
	fit_tape_block(o, b_given);
	o->operand = xstrdup(argv[optind]);
	/* Further operands are files of a subset dump; main() refuses
	 * them once the first one turned out to be a file system.  They
	 * point into argv (or key_argv), the first one to o->operand. */
	o->noperands = argc - optind;
	o->operands =
	    xreallocarray(NULL, (size_t)o->noperands, sizeof(*o->operands));
	o->operands[0] = o->operand;
	for (c = 1; c < o->noperands; c++)
		o->operands[c] = argv[optind + c];
}

/* One trailing '/' is cut (doc/dumpdates.md 2.1), except from "/" and LABEL=/. */
static void
trim_operand(char *s)
{
	size_t len = strlen(s);

	if (len > 1 && s[len - 1] == '/' && strcmp(s, "LABEL=/") != 0)
		s[len - 1] = '\0';
}

/*
 * --verify reads every volume back from its file: refused, before any
 * work, for an output that cannot be read back so (standard output, a
 * remote tape, a tape drive or any other device).  Names of -M and of a
 * list that do not exist yet become files.
 */
static void
check_verify(const struct dump_opts *o)
{
	const char *p = o->output;

	if (!o->verify || o->estimate_only)
		return;
	while (*p != '\0') {
		size_t len = strcspn(p, ",");
		char name[PATH_MAX];
		struct stat st;

		(void)snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (strcmp(name, "-") == 0 || rmt_is_remote(name) ||
		    (!o->multi && stat(name, &st) == 0 &&
		     !S_ISREG(st.st_mode))) {
			msg("--verify reads each volume back from a file: "
			    "not from %s\n",
			    strcmp(name, "-") == 0 ? "standard output" : name);
			exit(X_STARTUP);
		}
		p += len;
		if (*p == ',')
			p++;
	}
}

/* Fill *o from the command line (defaults first); exits on error. */
void
options_parse(int argc, char **argv, struct dump_opts *o)
{
	const char *tape = getenv("TAPE");

	progname = argv[0];
	memset(o, 0, sizeof(*o));
	o->ntrec = NTREC;
	o->honor_level = DEFAULT_HONOR_LEVEL;
	o->dumpdates = DUMPDATES_PATH;
	o->output = tape != NULL ? tape : DEFAULT_TAPE;
	if (argc < 2)
		usage();
	if (argv[1][0] != '-')
		argv = convert_key_letters(&argc, argv);
	parse_options(argc, argv, o);
	if (tape != NULL && o->output == tape)
		parse_output(o, tape); /* $TAPE may name a remote too */
	trim_operand(o->operand);
	o->dumpdates_name = o->operand;
	check_verify(o);
}

void
options_free(struct dump_opts *o)
{
	free(o->operand);
	free(o->excluded);
	free(o->volsize);
	free(o->operands);
	free(key_argv);
	free(key_opts);
	key_argv = NULL;
	key_opts = NULL;
}
