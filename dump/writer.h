/*
 * writer.h - the output of the dump: opening it, and the writer process
 * that drains the ring of records into it.
 */
#ifndef DUMP_WRITER_H
#define DUMP_WRITER_H

#include <limits.h>

#include "rmtclient.h"

struct ring;

/* What the output is; decides the write size and the final flush. */
enum writer_kind {
	WRITER_FILE, /* regular file: large writes, fsync */
	WRITER_BLOCKDEV, /* block device: large writes, fsync */
	WRITER_PIPE, /* pipe, FIFO or socket: large writes */
	WRITER_CHARDEV, /* other character device (/dev/null, tty) */
	WRITER_TAPE, /* MTIOCGET works: one record per write */
	WRITER_REMOTE, /* host:file through rmt: one record per W */
};

struct writer_output {
	int fd;
	enum writer_kind kind;
	int is_stdout; /* "-": no "Closing" line, stdout messages */
	struct rmt_conn rmt; /* WRITER_REMOTE: the link (fd is rmt.to) */
	char name[PATH_MAX]; /* WRITER_TAPE: the drive, opened again
				 * after the close to wait for the rewind */
};

/*
 * Open the output named name ("-" is standard output) for writing,
 * without O_SYNC, and classify it.  0, or -1 with errno set.
 */
int writer_open(const char *name, struct writer_output *out);

/*
 * Start the rmt server for the remote output name (host:file) now, as
 * 0.4b47 does while it reads the options; the first writer_open of that
 * host uses the link.  Exits (status 1) when it cannot be started.
 */
void writer_preconnect(const char *name);

/*
 * The fixed block size in bytes of the local tape drive name, asked with
 * MTIOCGET before the dump starts; 0 when the drive is in variable block
 * mode or name is no local tape drive (or cannot be opened now: the real
 * open reports that).
 */
long writer_tape_blksize(const char *name);

/* Whether the output is a pipe or FIFO (or standard output). */
int writer_is_pipe(const struct writer_output *out);

/*
 * Body of the writer process: write records 0, 1, ... from the ring
 * (raw, or the prefix + payload of a compressed record) until the
 * record marked last, then flush (fsync for files and block devices, a
 * synchronous filemark for tapes) and close the output.  After a record
 * marked VOLEND, and at end of media on anything but a pipe, it closes
 * the volume and opens the output the master names next (ring.h,
 * "Volume changes").  Never returns: _exit(0) when all is on the
 * medium, otherwise _exit(1) after reporting in the ring status.
 */
_Noreturn void writer_main(const struct writer_output *out, struct ring *ring,
			   int ntrec);

#endif /* DUMP_WRITER_H */
