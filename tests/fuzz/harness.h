/*
 * harness.h - what the fuzz targets share.
 *
 * The product's readers end a run with exit() or err()/errx() on input
 * they refuse; a fuzz target must come back from that to take the next
 * input.  The targets are linked with -Wl,--wrap=exit and harness.c
 * defines err/errx/verr/verrx: while a run is armed, each returns to
 * the target's fuzz_try() instead of ending the process.
 *
 * The restore side keeps its state in file-scope variables of tape.c,
 * dirs.c and symtab.c, made for one archive per process; the shim_*.c
 * files compile those files with a reset function each, so that every
 * input starts from the state a fresh restore starts from.
 */
#ifndef FUZZ_HARNESS_H
#define FUZZ_HARNESS_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "dumprestore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Set by harness.c's exit(): armed while a run may end in exit(). */
extern jmp_buf fuzz_jmp;
extern volatile int fuzz_armed;
extern volatile int fuzz_exit_status;

/* Run fn(arg) until it returns or exits; returns the exit status (0 if
 * it returned). */
int fuzz_try(void (*fn)(void *), void *arg);

/* A memory file holding data[0..size); the same descriptor each call. */
int fuzz_memfd(const uint8_t *data, size_t size);

/* restore side (shim_*.c, restore_input.c) */
void fuzz_tape_reset(void);
void fuzz_media_reset(void);
void fuzz_dirs_reset(void);
void fuzz_symtab_reset(void);
/* Make data the archive restore reads from standard input, with every
 * module's state as a fresh restore has it. */
void fuzz_restore_input(const uint8_t *data, size_t size);
/* Free what the last run left in the modules. */
void fuzz_restore_done(void);

/* A growing buffer of archive blocks (archive.c). */
struct abuf {
	unsigned char *p;
	size_t len, cap;
};
#define FUZZ_DATE 1700000000 /* c_date of the archives built */
extern int32_t ab_date; /* ... unless set otherwise */
void ab_init_header(union u_spcl *h, int type, uint32_t ino);
/* Append header h (checksum set; byte-swapped first when swapped). */
void ab_header(struct abuf *b, const union u_spcl *h, int swapped);
/* Append len bytes padded with zeros to whole tape blocks. */
void ab_data(struct abuf *b, const void *p, size_t len);
/* TS_TAPE, TS_CLRI and TS_BITS (one block each, all inodes set). */
void ab_start(struct abuf *b, int swapped, int32_t flags, int32_t ntrec);
/* An inode header announcing size bytes and len bytes of data after
 * it (every block present). */
void ab_file(struct abuf *b, int swapped, uint32_t ino, uint16_t mode,
	     int32_t flags, const void *p, size_t len, uint64_t size);
void ab_free(struct abuf *b);

#endif /* FUZZ_HARNESS_H */
