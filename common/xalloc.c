/*
 * xalloc.c - checked allocation; see xalloc.h.
 */
#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Status of a program that ran out of memory; dump's abort code. */
#define XALLOC_EXIT 3

static void
out_of_memory(void)
{
	errx(XALLOC_EXIT, "out of memory");
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (p == NULL)
		out_of_memory();
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		out_of_memory();
	return xrealloc(ptr, nmemb * size);
}

char *
xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}
