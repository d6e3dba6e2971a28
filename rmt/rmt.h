/*
 * rmt.h - declarations shared by the files of the rmt server.
 *
 * main.c    the process: standard descriptors, SIGPIPE, the debug log
 * rmt.c     the command loop: reads one request, parses its arguments,
 *           calls the device layer and sends one reply
 * rmtio.c   the byte streams: buffered request input, reply output, the
 *           debug log and the record buffer
 * rmtops.c  the open device: open/close/read/write/seek and the tape
 *           ioctls behind the protocol's O C R W L I i S s commands
 */
#ifndef RMT_H
#define RMT_H

#include <stddef.h>
#include <sys/mtio.h>
#include <sys/types.h>
#include <unistd.h>

#include "exitcodes.h"

/*
 * Longest argument line accepted, terminating newline excluded.  0.4b47
 * cut lines at 63 bytes and parsed the rest as a new request, so longer
 * paths could not be opened; we take any path the kernel takes and turn
 * anything longer into an error reply.
 */
#define RMT_LINE_MAX 4096

/*
 * Largest record held in memory for one R or W.  Bigger reads are
 * answered short (which every client handles); bigger writes are streamed
 * to a file in pieces, or refused on a tape, where one W must stay one
 * record.  Tape drivers do not take records this large anyway.
 */
#define RMT_RECORD_MAX (16 * 1024 * 1024)

/* Size of the request input buffer. */
#define RMT_INBUF_SIZE (64 * 1024)

/* Replies of the protocol handshakes (doc/rmt-protocol.md 4). */
#define RMT_PROTOCOL_VERSION 2 /* answer to V */
#define RMT_MTOP_VERSION     1 /* answer to I-1: portable op codes */
#define RMT_MTOP_VERSION_OP  (-1) /* the I op that asks for it */

/* Debug log bookkeeping counts records in KiB units. */
#define RMT_KIB_SHIFT 10

/* ---- rmt.c ---- */
void rmt_serve(void) __attribute__((noreturn));

/* ---- rmtio.c ---- */
int rmtio_open_log(const char *path);
void rmtio_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int rmtio_getc(void);
int rmtio_getline(char *buf, size_t size, int *bad);
size_t rmtio_read(void *buf, size_t len);
void rmtio_reply(long long value);
void rmtio_reply_data(long long value, const void *data, size_t len);
void rmtio_reply_error(int errnum);
void *rmtio_buffer(size_t len);
void rmtio_tune_socket(size_t len);

/* ---- rmtops.c ---- */
int rmtdev_is_open(void);
int rmtdev_is_tape(void);
int rmtdev_open(const char *path, int flags);
int rmtdev_close(void);
ssize_t rmtdev_read(void *buf, size_t len);
ssize_t rmtdev_write(const void *buf, size_t len);
int rmtdev_seek(long long offset, int whence, long long *result);
int rmtdev_mtop(int op, int count, int portable);
int rmtdev_ext_mtop(int op, int count);
int rmtdev_status(struct mtget *mt, int portable);
int rmtdev_status_field(int which, long long *value);

#endif /* RMT_H */
