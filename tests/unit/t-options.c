/*
 * t-options.c - dump's command line (dump/options.c): getopt style, the
 * long names of 0.4b56 and the old key letters ("0usf 1048576 -"),
 * defaults, numbers and their limits, and the messages and exit status
 * of every refusal.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compress.h"
#include "dump.h"
#include "exitcodes.h"
#include "unit.h"
#include "unitstubs.h"

#define MAX_ARGS 32

/* A command line split at blanks, '~' standing for a blank inside a
 * word; argv points into buf. */
struct cmdline {
	char *buf;
	int argc;
	char *argv[MAX_ARGS + 1];
};

static void
split(struct cmdline *c, const char *line)
{
	char *save = NULL, *w;

	c->buf = strdup(line);
	c->argc = 0;
	for (w = strtok_r(c->buf, " ", &save); w != NULL && c->argc < MAX_ARGS;
	     w = strtok_r(NULL, " ", &save)) {
		for (char *p = w; (p = strchr(p, '~')) != NULL;)
			*p = ' ';
		c->argv[c->argc++] = w;
	}
	c->argv[c->argc] = NULL;
}

/* Parse line into *o; free with done(). */
static void
parse(struct cmdline *c, const char *line, struct dump_opts *o)
{
	split(c, line);
	optind = 0; /* getopt starts afresh */
	options_parse(c->argc, c->argv, o);
}

static void
done(struct cmdline *c, struct dump_opts *o)
{
	options_free(o);
	free(c->buf);
}

/* Child of expect_exit(): parse the line, which must exit. */
static void
parse_child(void *arg)
{
	struct cmdline c;
	struct dump_opts o;

	parse(&c, arg, &o);
	printf("parsed: level %d operand %s\n", o.level, o.operand);
	done(&c, &o);
}

/* Whether parsing line ends with exit status want (0: parsed) and
 * prints text. */
static void
expect_exit(const char *line, int want, const char *text)
{
	char *out = NULL;
	int st = unit_fork(parse_child, (void *)line, &out);

	if (!unit_ok(unit_exit_code(st) == want && strstr(out, text) != NULL,
		     "\"%s\": exit %d, \"%.40s\"", line, want, text))
		unit_diag("exit %d, output: %s", unit_exit_code(st), out);
	free(out);
}

static void
test_key_letters(void)
{
	struct cmdline c;
	struct dump_opts o;

	parse(&c, "dump 0usf 1048576 - /dev/sdX", &o);
	unit_ok(o.level == 0 && o.update && o.length_feet == 1048576 &&
		    strcmp(o.output, "-") == 0 &&
		    strcmp(o.operand, "/dev/sdX") == 0,
		"key letters 0usf 1048576 -: level, -u, -s, -f and operand");
	done(&c, &o);

	parse(&c, "dump 9bfL 64 /tmp/out mylabel /mnt/", &o);
	unit_ok(o.level == 9 && o.ntrec == 64 &&
		    strcmp(o.output, "/tmp/out") == 0 &&
		    strcmp(o.label, "mylabel") == 0 && o.label_given &&
		    strcmp(o.operand, "/mnt") == 0,
		"key letters take the following words in order");
	done(&c, &o);

	expect_exit("dump 0uf", X_STARTUP,
		    "dump: option requires an argument -- f");
}

static void
test_defaults(void)
{
	struct cmdline c;
	struct dump_opts o;

	unsetenv("TAPE");
	parse(&c, "dump -0 /dev/sdX", &o);
	unit_ok(o.level == 0 && o.ntrec == NTREC && o.honor_level == 1 &&
		    strcmp(o.dumpdates, DUMPDATES_PATH) == 0 &&
		    strcmp(o.output, DEFAULT_TAPE) == 0 && !o.update &&
		    o.compress == COMP_NONE && o.noperands == 1,
		"defaults: level 0, -b %d, -h 1, dumpdates, %s", NTREC,
		DEFAULT_TAPE);
	done(&c, &o);

	setenv("TAPE", "/tmp/tapefile", 1);
	parse(&c, "dump -1 /dev/sdX", &o);
	unit_eq_str(o.output, "/tmp/tapefile", "$TAPE is the default output");
	done(&c, &o);
	parse(&c, "dump -1 -f /tmp/other /dev/sdX", &o);
	unit_eq_str(o.output, "/tmp/other", "-f wins over $TAPE");
	done(&c, &o);
	unsetenv("TAPE");
}

