/*
 * main.c - dump's driver: options (options.c), then one call per phase,
 * and the messages between them.
 *
 * The phases run in order: operands (file system or subset), base date
 * (dumpdates), file system, pass I/II mapping and estimate, output
 * start, the maps, pass III, pass IV, end of dump, dumpdates update,
 * closing messages.  Start-up errors exit with X_STARTUP, failures after
 * the output started with X_ABORT.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exitcodes.h"
#include "compress.h"
#include "changes.h"
#include "dump.h"
#include "optr.h"
#include "notify.h"
#include "qfa.h"
#include "rmtclient.h"
#include "sig.h"
#include "spclext.h"
#include "tape.h"

#define BYTES_PER_MB (1024.0 * 1024.0)
#define RATIO_ROUND  0.0005 /* 0.4b47 rounds the ratio up */
/* Tape-length estimate, as 0.4b47's: densities in bytes per 0.1",
 * lengths in feet, inter-record gaps in 0.1". */
#define BPI_PER_DENSITY	  10
#define DEFAULT_DENSITY	  160.0 /* 1600 bpi 9-track */
#define CARTRIDGE_DENSITY 100.0 /* -c: 8000 bpi, as 0.4b47 counts */
#define DENSITY_6250	  625.0
#define DEFAULT_FEET	  2300L
#define CARTRIDGE_FEET	  1700L
#define TENTHS_PER_FOOT	  120.0 /* 12 inches of 10 tenths */
#define CARTRIDGE_GAP_EST 15.48 /* streaming stop per record */
#define GAP_6250_EST	  3.0
#define GAP_OTHER_EST	  7.0

static void
copy_field(char *dst, size_t size, const char *src)
{
	memset(dst, 0, size);
	strncpy(dst, src, size - 1);
}

/* The date of the dump whole, past 2038 too: from the extension
 * build_ident() wrote (c_date keeps its low 32 bits). */
static time_t
ident_date(const union u_spcl *id)
{
	struct spclext x;

	if (spclext_get(id, &x) && (x.flags & SPCLEXT_DATES))
		return (time_t)x.date;
	return (time_t)id->s_spcl.c_date;
}

static void
build_ident(const struct dump_opts *o, const struct dump_fs *dfs, time_t date,
	    time_t ddate, union u_spcl *id)
{
	char host[NAMELEN + 1];
	const char *label = o->label;

	memset(id, 0, sizeof(*id));
	id->s_spcl.c_date = (int32_t)date;
	id->s_spcl.c_ddate = (int32_t)ddate;
	/* The dates whole, past 2038 too (records.c copies them into every
	 * header's extension). */
	spclext_put(id,
		    &(struct spclext){.flags = SPCLEXT_DATES,
				      .date = (int64_t)date,
				      .ddate = (int64_t)ddate});
	id->s_spcl.c_level = o->level;
	if (!o->label_given)
		label = dfs->volname[0] != '\0' ? dfs->volname : LABEL_NONE;
	copy_field(id->s_spcl.c_label, sizeof(id->s_spcl.c_label), label);
	copy_field(id->s_spcl.c_filesys, NAMELEN, dfs->filesys);
	copy_field(id->s_spcl.c_dev, NAMELEN, dfs->device);
	memset(host, 0, sizeof(host));
	if (gethostname(host, NAMELEN) < 0)
		host[0] = '\0';
	copy_field(id->s_spcl.c_host, NAMELEN, host);
}

/* changed: files that changed as they were read; incomplete: the
 * dump fails under --strict (changed files or damage). */
