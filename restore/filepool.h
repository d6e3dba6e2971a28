/*
 * filepool.h - small regular files made by worker threads while the
 * archive is read on (filepool.c).
 */
#ifndef RESTORE_FILEPOOL_H
#define RESTORE_FILEPOOL_H

#include <stdbool.h>
#include <stddef.h>

struct entry;
struct inoattr;
struct ealist;
struct pool_file;

/* Largest file gathered in memory and handed to a worker; larger files
 * are written by the reader as they come (filewrite.c). */
#define POOL_FILE_MAX (1024 * 1024)

/* A file to make as name in directory dir, open as dfd (dir_get()),
 * with a's owner, mode and times; path is for messages. */
struct pool_file *pool_file_new(struct entry *dir, int dfd, const char *name,
				const char *path, const struct inoattr *a);

/* body_getfile() callbacks gathering its data (arg: the pool_file). */
void pool_data(const unsigned char *blk, size_t n, void *arg);
void pool_hole(size_t n, void *arg);

/* Make the file.  Without EAs and with nothing inherited (fresh) a
 * worker makes it later; otherwise it is made here and now, its EAs
 * set by ea_apply(), which only this thread calls.  The file is freed
 * either way. */
void pool_make(struct pool_file *f, const struct ealist *ea, bool fresh);

/* Wait until every file handed over is made, and let go of the
 * directory descriptors kept for them. */
void pool_drain(void);

/* Files the workers failed to make or finish (each reported). */
int pool_errors(void);

#endif /* RESTORE_FILEPOOL_H */
