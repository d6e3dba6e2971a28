/*
 * compat.h - platform choices made by configure.
 */
#ifndef COMPAT_H
#define COMPAT_H

#include <sys/types.h>

/*
 * Start a helper process.  Returns like fork(): 0 in the child, the
 * child's pid in the parent, -1 with errno on failure.  Where the kernel
 * offers CLONE_IO the child shares the parent's I/O context, so the I/O
 * scheduler treats master, slaves and writer as one stream and does not
 * idle between them; elsewhere (or with --disable-clone-io) it is fork().
 */
pid_t fork_clone_io(void);

#endif /* COMPAT_H */