static void
test_getopt_style(void)
{
	struct cmdline c;
	struct dump_opts o;

	parse(&c, "dump -1 -2 -u -b 64 -f - -D /tmp/dd -h 3 / ", &o);
	unit_ok(o.level == 12 && o.update && o.ntrec == 64 &&
		    strcmp(o.dumpdates, "/tmp/dd") == 0 && o.honor_level == 3,
		"digits make up the level (-1 -2 is 12); -u -b -D -h");
	unit_eq_str(o.operand, "/", "the operand / keeps its slash");
	done(&c, &o);

	parse(&c, "dump -0 -z /dev/sdX", &o);
	unit_ok(o.compress == COMP_ZLIB &&
		    o.compress_level == COMPRESS_DEFAULT_LEVEL,
		"-z: zlib at level %d", COMPRESS_DEFAULT_LEVEL);
	done(&c, &o);
	parse(&c, "dump -0 -z9 /dev/sdX", &o);
	unit_ok(o.compress == COMP_ZLIB && o.compress_level == 9,
		"-z9: zlib at level 9");
	done(&c, &o);
	parse(&c, "dump -0 -j3 /dev/sdX", &o);
	unit_ok(o.compress == COMP_BZLIB && o.compress_level == 3,
		"-j3: bzip2 at level 3");
	done(&c, &o);
	parse(&c, "dump -0 -y /dev/sdX", &o);
	unit_ok(o.compress == COMP_LZO && o.compress_level == 0, "-y: lzo");
	done(&c, &o);

	parse(&c, "dump -0 -d 6250 /dev/sdX", &o);
	unit_eq_long(o.ntrec, HIGHDENSITYTREC, "-d 6250 makes records of %d",
		     HIGHDENSITYTREC);
	done(&c, &o);
	parse(&c, "dump -0 -b 16 -d 6250 /dev/sdX", &o);
	unit_eq_long(o.ntrec, 16, "... but not after -b");
	done(&c, &o);

	parse(&c, "dump -0 -e 12,13 -e 70000 -B 100,200 /dev/sdX", &o);
	unit_ok(o.nexcluded == 3 && o.excluded[0] == 12 &&
		    o.excluded[2] == 70000,
		"-e lists of inodes add up");
	unit_ok(o.nvolsize == 2 && o.volsize[0] == 100 && o.volsize[1] == 200,
		"-B 100,200: one size per volume");
	done(&c, &o);

	expect_exit(
	    "dump -0 -L 0123456789abcdefXYZ /dev/sdX", 0,
	    "  DUMP: WARNING: Using truncated label `0123456789abcde'.");
	parse(&c, "dump -0 -L 0123456789abcde /dev/sdX", &o);
	unit_eq_str(o.label, "0123456789abcde", "-L: %d characters kept",
		    LABEL_MAX);
	done(&c, &o);

	parse(&c, "dump -1 -T Sat~Jan~~1~00:00:00~2000~+0100 /dev/sdX", &o);
	unit_eq_long(o.base_ddate, 946684800L - 3600,
		     "-T: the base date as given, zone included");
	done(&c, &o);
	parse(&c, "dump -0 --strict -m -M -q /mnt/a /mnt/b/", &o);
	unit_ok(o.strict && o.metadata_only && o.multi && o.quiet &&
		    o.noperands == 2 && strcmp(o.operands[1], "/mnt/b/") == 0,
		"--strict -m -M -q, and a second operand as given");
	done(&c, &o);
}

static void
test_remote(void)
{
	struct cmdline c;
	struct dump_opts o;

	stub_preconnect = NULL;
	parse(&c, "dump -0 -f backup@tapehost:/dev/nst0 /dev/sdX", &o);
	unit_ok(stub_preconnect != NULL &&
		    strcmp(stub_preconnect, "backup@tapehost:/dev/nst0") == 0 &&
		    strcmp(o.output, "backup@tapehost:/dev/nst0") == 0,
		"-f user@host:file goes to the remote writer");
	done(&c, &o);
	expect_exit("dump -0 -f bad!user@host:/dev/nst0 /dev/sdX", X_STARTUP,
		    "invalid user name");
}

/* A tape drive in fixed-block mode (writer_tape_blksize). */
static void
test_fixed_blocks(void)
{
	struct cmdline c;
	struct dump_opts o;

	stub_tape_blksize = 65536;
	parse(&c, "dump -0 -f /dev/nst0 /dev/sdX", &o);
	unit_eq_long(o.ntrec, 64,
		     "fixed 64 KiB tape blocks: records grow "
		     "to 64 KiB");
	done(&c, &o);
	expect_exit("dump -0 -b 10 -f /dev/nst0 /dev/sdX", X_STARTUP,
		    "Use -b 64 (or a multiple of it)");
	stub_tape_blksize = 0;
}

