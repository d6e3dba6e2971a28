/*
 * dumpstubs.c - stand-ins for the parts of dump that the unit tests of
 * the master side (dump/itime.c, dump/options.c, dump/optr.c) call but
 * do not test: the signal layer, the output pipeline and the -W report.
 * Each records (and report_dumpdates prints) that it was called, so
 * that a test can say so.
 */
#include <stdio.h>

#include "dump.h"
#include "sig.h"
#include "tape.h"
#include "writer.h"
#include "unitstubs.h"

int stub_report_calls, stub_report_all;
const char *stub_preconnect;
long stub_tape_blksize; /* what writer_tape_blksize answers */

void
sig_check(void)
{
}

void
tape_kill_helpers(void)
{
}

int
report_dumpdates(const struct dump_opts *o, int all)
{
	(void)o;
	stub_report_calls++;
	stub_report_all = all;
	printf("report_dumpdates all=%d\n", all);
	return 0;
}

void
writer_preconnect(const char *name)
{
	stub_preconnect = name;
}

long
writer_tape_blksize(const char *name)
{
	(void)name;
	return stub_tape_blksize;
}
