/*
 * rmtops.c - the device behind the rmt server: at most one open file,
 * tape drive or block device, and the operations the protocol maps onto
 * it.  Every function returns -1 with errno set on failure, and the
 * command loop turns errno into an "E" reply; nothing here talks to the
 * client.
 *
 * Two facts are remembered at open time.  Whether the device is a tape
 * (MTIOCGET works): a tape keeps one W as one record, and answers the
 * QFA position requests through the driver.  And whether it is a regular
 * file or block device opened for writing: closing such a device first
 * fsync()s it, so that the client's last "A0" means its data are on the
 * remote disk, not merely in the remote page cache.
 *
 * The tape position requests (L 10/11) and the byte order of the status
 * after the version-1 handshake follow 0.4b47 as seen through a simulated
 * driver (tests/t8003-rmt-tape.sh).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rmt.h"

/* Mode of files created by O ... O_CREAT (before the umask), as 0.4b47. */
#define RMT_CREATE_MODE 0666

/* QFA positioning requests, passed as L's whence. */
#define RMT_SEEK_TELL 10 /* return the current tape position */
#define RMT_SEEK_TO   11 /* go to tape position <offset> */

/* Marks an entry of a mapping table with no Linux operation. */
#define NO_MTOP (-1)

static int dev_fd = -1;
static int dev_tape;
static int dev_sync;

/*
 * I op codes after the I-1 handshake: the portable numbering of the
 * version-1 protocol, mapped to the native MTIOCTOP codes.
 */
static const int portable_mtop[] = {
    MTWEOF, MTFSF, MTBSF,   MTFSR,   MTBSR, MTREW,
    MTOFFL, MTNOP, MTRETEN, MTERASE, MTEOM,
};