static void
test_refusals(void)
{
	expect_exit("dump -0", X_STARTUP,
		    "  DUMP: Must specify disk or filesystem");
	expect_exit("dump -0 -b 2000 /dev/sdX", X_STARTUP,
		    "  DUMP: Please choose a blocksize <= 1024kB");
	expect_exit("dump -0 -b x /dev/sdX", X_STARTUP,
		    "dump: illegal number of blocks per write -- x");
	expect_exit(
	    "dump -0 -b 0 /dev/sdX", X_STARTUP,
	    "dump: number of blocks per write must be between 1 and 1048576");
	expect_exit("dump -0 -d 5 /dev/sdX", X_STARTUP,
		    "dump: density must be between 10 and 327670");
	expect_exit("dump -0 -z10 /dev/sdX", X_STARTUP,
		    "compress level must be between 1 and 9");
	expect_exit("dump -0 -h 11 /dev/sdX", X_STARTUP,
		    "honor level must be between 0 and 10");
	expect_exit("dump -0 -e 2 /dev/sdX", X_STARTUP,
		    "  DUMP: Invalid inode argument 2");
	expect_exit("dump -0 -B 0 /dev/sdX", X_STARTUP,
		    "number of blocks per file must be between 1 and 0");
	expect_exit("dump -0 -a -s 100 -B 10 /dev/sdX", X_STARTUP,
		    "  DUMP: You cannot use the a and B flags together.");
	expect_exit("dump -0 -u -T Sat~Jan~~1~00:00:00~2000 /dev/sdX",
		    X_STARTUP,
		    "  DUMP: You cannot use the T and u flags together.");
	expect_exit("dump -0 -T yesterday /dev/sdX", X_STARTUP,
		    "  DUMP: bad time \"yesterday\"");
	expect_exit("dump -0 -k /dev/sdX", X_STARTUP, "usage:\tdump [-level#]");
	expect_exit("dump", X_STARTUP, "usage:");
	expect_exit("dump -W", X_FINOK, "report_dumpdates all=1");
	expect_exit("dump -0 -w -b x", X_FINOK, "report_dumpdates all=0");
}

static int
same_str(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* What a command line sets, compared field by field. */
static int
same_opts(const struct dump_opts *a, const struct dump_opts *b)
{
	return a->level == b->level && same_str(a->output, b->output) &&
	    a->ntrec == b->ntrec && strcmp(a->label, b->label) == 0 &&
	    a->label_given == b->label_given && a->quiet == b->quiet &&
	    a->verbose == b->verbose && a->update == b->update &&
	    a->estimate_only == b->estimate_only &&
	    same_str(a->dumpdates, b->dumpdates) &&
	    same_str(a->base_date, b->base_date) &&
	    a->base_ddate == b->base_ddate &&
	    a->honor_level == b->honor_level && a->nexcluded == b->nexcluded &&
	    (a->nexcluded == 0 ||
	     memcmp(a->excluded, b->excluded,
		    a->nexcluded * sizeof(*a->excluded)) == 0) &&
	    a->notify == b->notify && a->all_media == b->all_media &&
	    a->compress == b->compress &&
	    a->compress_level == b->compress_level &&
	    a->nvolsize == b->nvolsize &&
	    (a->nvolsize == 0 ||
	     memcmp(a->volsize, b->volsize,
		    (size_t)a->nvolsize * sizeof(*a->volsize)) == 0) &&
	    a->multi == b->multi && a->length_feet == b->length_feet &&
	    a->density == b->density && a->cartridge == b->cartridge &&
	    same_str(a->volscript, b->volscript) &&
	    a->metadata_only == b->metadata_only &&
	    same_str(a->toc_file, b->toc_file) &&
	    same_str(a->qfa_file, b->qfa_file) &&
	    same_str(a->operand, b->operand);
}

/* Each long name against its letter: the same options result. */
static void
test_long_names(void)
{
	static const char *const pairs[][2] = {
	    {"-A /tmp/toc", "--archive-file /tmp/toc"},
	    {"-a", "--auto-size"},
	    {"-B 100,200", "--blocks-per-volume=100,200"},
	    {"-b 64", "--block-size 64"},
	    {"-c", "--cartridge"},
	    {"-d 6250", "--density=6250"},
	    {"-D /tmp/dd", "--dumpdates-file /tmp/dd"},
	    {"-e 12,13", "--excluded-inodes 12,13"},
	    {"-f /tmp/out", "--output-file=/tmp/out"},
	    {"-F /bin/true", "--eot-script /bin/true"},
	    {"-h 3", "--honor-nodump-level 3"},
	    {"-I 5", "--max-ignore-errors 5"},
	    {"-j", "--bz-compress"},
	    {"-j4", "--bz-compress=4"},
	    {"-L mylabel", "--label mylabel"},
	    {"-m", "--metadata-only"},
	    {"-M", "--multivolume"},
	    {"-n", "--notify-operators"},
	    {"-q", "--abort-on-intervention"},
	    {"-Q /tmp/qfa", "--QFAfile /tmp/qfa"},
	    {"-s 1048576", "--tape-feet-per-volume 1048576"},
	    {"-S", "--size-estimate-only"},
	    {"-T Sat~Jan~~1~00:00:00~2000",
	     "--dump-changed-since-time=Sat~Jan~~1~00:00:00~2000"},
	    {"-u", "--update-dumpdates"},
	    {"-v", "--verbose"},
	    {"-y", "--lzo-compress"},
	    {"-z", "--z-compress"},
	    {"-z9", "--z-compress=9"},
	    {"-u", "--upd"}, /* a unique prefix is enough */
	};
	char lshort[256], llong[256];

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		struct cmdline c1, c2;
		struct dump_opts a, b;

		snprintf(lshort, sizeof(lshort), "dump -1 %s /dev/sdX",
			 pairs[i][0]);
		snprintf(llong, sizeof(llong), "dump -1 %s /dev/sdX",
			 pairs[i][1]);
		parse(&c1, lshort, &a);
		parse(&c2, llong, &b);
		unit_ok(same_opts(&a, &b), "%s is %s", pairs[i][1],
			pairs[i][0]);
		done(&c1, &a);
		done(&c2, &b);
	}
	expect_exit("dump --print-all-dump-stats", X_FINOK,
		    "report_dumpdates all=1");
	expect_exit("dump --print-dump-stats", X_FINOK,
		    "report_dumpdates all=0");
}

