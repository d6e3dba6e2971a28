/*
 * ring.c - the ring of record slots shared by the slaves and the writer.
 *
 * One anonymous shared mapping, made by the master before it forks,
 * holds everything: the control block (sizes, status area, the writer's
 * progress counter), one pair of process-shared semaphores per slot, and
 * the slot data, page aligned so that slaves can pread straight into it,
 * and for compressed dumps one output area per slot (prefix + payload).
 * Because the mapping exists before the fork, every process sees it at
 * the same address and plain pointers into it stay valid.
 *
 * Hand-off per slot: "free" starts at 1; the slave owning the slot waits
 * on it, assembles its record and posts "full"; the writer waits on
 * "full", writes the record and posts "free".  sem_post/sem_wait order
 * the memory accesses, so the slot bytes and the flags written before a
 * post are visible after the matching wait.  A third semaphore, "sized",
 * is posted with "full" on feedback rings so that the master can learn
 * each compressed record's size without touching the writer's hand-off.
 * Volume changes use three more semaphores in the control block.
 */
#include <errno.h>
#include <semaphore.h>
#include <time.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cprefix.h"
#include "datasum.h"
#include "dumprestore.h"
#include "ring.h"

/* Enough records in flight to keep the output busy while slaves read:
 * at least this many bytes (several 1 MiB writer chunks) ... */
#define RING_TARGET_BYTES (4u * 1024 * 1024)
/* ... and at least this many slots, whatever the record size. */
#define RING_MIN_SLOTS 8
/* Consecutive records one slave takes in turn: as many as make this
 * many bytes, so that a slave can read a file's blocks in runs of that
 * size even with small records (direct reads have no read-ahead). */
#define RING_GROUP_BYTES (1024u * 1024)

#define NSEC_PER_SEC  1000000000L
#define NSEC_PER_MSEC 1000000L
#define MSEC_PER_SEC  1000

struct ring_slot_ctl {
	sem_t free; /* posted by the writer: slot reusable */
	sem_t full; /* posted by the slave: record assembled */
	sem_t sized; /* feedback rings: posted with full */
	sem_t summed; /* posted with chain: checksum state published */
	struct datasum chain; /* the state at the end of the record */
	uint64_t record; /* record the slot holds (set by the slave) */
	unsigned flags; /* RING_* */
	size_t outlen; /* bytes of the output area to write */
};

struct ring_volume {
	sem_t closed; /* writer: volume flushed and closed */
	sem_t next; /* master: next name is set */
	sem_t opened; /* writer: open tried, open_err says how */
	int open_err;
	int eom; /* writer hit end of media (atomic) */
	uint64_t eom_rec; /* first record that did not land */
	uint64_t resume; /* record the next volume starts with */
	uint64_t bytes; /* bytes written to the volume */
	char name[RING_NAME_MAX];
};

struct ring {
	size_t nslots;
	size_t group; /* consecutive records per slave */
	size_t recsize; /* ntrec * TP_BSIZE */
	size_t outsize; /* per-slot output area, 0 if uncompressed */
	size_t maplen;
	int feedback;
	unsigned char *data; /* nslots * recsize bytes, page aligned */
	unsigned char *out; /* nslots * outsize bytes */
	int claimed; /* set atomically by the first ring_fail */
	uint64_t written; /* records the writer has completed */
	struct ring_status status;
	struct ring_volume vol;
	struct ring_slot_ctl ctl[];
};

static size_t
round_up(size_t n, size_t unit)
{
	return (n + unit - 1) / unit * unit;
}

/* Records per slave group.  With feedback the master waits for the
 * size of a record two behind the one it sends, so consecutive records
 * must go to different slaves or only one would be compressing. */
static size_t
group_size(size_t recsize, int feedback)
{
	size_t g = RING_GROUP_BYTES / recsize;

	return feedback || g == 0 ? 1 : g;
}

