/*
 * restore_walk.c - what restore -t does with an archive, minus the
 * listing: the header gate from the volume header on, pass III into the
 * tree of names, then every further inode with its EA records.  Shared
 * by the restore fuzz targets; runs under fuzz_try().
 */
#include "restore.h"
#include "extern.h"
#include "harness.h"
#include "walk.h"

void
fuzz_restore_walk(void *arg)
{
	(void)arg;
	tape_setup();
	dirs_read();
	dirs_build_tree();
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		(void)sym_path(e);
	for (;;) {
		struct ealist ea = {0};
		uint32_t ino;

		tape_find_inode();
		if (curhdr.s_spcl.c_type != TS_INODE)
			break;
		ino = curhdr.s_spcl.c_inumber;
		tape_skipfile();
		ea_read_records(ino, &ea);
		ea_free(&ea);
	}
	(void)dirs_refused();
	(void)tape_truncated();
}
