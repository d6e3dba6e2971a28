/*
 * optr.h - operator messages: every line dump prints on stderr starts
 * with "  DUMP: " as in dump 0.4b47, so that scripts parsing them keep
 * working.
 */
#ifndef DUMP_OPTR_H
#define DUMP_OPTR_H

#include <stdint.h>

/* Print "  DUMP: <text>" to stderr (the format supplies any newline). */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Continue a message line: no prefix. */
void msgtail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Run the abort hook (the output side kills its helpers there), print
 * "The ENTIRE dump is aborted." and exit 3. */
_Noreturn void dump_abort(void);
/* Register the function dump_abort() calls first (NULL: none). */
void optr_on_abort(void (*hook)(void));
/* The progress line: set the estimate and start the clock before the
 * writer is forked; the writer then reports the blocks it has written
 * (a line at most every five minutes). */
void optr_progress_start(uint64_t estimate);
void optr_progress(uint64_t blocks);

#endif /* DUMP_OPTR_H */
