/*
 * harness.c - exit interception and input files for the fuzz targets.
 *
 * err()/errx() of glibc would call its internal exit, out of --wrap's
 * reach; libcommon's (common/warnline.c) call exit(), which the link
 * redirects to __wrap_exit().
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

jmp_buf fuzz_jmp;
volatile int fuzz_armed;
volatile int fuzz_exit_status;

_Noreturn void __real_exit(int status);
_Noreturn void __wrap_exit(int status);

_Noreturn void
__wrap_exit(int status)
{
	if (fuzz_armed) {
		fuzz_armed = 0;
		fuzz_exit_status = status;
		longjmp(fuzz_jmp, 1);
	}
	__real_exit(status);
}

int
fuzz_try(void (*fn)(void *), void *arg)
{
	fuzz_exit_status = 0;
	if (setjmp(fuzz_jmp) == 0) {
		fuzz_armed = 1;
		fn(arg);
		fuzz_armed = 0;
	}
	return fuzz_exit_status;
}

int
fuzz_memfd(const uint8_t *data, size_t size)
{
	static int fd = -1;
	size_t off = 0;

	if (fd < 0 && (fd = memfd_create("fuzz-input", 0)) < 0) {
		perror("memfd_create");
		abort();
	}
	if (ftruncate(fd, 0) != 0) {
		perror("ftruncate");
		abort();
	}
	while (off < size) {
		ssize_t n = pwrite(fd, data + off, size - off, (off_t)off);

		if (n <= 0) {
			perror("pwrite");
			abort();
		}
		off += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		perror("lseek");
		abort();
	}
	return fd;
}
