/*
 * faketape.c - an LD_PRELOAD stand-in for the Linux st driver, so that
 * dump, restore and rmt can be tested on a "tape drive" where none exists.
 *
 * Any file whose name ends in ".tape" (or ".tape" and digits, as -M names
 * volumes) is a drive; the file itself is the cartridge in it.  The
 * cartridge holds records, each a 4-byte little-endian length and that
 * many bytes; a length of 0 is a filemark; the end of the file is the end
 * of the recorded data.  An empty file is a blank cartridge.  Through the preloaded library such a drive behaves as
 * st does (Documentation/scsi/st.rst):
 *  - stat/fstat/lstat/statx say S_ISCHR, MTIOCGET works;
 *  - open ignores O_CREAT/O_TRUNC; it refuses a second open of the drive
 *    (EBUSY, whatever the cartridge), and a drive left offline
 *    (ENOMEDIUM) until a new cartridge is loaded (the file replaced by
 *    another inode);
 *  - variable block mode (FAKETAPE_BLKSIZE unset or 0): every write() is
 *    one record, every read() returns one record, ENOMEM (the record is
 *    lost) when it is larger than the request; fixed mode (FAKETAPE_BLKSIZE
 *    = bytes): transfers are whole blocks, anything else is EINVAL;
 *  - writing truncates the tape at the current position; a write that
 *    would grow the cartridge file beyond FAKETAPE_CAPACITY bytes fails
 *    ENOSPC (in fixed mode the blocks that fit are written first: a
 *    short count);
 *  - reading a filemark returns 0 once and moves past it; at the end of
 *    the data read returns 0;
 *  - writev/readv move one record per iovec, as a character device does;
 *  - MTIOCTOP: MTWEOF/MTWEOFI write filemarks, MTREW, MTOFFL (rewind and
 *    eject), MTFSF/MTBSF/MTFSFM/MTBSFM, MTFSR/MTBSR, MTEOM, MTSEEK (logical
 *    block, filemarks counted, as SCSI does), MTSETBLK; other ops are
 *    accepted; MTIOCPOS gives the logical block; MTIOCGET the block size
 *    (mt_dsreg), file and block numbers and GMT_* status bits;
 *  - the last close of a drive writes a filemark when the last operation
 *    was a write, then rewinds unless the drive name starts with "n"
 *    (/dev/nst0 versus /dev/st0), also when exit() closes it; a process
 *    killed with the drive open gets the same treatment at the next open.
 * Drive state shared by the processes that use it (last operation,
 * position, offline, block size) lives in "<name>.state", its lock in
 * "<name>.lock".
 *
 * Environment: FAKETAPE_LOG=file appends one line per MTIOCTOP ("op OP
 * COUNT"), MTIOCPOS ("pos N 0") and automatic filemark/rewind at close
 * ("close-weof", "close-rewind"); with FAKETAPE_LOG_IO=1 also "open",
 * "write N", "read N", "close".  FAKETAPE_FAIL_OP=op makes that op fail
 * with EIO, as does any count equal to FAKETAPE_FAIL_COUNT.
 * FAKETAPE_STATUS=pattern makes MTIOCGET answer fixed, distinct values in
 * every member (byte-order checks of rmt's status replies).
 *
 * Built with -DFAKETAPE_TOOL instead, this file is "faketape", a command
 * that lists a cartridge (faketape ls FILE: "rec LENGTH" or "fm" per
 * line) or extracts file N of it (faketape cat FILE N > data; N from 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC_HDR	 4 /* length prefix of a record */
#define FILEMARK 0u

static uint32_t
get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

#ifdef FAKETAPE_TOOL

