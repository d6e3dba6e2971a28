/*
 * ring.h - the shared-memory ring of record slots between the slaves
 * and the writer, and the status area where any helper reports the
 * error that stops the dump.
 *
 * Record r lives in slot r % nslots.  A slot has two areas: the raw
 * record (ntrec tape blocks), and, when the dump is compressed, the
 * record as it goes to the output (4-byte prefix and payload, sized for
 * the worst case: a record stored raw behind its prefix).  Records go to
 * the slaves in groups of consecutive records (about 1 MiB; single
 * records when the master needs compressed sizes back), group g to
 * slave g % SLAVE_COUNT, and nslots is a multiple of SLAVE_COUNT groups,
 * so every slot belongs to exactly one slave: a slave that waits for
 * "its" slot to be free can only be waiting for the writer, never
 * racing another slave for the same slot.
 */
#ifndef DUMP_RING_H
#define DUMP_RING_H

#include <stddef.h>
#include <stdint.h>

#define SLAVE_COUNT 3 /* slaves reading and assembling records */

/* Who reported an error, and what kind (struct ring_status.kind). */
enum ring_error {
	RING_OK = 0,
	RING_SLAVE_READ, /* pread of the device failed (err set) */
	RING_SLAVE_SHORT, /* pread hit end of the device */
	RING_SLAVE_OPEN, /* a slave could not open the device */
	RING_SLAVE_PROTO, /* malformed request from the master */
	RING_WRITER_EOM, /* write returned 0 or ENOSPC: end of media */
	RING_WRITER_WRITE, /* other write error (err set) */
	RING_WRITER_PIPE, /* EPIPE: the reader went away */
	RING_WRITER_FSYNC, /* fsync of the output failed */
	RING_WRITER_CLOSE, /* close of the output failed */
	RING_INTERNAL, /* semaphore failure and the like */
};

/*
 * Filled once, by the first helper that fails (later errors are
 * consequences and are dropped).  The master reads it after it noticed
 * the failure (a helper exited, or error became non-zero).
 */
struct ring_status {
	int error; /* enum ring_error; RING_OK while all is well */
	int err; /* errno of the failing call, 0 if none */
	uint64_t record; /* record being read or written */
	uint64_t offset; /* slave: device byte offset of the read;
				 * writer: bytes on the volume so far */
	size_t count; /* bytes asked for (slave read errors) */
	size_t got; /* bytes a short read returned */
	/*
	 * First record that did not reach the output: the writer stopped
	 * there.  Records before it are on the medium; it and the ones
	 * queued behind it are still in their slots (a later volume can be
	 * started and written from here).
	 */
	uint64_t first_unwritten;
	/* Unreadable ranges the slaves dumped as zeros (atomic adds). */
	unsigned long read_errors;
};

struct ring;

/* How a full slot is to be written (ring_mark_full / ring_wait_full). */
#define RING_LAST   0x1 /* the final record of the dump */
#define RING_VOLEND 0x2 /* the last record of its volume */
#define RING_RAW    0x4 /* write the raw record, not the output area */

/*
 * Map the ring for records of ntrec tape blocks (before forking).
 * compressed: give every slot an output area.  feedback: slaves report
 * each record's output size to the master (ring_wait_sized), which
 * needs them to count the bytes of a size-limited compressed volume.
 */
struct ring *ring_create(int ntrec, int compressed, int feedback);
/* Unmap it (master, after every helper is gone). */
void ring_destroy(struct ring *r);

size_t ring_nslots(const struct ring *r);
/* Consecutive records that go to one slave. */
size_t ring_group(const struct ring *r);
/* The slave (0 .. SLAVE_COUNT - 1) that assembles record rec. */
int ring_slave_of(const struct ring *r, uint64_t rec);

/* The data of the slot holding record rec. */
unsigned char *ring_slot(struct ring *r, uint64_t rec);
/* The output area of that slot (compressed dumps), and its size. */
unsigned char *ring_out(struct ring *r, uint64_t rec);
size_t ring_out_size(const struct ring *r);

/* Slave: wait until the slot of rec is free (the writer is done with
 * rec - nslots).  0, or -1 with errno. */
int ring_wait_free(struct ring *r, uint64_t rec);
/* Slave: the slot of rec holds record rec; flags are RING_*, outlen the
 * bytes of the output area to write (ignored with RING_RAW). */