static void
closing_messages(const struct dump_opts *o, time_t date, time_t start,
		 uint64_t changed, int incomplete)
{
	uint64_t blocks = tape_blocks(), ukb = 0, ckb = 0, rate = 0;
	time_t now = time(NULL);
	long secs = (long)(now - start);
	double mb = (double)blocks * TP_BSIZE / BYTES_PER_MB;
	int compressed = tape_compress_totals(&ukb, &ckb);

	if (tape_output_is_pipe())
		msg("%llu blocks (%.2fMB)\n", (unsigned long long)blocks, mb);
	else
		msg("%llu blocks (%.2fMB) on %d volume(s)\n",
		    (unsigned long long)blocks, mb, tape_volumes());
	if (secs <= 0)
		msg("finished in less than a second\n");
	else
		msg("finished in %ld seconds, throughput %llu kBytes/sec\n",
		    secs, (unsigned long long)(blocks / (uint64_t)secs));
	if (changed > 0)
		msg("%llu file(s) changed as we read them\n",
		    (unsigned long long)changed);
	sig_check(); /* a late signal still leaves dumpdates alone */
	/* --strict: such an archive is no base for the next level. */
	if (incomplete) {
		if (o->update)
			msg("--strict: dumpdates is not updated\n");
	} else if (o->update && itime_update(o, date) < 0)
		dump_abort();
	msg("Date of this level %d dump: %s", o->level, optr_ctime(date));
	msg("Date this dump completed:  %s", optr_ctime(now));
	/* What reached the output per second: compressed bytes if any. */
	if (secs > 0)
		rate = (compressed ? ckb : blocks) / (uint64_t)secs;
	msg("Average transfer rate: %llu kB/s\n", (unsigned long long)rate);
	if (compressed)
		msg("Wrote %llukB uncompressed, %llukB compressed, %1.3f:1\n",
		    (unsigned long long)ukb, (unsigned long long)ckb,
		    RATIO_ROUND + (double)ukb / (double)(ckb ? ckb : 1));
	(void)qfa_close(); /* -Q, -A: errors are reported there */
	msg("DUMP IS DONE\n");
	notify_operators("DUMP IS DONE!"); /* -n */
}

