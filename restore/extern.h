/*
 * extern.h - prototypes of restore's functions, by defining file.
 */
#ifndef EXTERN_H
#define EXTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "restore.h"

/* attrs.c */
void attrs_prepare(void); /* before threads call set_attrs() */
bool dir_inherits_acl(struct entry *dir, int dfd);
void set_attrs(int dfd, const char *name, int fd, const struct inoattr *a,
	       const struct ealist *ea, const char *path, bool fresh);

/* compare.c */
int compare_run(char **names, int nnames);

/* dirs.c */
void attr_get(struct inoattr *a);
void dirs_build_tree(void);
bool dirs_encrypted(uint32_t ino);
void dirs_link_tree(void);
uint32_t dirs_nth(size_t i);
bool dirs_is_dir(uint32_t ino);
bool dirs_kept_name(uint32_t dino, size_t pos, uint32_t ino);
unsigned char *dirs_load(uint32_t ino, size_t *len);
unsigned long dirs_refused(void);
void dirs_read(void);
bool dirs_report_missing(const char *path, uint32_t ino, uint8_t type);

/* ea.c */
void ea_apply(const struct ealist *ea, int fd, const char *target,
	      const char *path, bool fresh);
int ea_compare(const struct ealist *ea, const char *target, const char *path);
const unsigned char *ea_inline_data(const struct ealist *ea, size_t *len);
unsigned long ea_skipped(void);
void ea_count_error(void);
void ea_resolve(uint32_t inum);
void ea_walk_done(void);
int ea_late_diffs(void);

/* earead.c */
void ea_free(struct ealist *ea);
void ea_read_records(uint32_t ino, struct ealist *out);

/* eainode.c */
void eai_read(const struct inoattr *a);
const unsigned char *eai_value(uint32_t ino, size_t *len);

/* extract.c */
void extract_dirmodes(bool root);
int extract_errors(void);
void extract_files(void);
void extract_flags(void);
void extract_links(void);
void extract_make_dirs(void);
void extract_sync(void);
void select_names(char **names, int nnames);
void select_tree(struct entry *e);
/* datacheck.c: the data checksums of the header extension. */
struct datacheck_stats {
	uint64_t checked_blocks; /* covered by a checksum that matched or not */
	uint64_t unchecked_blocks; /* no checksum, or not all read */
	unsigned long damaged; /* checksums that did not match */
	bool any_extension; /* some header carried the extension */
};
void datacheck_block(const unsigned char *blk);
void datacheck_break(void);
void datacheck_header(const union u_spcl *h, bool first);
void datacheck_reset(void);
void datacheck_set_namer(const char *(*name_of)(uint32_t ino));
const struct datacheck_stats *datacheck_stats(void);
void datacheck_volume(const union u_spcl *h, bool rejoined);

/* incremental.c */
int incr_restore(void);

/* interactive.c */
int interactive_run(void);

/* list.c */
void list_names(char **names, int nnames);

/* qfa.c */
void qfa_check_date(void);
int qfa_list(char **names, int nnames);
void qfa_options(void);
void qfa_open_files(void);
int qfa_positions(char **names, int nnames);

/* report.c: messages as 0.4b47 prints them, without the program name
 * (with it: err(3) and warn(3)). */
void rfatal(int status, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
void report_name(const char *name, size_t len, FILE *fp);
void rmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* symtab.c */
extern struct entry *sym_root;
void sym_debug_level0(void);
struct entry *sym_add(struct entry *parent, const char *name, size_t len,
		      uint32_t ino, int type);
char *sym_canon(const char *path);
struct entry *sym_lookup_child(const struct entry *dir, const char *name,
			       size_t len);
struct entry *sym_lookup_ino(uint32_t ino);
struct entry *sym_lookup_path(const char *path);
struct entry *sym_lookup_escaped(struct entry *(*lookup)(const char *),
				 const char *name);
struct entry *sym_next(const struct entry *top, const struct entry *e);
const char *sym_next_component(const char **path, size_t *len);
bool sym_octal_escape(const char *s);
void sym_not_on_tape(const char *path);
const char *sym_path(const struct entry *e);
void sym_relink(void);
int sym_write(int dirfd, const char *name);

/* inline.c */
uint64_t body_getfile(const struct inline_body *b,
		      void (*data)(const unsigned char *, size_t, void *),
		      void (*hole)(size_t, void *), void *arg);
void body_skip(const struct inline_body *b);
void inline_free(struct inline_body *b);
bool inline_read(struct inline_body *b, uint32_t ino, struct ealist *ea);

/* tape.c */
bool map_test(const unsigned char *map, size_t len, uint32_t ino);
void print_dump_info(const struct s_spcl *h);
void tape_drain(void);
void tape_find_inode(void);
uint64_t tape_getfile(void (*data)(const unsigned char *, size_t, void *),
		      void (*hole)(size_t, void *), void *arg);
bool tape_cut_short(void);
bool tape_had_error(void);
bool tape_newinodefmt(void);
void tape_read_to_end(void);
bool tape_resynced(void);
bool tape_seek_position(int vol, uint64_t pos, uint32_t ino, bool newmedia);
void tape_next_header(void);
bool tape_restart(const char *name);
void tape_set_find_hook(void (*hook)(void));
void tape_setup(void);
void tape_skipfile(void);
bool tape_swapped(void);
bool tape_truncated(void);

/* verify.c */
int verify_run(void);

/* walk.c: the inode walk after pass III (-x, -r, -C). */
struct walk_ops {
	/* The name inode ino is handled under, NULL to skip it. */
	struct entry *(*lookup)(uint32_t ino);
	/* Handles the inode: consumes its body and its EA records. */
	void (*visit)(struct entry *e, const struct inoattr *a);
	/* Told about each inode skipped (may be NULL). */
	void (*skipped)(const struct inoattr *a);
};
void walk_inodes(const struct walk_ops *ops);

/* volume.c */
bool volume_ask_number(char *(*read_answer)(void), bool *eof);
char *volume_choose(int n, const char *prev, bool must_ask);
char *volume_first_name(void);
void volume_first_script(const char *name);

/* utilities.c */
extern int target_fd;
void ask_intervention(void);
char *ask_line(void);
bool ask_yn(const char *question);
bool can_ask(void);
void dir_cache_drop(void);
int dir_get(struct entry *d);
int dir_get_quiet(struct entry *d, struct entry **failed);
int dir_open_new(struct entry *d);
const char *fd_name_path(int dirfd, const char *name);
void msg_debug_header(const struct s_spcl *h);
void msg_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void target_open(void);

#endif /* EXTERN_H */
