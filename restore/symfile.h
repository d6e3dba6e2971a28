/*
 * symfile.h - ./restoresymtable as read back: the previous run's tree of
 * names (incremental -r) or the checkpoint of an interrupted one (-R);
 * the format is described above write_table() in symtab.c.  Also the
 * few functions -R and the re-reads of restore -i share.
 */
#ifndef SYMFILE_H
#define SYMFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "restore.h"

#define SYMTAB_NAME  "restoresymtable"
#define SYMTAB_MAGIC "dump-restoresymtable 1"
/* Prefix of the holding directory of an incremental -r (incremental.c). */
#define HOLD_PREFIX   "RSTTMP."
#define HOLD_NAME_MAX 32

/* One name of the table, in its depth-first order. */
struct oent {
	uint32_t ino;
	bool dir;
	bool done; /* checkpoint: the leaf is already on disk */
	long parent, child, sibling;
	char *name;
};

struct symfile {
	struct oent *ent;
	size_t n;
	long date, prev; /* c_date and c_ddate of its dump */
	bool checkpoint; /* written by an -r that did not finish */
	char hold[HOLD_NAME_MAX]; /* its holding directory, or "" */
};

/* dirs.c, for -R and restore -i */
struct dirinfo *dirs_info(uint32_t ino);
void dirs_skip(void);

/* symfile.c */
void symfile_load(int dirfd, struct symfile *t);

/* symtab.c */
int sym_write_checkpoint(int dirfd, const char *hold);

/* incremental.c, for -R */
void incr_finish_hold(const char *hold);
void incr_report_missing(void);
int incr_errors(void);

/* resume.c */
int resume_run(void);

#endif /* SYMFILE_H */