static int
tool(const char *file, long want)
{
	unsigned char hdr[REC_HDR];
	static unsigned char buf[1 << 24];
	FILE *f = fopen(file, "rb");
	long fileno = 1;

	if (f == NULL) {
		perror(file);
		return 1;
	}
	while (fread(hdr, 1, REC_HDR, f) == REC_HDR) {
		uint32_t len = get_le32(hdr);

		if (len == FILEMARK) {
			if (want == 0)
				printf("fm\n");
			fileno++;
			continue;
		}
		if (len > sizeof(buf) || fread(buf, 1, len, f) != len) {
			fprintf(stderr, "%s: damaged cartridge\n", file);
			return 1;
		}
		if (want == 0)
			printf("rec %lu\n", (unsigned long)len);
		else if (want == fileno && fwrite(buf, 1, len, stdout) != len)
			return 1;
	}
	return fclose(f) != 0 || fflush(stdout) != 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "ls") == 0)
		return tool(argv[2], 0);
	if (argc == 4 && strcmp(argv[1], "cat") == 0 && atol(argv[3]) > 0)
		return tool(argv[2], atol(argv[3]));
	fprintf(stderr, "usage: faketape ls FILE | faketape cat FILE N\n");
	return 2;
}

#else /* the preloaded driver */

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mtio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>

#ifndef MTWEOFI
#define MTWEOFI 35 /* linux/mtio.h, not in glibc's */
#endif

#define TAPE_SUFFIX  ".tape"
#define STATE_SUFFIX ".state"
#define LOCK_SUFFIX  ".lock"
#define MAX_FD	     4096
#define ST_MAJOR     9 /* the st driver's device major */
#define MAX_BLOCK    (16u << 20) /* largest variable-mode record */

/* What is known of a descriptor of this process. */
enum { FD_UNKNOWN, FD_PLAIN, FD_TAPE };
static unsigned char fdkind[MAX_FD];
/* The lock descriptor (+1) that goes with a drive opened here. */
static int lockfd[MAX_FD];

/* Drive state shared by every process using the drive. */
struct drive {
	char lastop; /* 'w' write, 'r' read, 'f' filemark, '-' */
	int offline;
	long blksize; /* 0: variable */
	long setblk; /* MTSETBLK's, -1: none (FAKETAPE_BLKSIZE) */
	unsigned long long ino; /* cartridge the state is about */
	unsigned long long pos; /* byte offset in the cartridge */
};

/* ---- raw helpers: never through the interposed functions ------------- */

static long
sys_read(int fd, void *buf, size_t n)
{
	return syscall(SYS_read, fd, buf, n);
}

static long
sys_pread(int fd, void *buf, size_t n, off_t off)
{
	return syscall(SYS_pread64, fd, buf, n, off);
}

static long
sys_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return syscall(SYS_pwrite64, fd, buf, n, off);
}

static int
sys_open(const char *path, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static int
sys_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

static off_t
sys_seek(int fd, off_t off, int whence)
{
	return (off_t)syscall(SYS_lseek, fd, off, whence);
}

static void *
real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (f == NULL) {
		fprintf(stderr, "faketape: no %s\n", name);
		abort();
	}
	return f;
}

/* "*.tape", or "*.tapeNNN" as dump -M and restore -M name volumes. */
static int
is_tape_path(const char *path)
{
	const char *p, *last = NULL;

	if (path == NULL)
		return 0;
	for (p = path; (p = strstr(p, TAPE_SUFFIX)) != NULL; p++)
		last = p;
	if (last == NULL || last == path)
		return 0;
	for (p = last + strlen(TAPE_SUFFIX); *p >= '0' && *p <= '9'; p++)
		;
	return *p == '\0';
}

static int
fd_path(int fd, char *path, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, len - 1);
	if (n < 0)
		return -1;
	path[n] = '\0';
	return 0;
}

static int
is_tape(int fd)
{
	char path[4096];

	if (fd < 0)
		return 0;
	if (fd < MAX_FD && fdkind[fd] != FD_UNKNOWN)
		return fdkind[fd] == FD_TAPE;
	if (fd_path(fd, path, sizeof(path)) == -1)
		return 0;
	if (fd < MAX_FD)
		fdkind[fd] = is_tape_path(path) ? FD_TAPE : FD_PLAIN;
	return is_tape_path(path);
}

static void
note(int io, const char *fmt, ...)
{
	const char *log = getenv("FAKETAPE_LOG");
	const char *logio = getenv("FAKETAPE_LOG_IO");
	char line[256];
	va_list ap;
	int fd, n;

	if (log == NULL || (io && (logio == NULL || *logio != '1')))
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n > (int)sizeof(line) - 2)
		return;
	line[n++] = '\n';
	fd = sys_open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)syscall(SYS_write, fd, line, (size_t)n);
	(void)sys_close(fd);
}

