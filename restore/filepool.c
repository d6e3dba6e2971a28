/*
 * filepool.c - small regular files made by worker threads.
 *
 * Restoring a tree of small files is a run of file-system calls per
 * file (create, write, owner, mode, times, close), each cheap, all in
 * the kernel: one thread doing them all leaves every other core idle
 * and makes the archive wait.  So the reader gathers each small file's
 * data in memory (pool_data), and a worker makes the file while the
 * reader goes on with the next ones.  A million files of 0-2 KiB in
 * 1000 directories, restore -r into a fresh ext4 until synced, 2 cores:
 * see bench/README (scale-bench.sh).
 *
 * What stays with the reader thread: every decision, every message
 * about the archive, the symbol table, EAs (ea.c keeps state across
 * files) and every other kind of object.  A worker only calls the
 * kernel on its file, through a duplicate of its directory's
 * descriptor (the reader's own descriptors change as it walks), and
 * reports failures with the file's name.  The queue is bounded in
 * files and bytes, so memory stays small whatever the archive.
 * Everything that follows the files (hard links, directory modes and
 * times, attribute flags) starts after pool_drain().
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "filepool.h"
#include "filewrite.h"
#include "xalloc.h"
#include "xio.h"

/* Workers: enough to keep two cores busy beside the reader; more only
 * contend for the same directory's lock. */
#define POOL_WORKERS 2
/* Bounds of the queue: files and gathered bytes (kept small: restore's
 * memory at a million files stays below 0.4b47's). */
#define POOL_QUEUE_FILES 256
#define POOL_QUEUE_BYTES (1024 * 1024)
/* Directory descriptors held for queued files, at most. */
#define POOL_MAX_DIRS 16
/* Files are handed over and taken in batches, so that a thread wakes
 * once a batch, not once a file. */
#define POOL_BATCH	 64
#define POOL_BATCH_BYTES (128 * 1024)

/* A duplicate of a directory descriptor, shared by the files made in
 * that directory; closed by whoever lets go of it last. */
struct pool_dir {
	int fd;
	int refs; /* under lock */
};

/* One run of data at its offset. */
struct run {
	off_t off;
	size_t len, at; /* at: where in data */
};