/* The options that have only a long name, and getopt_long's refusals
 * in 0.4b56's words. */
static void
test_long_only(void)
{
	struct cmdline c;
	struct dump_opts o;

	parse(&c, "dump -0 /dev/sdX", &o);
	unit_ok(!o.dump_date_given && o.filesys_name == NULL &&
		    !o.blockdev_dumpdates && o.debug == 0 &&
		    strcmp(o.dumpdates_name, "/dev/sdX") == 0,
		"without them: dated now, unlisted, keyed by the operand");
	done(&c, &o);
	parse(&c,
	      "dump -0 --dumpdates-time Thu~Jan~~2~03:04:05~2020~+0200 "
	      "--filesys-name My~FS --use-blockdev-for-dumpdates "
	      "--debug=ff /mnt/",
	      &o);
	unit_eq_long(o.dump_date, 1577934245L - 7200,
		     "--dumpdates-time: that date, zone included");
	unit_ok(o.dump_date_given && strcmp(o.filesys_name, "My FS") == 0 &&
		    o.blockdev_dumpdates && o.debug == 0xff,
		"--filesys-name, --use-blockdev-for-dumpdates, --debug=ff");
	unit_eq_str(o.dumpdates_name, "/mnt",
		    "dumpdates name: the operand until main() resolves it");
	done(&c, &o);
	parse(&c, "dump -0 --debug /dev/sdX", &o);
	unit_ok(o.debug == 1 && strcmp(o.operand, "/dev/sdX") == 0,
		"--debug alone: mask 1, the next word is no mask");
	done(&c, &o);

	expect_exit("dump -0 --dumpdates-time 2020-01-02T03:04:05 /dev/sdX",
		    X_STARTUP, "  DUMP: bad time \"2020-01-02T03:04:05\"");
	expect_exit("dump -0 --debug=zz /dev/sdX", X_STARTUP,
		    "illegal --debug value -- zz");
	expect_exit("dump -0 --dumpdates-time", X_STARTUP,
		    "option '--dumpdates-time' requires an argument");
	expect_exit("dump -0 --label", X_STARTUP,
		    "option '--label' requires an argument");
	expect_exit("dump -0 --auto-size=1 /dev/sdX", X_STARTUP,
		    "option '--auto-size' doesn't allow an argument");
	expect_exit("dump -0 --kerberos /dev/sdX", X_STARTUP,
		    "unrecognized option '--kerberos'");
	expect_exit("dump -0 --dump /dev/sdX", X_STARTUP,
		    "option '--dump' is ambiguous; possibilities: "
		    "'--dumpdates-time' '--dumpdates-file' "
		    "'--dump-changed-since-time'");
	expect_exit("dump -0 --z-compress=10 /dev/sdX", X_STARTUP,
		    "compress level must be between 1 and 9");
	expect_exit("dump -0 --block-size 2000 /dev/sdX", X_STARTUP,
		    "  DUMP: Please choose a blocksize <= 1024kB");
}

int
main(void)
{
	test_key_letters();
	test_defaults();
	test_getopt_style();
	test_remote();
	test_fixed_blocks();
	test_refusals();
	test_long_names();
	test_long_only();
	return unit_done();
}