/* ---- the shared drive state ------------------------------------------ */

static long
env_blksize(void)
{
	const char *s = getenv("FAKETAPE_BLKSIZE");

	return s == NULL ? 0 : atol(s);
}

static void
state_name(const char *tape, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", tape, STATE_SUFFIX);
}

/* The state of the drive whose cartridge is the file "tape" (inode ino). */
static void
state_load(const char *tape, unsigned long long ino, struct drive *d)
{
	char name[4200], buf[128];
	int fd;
	long n = -1;

	d->lastop = '-';
	d->offline = 0;
	d->setblk = -1;
	d->ino = ino;
	d->pos = 0;
	state_name(tape, name, sizeof(name));
	fd = sys_open(name, O_RDONLY | O_CLOEXEC, 0);
	if (fd >= 0) {
		n = sys_read(fd, buf, sizeof(buf) - 1);
		(void)sys_close(fd);
	}
	if (n > 0) {
		struct drive s;

		buf[n] = '\0';
		if (sscanf(buf, "%c %d %ld %llu %llu", &s.lastop, &s.offline,
			   &s.setblk, &s.ino, &s.pos) == 5 &&
		    s.ino == ino)
			*d = s;
	}
	d->blksize = d->setblk >= 0 ? d->setblk : env_blksize();
}

static void
state_save(const char *tape, const struct drive *d)
{
	char name[4200], buf[128];
	int fd, n;

	state_name(tape, name, sizeof(name));
	n = snprintf(buf, sizeof(buf), "%c %d %ld %llu %llu\n", d->lastop,
		     d->offline, d->setblk, d->ino, d->pos);
	fd = sys_open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	(void)sys_pwrite(fd, buf, (size_t)n, 0);
	(void)sys_close(fd);
}

/* The state of the drive open on fd, its position being the offset. */
static int
fd_state(int fd, char *path, size_t len, struct drive *d)
{
	struct stat st;

	if (fd_path(fd, path, len) == -1 || syscall(SYS_fstat, fd, &st) != 0)
		return -1;
	state_load(path, (unsigned long long)st.st_ino, d);
	d->pos = (unsigned long long)sys_seek(fd, 0, SEEK_CUR);
	return 0;
}

/* ---- the cartridge --------------------------------------------------- */

/* The length at pos: 0 for a filemark, -1 at the end of the data (or a
 * damaged cartridge). */
static long long
entry_at(int fd, unsigned long long pos)
{
	unsigned char hdr[REC_HDR];

	if (sys_pread(fd, hdr, REC_HDR, (off_t)pos) != REC_HDR)
		return -1;
	return get_le32(hdr);
}

/* Offsets of every entry before pos (positions list), count in *n. */
static unsigned long long *
entries_before(int fd, unsigned long long pos, size_t *n)
{
	unsigned long long at = 0, *v = NULL;
	size_t cap = 0;
	long long len;

	*n = 0;
	while (at < pos && (len = entry_at(fd, at)) >= 0) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, cap * sizeof(*v));
			if (v == NULL)
				abort();
		}
		v[(*n)++] = at;
		at += REC_HDR + (unsigned long long)len;
	}
	return v;
}

/* FAKETAPE_CAPACITY: size the cartridge file may reach, length
 * prefixes and filemarks included. */
static unsigned long long
capacity(void)
{
	const char *s = getenv("FAKETAPE_CAPACITY");

	return s == NULL ? ~0ull : strtoull(s, NULL, 0);
}

/* Append one entry (len 0: a filemark) at pos, which becomes the end of
 * the data.  The new position, or -1. */
static long long
put_entry(int fd, unsigned long long pos, const void *data, uint32_t len)
{
	unsigned char hdr[REC_HDR] = {
	    (unsigned char)len, (unsigned char)(len >> 8),
	    (unsigned char)(len >> 16), (unsigned char)(len >> 24)};

	if (syscall(SYS_ftruncate, fd, (off_t)pos) != 0 ||
	    sys_pwrite(fd, hdr, REC_HDR, (off_t)pos) != REC_HDR ||
	    (len > 0 &&
	     sys_pwrite(fd, data, len, (off_t)pos + REC_HDR) != (long)len))
		return -1;
	return (long long)(pos + REC_HDR + len);
}

