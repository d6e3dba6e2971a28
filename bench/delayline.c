/*
 * delayline.c - benchmark helper: run a command and relay bytes between
 * our stdin/stdout and its stdin/stdout, each chunk held back a fixed
 * time in each direction, as a network link with that latency (but no
 * bandwidth limit) would.  Used as the transport under RSH by
 * bench/remote-bench.sh.
 *
 *   delayline MS-EACH-WAY command [args...]
 *
 * Per direction one thread reads chunks and stamps them, another writes
 * each chunk once its stamp plus the delay has passed.
 */
#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

struct chunk {
	struct chunk *next;
	struct timespec due;
	size_t len; /* 0: end of stream */
	char data[CHUNK];
};

struct line {
	int in, out;
	long delay_ns;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct chunk *head, *tail;
};

static void
push(struct line *l, struct chunk *c)
{
	pthread_mutex_lock(&l->mu);
	c->next = NULL;
	if (l->tail != NULL)
		l->tail->next = c;
	else
		l->head = c;
	l->tail = c;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
}

static void *
reader(void *arg)
{
	struct line *l = arg;

	for (;;) {
		struct chunk *c = malloc(sizeof(*c));
		ssize_t n;

		if (c == NULL)
			err(1, "malloc");
		do
			n = read(l->in, c->data, CHUNK);
		while (n == -1 && errno == EINTR);
		c->len = n > 0 ? (size_t)n : 0;
		clock_gettime(CLOCK_MONOTONIC, &c->due);
		c->due.tv_nsec += l->delay_ns;
		while (c->due.tv_nsec >= 1000000000L) {
			c->due.tv_nsec -= 1000000000L;
			c->due.tv_sec++;
		}
		push(l, c);
		if (n <= 0)
			return NULL;
	}
}

static void *
writer(void *arg)
{
	struct line *l = arg;

	for (;;) {
		struct chunk *c;
		size_t off = 0;

		pthread_mutex_lock(&l->mu);
		while (l->head == NULL)
			pthread_cond_wait(&l->cv, &l->mu);
		c = l->head;
		l->head = c->next;
		if (l->head == NULL)
			l->tail = NULL;
		pthread_mutex_unlock(&l->mu);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &c->due,
				       NULL) == EINTR)
			;
		if (c->len == 0) {
			(void)close(l->out);
			free(c);
			return NULL;
		}
		while (off < c->len) {
			ssize_t n = write(l->out, c->data + off, c->len - off);

			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0) {
				(void)close(l->out);
				return NULL;
			}
			off += (size_t)n;
		}
		free(c);
	}
}

int
main(int argc, char **argv)
{
	struct line up, down;
	pthread_t t[4];
	int to[2], from[2], status;
	pid_t pid;

	if (argc < 3)
		errx(1, "usage: delayline ms-each-way command [args...]");
	signal(SIGPIPE, SIG_IGN);
	if (pipe(to) == -1 || pipe(from) == -1)
		err(1, "pipe");
	pid = fork();
	if (pid == -1)
		err(1, "fork");
	if (pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		execvp(argv[2], argv + 2);
		err(127, "%s", argv[2]);
	}
	close(to[0]);
	close(from[1]);
	memset(&up, 0, sizeof(up));
	memset(&down, 0, sizeof(down));
	up.delay_ns = down.delay_ns = (long)(atof(argv[1]) * 1e6);
	up.in = 0;
	up.out = to[1];
	down.in = from[0];
	down.out = 1;
	pthread_mutex_init(&up.mu, NULL);
	pthread_cond_init(&up.cv, NULL);
	pthread_mutex_init(&down.mu, NULL);
	pthread_cond_init(&down.cv, NULL);
	pthread_create(&t[0], NULL, reader, &up);
	pthread_create(&t[1], NULL, writer, &up);
	pthread_create(&t[2], NULL, reader, &down);
	pthread_create(&t[3], NULL, writer, &down);
	pthread_join(t[3], NULL);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	_exit(0);
}
