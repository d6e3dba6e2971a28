/*
 * unit.h - the small harness of the unit tests (tests/unit/t-*.c).
 *
 * Each check prints one TAP line, "ok N - title" or "not ok N - title",
 * numbered across the program; unit_done() prints the plan "1..N" and
 * gives the exit status (1 when any check failed).  unit_run.sh totals
 * the lines of every program, as tests/run.sh does for the scripts.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stddef.h>
#include <stdint.h>

/* One check: passes when cond is non-zero.  Returns cond. */
int unit_ok(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A check that cannot run here: "ok N # skip title". */
void unit_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A diagnostic line ("# ..."), shown under a failed check. */
void unit_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan; the program's exit status. */
int unit_done(void);

/* Equality checks that say what was got when they fail. */
int unit_eq_long(long long got, long long want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int unit_eq_str(const char *got, const char *want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Run fn(arg) in a child process (for code that exits, or that must not
 * touch this process's state) with its stdout and stderr captured.
 * Returns the child's wait status; *out gets the captured text
 * (malloc'ed, NUL-terminated) unless out is NULL.  A child that returns
 * from fn exits 0.
 */
int unit_fork(void (*fn)(void *), void *arg, char **out);
/* The exit status of a wait status, or -1 if the child was killed. */
int unit_exit_code(int status);

/* A new empty directory under $TMPDIR (or /tmp), removed with all it
 * holds by unit_done(). */
const char *unit_tmpdir(void);
/* Write len bytes to path (made 0644); 0 or -1. */
int unit_write_file(const char *path, const void *buf, size_t len);
/* The whole of path, malloc'ed and NUL-terminated, or NULL. */
char *unit_read_file(const char *path, size_t *len);

#endif /* UNIT_H */
