/*
 * resume.c - restore -R: finish an -r that was interrupted.
 *
 * Before it extracts the leaves, -r writes a checkpoint of the tree it is
 * building (symtab.c: the new tree, which leaves are already on disk,
 * the holding directory of an incremental).  -R reloads that tree instead
 * of computing it again - for an incremental the old tree is gone from
 * disk by then - and reads the archive again from volume 1: the maps and
 * directories give back what the tree needs (directory owners, modes,
 * times and EAs), then every leaf on the archive is extracted (again, if
 * the interrupted run had written it: extraction replaces what is
 * there), the links made, the holding directory emptied, the final table
 * written and the directory modes set.  0.4b47 starts at the volume its
 * checkpoint names instead; reading from volume 1 costs time, but needs
 * no state that only the interrupted run had.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "restore.h"
#include "extern.h"
#include "exitcodes.h"
#include "symfile.h"
#include "xalloc.h"

/* The checkpoint must belong to the archive being read. */
static void
check_dump(const struct symfile *t)
{
	time_t got = (time_t)dumpdate, want = (time_t)t->date;

	if (t->date == (long)dumpdate && t->prev == (long)dumpprev)
		return;
	rmsg("Wrong dump date\n\tgot: %s", ctime(&got));
	rmsg("\twanted: %s", ctime(&want));
	errx(R_ERROR, "./%s was written for another dump", SYMTAB_NAME);
}

/* The tree of the checkpoint, with the dumped directories' attributes. */
static void
load_tree(const struct symfile *t)
{
	struct entry **map = xreallocarray(NULL, t->n, sizeof(*map));

	msg_verbose("Initialize symbol table.\n");
	map[0] = sym_add(NULL, ".", 1, ROOTINO, E_NODE);
	map[0]->dir = dirs_info(ROOTINO);
	for (size_t i = 1; i < t->n; i++) {
		const struct oent *o = &t->ent[i];
		struct entry *e =
		    sym_add(map[o->parent], o->name, strlen(o->name), o->ino,
			    o->dir ? E_NODE : E_LEAF);

		if (e == NULL)
			errx(R_ERROR, "./%s: entry %zu: duplicate name %s",
			     SYMTAB_NAME, i, o->name);
		if (o->dir)
			e->dir = dirs_info(o->ino);
		else if (o->done)
			e->flags |= EF_DONE;
		map[i] = e;
	}
	free(map);
	sym_relink();
}

/* Every directory is on disk already (the checkpoint follows their
 * creation); make any that went missing, and let the dumped ones get
 * their attributes at the end, as in the interrupted run. */
static void
check_dirs(void)
{
	bool verbose = ropt.verbose;

	ropt.verbose = false;
	extract_make_dirs();
	ropt.verbose = verbose;
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		if (e->type == E_NODE && e->dir != NULL && !(e->flags & EF_BAD))
			e->flags |= EF_CREATED;
}

int
resume_run(void)
{
	struct symfile t;

	if (ropt.Nflag)
		errx(R_ERROR, "-N cannot be used with -R");
	target_open();
	symfile_load(target_fd, &t);
	check_dump(&t);
	if (!t.checkpoint)
		rmsg("./%s is the table of a finished restore: "
		     "restoring its leaves again\n",
		     SYMTAB_NAME);
	dirs_read();
	load_tree(&t);
	select_tree(sym_root);
	check_dirs();
	msg_verbose("Continue extraction of new leaves\n");
	extract_files();
	extract_links();
	if (dumpprev != 0)
		incr_report_missing();
	dir_cache_drop();
	if (t.hold[0] != '\0')
		incr_finish_hold(t.hold);
	msg_verbose("Check pointing the restore\n");
	if (sym_write(target_fd, SYMTAB_NAME) != 0)
		return R_ERROR;
	extract_dirmodes(true);
	for (size_t i = 0; i < t.n; i++)
		free(t.ent[i].name);
	free(t.ent);
	return incr_errors() > 0 ? R_ERROR : R_SUCCESS;
}