static int
write_filemarks(int fd, struct drive *d, int count)
{
	long long p = (long long)d->pos;

	while (count-- > 0)
		if ((p = put_entry(fd, (unsigned long long)p, NULL, FILEMARK)) <
		    0)
			return -1;
	d->pos = (unsigned long long)p;
	return 0;
}

/* ---- data transfer ---------------------------------------------------- */

static ssize_t
tape_write(int fd, const void *buf, size_t n)
{
	char path[4096];
	struct drive d;
	unsigned long long room;
	size_t done = 0, blk;
	long long p;
	int acc = fcntl(fd, F_GETFL);

	if (acc == -1 || (acc & O_ACCMODE) == O_RDONLY) {
		errno = EBADF;
		return -1;
	}
	if (fd_state(fd, path, sizeof(path), &d) == -1)
		return -1;
	note(1, "write %zu", n);
	blk = d.blksize > 0 ? (size_t)d.blksize : n;
	if (n == 0 || n % blk != 0 || blk > MAX_BLOCK) {
		errno = EINVAL;
		return -1;
	}
	room = capacity() > d.pos ? capacity() - d.pos : 0;
	p = (long long)d.pos;
	while (done < n && REC_HDR + blk <= room) {
		p = put_entry(fd, (unsigned long long)p,
			      (const char *)buf + done, (uint32_t)blk);
		if (p < 0)
			return -1;
		done += blk;
		room -= REC_HDR + blk;
	}
	d.pos = (unsigned long long)p;
	(void)sys_seek(fd, (off_t)d.pos, SEEK_SET);
	d.lastop = 'w';
	state_save(path, &d);
	if (done == 0) {
		errno = ENOSPC;
		return -1;
	}
	return (ssize_t)done;
}

static ssize_t
tape_read(int fd, void *buf, size_t n)
{
	char path[4096];
	struct drive d;
	size_t done = 0;
	long long len;
	int err = 0;

	if (fd_state(fd, path, sizeof(path), &d) == -1)
		return -1;
	if (d.blksize > 0 && n % (size_t)d.blksize != 0) {
		errno = EINVAL;
		return -1;
	}
	d.lastop = 'r';
	while (done < n && (len = entry_at(fd, d.pos)) > 0) {
		if ((size_t)len > n - done) {
			if (d.blksize == 0) { /* the record is lost */
				d.pos += REC_HDR + (unsigned long long)len;
				err = ENOMEM;
			}
			break;
		}
		if (sys_pread(fd, (char *)buf + done, (size_t)len,
			      (off_t)(d.pos + REC_HDR)) != len) {
			err = EIO;
			break;
		}
		done += (size_t)len;
		d.pos += REC_HDR + (unsigned long long)len;
		if (d.blksize == 0)
			break;
	}
	/* a filemark read with nothing before it is returned (as 0) */
	if (done == 0 && err == 0 && entry_at(fd, d.pos) == FILEMARK)
		d.pos += REC_HDR;
	(void)sys_seek(fd, (off_t)d.pos, SEEK_SET);
	state_save(path, &d);
	note(1, "read %zu %zu", n, done);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return (ssize_t)done;
}

/* ---- positioning ------------------------------------------------------ */

/* Space over count filemarks forward; the position is after the last. */
static int
space_fm_forward(int fd, struct drive *d, int count)
{
	long long len;

	while (count > 0) {
		len = entry_at(fd, d->pos);
		if (len < 0)
			return -1; /* end of data */
		d->pos += REC_HDR + (unsigned long long)len;
		if (len == FILEMARK)
			count--;
	}
	return 0;
}

/* Space over count filemarks backward; the position is before the last
 * one passed (its BOT side). */
static int
space_fm_backward(int fd, struct drive *d, int count)
{
	size_t n;
	unsigned long long *v = entries_before(fd, d->pos, &n);
	int rc = -1;

	while (n > 0) {
		n--;
		if (entry_at(fd, v[n]) == FILEMARK && --count == 0) {
			d->pos = v[n];
			rc = 0;
			break;
		}
	}
	if (rc == -1)
		d->pos = 0;
	free(v);
	return rc;
}

