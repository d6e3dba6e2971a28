/*
 * rmtclient.h - the client side of the remote tape protocol (rmt):
 * naming a remote file, starting the server through $RSH, and the
 * requests dump and restore send.
 */
#ifndef COMMON_RMTCLIENT_H
#define COMMON_RMTCLIENT_H

#include <stddef.h>
#include <sys/types.h>

/* Longest host, user and remote path we accept. */
#define RMT_HOST_MAX 256
#define RMT_USER_MAX 64
#define RMT_PATH_MAX 4096

struct rmt_conn {
	int to; /* requests go here (-1: not connected) */
	int from; /* replies come from here */
	pid_t pid; /* the $RSH child */
	char host[RMT_HOST_MAX];
	char user[RMT_USER_MAX];
	int strict; /* server does strict writes (I-7337 probe) */
	char msg[128]; /* text of the last E/F reply */
};

/* Whether name is host:path or user@host:path (a ':' before any '/'). */
int rmt_is_remote(const char *name);

/*
 * Split a remote name: user and host into c, *path points into name.
 * Prints "invalid user name <name>" and returns -1 for a bad user.
 */
int rmt_split(const char *name, struct rmt_conn *c, const char **path);

/* Start the server on c->host as c->user: $RSH host -l user $RMT,
 * and ask it for strict writes (c->strict).  0, or -1 with a message
 * printed (rmt_msg_prefix is prepended to messages). */
int rmt_connect(struct rmt_conn *c);

/* O request; flags as for open(2).  0, or -1 with errno set. */
int rmt_open(struct rmt_conn *c, const char *path, int flags);

/* W request: bytes written, or -1 with errno set (the server's). */
ssize_t rmt_write(struct rmt_conn *c, const void *buf, size_t len);

/*
 * Pipelined writes: rmt_write_send sends one W request with its data
 * without waiting; rmt_write_reply reads the reply of the oldest one
 * outstanding (len: its size).  Only safe when c->strict: the server
 * then refuses every W after a failed one, so nothing lands out of
 * order.  Same results as rmt_write.
 */
void rmt_write_send(struct rmt_conn *c, const void *buf, size_t len);
ssize_t rmt_write_reply(struct rmt_conn *c, size_t len);

/*
 * Reads.  rmt_read_send sends count R requests without waiting;
 * rmt_read_head reads the reply of the oldest one outstanding (len:
 * the count it asked for) and returns how many data bytes follow it
 * (0 at end of file), or -1 with errno set for an E/F reply (no data
 * follow then); rmt_read_data takes exactly n of those bytes off the
 * link (buf NULL: discard them).  Replies come back in request order
 * on the one stream, so a caller may keep several R in flight, but
 * only where the device makes that safe (see restore/remote.c).
 * rmt_read does one request: bytes read into buf, or -1.
 */
void rmt_read_send(struct rmt_conn *c, size_t len, unsigned count);
ssize_t rmt_read_head(struct rmt_conn *c, size_t len);
void rmt_read_data(struct rmt_conn *c, void *buf, size_t n);
ssize_t rmt_read(struct rmt_conn *c, void *buf, size_t len);

/* L request (whence 0/1/2, or the QFA positions 10/11): the resulting
 * offset, or -1 with errno set. */
off_t rmt_seek(struct rmt_conn *c, off_t offset, int whence);

/* I request: a magnetic tape operation (native MTIOCTOP op code).
 * 0, or -1 with errno set (EINVAL for a negative count, not sent). */
int rmt_ioctl(struct rmt_conn *c, int op, int count);

/* S request: the remote struct mtget.  0, or -1 with errno set
 * (EPROTO when the server's structure has another size). */
struct mtget;
int rmt_status(struct rmt_conn *c, struct mtget *mt);

/* C request.  0, or -1 with errno set. */
int rmt_close(struct rmt_conn *c);

/* Drop the connection and reap the $RSH child. */
void rmt_disconnect(struct rmt_conn *c);

/*
 * Called when the connection is lost or the server speaks nonsense
 * (after the message was printed); default: exit(X_ABORT).  The
 * program may point it elsewhere.  It must not return.
 */
extern void (*rmt_lost)(void);

/* Prefix of every message the client prints ("  DUMP: " for dump). */
extern const char *rmt_msg_prefix;

#endif /* COMMON_RMTCLIENT_H */
