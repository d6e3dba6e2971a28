/*
 * spclext.h - the header extension: what our archives add in the spare
 * bytes of every header (doc/format.md 2.6).
 *
 * The 120 bytes of c_spare are zero in every archive of dump 0.4b47 to
 * 0.4b56, and their restores never look at them (measured: archives with
 * the extension restore exactly with each of them).  Ours start with a
 * magic word and a version, so that zeros, garbage or another program's
 * use of the bytes are never taken for it; fields are little-endian
 * whatever the byte order of the archive, and a later version only
 * appends fields, so a reader uses every field it knows.
 */
#ifndef SPCLEXT_H
#define SPCLEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "dumprestore.h"

/* Which fields an extension carries (struct spclext.flags). */
#define SPCLEXT_DATASUM 0x0001 /* datasum: the data since the last header */
#define SPCLEXT_DATES	0x0002 /* date, ddate: c_date and c_ddate whole */
#define SPCLEXT_TIMES	0x0004 /* atime, mtime, ctime: an inode's, whole */

/* A time as ext4 keeps it: seconds past 2038 and before 1970 too. */
struct spclext_time {
	int64_t sec;
	uint32_t nsec;
};

struct spclext {
	unsigned flags; /* SPCLEXT_* */
	/* XXH3-64 of the data blocks between the previous header of the
	 * volume and this one (datasum.h). */
	uint64_t datasum;
	int64_t date; /* date of this dump, seconds since 1970 */
	int64_t ddate; /* date of its base, 0 for a level 0 */
	/* TS_INODE and TS_ADDR headers: the inode's times. */
	struct spclext_time atime, mtime, ctime;
};

/* Write x into the spare bytes of h (the caller sets c_checksum). */
void spclext_put(union u_spcl *h, const struct spclext *x);
/* Read the extension of h into x: false when h carries none (then x is
 * zeroed).  The bytes are read as they are on the archive: the same
 * before and after spcl_swap_header, which leaves them alone. */
bool spclext_get(const union u_spcl *h, struct spclext *x);
/* Set only the data checksum of an extension already in h (the slave
 * that read the data); false when h carries none or does not ask for
 * one. */
bool spclext_set_datasum(union u_spcl *h, uint64_t sum);

#endif /* SPCLEXT_H */
