/*
 * dump.h - dump-wide types and the prototypes of the master side.
 *
 * main.c fills one struct dump_opts from the command line and passes it
 * down as const; fsopen.c resolves the operand into a struct dump_fs;
 * traverse.c builds the inode maps (struct dump_maps) and the estimate;
 * inode.c, dirconv.c and ea.c turn inodes into archive records through
 * the tape.h interface; itime.c reads and updates dumpdates; optr.c
 * prints operator messages.  The output pipeline itself is behind tape.h.
 */
#ifndef DUMP_DUMP_H
#define DUMP_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#include <ext2fs/ext2fs.h>

#include "dumprestore.h"

#define DEFAULT_HONOR_LEVEL 1 /* -h: nodump honoured from level 1 */
#define MAX_HONOR_LEVEL	    10
#define LABEL_MAX	    (LBLSIZE - 1) /* -L keeps 15 characters */
#define LABEL_NONE	    "none"
#define UNLISTED_FS	    "an unlisted file system"

#ifndef DUMPDATES_PATH
#define DUMPDATES_PATH "/var/lib/dumpdates"
#endif
#ifndef DEFAULT_TAPE
#define DEFAULT_TAPE "/dev/tape"
#endif

/* Everything the command line says; filled by main(), then const. */
struct dump_opts {
	int level;
	const char *output; /* -f (or $TAPE, DEFAULT_TAPE) */
	int ntrec; /* -b */
	char label[LBLSIZE]; /* -L, empty: use the fs label */
	int label_given;
	int quiet; /* -q */
	int verbose; /* -v */
	int update; /* -u */
	int estimate_only; /* -S */
	const char *dumpdates; /* -D */
	const char *base_date; /* -T, instead of dumpdates */
	time_t base_ddate; /* -T, parsed */
	int honor_level; /* -h */
	uint32_t *excluded; /* -e / -E inode numbers */
	size_t nexcluded;
	char *operand; /* file system as given, one '/' cut */
	/* Every operand: operand, then the further ones as given (files
	 * and directories of a subset dump; refused after a file system). */
	const char **operands;
	int noperands;
	int notify; /* -n */
	int all_media; /* -a given */
	int compress; /* -z/-j/-y: enum compress_method */
	int compress_level; /* level given with -z/-j, 0: none */
	long *volsize; /* -B list, 1 KiB blocks */
	int nvolsize;
	int multi; /* -M */
	long length_feet; /* -s, 0: not given */
	long density; /* -d in bpi, 0: not given */
	int cartridge; /* -c */
	const char *volscript; /* -F, NULL: none */
	int metadata_only; /* -m */
	const char *toc_file; /* -A, NULL: none (qfa.c) */
	const char *qfa_file; /* -Q, NULL: none (qfa.c) */
	int strict; /* --strict: changed files fail */
	int verify; /* --verify: read each volume back (verify.c) */
	time_t dump_date; /* --dumpdates-time, parsed */
	int dump_date_given;
	const char *filesys_name; /* --filesys-name, NULL: UNLISTED_FS */
	int blockdev_dumpdates; /* --use-blockdev-for-dumpdates */
	/* The name dumpdates lines are keyed by: the operand, or its block
	 * device with --use-blockdev-for-dumpdates (main.c sets it then). */
	const char *dumpdates_name;
	unsigned long debug; /* --debug mask, DEBUG_* */
};

/* --debug bits (0.4b56's mask); only dumpdates tracing is ours. */
#define DEBUG_DUMPDATES 0x4UL

/* The file system being dumped, as resolved from the operand. */
struct dump_fs {
	ext2_filsys fs;
	char *device; /* what the slaves pread */
	char *filesys; /* c_filesys text */
	unsigned blocksize; /* fs block size in bytes */
	unsigned inode_size; /* on-disk inode size */
	ext2_ino_t maxino; /* s_inodes_count + 1 */
	char volname[EXT2_LABEL_LEN + 1];
};

/* Inode bitmaps (bit n-1 is inode n, as in the archive maps). */
struct dump_maps {
	ext2_ino_t maxino;
	size_t mapsize; /* TAPE_MAPSIZE(maxino) bytes */
	uint8_t *used; /* TS_CLRI: allocated inodes */
	uint8_t *dumped; /* TS_BITS: inodes on this dump */
	uint8_t *dirs; /* candidate directories */
	uint8_t *excluded; /* -e/-E, nodump, fixed (traverse.c) */
	uint8_t *metaonly; /* -m: inode without its data */
	uint64_t estimate; /* tape blocks, as 0.4b47 estimates */
};

static inline int
map_test(const uint8_t *m, ext2_ino_t ino)
{
	return (m[(ino - 1) / 8] >> ((ino - 1) % 8)) & 1;
}

static inline void
map_set(uint8_t *m, ext2_ino_t ino)
{
	m[(ino - 1) / 8] |= (uint8_t)(1u << ((ino - 1) % 8));
}

static inline void
map_clear(uint8_t *m, ext2_ino_t ino)
{
	m[(ino - 1) / 8] &= (uint8_t) ~(1u << ((ino - 1) % 8));
}

/* options.c */
void options_parse(int argc, char **argv, struct dump_opts *o);
void options_free(struct dump_opts *o);

/* fsopen.c.  announce is called with the device and the file system's
 * name just before the file system is opened, also when the open then
 * fails (0.4b47 prints its "Dumping" line there). */
struct fsopen_announce {
	void (*fn)(const void *arg, const char *device, const char *filesys);
	const void *arg;
};
char *fsopen_device_name(const struct dump_opts *o);
int fsopen_fs_rdev(const char *name, dev_t *rdev);
int fsopen_resolve(const struct dump_opts *o, struct dump_fs *dfs,
		   const struct fsopen_announce *announce);
