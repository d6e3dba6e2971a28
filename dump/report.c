/*
 * report.c - dump -W / -w: which file systems need a dump (doc/dumpdates.md 5).
 *
 * The table lists the ext2/3/4 block devices of the mount table and of
 * /etc/fstab (an entry whose device was seen already only lends it its
 * fstab dump frequency, if it had none), each with the newest dumpdates
 * record naming its mount point or device, then the dumpdates
 * identifiers that belong to no such entry.  An entry needs a dump
 * when its fstab frequency (days) is set and its newest record is older
 * than that, or missing.
 * -W prints everything and marks those with '>'; -w prints only them.
 * Output goes to stdout, as 0.4b47 does.
 */
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <blkid.h>

#include "exitcodes.h"
#include "dump.h"
#include "optr.h"
#include "xalloc.h"

#define MTAB_PATH	"/etc/mtab"
#define MOUNTS_PATH	"/proc/self/mounts"
#define FSTAB_PATH	"/etc/fstab"
#define MAX_DUMP_FREQ	3659 /* days, as 0.4b47 accepts */
#define SECS_PER_DAY	(24 * 60 * 60)
#define NEVER_DATE	365 /* dates this close to 1970: never */
#define NEEDS_DUMP_MARK '>'

struct report_fs {
	char *dev;
	char *dir;
	dev_t rdev;
	int freq;
	const struct itime_rec *last; /* newest matching record */
};

struct report_table {
	struct report_fs *fs;
	size_t n;
};

static const char *const report_types[] = {"ext2", "ext3", "ext4", "InterMezzo",
					   NULL};

static int
wanted_type(const char *t)
{
	size_t i;

	for (i = 0; report_types[i] != NULL; i++)
		if (strcmp(t, report_types[i]) == 0)
			return 1;
	return 0;
}

/* A frequency above the bound is fatal, before anything is printed,
 * as in 0.4b47 (which names "<mount point> <device>" for a new entry). */
static void
check_freq(int freq, const char *dir, const char *dev)
{
	if (freq <= MAX_DUMP_FREQ)
		return;
	msg("Dump frequency in fstab/mtab for %s%s%s is too big: %d > %d\n",
	    dir, *dir != '\0' ? " " : "", dev, freq, MAX_DUMP_FREQ);
	msg("The ENTIRE dump is aborted.\n");
	exit(X_ABORT);
}

static void
add_entry(struct report_table *t, const struct mntent *m)
{
	struct stat st;
	char *dev;
	size_t i;

	if (!wanted_type(m->mnt_type))
		return;
	if (strncmp(m->mnt_fsname, "LABEL=", 6) == 0 ||
	    strncmp(m->mnt_fsname, "UUID=", 5) == 0)
		dev = blkid_evaluate_tag(m->mnt_fsname, NULL, NULL);
	else
		dev = xstrdup(m->mnt_fsname);
	if (dev == NULL || stat(dev, &st) < 0 || !S_ISBLK(st.st_mode)) {
		free(dev);
		return;
	}
	/* A device seen already lends its frequency to the first entry
	 * only if that one had none; 0.4b47 checks the bound only where
	 * it takes a frequency, naming the device alone there. */
	for (i = 0; i < t->n; i++) {
		if (t->fs[i].rdev != st.st_rdev)
			continue;
		if (t->fs[i].freq == 0) {
			check_freq(m->mnt_freq, "", dev);
			t->fs[i].freq = m->mnt_freq;
		}
		free(dev);
		return;
	}
	check_freq(m->mnt_freq, m->mnt_dir, dev);
	t->fs = xreallocarray(t->fs, t->n + 1, sizeof(*t->fs));
	t->fs[t->n].dev = dev;
	t->fs[t->n].dir = xstrdup(m->mnt_dir);
	t->fs[t->n].rdev = st.st_rdev;
	t->fs[t->n].freq = m->mnt_freq;
	t->fs[t->n].last = NULL;
	t->n++;
}