static size_t
slot_count(size_t recsize, size_t group)
{
	size_t n = (RING_TARGET_BYTES + recsize - 1) / recsize;

	if (n < RING_MIN_SLOTS)
		n = RING_MIN_SLOTS;
	/* a multiple of SLAVE_COUNT groups: each slot then has one owning
	 * slave */
	return round_up(n, SLAVE_COUNT * group);
}

struct ring *
ring_create(int ntrec, int compressed, int feedback)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t recsize = (size_t)ntrec * TP_BSIZE;
	size_t group = group_size(recsize, feedback);
	size_t nslots = slot_count(recsize, group);
	size_t ctlsize = round_up(
	    sizeof(struct ring) + nslots * sizeof(struct ring_slot_ctl), page);
	size_t datasize = round_up(nslots * recsize, page);
	size_t outsize = compressed ? round_up(CPREFIX_SIZE + recsize, 64) : 0;
	size_t maplen = ctlsize + datasize + round_up(nslots * outsize, page);
	struct ring *r;
	size_t i;

	r = mmap(NULL, maplen, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return NULL;
	/* the mapping is zero filled: status is RING_OK, counters 0 */
	r->nslots = nslots;
	r->group = group;
	r->recsize = recsize;
	r->maplen = maplen;
	r->outsize = outsize;
	r->feedback = feedback;
	r->data = (unsigned char *)r + ctlsize;
	r->out = r->data + datasize;
	if (sem_init(&r->vol.closed, 1, 0) == -1 ||
	    sem_init(&r->vol.next, 1, 0) == -1 ||
	    sem_init(&r->vol.opened, 1, 0) == -1)
		goto fail;
	for (i = 0; i < nslots; i++) {
		if (sem_init(&r->ctl[i].free, 1, 1) == -1 ||
		    sem_init(&r->ctl[i].full, 1, 0) == -1 ||
		    sem_init(&r->ctl[i].sized, 1, 0) == -1 ||
		    sem_init(&r->ctl[i].summed, 1, 0) == -1)
			goto fail;
	}
	return r;
fail : {
	int e = errno;

	munmap(r, maplen);
	errno = e;
}
	return NULL;
}

void
ring_destroy(struct ring *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nslots; i++) {
		sem_destroy(&r->ctl[i].free);
		sem_destroy(&r->ctl[i].full);
		sem_destroy(&r->ctl[i].sized);
		sem_destroy(&r->ctl[i].summed);
	}
	sem_destroy(&r->vol.closed);
	sem_destroy(&r->vol.next);
	sem_destroy(&r->vol.opened);
	munmap(r, r->maplen);
}

size_t
ring_nslots(const struct ring *r)
{
	return r->nslots;
}

size_t
ring_group(const struct ring *r)
{
	return r->group;
}

int
ring_slave_of(const struct ring *r, uint64_t rec)
{
	return (int)((rec / r->group) % SLAVE_COUNT);
}

unsigned char *
ring_slot(struct ring *r, uint64_t rec)
{
	return r->data + (size_t)(rec % r->nslots) * r->recsize;
}

unsigned char *
ring_out(struct ring *r, uint64_t rec)
{
	return r->out + (size_t)(rec % r->nslots) * r->outsize;
}

size_t
ring_out_size(const struct ring *r)
{
	return r->outsize;
}

/* sem_wait that resumes after signals (the master's handlers only set
 * flags; a helper has nothing to do about them here). */
static int
wait_sem(sem_t *s)
{
	while (sem_wait(s) == -1) {
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

int
ring_wait_free(struct ring *r, uint64_t rec)
{
	return wait_sem(&r->ctl[rec % r->nslots].free);
}

/* sem_timedwait for at most timeout_ms: 1 taken, 0 timed out, -1. */
static int
timed_wait_sem(sem_t *s, int timeout_ms)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1)
		return -1;
	ts.tv_sec += timeout_ms / MSEC_PER_SEC;
	ts.tv_nsec += (long)(timeout_ms % MSEC_PER_SEC) * NSEC_PER_MSEC;
	if (ts.tv_nsec >= NSEC_PER_SEC) {
		ts.tv_sec++;
		ts.tv_nsec -= NSEC_PER_SEC;
	}
	while (sem_timedwait(s, &ts) == -1) {
		if (errno == ETIMEDOUT)
			return 0;
		if (errno != EINTR)
			return -1;
	}
	return 1;
}