/* Passes III and IV through the end of the dump. */
static void
run_dump(const struct dump_opts *o, const struct dump_fs *dfs,
	 const struct dump_maps *maps, const struct tape_config *cfg,
	 time_t start)
{
	union u_spcl end;
	uint64_t changed;
	unsigned long damaged, unreadable;
	int incomplete;

	/* before the writer is forked: it prints the progress lines */
	optr_progress_start(maps->estimate + 1 + (uint64_t)o->ntrec);
	if (tape_start(cfg) < 0) {
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
	traverse_dump_maps(dfs, maps);
	changes_start(dfs, maps);
	traverse_dump_inodes(o, dfs, maps, 1);
	traverse_dump_inodes(o, dfs, maps, 0);
	damaged = optr_damage_summary();
	inode_new_header(&end, TS_END, dfs->maxino - 1);
	qfa_end_header(&end); /* -A volume table */
	if (tape_finish(&end) < 0)
		dump_abort();
	/* --verify: what the output holds is not what was dumped; no
	 * dumpdates line, and a status schedulers take for a failure. */
	if (tape_verify_failed()) {
		msg("The archive read back does not verify\n");
		dump_abort();
	}
	unreadable = tape_read_errors();
	if (unreadable != 0)
		msg("%lu unreadable range(s) reported above: dumped as "
		    "zeros\n",
		    unreadable);
	changed = changes_finish();
	incomplete =
	    o->strict && (changed > 0 || damaged > 0 || unreadable > 0);
	closing_messages(o, ident_date(cfg->ident), start, changed, incomplete);
	if (incomplete)
		exit(X_INCOMPLETE);
}

static void
fill_tape_config(const struct dump_opts *o, const struct dump_fs *dfs,
		 const union u_spcl *ident, struct tape_config *c)
{
	memset(c, 0, sizeof(*c));
	c->output = o->output;
	c->device = dfs->device;
	c->fsblock = dfs->blocksize;
	c->ntrec = o->ntrec;
	c->verbose = o->verbose;
	c->ident = ident;
	c->compress = o->compress;
	c->compress_level = o->compress_level;
	c->volsize = o->volsize;
	c->nvolsize = o->nvolsize;
	c->multi = o->multi;
	c->noask = o->quiet;
	c->length_feet = o->length_feet;
	c->density = o->density;
	c->cartridge = o->cartridge;
	c->volscript = o->volscript;
	c->verify = o->verify;
}

/*
 * "Dumping DEVICE (FILESYS) to OUTPUT", printed just before the file
 * system is opened (fsopen.c), as 0.4b47 does: also when the open then
 * fails.  FILESYS is cut to the header's field, as 0.4b47 prints it.
 */
static void
announce_dump(const void *arg, const char *device, const char *fsname)
{
	const struct dump_opts *o = arg;
	char name[PATH_MAX], filesys[NAMELEN];

	if (o->estimate_only)
		return;
	copy_field(filesys, sizeof(filesys), fsname);
	if (strcmp(o->output, "-") == 0) {
		msg("Dumping %s (%s) to standard output\n", device, filesys);
	} else {
		struct rmt_conn remote;
		const char *path;

		tape_volume_name(o->output, o->multi, 1, name, sizeof(name));
		/* 0.4b47 names a remote output by its path and host. */
		if (rmt_is_remote(name) && rmt_split(name, &remote, &path) == 0)
			msg("Dumping %s (%s) to %s on host %s\n", device,
			    filesys, path, remote.host);
		else
			msg("Dumping %s (%s) to %s\n", device, filesys, name);
	}
}

static void
start_messages(const struct dump_opts *o, const struct dump_fs *dfs,
	       const struct tape_config *cfg)
{
	traverse_report_fixed(o, dfs);
	msg("Label: %s\n", cfg->ident->s_spcl.c_label);
	msg("Writing %d Kilobyte records\n", o->ntrec);
	if (o->compress == COMP_ZLIB)
		msg("Compressing output at transformation level %d (zlib)\n",
		    o->compress_level);
	else if (o->compress == COMP_BZLIB)
		msg("Compressing output at transformation level %d (bzlib)\n",
		    o->compress_level);
	else if (o->compress == COMP_LZO)
		msg("Compressing output (lzo)\n");
	else if (o->compress == COMP_ZSTD)
		msg("Compressing output at transformation level %d (zstd)\n",
		    o->compress_level);
}

/* Whether volumes end by size (-B) or computed tape length (-c/-d/-s):
 * on standard output they never do. */
static int
sized_volumes(const struct dump_opts *o)
{
	if (strcmp(o->output, "-") == 0)
		return 0;
	return o->nvolsize > 0 || o->cartridge || o->density != 0 ||
	    o->length_feet != 0;
}

/*
 * -B: the volumes are counted by taking the sizes off the estimate in
 * turn (the last size repeats, uncompressed sizes rounded down to whole
 * records), the rest as a fraction of the size at hand.
 */
static double
tapes_by_size(const struct dump_opts *o, uint64_t est)
{
	double rest = (double)est, tapes = 0.0, size;
	int i = 0;

	for (;;) {
		size = (double)o->volsize[i];
		if (o->compress == COMP_NONE && o->volsize[i] >= o->ntrec)
			size = (double)(o->volsize[i] / o->ntrec * o->ntrec);
		if (i == o->nvolsize - 1 && rest > size) {
			/* the repeating size: all its whole volumes at once
			 * (a -B 1 on a big file system is no long loop) */
			uint64_t k = ((uint64_t)rest - 1) / (uint64_t)size;

			rest -= (double)k * size;
			tapes += (double)k;
		}
		if (rest <= size)
			break;
		rest -= size;
		tapes += 1.0;
		if (i < o->nvolsize - 1)
			i++;
	}
	return tapes + rest / size;
}

/*
 * -c/-d/-s: tape used by the data at the density plus one gap per
 * record, over the tape length; density in bytes per 0.1", lengths in
 * 0.1", as 0.4b47 computes it.  The cartridge gap is fractional there, unlike
 * the whole tenths the writer counts per record.
 */
static double
tapes_by_length(const struct dump_opts *o, uint64_t est)
{
	double density, tsize, gap;

	if (o->density != 0)
		density = (double)(o->density / BPI_PER_DENSITY);
	else
		density = o->cartridge ? CARTRIDGE_DENSITY : DEFAULT_DENSITY;
	if (o->length_feet != 0)
		tsize = (double)o->length_feet * TENTHS_PER_FOOT;
	else
		tsize = (double)(o->cartridge ? CARTRIDGE_FEET : DEFAULT_FEET) *
		    TENTHS_PER_FOOT;
	if (o->cartridge)
		gap = CARTRIDGE_GAP_EST;
	else
		gap = density == DENSITY_6250 ? GAP_6250_EST : GAP_OTHER_EST;
	return ((double)est * TP_BSIZE / density +
		(double)est / o->ntrec * gap) /
	    tsize;
}

/*
 * "estimated N blocks." or, when volumes end by size or tape length,
 * "estimated N blocks on X.XX tape(s).", N then counting the header and
 * maps each further volume adds (as 0.4b47 counts).
 */
static void
estimate_message(const struct dump_opts *o, const struct dump_maps *maps)
{
	uint64_t est = maps->estimate, mapblocks = maps->mapsize / TP_BSIZE;
	uint64_t volumes;
	double tapes;

	if (!sized_volumes(o)) {
		msg("estimated %llu blocks.\n",
		    (unsigned long long)(est + 1 + (uint64_t)o->ntrec));
		return;
	}
	if (o->nvolsize > 0)
		tapes = tapes_by_size(o, est);
	else
		tapes = tapes_by_length(o, est);
	volumes = (uint64_t)tapes + 1;
	est += (volumes - 1) * (mapblocks + 1) + volumes + (uint64_t)o->ntrec;
	msg("estimated %llu blocks on %3.2f tape(s).\n",
	    (unsigned long long)est, tapes);
}

static _Noreturn void
startup_failure(const char *why)
{
	msg("%s\n", why);
	msg("The ENTIRE dump is aborted.\n");
	exit(X_STARTUP);
}

/*
 * Whether the operands name a subset (then *sub is filled), checked
 * before dumpdates is read; a file system takes one operand.  As in
 * 0.4b53 on, a subset has incrementals and -u, keyed by its first
 * operand as typed, except with --use-blockdev-for-dumpdates: a line
 * keyed by the device would be taken for one of the whole file system.
 */
static int
check_operands(const struct dump_opts *o, struct dump_subset *sub)
{
	int i;

	if (fsopen_subset(o, sub)) {
		if (o->blockdev_dumpdates && o->level != 0)
			startup_failure("Only level 0 dumps are allowed on a "
					"subdirectory when writing the "
					"blockdev to dumpdates");
		if (o->blockdev_dumpdates && o->update)
			startup_failure("You can't update the dumpdates file "
					"when writing the blockdev to "
					"dumpdates and dumping a subdirectory");
		return 1;
	}
	if (o->noperands == 1)
		return 0;
	/* 0.4b47 prints this one line without the "  DUMP: " prefix. */
	fprintf(stderr, "Unknown arguments to dump:");
	for (i = 1; i < o->noperands; i++)
		fprintf(stderr, " %s", o->operands[i]);
	fprintf(stderr, "\n");
	msg("The ENTIRE dump is aborted.\n");
	exit(X_STARTUP);
}

/* The file system, whole or the one holding the subset; exits on
 * failure. */
static void
open_filesystem(const struct dump_opts *o, const struct dump_subset *sub,
		int subset, struct dump_fs *dfs)
{
	struct fsopen_announce ann = {announce_dump, o};
	int rc = subset ? fsopen_open_subset(sub, dfs, &ann)
			: fsopen_resolve(o, dfs, &ann);

	if (rc < 0) {
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
}

/* Passes I and II; a subset operand that cannot be dumped is a
 * start-up error (nothing was written yet). */
static void
map_fs(const struct dump_opts *o, const struct dump_fs *dfs,
       const struct dump_subset *sub, int subset, time_t ddate,
       struct dump_maps *maps)
{
	if (!subset) {
		traverse_map(o, dfs, ddate, maps);
		return;
	}
	if (traverse_map_subset(o, dfs, sub, ddate, maps) < 0) {
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
}

/* -T: the base date comes from the command line, dumpdates is unread. */
static void
base_from_option(const struct dump_opts *o, struct itime_base *base)
{
	memset(base, 0, sizeof(*base));
	base->ddate = o->base_ddate;
	base->found = 1;
}

int
main(int argc, char **argv)
{
	struct dump_opts o;
	struct dump_fs dfs;
	struct dump_maps maps;
	struct itime_base base;
	union u_spcl ident;
	struct tape_config cfg;
	struct dump_subset sub;
	time_t start = time(NULL), date;
	char *ddname = NULL;
	int rc, subset;

	memset(&dfs, 0, sizeof(dfs));
	memset(&maps, 0, sizeof(maps));
	/* the message and signal layer learns of the output through hooks */
	optr_on_abort(tape_kill_helpers);
	sig_on_pipe_test(tape_output_is_pipe);
	options_parse(argc, argv, &o);
	/* --dumpdates-time: the dump is dated (header, messages, dumpdates)
	 * as of then, e.g. when its snapshot was taken */
	date = o.dump_date_given ? o.dump_date : start;
	if (o.notify)
		notify_setup();
	sig_setup(o.output, o.quiet);
	if (o.toc_file != NULL && qfa_toc_open(o.toc_file) < 0) {
		msg("Cannot open %s for writing: %s\n", o.toc_file,
		    strerror(errno));
		msg("The ENTIRE dump is aborted.\n");
		exit(X_STARTUP);
	}
	add_error_table(&et_ext2_error_table);
	subset = check_operands(&o, &sub);
	if (o.blockdev_dumpdates && !subset)
		o.dumpdates_name = ddname = fsopen_device_name(&o);
	if (o.debug & DEBUG_DUMPDATES)
		msg("debug: dumpdates %s: lines of %s below level %d\n",
		    o.dumpdates, o.dumpdates_name, o.level);

	if (o.base_date != NULL)
		base_from_option(&o, &base);
	else
		itime_read(&o, subset ? NULL : fsopen_fs_rdev, &base);
	/* A base date of 0, the epoch, counts as none (as in 0.4b47). */
	if (base.ddate == 0)
		base.found = 0;
	if (o.level > 0 && !base.found) {
		msg("WARNING: There is no inferior level dump on this "
		    "filesystem\n");
		msg("WARNING: Assuming a level 0 dump by default\n");
		o.level = 0;
	}
	if (!o.estimate_only) {
		msg("Date of this level %d dump: %s", o.level,
		    optr_ctime(date));
		if (base.found && o.base_date != NULL)
			msg("Date of last level ? dump: %s",
			    optr_ctime(base.ddate));
		else if (base.found)
			msg("Date of last level %d dump: %s", base.level,
			    optr_ctime(base.ddate));
	}
	open_filesystem(&o, &sub, subset, &dfs);
	optr_damage_setup(dfs.maxino);
	build_ident(&o, &dfs, date, base.found ? base.ddate : 0, &ident);
	inode_set_ident(&ident);
	fill_tape_config(&o, &dfs, &ident, &cfg);
	if (!o.estimate_only)
		start_messages(&o, &dfs, &cfg);
	map_fs(&o, &dfs, &sub, subset, base.found ? base.ddate : 0, &maps);
	if (o.estimate_only) {
		printf("%llu\n",
		       (unsigned long long)((maps.estimate + 1 +
					     (uint64_t)o.ntrec) *
					    TP_BSIZE));
		rc = fflush(stdout) == 0 ? X_FINOK : X_STARTUP;
	} else {
		estimate_message(&o, &maps);
		if (o.qfa_file != NULL && qfa_pos_open(o.qfa_file, date) < 0) {
			msg("can't open tapeposfile\n");
			dump_abort();
		}
		run_dump(&o, &dfs, &maps, &cfg, start);
		rc = X_FINOK;
	}
	traverse_free_maps(&maps);
	fsopen_close(&dfs);
	fsopen_free_subset(&sub);
	free(ddname);
	options_free(&o);
	return rc;
}
