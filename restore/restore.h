/*
 * restore.h - restore-wide types, limits and extern declarations.
 *
 * Definitions live in the file that owns them (named beside each one);
 * this header only declares.  Prototypes are in extern.h.
 */
#ifndef RESTORE_H
#define RESTORE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "dumprestore.h"
#include "exitcodes.h"

/* Largest EA payload we accept per record (doc/format.md 8.3), and
 * largest record with the tail that may follow it (8.4). */
#define EA_MAX_PAYLOAD XATTR_MAXSIZE
#define EA_MAX_RECORD  (EA_MAX_PAYLOAD + XATTR_TAIL_MAX)
/* Most bytes of values from EA inodes kept for one inode, and for
 * 0.4b56's archived EA inodes all together (eainode.c). */
#define EA_MAX_BIG (64 * 1024 * 1024)
/* Longest symbolic link target we restore (PATH_MAX without the NUL). */
#define SYMLINK_MAX 4095
/* Largest bitmap (TS_CLRI/TS_BITS) we keep: 2^32 inodes / 8. */
#define MAP_MAX_BYTES ((size_t)1 << 29)
/* Size of one gathered write of file data.  Larger is not faster: with
 * 1 MiB writes, a 300 MB -r into a fresh ext4 (Linux 6.18) spent up to
 * twice the system time copying into the page cache, and its wall time
 * varied from run to run by 2x; 256 KiB was the steadiest and fastest of
 * 128 KiB to 1 MiB (bench/restore-bench.sh). */
#define WRITE_CHUNK (256 * 1024)

/* A directory entry as dirs.c packs it in its arena: ino (4), type (1),
 * namlen (1), name (dirs.c, list.c and ishls.c read it). */
#define PACKED_HDR 6

/* The mode of restore --verify (verify.c), which has no letter. */
#define MODE_VERIFY 'K'

/* What main() decided; filled once, read everywhere. */
struct ropts {
	int mode; /* 'C', 'i', 'r', 'R', 't', 'x', MODE_VERIFY */
	const char *tape; /* -f */
	const char *cmpdir; /* -D */
	const char *tmpdir; /* -T */
	const char *script; /* -F */
	long blocksize; /* -b, KiB; 0 = automatic */
	long skipfiles; /* -s */
	long cmplimit; /* -L */
	bool Mflag; /* -M: volumes are <tape>001, <tape>002... */
	bool aflag, debug, hflag, mflag, Nflag, oflag, uflag, verbose, yflag;
	bool nulterm; /* -0 */
	bool qflag; /* -q: a question to the operator ends the run */
	bool no_dot; /* --no-set-curr-dir-perms: '.' is left alone */
	bool ignore_zflag; /* --ignore-compression-flag-for-0.4b45-dumps */
	bool from_stdin; /* -f - */
	const char *toc; /* -A table of contents (qfa.c) */
	const char *qfa; /* -Q position file to read (qfa.c) */
	const char *pfile; /* -P position file to write (qfa.c) */
};
extern struct ropts ropt; /* main.c */

/* Inode attributes as the archive gave them (native order). */
struct inoattr {
	uint32_t ino;
	uint16_t mode;
	uint32_t uid, gid;
	uint64_t size;
	struct timespec atime, mtime; /* nanoseconds from our extension */
	uint32_t flags;
	uint32_t rdev_old, rdev_new; /* di_db[0], di_db[1] */
	bool metaonly;
};

/* Extended attributes of one inode, from its EA records: the in-inode
 * and block payloads in the first two slots, and in EA_SLOT_BIG the EA
 * blocks that carry values from EA inodes (doc/format.md 8.4), one
 * after the other, each behind its length (ea.c). */
#define EA_SLOTS    3
#define EA_SLOT_BIG 2
struct ealist {
	size_t n; /* records kept */
	unsigned char *payload[EA_SLOTS];
	size_t len[EA_SLOTS];
	uint32_t ino; /* for messages */
};

/* The content of a file the archive keeps in its inode (inline.c). */
struct inline_body {
	unsigned char *data;
	size_t len; /* bytes found, at most size */
	uint64_t size; /* di_size */
	bool active;
};

/* What a directory needs at the very end (dirs.c owns these). */
struct dirinfo {
	struct inoattr attr;
	struct ealist ea;
};

/* One name in the dumped tree (symtab.c): one allocation, name inline. */
enum { E_LEAF = 0, E_NODE = 1 };
#define EF_SELECTED 0x01 /* extract / list this name */
#define EF_EXISTED  0x02 /* directory was already on disk (-x) */
#define EF_CREATED  0x04 /* made on disk by us */
#define EF_DONE	    0x08 /* inode data restored under this name */
#define EF_BAD	    0x10 /* cannot be made or reached: skip below */
#define EF_ONPATH   0x20 /* on utilities.c's path of directories */
#define EF_LINKMAX  0x40 /* link limit reached: no more names */
#define EF_WANTED   0x80 /* selected, or on the way to one */
#define EF_INPATH   0x100 /* in sym_path()'s last path (symtab.c) */
#define EF_ACLKNOWN 0x200 /* directory: EF_DEFACL is up to date */
#define EF_DEFACL   0x400 /* directory has a default ACL (extract.c) */
#define EF_NOTDIR   0x800 /* named as a directory, not one on the archive */
struct entry {
	uint32_t ino;
	uint8_t type; /* E_LEAF / E_NODE */
	uint16_t flags; /* fits the padding before parent */
	struct entry *parent;
	struct entry *child; /* first child, on-tape order */
	struct entry *sibling;
	struct entry *links; /* next name of the same inode */
	struct entry *hnext; /* (parent, name) hash chain */
	struct dirinfo *dir; /* directories on the archive, else NULL */
	char name[];
};

/* The current header and the dump being read (tape.c). */
extern union u_spcl curhdr;
extern union u_spcl tapehdr; /* the volume header */
extern int32_t dumpdate, dumpprev;
extern uint32_t maxino;
extern unsigned char *dumpmap; /* TS_BITS */
extern size_t dumpmap_len;
extern unsigned char *usedmap; /* TS_CLRI */
extern size_t usedmap_len;

#endif /* RESTORE_H */