static int
space_records(int fd, struct drive *d, int count)
{
	size_t n;
	unsigned long long *v;
	long long len;

	for (; count > 0; count--) {
		len = entry_at(fd, d->pos);
		if (len <= 0) { /* a filemark or the end stops it */
			if (len == 0)
				d->pos += REC_HDR;
			return -1;
		}
		d->pos += REC_HDR + (unsigned long long)len;
	}
	if (count == 0)
		return 0;
	v = entries_before(fd, d->pos, &n);
	for (; count < 0 && n > 0; count++) {
		n--;
		d->pos = v[n];
		if (entry_at(fd, v[n]) == FILEMARK)
			break;
	}
	free(v);
	return count == 0 ? 0 : -1;
}

/* Logical block (records and filemarks counted) at pos. */
static long
logical_block(int fd, unsigned long long pos)
{
	size_t n;

	free(entries_before(fd, pos, &n));
	return (long)n;
}

static int
seek_block(int fd, struct drive *d, long blk)
{
	long long len;

	d->pos = 0;
	for (; blk > 0; blk--) {
		if ((len = entry_at(fd, d->pos)) < 0)
			return -1;
		d->pos += REC_HDR + (unsigned long long)len;
	}
	return 0;
}

static int
tape_op(int fd, const struct mtop *op)
{
	const char *fail = getenv("FAKETAPE_FAIL_OP");
	const char *failcount = getenv("FAKETAPE_FAIL_COUNT");
	char path[4096];
	struct drive d;
	int rc = 0;

	note(0, "op %d %d", op->mt_op, op->mt_count);
	if ((fail != NULL && atoi(fail) == op->mt_op) ||
	    (failcount != NULL && atoi(failcount) == op->mt_count)) {
		errno = EIO;
		return -1;
	}
	if (fd_state(fd, path, sizeof(path), &d) == -1)
		return -1;
	switch (op->mt_op) {
	case MTWEOF:
	case MTWEOFI:
		rc = write_filemarks(fd, &d, op->mt_count);
		d.lastop = 'f';
		break;
	case MTREW: d.pos = 0; break;
	case MTOFFL:
	case MTUNLOAD:
		d.pos = 0;
		d.offline = 1;
		break;
	case MTFSF:
	case MTFSFM:
		rc = space_fm_forward(fd, &d, op->mt_count);
		if (rc == 0 && op->mt_op == MTFSFM)
			rc = space_fm_backward(fd, &d, 1);
		break;
	case MTBSF:
	case MTBSFM:
		rc = space_fm_backward(fd, &d, op->mt_count);
		if (rc == 0 && op->mt_op == MTBSFM)
			d.pos += REC_HDR;
		break;
	case MTFSR: rc = space_records(fd, &d, op->mt_count); break;
	case MTBSR: rc = space_records(fd, &d, -op->mt_count); break;
	case MTEOM:
		while (entry_at(fd, d.pos) >= 0)
			d.pos +=
			    REC_HDR + (unsigned long long)entry_at(fd, d.pos);
		break;
	case MTSEEK: rc = seek_block(fd, &d, op->mt_count); break;
	case MTSETBLK: d.setblk = d.blksize = op->mt_count; break;
	default: break; /* accepted, nothing to emulate */
	}
	if (op->mt_op != MTWEOF && op->mt_op != MTWEOFI &&
	    op->mt_op != MTSETBLK && op->mt_op != MTNOP)
		d.lastop = '-';
	(void)sys_seek(fd, (off_t)d.pos, SEEK_SET);
	state_save(path, &d);
	if (rc != 0) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static void
tape_status(int fd, struct mtget *mt)
{
	char path[4096];
	struct drive d;
	size_t n, i;
	unsigned long long *v;
	long fileno = 0, blkno = 0;

	memset(mt, 0, sizeof(*mt));
	if (getenv("FAKETAPE_STATUS") != NULL &&
	    strcmp(getenv("FAKETAPE_STATUS"), "pattern") == 0) {
		mt->mt_type = 0x0102030405060708L;
		mt->mt_resid = 0x1112131415161718L;
		mt->mt_dsreg = 0x2122232425262728L;
		mt->mt_gstat = 0x3132333435363738L;
		mt->mt_erreg = 0x4142434445464748L;
		mt->mt_fileno = 0x51525354;
		mt->mt_blkno = 0x61626364;
		return;
	}
	if (fd_state(fd, path, sizeof(path), &d) == -1)
		return;
	v = entries_before(fd, d.pos, &n);
	for (i = 0; i < n; i++) {
		if (entry_at(fd, v[i]) == FILEMARK) {
			fileno++;
			blkno = 0;
		} else
			blkno++;
	}
	mt->mt_type = MT_ISSCSI2;
	mt->mt_dsreg =
	    ((d.blksize << MT_ST_BLKSIZE_SHIFT) & MT_ST_BLKSIZE_MASK);
	mt->mt_fileno = (int)fileno;
	mt->mt_blkno = (int)blkno;
	mt->mt_gstat = GMT_ONLINE(~0L);
	if (d.pos == 0)
		mt->mt_gstat |= GMT_BOT(~0L);
	if (n > 0 && entry_at(fd, v[n - 1]) == FILEMARK)
		mt->mt_gstat |= GMT_EOF(~0L);
	if (entry_at(fd, d.pos) < 0)
		mt->mt_gstat |= GMT_EOD(~0L);
	free(v);
}

/* ---- open and the last close ----------------------------------------- */

/* Whether closing the drive rewinds it: not for "n..." names. */
static int
rewinding(const char *path)
{
	const char *base = strrchr(path, '/');

	return (base != NULL ? base + 1 : path)[0] != 'n';
}

/* What st does when the last descriptor of a drive goes away. */
static void
release(const char *path, int fd, struct drive *d)
{
	if (d->lastop == 'w') {
		note(0, "close-weof");
		(void)write_filemarks(fd, d, 1);
	}
	d->lastop = '-';
	if (rewinding(path)) {
		if (d->pos != 0)
			note(0, "close-rewind");
		d->pos = 0;
	}
	state_save(path, d);
}

/* The drive's lock: held (flock) by the open file description of the
 * lock file that goes with each open of the drive, in every process
 * that inherited it; st lets one open at a time. */
static int
lock_drive(const char *path, int cloexec)
{
	char name[4200];
	int fd;

	snprintf(name, sizeof(name), "%s%s", path, LOCK_SUFFIX);
	fd = sys_open(name, O_RDWR | O_CREAT | cloexec, 0644);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		(void)sys_close(fd);
		errno = EBUSY;
		return -1;
	}
	return fd;
}