struct pool_file {
	struct pool_file *next;
	struct entry *dent; /* the directory, for the reader */
	struct pool_dir *dir; /* NULL: made by the reader */
	char *name, *path;
	struct inoattr a;
	unsigned char *data;
	size_t dlen, dcap;
	struct run *runs;
	size_t nruns, rcap;
	off_t off; /* offset of the next block */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_ready = PTHREAD_COND_INITIALIZER;
static pthread_cond_t room_ready = PTHREAD_COND_INITIALIZER;
static struct pool_file *head, *tail; /* the queue */
static size_t queued_files, queued_bytes; /* queued or being made */
static size_t live_dirs; /* struct pool_dir: descriptors held */
static int nworkers, idle_workers, failures;
static bool reader_waiting, start_failed;

/* The batch the reader is filling (reader only). */
static struct pool_file *batch_head, *batch_tail;
static size_t batch_files, batch_bytes;

/* The reader's current directory and its duplicate. */
static struct entry *cur_dir;
static struct pool_dir *cur_pdir;

static void
dir_release(struct pool_dir *d)
{
	bool last;

	if (d == NULL)
		return;
	pthread_mutex_lock(&lock);
	last = --d->refs == 0;
	pthread_mutex_unlock(&lock);
	if (!last)
		return;
	(void)close(d->fd); /* read only: nothing is lost */
	free(d);
	pthread_mutex_lock(&lock);
	live_dirs--;
	if (reader_waiting)
		pthread_cond_signal(&room_ready);
	pthread_mutex_unlock(&lock);
}

static void submit(void);

/* The shared duplicate of dir's descriptor dfd; NULL if it cannot be
 * had (the file is then made here, on dfd). */
static struct pool_dir *
dir_acquire(struct entry *dir, int dfd)
{
	if (dir != cur_dir || cur_pdir == NULL) {
		int fd;

		dir_release(cur_pdir);
		cur_pdir = NULL;
		cur_dir = NULL;
		/* Files spread over many directories (one per level of a
		 * deep tree) must not hold a descriptor each: at the bound,
		 * the batch goes to the workers and the reader waits. */
		pthread_mutex_lock(&lock);
		if (live_dirs >= POOL_MAX_DIRS) {
			pthread_mutex_unlock(&lock);
			submit();
			pthread_mutex_lock(&lock);
		}
		while (live_dirs >= POOL_MAX_DIRS) {
			reader_waiting = true;
			pthread_cond_wait(&room_ready, &lock);
			reader_waiting = false;
		}
		pthread_mutex_unlock(&lock);
		fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return NULL;
		pthread_mutex_lock(&lock);
		live_dirs++;
		pthread_mutex_unlock(&lock);
		cur_pdir = xmalloc(sizeof(*cur_pdir));
		cur_pdir->fd = fd;
		cur_pdir->refs = 1;
		cur_dir = dir;
	}
	pthread_mutex_lock(&lock);
	cur_pdir->refs++;
	pthread_mutex_unlock(&lock);
	return cur_pdir;
}

struct pool_file *
pool_file_new(struct entry *dir, int dfd, const char *name, const char *path,
	      const struct inoattr *a)
{
	struct pool_file *f = xcalloc(1, sizeof(*f));

	f->dent = dir;
	f->dir = dir_acquire(dir, dfd);
	f->name = xstrdup(name);
	f->path = xstrdup(path);
	f->a = *a;
	/* The data is at most the size (POOL_FILE_MAX): one buffer of just
	 * that, so the queue's memory is the bytes it counts. */
	f->dcap = (size_t)(a->size + TP_BSIZE - 1) / TP_BSIZE * TP_BSIZE;
	if (f->dcap > 0)
		f->data = xmalloc(f->dcap);
	return f;
}

void
pool_data(const unsigned char *blk, size_t n, void *arg)
{
	struct pool_file *f = arg;
	struct run *last = f->nruns ? &f->runs[f->nruns - 1] : NULL;

	if (fw_zero(blk, n)) {
		f->off += (off_t)n; /* a zero run becomes a hole */
		return;
	}
	if (f->dlen + n > f->dcap) {
		f->dcap = f->dcap ? f->dcap * 2 : 4 * TP_BSIZE;
		while (f->dcap < f->dlen + n)
			f->dcap *= 2;
		f->data = xrealloc(f->data, f->dcap);
	}
	memcpy(f->data + f->dlen, blk, n);
	if (last != NULL && last->off + (off_t)last->len == f->off) {
		last->len += n;
	} else {
		if (f->nruns == f->rcap) {
			f->rcap = f->rcap ? f->rcap * 2 : 2;
			f->runs =
			    xreallocarray(f->runs, f->rcap, sizeof(*f->runs));
		}
		f->runs[f->nruns].off = f->off;
		f->runs[f->nruns].len = n;
		f->runs[f->nruns].at = f->dlen;
		f->nruns++;
	}
	f->dlen += n;
	f->off += (off_t)n;
}

void
pool_hole(size_t n, void *arg)
{
	struct pool_file *f = arg;

	f->off += (off_t)n;
}

static void
file_free(struct pool_file *f)
{
	dir_release(f->dir);
	free(f->name);
	free(f->path);
	free(f->data);
	free(f->runs);
	free(f);
}

/*
 * Make f in the directory open as dfd: create it (what was in the way
 * removed, never followed), write its runs, set its size where it ends
 * in a hole, then owner, mode, EAs (ea: reader thread only) and times.
 * Returns the failures, each reported.
 */
static int
make_file(struct pool_file *f, int dfd, const struct ealist *ea, bool fresh)
{
	int fd = fw_create(dfd, f->name, f->path), bad = 0;
	off_t end = 0;
	size_t i;

	if (fd < 0)
		return 1;
	for (i = 0; i < f->nruns; i++) {
		const struct run *r = &f->runs[i];

		if (full_pwrite(fd, f->data + r->at, r->len, r->off) < 0) {
			warn("%s: write error", f->path);
			bad = 1;
			break;
		}
		end = r->off + (off_t)r->len;
	}
	if (!bad && end != (off_t)f->a.size &&
	    ftruncate(fd, (off_t)f->a.size) != 0) {
		warn("%s: cannot set the size", f->path);
		bad = 1;
	}
	set_attrs(dfd, f->name, fd, &f->a, ea, f->path, fresh);
	if (close(fd) != 0) {
		warn("%s: close", f->path);
		bad = 1;
	}
	return bad;
}

/* Take up to POOL_BATCH files from the queue (under lock). */
static struct pool_file *
take_batch(size_t *n, size_t *bytes)
{
	struct pool_file *first = head, *last = head;

	*n = 1;
	*bytes = head->dlen;
	while (*n < POOL_BATCH && last->next != NULL) {
		last = last->next;
		*bytes += last->dlen;
		(*n)++;
	}
	head = last->next;
	if (head == NULL)
		tail = NULL;
	last->next = NULL;
	return first;
}

static void *
worker(void *unused)
{
	(void)unused;
	for (;;) {
		struct pool_file *f, *next;
		size_t n, bytes;
		int bad = 0;

		pthread_mutex_lock(&lock);
		while (head == NULL) {
			idle_workers++;
			pthread_cond_wait(&work_ready, &lock);
			idle_workers--;
		}
		f = take_batch(&n, &bytes);
		pthread_mutex_unlock(&lock);

		for (; f != NULL; f = next) {
			next = f->next;
			bad += make_file(f, f->dir->fd, NULL, true);
			file_free(f);
		}

		pthread_mutex_lock(&lock);
		queued_files -= n;
		queued_bytes -= bytes;
		failures += bad;
		/* Wake the reader only with room for a batch or more, or
		 * when it waits for the end. */
		if (reader_waiting &&
		    (queued_files == 0 ||
		     queued_files + POOL_BATCH <= POOL_QUEUE_FILES / 2))
			pthread_cond_signal(&room_ready);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

/* Start the workers once, with every signal blocked: signals are the
 * reader's business.  False if not even one could be started. */
static bool
start_workers(void)
{
	sigset_t all, old;

	if (nworkers > 0 || start_failed)
		return nworkers > 0;
	attrs_prepare();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	while (nworkers < POOL_WORKERS) {
		pthread_t t;

		if (pthread_create(&t, NULL, worker, NULL) != 0)
			break;
		(void)pthread_detach(t);
		nworkers++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	start_failed = nworkers == 0;
	return nworkers > 0;
}

/* Hand the reader's batch to the workers, waiting while the queue is
 * full. */
static void
submit(void)
{
	if (batch_head == NULL)
		return;
	pthread_mutex_lock(&lock);
	while (queued_files > 0 &&
	       (queued_files + batch_files > POOL_QUEUE_FILES ||
		queued_bytes + batch_bytes > POOL_QUEUE_BYTES)) {
		reader_waiting = true;
		pthread_cond_wait(&room_ready, &lock);
		reader_waiting = false;
	}
	if (tail != NULL)
		tail->next = batch_head;
	else
		head = batch_head;
	tail = batch_tail;
	queued_files += batch_files;
	queued_bytes += batch_bytes;
	if (idle_workers > 0)
		pthread_cond_signal(&work_ready);
	pthread_mutex_unlock(&lock);
	batch_head = batch_tail = NULL;
	batch_files = batch_bytes = 0;
}

void
pool_make(struct pool_file *f, const struct ealist *ea, bool fresh)
{
	bool here = (ea != NULL && ea->n > 0) || !fresh || f->dir == NULL ||
	    !start_workers();

	if (here) {
		int dfd = f->dir != NULL ? f->dir->fd : dir_get(f->dent);

		if (dfd < 0 || make_file(f, dfd, ea, fresh) != 0) {
			pthread_mutex_lock(&lock);
			failures++;
			pthread_mutex_unlock(&lock);
		}
		file_free(f);
		return;
	}
	f->next = NULL;
	if (batch_tail != NULL)
		batch_tail->next = f;
	else
		batch_head = f;
	batch_tail = f;
	batch_files++;
	batch_bytes += f->dlen;
	if (batch_files >= POOL_BATCH || batch_bytes >= POOL_BATCH_BYTES)
		submit();
}

void
pool_drain(void)
{
	submit();
	pthread_mutex_lock(&lock);
	while (queued_files > 0) {
		reader_waiting = true;
		pthread_cond_wait(&room_ready, &lock);
		reader_waiting = false;
	}
	pthread_mutex_unlock(&lock);
	dir_release(cur_pdir);
	cur_pdir = NULL;
	cur_dir = NULL;
}

int
pool_errors(void)
{
	int n;

	pthread_mutex_lock(&lock);
	n = failures;
	pthread_mutex_unlock(&lock);
	return n;
}
