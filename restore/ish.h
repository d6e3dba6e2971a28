/*
 * ish.h - the files of restore -i (interactive.c, ishwords.c, ishnames.c,
 * ishls.c, ishextract.c) among themselves and their unit test; nothing
 * else includes it.
 */
#ifndef ISH_H
#define ISH_H

#include <stddef.h>

#include "restore.h"

/* A growing list of malloc'ed names (ishnames.c). */
struct namelist {
	char **v;
	size_t n, cap;
};

/* ishextract.c */
int ish_extract(char *(*read_answer)(void));
void ish_setmodes(void);

/* ishls.c */
void ish_ls(const char *arg);

/* ishwords.c: the words of a typed line, pointing into it (cut there);
 * the caller frees the array */
int ish_split_words(char *line, char ***argvp);

/* ishnames.c */
extern struct entry *ish_cwd; /* the shell's current directory */
void ish_expand_arg(const char *arg, struct namelist *out);
void ish_nl_add(struct namelist *l, char *s);
void ish_report(const char *arg, const char *what);
struct entry *ish_resolve(const char *arg);
const char *ish_slash_path(const struct entry *e);

#endif /* ISH_H */
