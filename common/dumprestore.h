/*
 * dumprestore.h - the on-tape archive format, defined once.
 *
 * Every constant, record type, flag and header field of the dump archive
 * lives here and nowhere else; dump, restore and the test helpers include
 * this file.  The layout is that of dump 0.4b47 (see
 * doc/format.md): 1024-byte tape blocks, native byte order, a
 * 1024-byte header whose 256 32-bit words sum to CHECKSUM.
 */
#ifndef DUMPRESTORE_H
#define DUMPRESTORE_H

#include <stddef.h>
#include <stdint.h>

#define TP_BSIZE	1024 /* one tape block */
#define NTREC		10 /* default tape blocks per record */
#define HIGHDENSITYTREC 32 /* default with -d >= 6250 */
#define MAXNTREC	1024 /* largest -b accepted */
#define TP_NINDIR	(TP_BSIZE / 2) /* c_addr[] slots in one header */
#define TP_NINOS	(TP_NINDIR / 4) /* c_inos[] entries (same bytes) */
#define LBLSIZE		16
#define NAMELEN		64

#define OFS_MAGIC     60011 /* pre-4.4BSD header (read only) */
#define NFS_MAGIC     60012 /* every header we write */
#define FS_UFS2_MAGIC 0x19540119 /* FreeBSD UFS2 dumps (read only) */
#define CHECKSUM      84446 /* the 256 header words sum to this */

#define ROOTINO		  2 /* root directory inode */
#define WINO		  1 /* BSD whiteout pseudo-inode */
#define DEV_BSIZE	  512
#define DUMP_DIRBLKSIZ	  512 /* chunk size of dumped directories */
#define RESTORE_DIRBLKSIZ 1024 /* block size restore validates */
#define DUMP_MAXNAMLEN	  255
#define XATTR_MAXSIZE	  4096 /* largest EA payload restore takes */
#define XATTR_VALUE_MAX	  65536 /* largest EA value (Linux's limit) */
/* Largest tail of an EA record: one value kept in an EA inode, with the
 * header of its EA block and its entry (doc/format.md 8.4). */
#define XATTR_TAIL_MAX (XATTR_VALUE_MAX + 2 * TP_BSIZE)

#define EXT2_XATTR_MAGIC  0xEA020000u /* EA block magic */
#define EXT2_XATTR_MAGIC2 0xEA020001u /* in-inode EA payload on tape */

/* Record types (c_type). */
#define TS_TAPE	 1 /* volume header */
#define TS_INODE 2 /* start of an inode (or an EA record) */
#define TS_BITS	 3 /* map of inodes on this dump */
#define TS_ADDR	 4 /* continuation of an inode */
#define TS_END	 5 /* end of dump, record padding */
#define TS_CLRI	 6 /* map of inodes in use on the fs */

/* Header flags (c_flags). */
#define DR_NEWHEADER	 0x0001 /* TS_TAPE of each volume */
#define DR_NEWINODEFMT	 0x0002 /* every header: 32-bit uid/gid */
#define DR_INODEINFO	 0x0002 /* c_inos table (same bit, doc/format.md 2.4) */
#define DR_COMPRESSED	 0x0080 /* records after the first compressed */
#define DR_METAONLY	 0x0100 /* inode without its data (-m) */
#define DR_EXTATTRIBUTES 0x8000 /* an extended-attribute record */

/* ext4's inline-data inode flag as archived in di_flags: the content is
 * in the inode (doc/format.md 5.5). */
#define TAPE_INLINE_DATA_FL 0x10000000u
/* ext4's flag of an inode that holds the value of another inode's EA
 * (doc/format.md 8.5). */
#define TAPE_EA_INODE_FL 0x00200000u

/* c_extattributes values. */
#define EXT_REGULAR	  0
#define EXT_MACOSFNDRINFO 1
#define EXT_MACOSRESFORK  2
#define EXT_XATTR	  3

/* Compression methods in the record prefix (doc/format.md 11.2,
 * cprefix.h). */
#define COMPRESS_ZLIB  0
#define COMPRESS_BZLIB 1
#define COMPRESS_LZO   2
#define COMPRESS_ZSTD  3 /* dump -Z; not in 0.4b47, which cannot read it */

/* Directory entry types stored in dumped directories (d_type). */
#define DT_TAPE_UNKNOWN 0
#define DT_TAPE_FIFO	1
#define DT_TAPE_CHR	2
#define DT_TAPE_DIR	4
#define DT_TAPE_BLK	6
#define DT_TAPE_REG	8
#define DT_TAPE_LNK	10
#define DT_TAPE_SOCK	12

struct tape_timeval {
	uint32_t tv_sec;
	uint32_t tv_usec;
};