void fsopen_close(struct dump_fs *dfs);
int fsopen_same_name(const char *name, const char *path);

/* traverse.c */
void traverse_report_fixed(const struct dump_opts *o,
			   const struct dump_fs *dfs);
void traverse_map(const struct dump_opts *o, const struct dump_fs *dfs,
		  time_t ddate, struct dump_maps *maps);
void traverse_free_maps(struct dump_maps *maps);
void traverse_dump_maps(const struct dump_fs *dfs,
			const struct dump_maps *maps);
void traverse_dump_inodes(const struct dump_opts *o, const struct dump_fs *dfs,
			  const struct dump_maps *maps, int dirs);

/* inode.c */
void inode_dump(const struct dump_opts *o, const struct dump_fs *dfs,
		const struct dump_maps *maps, ext2_ino_t ino,
		struct ext2_inode_large *in);
void inode_fill_dinode(const struct dump_fs *dfs,
		       const struct ext2_inode_large *in,
		       struct tape_dinode *d);

/* ident.c: the dump's identity fields, and fresh headers carrying them */
void inode_set_ident(const union u_spcl *ident);
void inode_new_header(union u_spcl *h, int type, ext2_ino_t ino);

/* dirconv.c */
uint8_t *dirconv_convert(const struct dump_fs *dfs,
			 const struct dump_maps *maps, ext2_ino_t ino,
			 struct ext2_inode_large *in, size_t *len);

/* dirwalk.c: call fn for each entry of directory ino (as with
 * ext2fs_dir_iterate2, whose callback type fn has; its return value is
 * ignored), going on past damaged blocks, which are reported (counted
 * as damage) when report is set.  -1 when the block map or the inline
 * data could not be read to its end. */
int dirwalk(const struct dump_fs *dfs, ext2_ino_t ino,
	    struct ext2_inode_large *in, int report,
	    int (*fn)(ext2_ino_t dir, int entry, struct ext2_dir_entry *de,
		      int offset, int blocksize, char *buf, void *priv),
	    void *priv);

/* ea.c */
void ea_dump(const struct dump_opts *o, const struct dump_fs *dfs,
	     ext2_ino_t ino, const struct ext2_inode_large *in,
	     const struct tape_dinode *d);

/* Subset dumps: named files and directories of one mounted ext2/3/4
 * file system instead of the whole of it (dump.8, DESCRIPTION).
 * fsopen.c decides from the first operand whether
 * the dump is a subset and fills struct dump_subset; subset.c turns all
 * operands into the map of inodes pass I may visit; traverse.c runs the
 * passes over that map only. */
struct dump_subset {
	char *device; /* device of the mounted file system */
	char *mountpoint; /* where it is mounted */
	char *filesys; /* c_filesys: "<mnt> (dir <path>)" */
	dev_t dev; /* st_dev of the files on it */
	const char *const *paths; /* the operands (struct dump_opts) */
	int npaths;
};

/* fsopen.c: 1 and *sub filled when o->operand names a subset, else 0. */
int fsopen_subset(const struct dump_opts *o, struct dump_subset *sub);
int fsopen_open_subset(const struct dump_subset *sub, struct dump_fs *dfs,
		       const struct fsopen_announce *announce);
void fsopen_free_subset(struct dump_subset *sub);

/* subset.c: the inodes a subset dump looks at, each once, in the order
 * pass I visits them (*order malloced); prints 0.4b47's message and
 * returns -1 when an operand cannot be dumped. */
int subset_visit(const struct dump_fs *dfs, const struct dump_subset *sub,
		 ext2_ino_t **order, size_t *n);

/* dirwalk.c: whether an entry is a child to follow: not "." or ".."
 * (by flag or by name) and an inode number below maxino. */
int dirwalk_is_child(int entry, const struct ext2_dir_entry *de,
		     ext2_ino_t maxino);

/* traverse.c: passes I and II over the subset; -1 on a bad operand. */
int traverse_map_subset(const struct dump_opts *o, const struct dump_fs *dfs,
			const struct dump_subset *sub, time_t ddate,
			struct dump_maps *maps);

/* itime.c */
struct itime_rec {
	char *ident; /* the file-system argument as given */
	int level;
	time_t date;
};
struct itime_list {
	struct itime_rec *r;
	size_t n, cap;
};
int itime_load(const char *path, struct itime_list *l);
void itime_free(struct itime_list *l);
struct itime_base {
	time_t ddate; /* 0: no base (level 0) */
	int level; /* level of the base dump */
	int found;
};
/* fs_rdev (fsopen_fs_rdev, or a stand-in) tells the block device a
 * name of a whole file system leads to, for a base recorded under
 * another name of it; NULL: only the name as typed counts (a subset). */
void itime_read(const struct dump_opts *o,
		int (*fs_rdev)(const char *name, dev_t *rdev),
		struct itime_base *base);
int itime_parse_date(const char *s, time_t *out);
int itime_update(const struct dump_opts *o, time_t date);

/* report.c */
int report_dumpdates(const struct dump_opts *o, int all);

/* optr.c (besides optr.h) */
void optr_fs_error(long code, const char *what, const char *obj);
void optr_ino_error(long code, const char *what, ext2_ino_t ino);
void optr_damage_setup(ext2_ino_t maxino);
void optr_damage(ext2_ino_t ino, long code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void optr_damage_add(unsigned long n);
unsigned long optr_damage_summary(void);
const char *optr_ctime(time_t t);

#endif /* DUMP_DUMP_H */
