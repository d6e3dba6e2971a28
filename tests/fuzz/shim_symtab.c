/*
 * shim_symtab.c - restore/symtab.c with a reset, for the fuzz targets
 * (see shim_tape.c).  Every entry is in a block of symtab.c's arena.
 */
#include "../../restore/symtab.c"

#include "harness.h"

void
fuzz_symtab_reset(void)
{
	while (arena_blocks != NULL) {
		void *next = *(void **)arena_blocks;

		free(arena_blocks);
		arena_blocks = next;
	}
	arena_next = arena_end = NULL;
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
