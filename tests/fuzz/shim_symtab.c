/*
 * shim_symtab.c - restore/symtab.c with a reset, for the fuzz targets
 * (see shim_tape.c).  Every entry is on a chain of nametab.
 */
#include "../../restore/symtab.c"

#include "harness.h"

void
fuzz_symtab_reset(void)
{
	for (size_t i = 0; i < nametab_size; i++) {
		struct entry *e, *next;

		for (e = nametab[i]; e != NULL; e = next) {
			next = e->hnext;
			free(e);
		}
	}
	free(nametab);
	free(inotab);
	free(pathbuf);
	free(plevels);
	nametab = inotab = NULL;
	nametab_size = nametab_used = inotab_size = inotab_used = 0;
	pathbuf = NULL;
	pathbuf_size = 0;
	append_parent = append_last = NULL;
	plevels = NULL;
	pdepth = plevels_cap = 0;
	sym_root = NULL;
}
