/*
 * t-itime.c - the dumpdates file (dump/itime.c, doc/dumpdates.md): the date
 * syntax, reading up to the first bad line, the choice of the base dump
 * (also under another name of the same file system, through a stand-in
 * for fsopen_fs_rdev), and the -u rewrite, both by rename and in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dump.h"
#include "unit.h"

#define JAN1 946684800 /* 2000-01-01 00:00:00 UTC */
#define DAY  86400

#define LINE_A0 "/dev/sda1 0 Sat Jan  1 00:00:00 2000 +0000\n"
#define LINE_B0 "/dev/sdb1 0 Sun Jan  2 00:00:00 2000 +0000\n"
#define LINE_A1 "/dev/sda1 1 Mon Jan  3 00:00:00 2000 +0000\n"
/* Blanks after the zone are allowed; a rewrite drops them. */
#define OLD_B0_BLANKS "/dev/sdb1 0 Sun Jan  2 00:00:00 2000 +0000        \n"

static char path[4096];

static void
test_parse_date(void)
{
	time_t t = 0;

	unit_ok(itime_parse_date("Sat Jan  1 00:00:00 2000 +0000\n", &t) == 0 &&
		    t == JAN1,
		"date with zone +0000");
	unit_ok(itime_parse_date("Sat Jan  1 01:00:00 2000 +0100", &t) == 0 &&
		    t == JAN1,
		"date with zone +0100");
	unit_ok(itime_parse_date("Fri Dec 31 22:30:00 1999 -0130", &t) == 0 &&
		    t == JAN1,
		"date with zone -0130");
	unit_ok(itime_parse_date("Sat Jan  1 00:00:00 2000", &t) == 0 &&
		    t == JAN1,
		"date without zone: local time (TZ=UTC here)");
	unit_ok(itime_parse_date("Sat Foo  1 00:00:00 2000 +0000", &t) < 0,
		"an unknown month is refused");
	unit_ok(itime_parse_date("Sat Jan  1 00:00", &t) < 0,
		"a short date is refused");
	unit_ok(itime_parse_date("Wed Dec 31 00:00:00 1969 +0000", &t) < 0,
		"a date before 1970 is refused");
}

static void
load_child(void *arg)
{
	struct itime_list l;

	(void)arg;
	if (itime_load(path, &l) == 0) {
		printf("n=%zu\n", l.n);
		itime_free(&l);
	}
}

static void
test_load(void)
{
	struct itime_list l;
	char *out = NULL;

	unit_write_file(path, LINE_A0 LINE_B0 LINE_A1,
			strlen(LINE_A0 LINE_B0 LINE_A1));
	unit_ok(itime_load(path, &l) == 0 && l.n == 3, "three records read");
	unit_ok(l.n == 3 && strcmp(l.r[1].ident, "/dev/sdb1") == 0 &&
		    l.r[1].level == 0 && l.r[1].date == JAN1 + DAY &&
		    l.r[2].level == 1 && l.r[2].date == JAN1 + 2 * DAY,
		"identifier, level and date of each record");
	itime_free(&l);

	unit_write_file(path, LINE_A0 "garbage\n" LINE_A1,
			strlen(LINE_A0 "garbage\n" LINE_A1));
	unit_fork(load_child, NULL, &out);
	unit_ok(strstr(out, "n=1\n") != NULL,
		"a bad line ends the reading: the records after it are lost");
	unit_ok(strstr(out, "  DUMP: Unknown format in ") != NULL,
		"... with 0.4b47's message");
	free(out);

	unlink(path);
	unit_fork(load_child, NULL, &out);
	unit_ok(strstr(out, "  DUMP: WARNING: no file `") != NULL &&
		    strstr(out, "n=") == NULL,
		"a missing file: warning, -1");
	free(out);
}

static void
base_for(const char *ident, int level, struct itime_base *b)
{
	struct dump_opts o;

	memset(&o, 0, sizeof(o));
	o.dumpdates = path;
	o.operand = (char *)ident;
	o.dumpdates_name = ident;
	o.level = level;
	itime_read(&o, NULL, b);
}

