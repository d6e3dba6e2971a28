/*
 * remote.h - restore's remote input (remote.c): one archive volume read
 * through rmt.  tape.c is the only user.
 */
#ifndef RESTORE_REMOTE_H
#define RESTORE_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "dumprestore.h"

/* The count of one read from a tape, local or remote: more than the
 * largest record dump writes (a compressed one: a 4-byte prefix and up
 * to MAXNTREC blocks), and a power of two, so that a drive in fixed
 * block mode takes it as whole blocks. */
#define TAPE_RECORD_MAX (2 * MAXNTREC * TP_BSIZE)

/* Connect to the host of name ([user@]host:path), open path read-only
 * and find out whether it is a tape.  0, or -1 with errno set (the
 * link is then closed again).  A bad user name exits R_ERROR, a lost
 * link R_LOST_REMOTE, each after its message. */
int remote_open(const char *name);

/* The next bytes of the volume, at most len: > 0, 0 at its end, or -1
 * with errno set (the server's) on a read error. */
ssize_t remote_read(void *buf, size_t len);

/* Whether the open volume is a tape (one record per read). */
bool remote_is_tape(void);

/* Space the remote tape forward over n file marks (MTFSF).  0, or -1
 * with errno set and the server's message in *why. */
int remote_skip_files(int n, const char **why);

/* lseek on the remote volume (whence 0/1/2, or the rmt QFA positions
 * 10/11), dropping what was read ahead.  The new offset, or -1. */
off_t remote_seek(off_t offset, int whence);

/* Close the volume (C) and drop the link; nothing if none is open. */
void remote_close(void);

#endif /* RESTORE_REMOTE_H */