static int
tape_open(const char *path, int flags, mode_t mode)
{
	struct stat st;
	struct drive d;
	int fd, lock, acc = flags & O_ACCMODE;

	(void)mode;
	note(1, "open %s", acc == O_RDONLY ? "r" : "w");
	lock = lock_drive(path, flags & O_CLOEXEC);
	if (lock < 0)
		return -1;
	fd = sys_open(path,
		      (acc == O_RDONLY ? O_RDONLY : O_RDWR) |
			  (flags & O_CLOEXEC) | (flags & O_NONBLOCK),
		      0);
	if (fd < 0 || fd >= MAX_FD || syscall(SYS_fstat, fd, &st) != 0) {
		if (fd >= 0)
			(void)sys_close(fd);
		(void)sys_close(lock);
		errno = fd >= MAX_FD ? EMFILE : ENOENT;
		return -1;
	}
	state_load(path, (unsigned long long)st.st_ino, &d);
	/* its last user died without closing: the kernel released it */
	if (d.lastop == 'w')
		release(path, fd, &d);
	else if (rewinding(path))
		d.pos = 0;
	if (d.offline && !(flags & O_NONBLOCK)) {
		(void)sys_close(fd);
		(void)sys_close(lock);
		errno = ENOMEDIUM;
		return -1;
	}
	(void)sys_seek(fd, (off_t)d.pos, SEEK_SET);
	fdkind[fd] = FD_TAPE;
	lockfd[fd] = lock + 1;
	return fd;
}