/* Stand-in for fsopen_fs_rdev: /dev/sda1, its mount point /srv and
 * LABEL=srv are device 8:1; /dev/sdb1 is 8:17; anything else (a
 * subdirectory such as /srv/sub, a name that leads nowhere) is none. */
static int
fake_rdev(const char *name, dev_t *rdev)
{
	static const struct {
		const char *name;
		dev_t rdev;
	} names[] = {{"/dev/sda1", 0x801},
		     {"/srv", 0x801},
		     {"LABEL=srv", 0x801},
		     {"/dev/sdb1", 0x811}};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i].name) == 0) {
			*rdev = names[i].rdev;
			return 0;
		}
	return -1;
}

/* The base of operand at level, names matched through fake_rdev; the
 * messages printed, in *out (malloced). */
struct named {
	const char *operand;
	int level;
};

static void
named_child(void *arg)
{
	const struct named *n = arg;
	struct dump_opts o;
	struct itime_base b;

	memset(&o, 0, sizeof(o));
	o.dumpdates = path;
	o.operand = (char *)n->operand;
	o.dumpdates_name = n->operand;
	o.level = n->level;
	itime_read(&o, fake_rdev, &b);
	printf("found=%d level=%d date=%ld\n", b.found, b.level, (long)b.ddate);
}

static char *
named_base(const char *operand, int level)
{
	struct named n = {operand, level};
	char *out = NULL;

	unit_fork(named_child, &n, &out);
	return out;
}

static void
test_other_names(void)
{
	static const char text[] =
	    "/dev/sda1 0 Sat Jan  1 00:00:00 2000 +0000\n"
	    "LABEL=srv 0 Mon Jan  3 00:00:00 2000 +0000\n"
	    "/dev/sdb1 0 Tue Jan  4 00:00:00 2000 +0000\n"
	    "/srv/sub 0 Wed Jan  5 00:00:00 2000 +0000\n"
	    "/dev/sda1 2 Thu Jan  6 00:00:00 2000 +0000\n";
	char *out;

	unit_write_file(path, text, strlen(text));
	out = named_base("/srv", 1);
	unit_ok(strstr(out, "found=1 level=0 date=946857600\n") != NULL,
		"no line of the mount point: the latest lower level of its "
		"other names (LABEL=), not another fs, not a subdirectory");
	unit_ok(strstr(out,
		       "  DUMP: Using the level 0 dump recorded for "
		       "LABEL=srv, the same file system as /srv\n") != NULL,
		"... and says which line it took");
	free(out);

	out = named_base("/srv", 3);
	unit_ok(strstr(out, "found=1 level=2 date=947116800\n") != NULL &&
		    strstr(out, "recorded for /dev/sda1, the same") != NULL,
		"level 3: the level 2 of the device");
	free(out);

	out = named_base("/dev/sda1", 1);
	unit_ok(strstr(out, "found=1 level=0 date=946684800\n") != NULL &&
		    strstr(out, "Using the") == NULL,
		"a line of the name as typed wins, even when older, silently");
	free(out);

	out = named_base("/srv/sub", 1);
	unit_ok(strstr(out, "found=1 level=0 date=947030400\n") != NULL,
		"a subdirectory finds its own line");
	free(out);

	out = named_base("/srv/other", 1);
	unit_ok(strstr(out, "found=0 ") != NULL && strstr(out, "Using") == NULL,
		"a name that leads to no device finds no other name");
	free(out);

	out = named_base("/srv", 0);
	unit_ok(strstr(out, "found=0 ") != NULL && strstr(out, "Using") == NULL,
		"level 0 looks for no base");
	free(out);
}