int
ring_chain_publish(struct ring *r, uint64_t rec, const struct datasum *s)
{
	struct ring_slot_ctl *c = &r->ctl[rec % r->nslots];

	c->chain = *s;
	return sem_post(&c->summed);
}

int
ring_chain_take(struct ring *r, uint64_t rec, struct datasum *s)
{
	struct ring_slot_ctl *c = &r->ctl[rec % r->nslots];

	if (wait_sem(&c->summed) == -1)
		return -1;
	*s = c->chain;
	return 0;
}

int
ring_mark_full(struct ring *r, uint64_t rec, unsigned flags, size_t outlen)
{
	struct ring_slot_ctl *c = &r->ctl[rec % r->nslots];

	c->record = rec;
	c->flags = flags;
	c->outlen = outlen;
	if (sem_post(&c->full) == -1)
		return -1;
	return r->feedback ? sem_post(&c->sized) : 0;
}

/* The flags and length of a full slot that holds rec; -1 (EPROTO) when
 * it holds another record.  That cannot happen while slots have one
 * owner each: refuse to write a record out of order rather than corrupt
 * the stream. */
static int
take_full(const struct ring_slot_ctl *c, uint64_t rec, unsigned *flags,
	  size_t *outlen)
{
	if (c->record != rec) {
		errno = EPROTO;
		return -1;
	}
	*flags = c->flags;
	*outlen = c->outlen;
	return 0;
}

int
ring_wait_full_timed(struct ring *r, uint64_t rec, int timeout_ms,
		     unsigned *flags, size_t *outlen)
{
	struct ring_slot_ctl *c = &r->ctl[rec % r->nslots];
	int rc = timed_wait_sem(&c->full, timeout_ms);

	if (rc != 1)
		return rc;
	return take_full(c, rec, flags, outlen) == 0 ? 1 : -1;
}

int
ring_wait_sized(struct ring *r, uint64_t rec, int timeout_ms, size_t *outlen)
{
	struct ring_slot_ctl *c = &r->ctl[rec % r->nslots];
	int rc = timed_wait_sem(&c->sized, timeout_ms);

	/* the slot cannot be reused before the master sends rec + nslots,
	 * so the size read here is still rec's */
	if (rc == 1)
		*outlen = (c->flags & RING_RAW) ? r->recsize : c->outlen;
	return rc;
}

int
ring_wait_full(struct ring *r, uint64_t rec, unsigned *flags, size_t *outlen)
{
	struct ring_slot_ctl *c = &r->ctl[rec % r->nslots];

	if (wait_sem(&c->full) == -1)
		return -1;
	return take_full(c, rec, flags, outlen);
}

int
ring_release(struct ring *r, uint64_t rec)
{
	return sem_post(&r->ctl[rec % r->nslots].free);
}