static void
tape_close(int fd)
{
	char path[4096];
	struct drive d;
	int probe;

	if (fd_state(fd, path, sizeof(path), &d) == -1)
		return;
	note(1, "close");
	if (fd < MAX_FD && lockfd[fd] > 0)
		(void)sys_close(lockfd[fd] - 1);
	if (fd < MAX_FD)
		lockfd[fd] = 0;
	/* the last close of the drive, in this process or any other, is
	 * when its lock can be taken */
	probe = lock_drive(path, O_CLOEXEC);
	if (probe >= 0)
		release(path, fd, &d);
	(void)sys_close(fd);
	if (probe >= 0)
		(void)sys_close(probe);
}

/* exit() closes what is still open: the kernel releases the drive then. */
__attribute__((destructor)) static void
close_at_exit(void)
{
	int fd;

	for (fd = 0; fd < MAX_FD; fd++)
		if (fdkind[fd] == FD_TAPE) {
			fdkind[fd] = FD_UNKNOWN;
			tape_close(fd);
		}
}

/* ---- the interposed functions ---------------------------------------- */

static int
open_common(const char *fn, int dirfd, const char *path, int flags, mode_t mode)
{
	if (is_tape_path(path))
		return tape_open(path, flags, mode);
	if (dirfd == AT_FDCWD && strcmp(fn, "openat") != 0 &&
	    strcmp(fn, "openat64") != 0) {
		int (*f)(const char *, int, ...) = real(fn);

		return f(path, flags, mode);
	} else {
		int (*f)(int, const char *, int, ...) = real(fn);

		return f(dirfd, path, flags, mode);
	}
}

#define OPEN_MODE(flags, mode)                                                 \
	do {                                                                   \
		va_list ap;                                                    \
		va_start(ap, flags);                                           \
		mode =                                                         \
		    (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;  \
		va_end(ap);                                                    \
	} while (0)

int
open(const char *path, int flags, ...)
{
	mode_t mode;

	OPEN_MODE(flags, mode);
	return open_common("open", AT_FDCWD, path, flags, mode);
}

int
open64(const char *path, int flags, ...)
{
	mode_t mode;

	OPEN_MODE(flags, mode);
	return open_common("open64", AT_FDCWD, path, flags, mode);
}

int
openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	OPEN_MODE(flags, mode);
	return open_common("openat", dirfd, path, flags, mode);
}

int
openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	OPEN_MODE(flags, mode);
	return open_common("openat64", dirfd, path, flags, mode);
}

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

int
__open_2(const char *path, int flags)
{
	return open_common("open", AT_FDCWD, path, flags, 0);
}

int
__open64_2(const char *path, int flags)
{
	return open_common("open64", AT_FDCWD, path, flags, 0);
}

int
creat(const char *path, mode_t mode)
{
	return open_common("open", AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC,
			   mode);
}

int
creat64(const char *path, mode_t mode)
{
	return open_common("open64", AT_FDCWD, path,
			   O_WRONLY | O_CREAT | O_TRUNC, mode);
}

int
close(int fd)
{
	static int (*f)(int);

	if (f == NULL)
		f = real("close");
	if (is_tape(fd)) {
		if (fd < MAX_FD)
			fdkind[fd] = FD_UNKNOWN;
		tape_close(fd);
		return 0;
	}
	if (fd >= 0 && fd < MAX_FD)
		fdkind[fd] = FD_UNKNOWN;
	return f(fd);
}

ssize_t
write(int fd, const void *buf, size_t n)
{
	static ssize_t (*f)(int, const void *, size_t);

	if (f == NULL)
		f = real("write");
	return is_tape(fd) ? tape_write(fd, buf, n) : f(fd, buf, n);
}

ssize_t
read(int fd, void *buf, size_t n)
{
	static ssize_t (*f)(int, void *, size_t);

	if (f == NULL)
		f = real("read");
	return is_tape(fd) ? tape_read(fd, buf, n) : f(fd, buf, n);
}

