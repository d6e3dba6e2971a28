/*
 * restore_input.c - the archive a restore fuzz target reads, and the
 * options it reads it with: restore -t -f - (standard input).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "restore.h"
#include "harness.h"

struct ropts ropt;

void
fuzz_restore_input(const uint8_t *data, size_t size)
{
	static int linked;
	int fd = fuzz_memfd(data, size);

	/* Standard input shares the memory file's offset: one dup. */
	if (!linked) {
		if (dup2(fd, STDIN_FILENO) < 0) {
			perror("dup2");
			abort();
		}
		linked = 1;
	}
	memset(&ropt, 0, sizeof(ropt));
	ropt.mode = 't';
	ropt.tape = "-";
	ropt.from_stdin = true;
	fuzz_tape_reset();
	fuzz_dirs_reset();
	fuzz_symtab_reset();
}

void
fuzz_restore_done(void)
{
	fuzz_tape_reset();
	fuzz_dirs_reset();
	fuzz_symtab_reset();
}
