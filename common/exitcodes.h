/*
 * exitcodes.h - named exit statuses of dump, restore and rmt
 * (values as dump 0.4b47 uses them; EXIT STATUS in the manual pages).
 */
#ifndef EXITCODES_H
#define EXITCODES_H

/* dump */
#define X_FINOK	     0 /* normal exit, also -S, -W, -w */
#define X_STARTUP    1 /* bad options, cannot open, ... */
#define X_REWRITE    2 /* volume child asks to rewrite its volume */
#define X_ABORT	     3 /* the entire dump is aborted */
#define X_INCOMPLETE 4 /* --strict: files changed or damaged */

/* restore */
#define R_SUCCESS      0
#define R_ERROR	       1 /* usage, unreadable input, refused question */
#define R_COMPARE_DIFF 2 /* -C found differences */
#define R_LOST_REMOTE  3 /* lost connection to the rmt server */

/* rmt */
#define RMT_OK		0
#define RMT_BAD_DEBUG	1 /* debug file cannot be opened */
#define RMT_BAD_WRITE	2 /* bad or short W request */
#define RMT_BAD_COMMAND 3 /* unknown command byte */
#define RMT_NO_MEMORY	4
/* A reply could not be written: the client has gone.  (0.4b47 kept
 * reading; every later reply would be lost as well.) */
#define RMT_LOST_CLIENT 5

#endif /* EXITCODES_H */