/* i op codes: 0 CACHE, 1 NOCACHE, 2 RETEN, 3 ERASE, 4 EOM, 5 NBSF. */
static const int extended_mtop[] = {
#ifdef MTCACHE
    MTCACHE,
#else
    NO_MTOP,
#endif
#ifdef MTNOCACHE
    MTNOCACHE,
#else
    NO_MTOP,
#endif
    MTRETEN,   MTERASE, MTEOM,
#ifdef MTNBSF
    MTNBSF,
#else
    NO_MTOP,
#endif
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

int
rmtdev_is_open(void)
{
	return dev_fd >= 0;
}

int
rmtdev_is_tape(void)
{
	return dev_tape;
}

int
rmtdev_open(const char *path, int flags)
{
	struct mtget mt;
	struct stat st;
	int fd;

	do
		fd = open(path, flags, RMT_CREATE_MODE);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -1;
	dev_fd = fd;
	dev_tape = ioctl(fd, MTIOCGET, &mt) == 0;
	dev_sync = (flags & O_ACCMODE) != O_RDONLY && fstat(fd, &st) == 0 &&
	    (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
	return 0;
}

/*
 * Close the device, fsync()ing it first when it holds data we wrote.
 * The descriptor is released even when the sync fails; the failure is
 * still reported, since the client's data may be lost.
 */
int
rmtdev_close(void)
{
	int sync_errno = 0;
	int fd = dev_fd;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	if (dev_sync && fsync(fd) < 0)
		sync_errno = errno;
	dev_fd = -1;
	dev_tape = dev_sync = 0;
	if (close(fd) < 0)
		return -1;
	if (sync_errno != 0) {
		errno = sync_errno;
		return -1;
	}
	return 0;
}

ssize_t
rmtdev_read(void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(dev_fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/*
 * Write one request's data.  On a tape this is exactly one write(), one
 * record.  Elsewhere short counts are retried, and a failure after some
 * progress returns what was written: the client sees a short count, and
 * its next write gets the error.
 */
ssize_t
rmtdev_write(const void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	do {
		n = write(dev_fd, (const char *)buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return done > 0 ? (ssize_t)done : -1;
		}
		if (n == 0 || dev_tape)
			return (ssize_t)done + n;
		done += (size_t)n;
	} while (done < len);
	return (ssize_t)done;
}

/*
 * Make the driver count positions in logical blocks, which survive a
 * change of the record size.  0.4b47 used MT_ST_BOOLEANS here, which also
 * clears every other boolean option of the drive (buffered writes among
 * them); MT_ST_SETBOOLEANS sets this one alone.  As in 0.4b47, a failure
 * fails the position request: a position in some other numbering could
 * not be trusted by a later seek.
 */
static int
tape_logical(void)
{
	struct mtop op = {MTSETDRVBUFFER,
			  MT_ST_SETBOOLEANS | MT_ST_SCSI2LOGICAL};

	return ioctl(dev_fd, MTIOCTOP, &op);
}

static int
tape_tell(long long *result)
{
	struct mtpos pos;

	if (tape_logical() < 0 || ioctl(dev_fd, MTIOCPOS, &pos) < 0)
		return -1;
	*result = pos.mt_blkno;
	return 0;
}

static int
tape_seek(long long offset, long long *result)
{
	struct mtop op;

	if (offset < 0 || offset > INT_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (tape_logical() < 0)
		return -1;
	op.mt_op = MTSEEK;
	op.mt_count = (int)offset;
	if (ioctl(dev_fd, MTIOCTOP, &op) < 0)
		return -1;
	*result = offset;
	return 0;
}

static int
file_seek(long long offset, int whence, long long *result)
{
	off_t pos = lseek(dev_fd, (off_t)offset, whence);

	if (pos < 0)
		return -1;
	*result = pos;
	return 0;
}

int
rmtdev_seek(long long offset, int whence, long long *result)
{
	switch (whence) {
	case SEEK_SET:
	case SEEK_CUR:
	case SEEK_END: return file_seek(offset, whence, result);
	case RMT_SEEK_TELL:
		if (dev_tape)
			return tape_tell(result);
		return file_seek(0, SEEK_CUR, result);
	case RMT_SEEK_TO:
		if (dev_tape)
			return tape_seek(offset, result);
		return file_seek(offset, SEEK_SET, result);
	default: errno = EINVAL; return -1;
	}
}

static int
do_mtop(int op, int count)
{
	struct mtop mt;

	mt.mt_op = (short)op;
	mt.mt_count = count;
	/* mt_op is a short: an op that does not fit is no operation. */
	if (mt.mt_op != op) {
		errno = EINVAL;
		return -1;
	}
	return ioctl(dev_fd, MTIOCTOP, &mt);
}

/* I: native op codes, or the portable ones after I-1. */
int
rmtdev_mtop(int op, int count, int portable)
{
	if (portable) {
		if (op < 0 || (size_t)op >= NELEM(portable_mtop)) {
			errno = EINVAL;
			return -1;
		}
		op = portable_mtop[op];
	}
	return do_mtop(op, count);
}

/* i: the extended operations, some of which Linux lacks. */
int
rmtdev_ext_mtop(int op, int count)
{
	if (op < 0 || (size_t)op >= NELEM(extended_mtop) ||
	    extended_mtop[op] == NO_MTOP) {
		errno = EINVAL;
		return -1;
	}
	return do_mtop(extended_mtop[op], count);
}

/*
 * S: the drive status.  After the I-1 handshake the client gets it in
 * the byte order of version 1 as 0.4b47 sends it: every member cut to 32
 * bits and put in network order, a long member's upper half left zero.
 */
int
rmtdev_status(struct mtget *mt, int portable)
{
	if (ioctl(dev_fd, MTIOCGET, mt) < 0)
		return -1;
	if (portable) {
		mt->mt_type = (long)htonl((uint32_t)mt->mt_type);
		mt->mt_resid = (long)htonl((uint32_t)mt->mt_resid);
		mt->mt_dsreg = (long)htonl((uint32_t)mt->mt_dsreg);
		mt->mt_gstat = (long)htonl((uint32_t)mt->mt_gstat);
		mt->mt_erreg = (long)htonl((uint32_t)mt->mt_erreg);
		mt->mt_fileno = (int)htonl((uint32_t)mt->mt_fileno);
		mt->mt_blkno = (int)htonl((uint32_t)mt->mt_blkno);
	}
	return 0;
}

/* s: one member of struct mtget, chosen by a letter. */
int
rmtdev_status_field(int which, long long *value)
{
	struct mtget mt;

	if (ioctl(dev_fd, MTIOCGET, &mt) < 0)
		return -1;
	switch (which) {
	case 'T': *value = mt.mt_type; break;
	case 'D': *value = mt.mt_dsreg; break;
	case 'E': *value = mt.mt_erreg; break;
	case 'R': *value = mt.mt_resid; break;
	case 'F': *value = mt.mt_fileno; break;
	case 'B': *value = mt.mt_blkno; break;
	case 'f': *value = mt.mt_gstat; break;
	case 'b': *value = 0; break; /* mt_bf: no such member on Linux */
	default: errno = EINVAL; return -1;
	}
	return 0;
}
