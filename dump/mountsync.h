/*
 * mountsync.h - flush a mounted file system before its device is read.
 */
#ifndef DUMP_MOUNTSYNC_H
#define DUMP_MOUNTSYNC_H

/* If a file system is mounted from device (a block device, or an image
 * file through a loop device), say so and syncfs it.  Never fails: a
 * failed flush is reported and the dump goes on. */
void mountsync_flush(const char *device);

#endif /* DUMP_MOUNTSYNC_H */
