/*
 * xalloc.h - allocation that never returns NULL: on failure the program
 * prints "out of memory" and exits (the only common/ code that exits).
 */
#ifndef XALLOC_H
#define XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* realloc of nmemb * size with an overflow check */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);

#endif /* XALLOC_H */