/* Returns whether the table could be read. */
static int
read_table(struct report_table *t, const char *path)
{
	FILE *f = setmntent(path, "r");
	struct mntent *m;

	if (f == NULL)
		return 0;
	while ((m = getmntent(f)) != NULL)
		add_entry(t, m);
	endmntent(f);
	return 1;
}

/* Identifier ascending, then newest first. */
static int
rec_order(const void *a, const void *b)
{
	const struct itime_rec *x = a, *y = b;
	int c = strcmp(x->ident, y->ident);

	if (c != 0)
		return c;
	return x->date > y->date ? -1 : x->date < y->date;
}

static void
print_line(int mark, const char *dev, const char *dir,
	   const struct itime_rec *r)
{
	char date[64];
	size_t len;

	printf("%c %8s\t(%6s) Last dump: ", mark, dev, dir);
	if (r == NULL || r->date <= NEVER_DATE) {
		printf("never\n");
		return;
	}
	snprintf(date, sizeof(date), "%s", optr_ctime(r->date));
	len = strlen(date);
	if (len > 0 && date[len - 1] == '\n')
		date[len - 1] = '\0';
	printf("Level %d, Date %s\n", r->level, date);
}

static int
needs_dump(const struct report_fs *e, time_t now)
{
	if (e->freq <= 0)
		return 0;
	return e->last == NULL ||
	    e->last->date < now - (time_t)e->freq * SECS_PER_DAY;
}

/*
 * Print the report (all = -W, else -w) and return the exit status.
 */
int
report_dumpdates(const struct dump_opts *o, int all)
{
	struct report_table t = {NULL, 0};
	struct itime_list l = {NULL, 0, 0};
	time_t now = time(NULL);
	size_t i, j;
	int have_tab, have_dd;

	have_tab = read_table(&t, MTAB_PATH) || read_table(&t, MOUNTS_PATH);
	have_tab |= read_table(&t, FSTAB_PATH);
	have_dd = itime_load(o->dumpdates, &l) == 0;
	if (!have_tab && !have_dd) {
		printf("No %s or %s file found\n", FSTAB_PATH, o->dumpdates);
		return X_FINOK;
	}
	if (l.n > 1)
		qsort(l.r, l.n, sizeof(*l.r), rec_order);
	printf(all ? "Last dump(s) done (Dump '>' file systems):\n"
		   : "Dump these file systems:\n");
	for (i = 0; i < t.n; i++) {
		/* The newest record of each identifier; when several
		 * identifiers name the entry, the last in sorted order wins,
		 * as in 0.4b47. */
		for (j = 0; j < l.n; j++)
			if ((j == 0 ||
			     strcmp(l.r[j].ident, l.r[j - 1].ident) != 0) &&
			    (fsopen_same_name(l.r[j].ident, t.fs[i].dir) ||
			     fsopen_same_name(l.r[j].ident, t.fs[i].dev)))
				t.fs[i].last = &l.r[j];
		if (needs_dump(&t.fs[i], now))
			print_line(all ? NEEDS_DUMP_MARK : ' ', t.fs[i].dev,
				   t.fs[i].dir, t.fs[i].last);
		else if (all)
			print_line(' ', t.fs[i].dev, t.fs[i].dir, t.fs[i].last);
	}
	for (j = 0; all && j < l.n; j++) {
		int attached = 0;

		if (j > 0 && strcmp(l.r[j].ident, l.r[j - 1].ident) == 0)
			continue;
		for (i = 0; i < t.n && !attached; i++)
			attached =
			    fsopen_same_name(l.r[j].ident, t.fs[i].dir) ||
			    fsopen_same_name(l.r[j].ident, t.fs[i].dev);
		if (!attached)
			print_line(' ', l.r[j].ident, "", &l.r[j]);
	}
	for (i = 0; i < t.n; i++) {
		free(t.fs[i].dev);
		free(t.fs[i].dir);
	}
	free(t.fs);
	itime_free(&l);
	return fflush(stdout) == 0 ? X_FINOK : X_STARTUP;
}