/* The inode image in a header (struct new_bsd_inode, 128 bytes). */
#define TAPE_NDADDR 12
#define TAPE_NIADDR 3
struct tape_dinode {
	uint16_t di_mode; /* 0x00 type and permission bits */
	int16_t di_nlink; /* 0x02 */
	uint16_t di_ouid; /* 0x04 low 16 bits of uid */
	uint16_t di_ogid; /* 0x06 low 16 bits of gid */
	uint64_t di_size; /* 0x08 */
	struct tape_timeval di_atime; /* 0x10 */
	struct tape_timeval di_mtime; /* 0x18 */
	struct tape_timeval di_ctime; /* 0x20 */
	uint32_t di_db[TAPE_NDADDR]; /* 0x28 raw i_block[0..11] */
	uint32_t di_ib[TAPE_NIADDR]; /* 0x58 raw i_block[12..14] */
	uint32_t di_flags; /* 0x64 ext2 attribute flags */
	int32_t di_blocks; /* 0x68 i_blocks, 512-byte units */
	int32_t di_gen; /* 0x6c */
	uint32_t di_uid; /* 0x70 full uid */
	uint32_t di_gid; /* 0x74 full gid */
	int32_t di_spare[2]; /* 0x78 zero */
};

/* The header of every record on tape (struct s_spcl). */
struct s_spcl {
	int32_t c_type; /* 0x000 TS_* */
	int32_t c_date; /* 0x004 date of this dump */
	int32_t c_ddate; /* 0x008 date of the base dump */
	int32_t c_volume; /* 0x00c volume number, from 1 */
	uint32_t c_tapea; /* 0x010 logical block of this header */
	uint32_t c_inumber; /* 0x014 */
	int32_t c_magic; /* 0x018 NFS_MAGIC */
	int32_t c_checksum; /* 0x01c */
	struct tape_dinode c_dinode; /* 0x020 */
	int32_t c_count; /* 0x0a0 bytes of c_addr[] used */
	union {
		uint8_t s_addrs[TP_NINDIR]; /* block map: blockmap.h */
		uint32_t s_inos[TP_NINOS]; /* volume -> first inode */
	} c_data; /* 0x0a4 */
	char c_label[LBLSIZE]; /* 0x2a4 */
	int32_t c_level; /* 0x2b4 */
	char c_filesys[NAMELEN]; /* 0x2b8 */
	char c_dev[NAMELEN]; /* 0x2f8 */
	char c_host[NAMELEN]; /* 0x338 */
	int32_t c_flags; /* 0x378 DR_* */
	int32_t c_firstrec; /* 0x37c first block of this volume */
	int32_t c_ntrec; /* 0x380 blocking factor */
	int32_t c_extattributes; /* 0x384 EXT_* */
	int32_t c_spare[30]; /* 0x388 zero */
};
#define c_addr c_data.s_addrs
#define c_inos c_data.s_inos

union u_spcl {
	char dummy[TP_BSIZE];
	struct s_spcl s_spcl;
};

/* A directory entry as dumped (struct direct). */
struct tape_direct {
	uint32_t d_ino;
	uint16_t d_reclen;
	uint8_t d_type;
	uint8_t d_namlen;
	char d_name[DUMP_MAXNAMLEN + 1];
};
#define TAPE_DIRENT_HDRLEN offsetof(struct tape_direct, d_name)
/* Record length of an entry with a name of namlen bytes. */
#define TAPE_DIRSIZ(namlen)                                                    \
	(TAPE_DIRENT_HDRLEN + (((size_t)(namlen) + 1 + 3) & ~(size_t)3))

/* The 4-byte prefix of each compressed record: cprefix.h. */

/* Inode map size in bytes for a file system with maxino-1 inodes. */
#define TAPE_MAPSIZE(maxino)                                                   \
	((((size_t)(maxino) + 7) / 8 + TP_BSIZE - 1) / TP_BSIZE * TP_BSIZE)

_Static_assert(sizeof(struct tape_dinode) == 128, "inode image != 128 bytes");
_Static_assert(sizeof(union u_spcl) == TP_BSIZE, "header != 1 tape block");
_Static_assert(sizeof(struct s_spcl) == TP_BSIZE, "s_spcl != 1 tape block");
_Static_assert(offsetof(struct s_spcl, c_magic) == 24, "c_magic offset");
_Static_assert(offsetof(struct s_spcl, c_dinode) == 32, "c_dinode offset");
_Static_assert(offsetof(struct s_spcl, c_count) == 160, "c_count offset");
_Static_assert(offsetof(struct s_spcl, c_data) == 164, "c_addr offset");
_Static_assert(offsetof(struct s_spcl, c_label) == 676, "c_label offset");
_Static_assert(offsetof(struct s_spcl, c_level) == 692, "c_level offset");
_Static_assert(offsetof(struct s_spcl, c_filesys) == 696, "c_filesys offset");
_Static_assert(offsetof(struct s_spcl, c_flags) == 888, "c_flags offset");
_Static_assert(offsetof(struct s_spcl, c_ntrec) == 896, "c_ntrec offset");
_Static_assert(offsetof(struct s_spcl, c_spare) == 904, "c_spare offset");
_Static_assert(TAPE_DIRENT_HDRLEN == 8, "direct header != 8 bytes");

#endif /* DUMPRESTORE_H */