int ring_mark_full(struct ring *r, uint64_t rec, unsigned flags, size_t outlen);
/* Writer: wait until record rec is assembled; *flags and *outlen as the
 * slave gave them.  0, or -1 with errno. */
int ring_wait_full(struct ring *r, uint64_t rec, unsigned *flags,
		   size_t *outlen);
/* Writer: ring_wait_full for at most timeout_ms: 1 got it, 0 timed
 * out, -1 with errno. */
int ring_wait_full_timed(struct ring *r, uint64_t rec, int timeout_ms,
			 unsigned *flags, size_t *outlen);
/*
 * Master (feedback rings): wait at most timeout_ms for the output size
 * of record rec, which the slave published with ring_mark_full.  Every
 * record must be waited for once, in order.  1 with *outlen set, 0 on
 * timeout, -1 with errno.
 */
int ring_wait_sized(struct ring *r, uint64_t rec, int timeout_ms,
		    size_t *outlen);
/*
 * The checksum chain (slave.c): the state of the data checksum at the
 * end of record rec, handed from the slave that assembled rec to the
 * one that assembles rec + 1.  Every record but the last is taken
 * exactly once, in order: take waits until rec was published.
 */
struct datasum;
int ring_chain_publish(struct ring *r, uint64_t rec, const struct datasum *s);
int ring_chain_take(struct ring *r, uint64_t rec, struct datasum *s);

/* Writer: record rec reached the output; its slot may be reused. */
int ring_release(struct ring *r, uint64_t rec);

/* Any process: report an error (only the first report is kept). */
void ring_fail(struct ring *r, enum ring_error kind, int err, uint64_t record,
	       uint64_t offset, size_t count, size_t got);
/* The shared status (read by the master). */
const struct ring_status *ring_status(const struct ring *r);
/* A slave dumped an unreadable range as zeros. */
void ring_note_read_error(struct ring *r);
/* Whether some helper has reported an error. */
int ring_failed(const struct ring *r);
/* Writer: records fully written so far; master: read it for progress. */
void ring_set_written(struct ring *r, uint64_t nrecords);
uint64_t ring_written(const struct ring *r);
/* The same in tape blocks. */
uint64_t ring_written_blocks(const struct ring *r);

/*
 * Volume changes.  The writer writes a RING_VOLEND record, flushes and
 * closes the output, and reports with ring_volume_closed (bytes it wrote
 * to the volume).  The master then names the next output
 * (ring_volume_next); the writer opens it and answers with
 * ring_volume_opened (0, or the errno of the failed open, after which
 * the master may name it again).  The writer also records the byte
 * count of the last volume before it exits.
 *
 * End of media: the writer records the first record that did not land
 * (ring_volume_eom) before it reports the volume closed, then discards
 * records as they come (so that no process blocks) until the master
 * names the next output together with the record the new volume
 * resumes at; every record before that one is discarded, and the master
 * queues the lost ones again behind the new volume header.
 */
#define RING_NAME_MAX 4096

void ring_volume_closed(struct ring *r, uint64_t bytes);
int ring_volume_wait_closed(struct ring *r, int timeout_ms);
uint64_t ring_volume_bytes(const struct ring *r);
void ring_volume_set_bytes(struct ring *r, uint64_t bytes);
void ring_volume_next(struct ring *r, const char *name, uint64_t resume);
/* Writer: wait for the next name; copies it into name, and the record
 * the volume resumes at into *resume. */
int ring_volume_wait_next(struct ring *r, char *name, size_t len,
			  uint64_t *resume);
/* Writer: the same without waiting: 1 named, 0 not yet, -1 error. */
int ring_volume_try_next(struct ring *r, char *name, size_t len,
			 uint64_t *resume);
void ring_volume_eom(struct ring *r, uint64_t first_unwritten);
/* Master: whether the writer reported end of media (cheap: a flag). */
int ring_volume_eom_pending(const struct ring *r);
/* Master: take the report: 1 with *rec set, 0 if there is none. */
int ring_volume_take_eom(struct ring *r, uint64_t *rec);
void ring_volume_opened(struct ring *r, int err);
/* Master: 1 with *err set (0 = opened), 0 on timeout, -1 with errno. */
int ring_volume_wait_opened(struct ring *r, int timeout_ms, int *err);

#endif /* DUMP_RING_H */
