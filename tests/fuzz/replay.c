/*
 * replay.c - main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on every file named, and on every file of
 * every directory named (the seed corpus, the regression inputs).  Built
 * with the normal compiler by `make check` (tests/t9100-fuzz-corpus.sh);
 * in a sanitizer build a crash stops it with the sanitizer's report.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "xalloc.h"

static unsigned long nrun;

static int
run_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t off = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(path);
		if (fd >= 0)
			(void)close(fd);
		return -1;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (off < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + off, (size_t)st.st_size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			perror(path);
			free(buf);
			(void)close(fd);
			return -1;
		}
		off += (size_t)n;
	}
	if (close(fd) != 0) {
		perror(path);
		free(buf);
		return -1;
	}
	/* Stdout may be a file: the name goes out before a crash does. */
	fprintf(stdout, "replay %s (%zu bytes)\n", path, off);
	fflush(stdout);
	(void)LLVMFuzzerTestOneInput(buf, off);
	free(buf);
	nrun++;
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order (a stable replay). */
static int
run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (d == NULL) {
		perror(dir);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n] = xmalloc(strlen(dir) + strlen(de->d_name) + 2);
		sprintf(names[n], "%s/%s", dir, de->d_name);
		n++;
	}
	(void)closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) &&
		    run_file(names[i]) != 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode) ? run_dir(argv[i]) != 0
					       : run_file(argv[i]) != 0)
			rc = 1;
	}
	printf("%lu inputs run\n", nrun);
	return rc;
}
