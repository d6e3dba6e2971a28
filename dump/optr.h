/*
 * optr.h - operator messages: every line dump prints on stderr starts
 * with "  DUMP: " as in dump 0.4b47, so that scripts parsing them keep
 * working.
 */
#ifndef DUMP_OPTR_H
#define DUMP_OPTR_H

/* Print "  DUMP: <text>" to stderr (the format supplies any newline). */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Continue a message line: no prefix. */
void msgtail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Run the abort hook (the output side kills its helpers there), print
 * "The ENTIRE dump is aborted." and exit 3. */
_Noreturn void dump_abort(void);
/* Register the function dump_abort() calls first (NULL: none). */
void optr_on_abort(void (*hook)(void));

#endif /* DUMP_OPTR_H */