ssize_t
writev(int fd, const struct iovec *iov, int cnt)
{
	static ssize_t (*f)(int, const struct iovec *, int);
	ssize_t total = 0, n;
	int i;

	if (f == NULL)
		f = real("writev");
	if (!is_tape(fd))
		return f(fd, iov, cnt);
	for (i = 0; i < cnt; i++) {
		n = tape_write(fd, iov[i].iov_base, iov[i].iov_len);
		if (n < 0)
			return total > 0 ? total : -1;
		total += n;
		if ((size_t)n < iov[i].iov_len)
			break;
	}
	return total;
}

ssize_t
readv(int fd, const struct iovec *iov, int cnt)
{
	static ssize_t (*f)(int, const struct iovec *, int);
	ssize_t total = 0, n;
	int i;

	if (f == NULL)
		f = real("readv");
	if (!is_tape(fd))
		return f(fd, iov, cnt);
	for (i = 0; i < cnt; i++) {
		n = tape_read(fd, iov[i].iov_base, iov[i].iov_len);
		if (n < 0)
			return total > 0 ? total : -1;
		total += n;
		if (n == 0)
			break;
	}
	return total;
}

/* A tape has no file offset to move (st's noop_llseek). */
off_t
lseek(int fd, off_t off, int whence)
{
	static off_t (*f)(int, off_t, int);

	if (f == NULL)
		f = real("lseek");
	if (is_tape(fd))
		return 0;
	return f(fd, off, whence);
}

off_t lseek64(int fd, off_t off, int whence);

off_t
lseek64(int fd, off_t off, int whence)
{
	return lseek(fd, off, whence);
}

int
ioctl(int fd, unsigned long req, ...)
{
	static int (*f)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (f == NULL)
		f = real("ioctl");
	if (!is_tape(fd))
		return f(fd, req, arg);
	if (req == MTIOCGET) {
		tape_status(fd, arg);
		return 0;
	}
	if (req == MTIOCPOS) {
		char path[4096];
		struct drive d;

		if (fd_state(fd, path, sizeof(path), &d) == -1)
			return -1;
		((struct mtpos *)arg)->mt_blkno = logical_block(fd, d.pos);
		note(0, "pos %ld 0", ((struct mtpos *)arg)->mt_blkno);
		return 0;
	}
	if (req == MTIOCTOP)
		return tape_op(fd, arg);
	errno = ENOTTY;
	return -1;
}

/* ---- stat: a drive is a character device ------------------------------ */

static void
as_chardev(struct stat *st)
{
	st->st_mode = S_IFCHR | (st->st_mode & 07777);
	st->st_rdev = makedev(ST_MAJOR, 128);
	st->st_size = 0;
	st->st_blocks = 0;
}

int
fstat(int fd, struct stat *st)
{
	if (syscall(SYS_fstat, fd, st) != 0)
		return -1;
	if (is_tape(fd))
		as_chardev(st);
	return 0;
}

int
fstat64(int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}

int
fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	if (syscall(SYS_newfstatat, dirfd, path, st, flags) != 0)
		return -1;
	if (is_tape_path(path) && S_ISREG(st->st_mode))
		as_chardev(st);
	else if (path[0] == '\0' && (flags & AT_EMPTY_PATH) && is_tape(dirfd))
		as_chardev(st);
	return 0;
}

int
fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return fstatat(dirfd, path, (struct stat *)st, flags);
}

int
stat(const char *path, struct stat *st)
{
	return fstatat(AT_FDCWD, path, st, 0);
}

int
stat64(const char *path, struct stat64 *st)
{
	return fstatat(AT_FDCWD, path, (struct stat *)st, 0);
}

int
lstat(const char *path, struct stat *st)
{
	return fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int
lstat64(const char *path, struct stat64 *st)
{
	return fstatat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

int
statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *stx)
{
	if (syscall(SYS_statx, dirfd, path, flags, mask, stx) != 0)
		return -1;
	if ((is_tape_path(path) && S_ISREG(stx->stx_mode)) ||
	    (path[0] == '\0' && (flags & AT_EMPTY_PATH) && is_tape(dirfd))) {
		stx->stx_mode = S_IFCHR | (stx->stx_mode & 07777);
		stx->stx_rdev_major = ST_MAJOR;
		stx->stx_rdev_minor = 128;
		stx->stx_size = 0;
	}
	return 0;
}

#endif /* FAKETAPE_TOOL */
