/*
 * shim_dirs.c - restore/dirs.c with a reset, for the fuzz targets (see
 * shim_tape.c).
 */
#include "../../restore/dirs.c"

#include "harness.h"

void
fuzz_dirs_reset(void)
{
	for (size_t i = 0; i < ndirs; i++) {
		if (dirs[i].info != NULL)
			ea_free(&dirs[i].info->ea);
		free(dirs[i].info);
	}
	free(dirs);
	free(dirindex);
	free(arena);
	if (arena_fd >= 0)
		(void)close(arena_fd);
	dirs = NULL;
	ndirs = dirs_cap = 0;
	dirindex = NULL;
	dirindex_size = 0;
	arena = NULL;
	arena_len = arena_cap = arena_base = 0;
	arena_fd = -1;
	arena_tried = false;
	nrefused = 0;
}