void
ring_fail(struct ring *r, enum ring_error kind, int err, uint64_t record,
	  uint64_t offset, size_t count, size_t got)
{
	int expected = 0;

	if (!__atomic_compare_exchange_n(&r->claimed, &expected, 1, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	r->status.err = err;
	r->status.record = record;
	r->status.offset = offset;
	r->status.count = count;
	r->status.got = got;
	r->status.first_unwritten =
	    __atomic_load_n(&r->written, __ATOMIC_ACQUIRE);
	/* publish the details before the kind the master tests */
	__atomic_store_n(&r->status.error, (int)kind, __ATOMIC_RELEASE);
}

const struct ring_status *
ring_status(const struct ring *r)
{
	return &r->status;
}

void
ring_note_read_error(struct ring *r)
{
	__atomic_add_fetch(&r->status.read_errors, 1, __ATOMIC_RELAXED);
}

int
ring_failed(const struct ring *r)
{
	return __atomic_load_n(&r->status.error, __ATOMIC_ACQUIRE) != RING_OK;
}

void
ring_set_written(struct ring *r, uint64_t nrecords)
{
	__atomic_store_n(&r->written, nrecords, __ATOMIC_RELEASE);
}

uint64_t
ring_written(const struct ring *r)
{
	return __atomic_load_n(&r->written, __ATOMIC_ACQUIRE);
}

uint64_t
ring_written_blocks(const struct ring *r)
{
	return ring_written(r) * (uint64_t)(r->recsize / TP_BSIZE);
}

/* ---- volume changes ---------------------------------------------------- */

void
ring_volume_closed(struct ring *r, uint64_t bytes)
{
	ring_volume_set_bytes(r, bytes);
	(void)sem_post(&r->vol.closed);
}

int
ring_volume_wait_closed(struct ring *r, int timeout_ms)
{
	return timed_wait_sem(&r->vol.closed, timeout_ms);
}

void
ring_volume_set_bytes(struct ring *r, uint64_t bytes)
{
	__atomic_store_n(&r->vol.bytes, bytes, __ATOMIC_RELEASE);
}

uint64_t
ring_volume_bytes(const struct ring *r)
{
	return __atomic_load_n(&r->vol.bytes, __ATOMIC_ACQUIRE);
}

void
ring_volume_next(struct ring *r, const char *name, uint64_t resume)
{
	size_t n = strlen(name);

	r->vol.resume = resume;
	if (n >= sizeof(r->vol.name))
		n = sizeof(r->vol.name) - 1;
	memcpy(r->vol.name, name, n);
	r->vol.name[n] = '\0';
	(void)sem_post(&r->vol.next);
}

static void
copy_next(struct ring *r, char *name, size_t len, uint64_t *resume)
{
	if (len > 0) {
		strncpy(name, r->vol.name, len - 1);
		name[len - 1] = '\0';
	}
	*resume = r->vol.resume;
}

int
ring_volume_wait_next(struct ring *r, char *name, size_t len, uint64_t *resume)
{
	if (wait_sem(&r->vol.next) == -1)
		return -1;
	copy_next(r, name, len, resume);
	return 0;
}

int
ring_volume_try_next(struct ring *r, char *name, size_t len, uint64_t *resume)
{
	while (sem_trywait(&r->vol.next) == -1) {
		if (errno == EAGAIN)
			return 0;
		if (errno != EINTR)
			return -1;
	}
	copy_next(r, name, len, resume);
	return 1;
}

void
ring_volume_eom(struct ring *r, uint64_t first_unwritten)
{
	r->vol.eom_rec = first_unwritten;
	__atomic_store_n(&r->vol.eom, 1, __ATOMIC_RELEASE);
}

int
ring_volume_eom_pending(const struct ring *r)
{
	return __atomic_load_n(&r->vol.eom, __ATOMIC_ACQUIRE);
}

int
ring_volume_take_eom(struct ring *r, uint64_t *rec)
{
	if (!__atomic_load_n(&r->vol.eom, __ATOMIC_ACQUIRE))
		return 0;
	*rec = r->vol.eom_rec;
	__atomic_store_n(&r->vol.eom, 0, __ATOMIC_RELEASE);
	return 1;
}

void
ring_volume_opened(struct ring *r, int err)
{
	r->vol.open_err = err;
	(void)sem_post(&r->vol.opened);
}

int
ring_volume_wait_opened(struct ring *r, int timeout_ms, int *err)
{
	int rc = timed_wait_sem(&r->vol.opened, timeout_ms);

	if (rc == 1)
		*err = r->vol.open_err;
	return rc;
}