static void
test_base(void)
{
	static const char text[] = LINE_A0 LINE_B0 LINE_A1;
	struct itime_base b;

	unit_write_file(path, text, strlen(text));
	base_for("/dev/sda1", 2, &b);
	unit_ok(b.found && b.level == 1 && b.ddate == JAN1 + 2 * DAY,
		"level 2: the level 1 record is the base");
	base_for("/dev/sda1", 1, &b);
	unit_ok(b.found && b.level == 0 && b.ddate == JAN1,
		"level 1: the level 0 record is the base");
	base_for("/dev/sda1", 0, &b);
	unit_ok(!b.found && b.ddate == 0, "level 0: no base");
	base_for("/dev/sdb", 5, &b);
	unit_ok(!b.found, "the identifier must match exactly");
}

/* -u with a missing file makes it empty (and no base). */
static void
create_child(void *arg)
{
	struct dump_opts o;
	struct itime_base b;

	(void)arg;
	memset(&o, 0, sizeof(o));
	o.dumpdates = path;
	o.operand = (char *)"/dev/sda1";
	o.dumpdates_name = o.operand;
	o.update = 1;
	itime_read(&o, NULL, &b);
	printf("found=%d\n", b.found);
}

static void
test_update_create(void)
{
	struct stat st;
	char *out = NULL;

	unlink(path);
	unit_fork(create_child, NULL, &out);
	unit_ok(stat(path, &st) == 0 && st.st_size == 0 &&
		    strstr(out, "found=0\n") != NULL,
		"-u without a dumpdates file makes an empty one");
	unit_ok(strstr(out, "  DUMP: WARNING: no file `") != NULL &&
		    strstr(out, "', making an empty one\n") != NULL,
		"... and says so");
	free(out);
}

static int
update(const char *ident, int level, time_t date)
{
	struct dump_opts o;

	memset(&o, 0, sizeof(o));
	o.dumpdates = path;
	o.operand = (char *)ident;
	o.dumpdates_name = ident;
	o.level = level;
	o.update = 1;
	return itime_update(&o, date);
}

static void
test_update(void)
{
	static const char text[] = LINE_A0 LINE_B0 LINE_A1;
	char other[4200], *got;
	struct stat st;

	unit_write_file(path, text, strlen(text));
	(void)chmod(path, 0640);
	unit_ok(update("/dev/sda1", 1, JAN1 + 10 * DAY) == 0,
		"-u: update succeeds");
	got = unit_read_file(path, NULL);
	unit_eq_str(
	    got, LINE_A0 LINE_B0 "/dev/sda1 1 Tue Jan 11 00:00:00 2000 +0000\n",
	    "-u: the record of the same identifier and level is replaced");
	free(got);
	unit_ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0640,
		"-u: the file keeps its mode");

	unit_ok(update("LABEL=/home", 0, JAN1) == 0, "-u: new identifier");
	got = unit_read_file(path, NULL);
	unit_eq_str(got,
		    LINE_A0 LINE_B0
		    "/dev/sda1 1 Tue Jan 11 00:00:00 2000 +0000\n"
		    "LABEL=/home 0 Sat Jan  1 00:00:00 2000 +0000\n",
		    "-u: a new record is appended at the end");
	free(got);

	/* A second name: the file cannot be replaced, it is rewritten in
	 * place; the shorter text leaves no old bytes behind. */
	unit_write_file(path, text, strlen(text));
	snprintf(other, sizeof(other), "%s.link", path);
	unlink(other);
	unit_ok(link(path, other) == 0, "setup: a hard link to dumpdates");
	unit_write_file(path, LINE_A0 OLD_B0_BLANKS LINE_A1,
			strlen(LINE_A0 OLD_B0_BLANKS LINE_A1));
	unit_ok(update("/dev/sdb1", 0, JAN1) == 0,
		"-u in place: update succeeds");
	got = unit_read_file(other, NULL);
	unit_eq_str(
	    got, LINE_A0 "/dev/sdb1 0 Sat Jan  1 00:00:00 2000 +0000\n" LINE_A1,
	    "-u in place: the other name sees the new, shorter "
	    "text and no old bytes");
	free(got);
	unlink(other);
}

int
main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	snprintf(path, sizeof(path), "%s/dumpdates", unit_tmpdir());
	test_parse_date();
	test_load();
	test_base();
	test_other_names();
	test_update_create();
	test_update();
	return unit_done();
}
