/*
 * media.c - the reader's lower layer: volumes, bytes and tape blocks.
 *
 *  - bytes: the input (file, device or pipe, or a remote volume read
 *    through rmt, remote.c) is read with large read()s into one buffer;
 *    short reads are normal on pipes and are joined.  Only in_open,
 *    in_read, in_close and the two questions below them know which kind
 *    of volume it is;
 *  - blocks: 1 KiB tape blocks are served from that buffer, or, for a
 *    compressed archive, from the decompressed current record (the first
 *    record of the volume is raw, doc/format.md 11.1);
 *  - volumes: when a volume ends before the dump's TS_END, the next one
 *    (named by volume.c) is opened and its TS_TAPE checked; the blocks
 *    behind it continue the stream, so every layer above reads across
 *    volumes without knowing (doc/format.md 10).  Reading volume 1
 *    again (restore -i) and seeking to a position (-Q, -A) are done here.
 * The header gate and the file walker above it are tape.c, the only
 * caller (media.h).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mtio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "cprefix.h"
#include "decompress.h"
#include "media.h"
#include "remote.h"
#include "rmtclient.h"
#include "spcl.h"
#include "xalloc.h"

/* Input buffer: reads of READ_CHUNK; a compressed archive needs room
 * for its largest record (prefix + payload) after compaction, so its
 * buffer grows to ZINBUF_SIZE.  A read from a tape takes one record
 * whole or loses it: there each read asks for TAPE_RECORD_MAX. */
#define READ_CHUNK  (256 * 1024)
#define INBUF_SIZE  (2 * READ_CHUNK)
#define ZINBUF_SIZE (MAXNTREC * TP_BSIZE + 2 * READ_CHUNK)

static int infd = -1; /* a local volume, else -1 */
static bool in_remote; /* the volume is read through rmt */
static bool in_tape; /* it is a tape: one record per read */
static bool in_regular; /* a local regular file (in_read) */
static off_t in_pos, in_dropped; /* its offset; cache dropped below */
static size_t first_read; /* bytes of the first read: a record */
static unsigned char *inbuf;
static size_t inbuf_size;
static size_t in_start, in_end;
static bool in_eof;
static bool swapped; /* archive is in the other byte order */
static bool compressed;
static long ntrec;
static size_t raw_left; /* raw bytes left in the first record */
static unsigned char *blkbuf; /* decompressed record */
static size_t blk_pos, blk_len;
static uint64_t blocks_read;
static bool seen_end; /* a real TS_END header was read */
static bool input_error;
static int volno = 1; /* volume being read */
static char *volname; /* where it is read from */
static uint64_t phys_blocks; /* tape blocks consumed, all volumes */
static bool no_more_volumes; /* a volume change was refused */

static bool change_volume(void);

bool
media_swapped(void)
{
	return swapped;
}

/* The volume header decided it: the archive is in the other order. */
void
media_set_swapped(void)
{
	swapped = true;
}

bool
media_error(void)
{
	return input_error;
}

/* Blocks handed out so far (for messages: the last one is this - 1). */
uint64_t
media_blocks_read(void)
{
	return blocks_read;
}

/* A real TS_END was read: the dump ends on this volume. */
void
media_mark_end(void)
{
	seen_end = true;
}

bool
media_end_seen(void)
{
	return seen_end;
}

/* On a tape, the bytes of its first read (a record: the block size);
 * 0 for any other input. */
size_t
media_tape_record(void)
{
	return in_tape ? first_read : 0;
}

/* Whether the local input is a tape (a character device). */
static bool
local_is_tape(void)
{
	struct stat st;

	return fstat(infd, &st) == 0 && S_ISCHR(st.st_mode);
}

/* Open the volume name, local or remote.  0, or -1 with errno set. */
static int
in_open(const char *name)
{
	struct stat st;

	if (rmt_is_remote(name)) {
		if (remote_open(name) != 0)
			return -1;
		in_remote = true;
		in_tape = remote_is_tape();
		return 0;
	}
	if ((infd = open(name, O_RDONLY)) < 0)
		return -1;
	in_tape = local_is_tape();
	in_regular = fstat(infd, &st) == 0 && S_ISREG(st.st_mode);
	in_pos = in_dropped = 0;
	(void)posix_fadvise(infd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

static void
in_close(void)
{
	if (in_remote)
		remote_close();
	else if (infd != -1 && close(infd) != 0)
		warn("%s", volname);
	infd = -1;
	in_remote = false;
	in_regular = false;
}

/* The pages of an archive file that restore has read are dropped from
 * the page cache as it goes, a window at a time, rather than left to
 * reclaim: each byte is read once, and fresh cache pages cost memory
 * the restored files need (a 5 GB archive: a fifth of the system time
 * of restore -r). */
#define DROP_WINDOW (8 * 1024 * 1024)

static ssize_t
in_read(void *buf, size_t len)
{
	ssize_t n;

	if (in_remote)
		return remote_read(buf, len);
	n = read(infd, buf, len);
	if (n > 0 && in_regular) {
		in_pos += n;
		if (in_pos - in_dropped >= DROP_WINDOW) {
			(void)posix_fadvise(infd, in_dropped,
					    in_pos - in_dropped,
					    POSIX_FADV_DONTNEED);
			in_dropped = in_pos;
		}
	}
	return n;
}

/* A tape reads one record per read and may hold several dump files. */
static bool
in_is_tape(void)
{
	return in_tape;
}

/* A local pipe, whose writer must not see it closed early; a regular
 * file, a device or a remote volume has none to upset. */
static bool
in_is_pipe(void)
{
	struct stat st;

	return !in_remote &&
	    !(fstat(infd, &st) == 0 &&
	      (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) ||
	       S_ISCHR(st.st_mode)));
}

/* Make at least need bytes available at inbuf + in_start. */
static bool
in_fill(size_t need)
{
	while (in_end - in_start < need) {
		size_t room = in_tape ? TAPE_RECORD_MAX : READ_CHUNK;
		ssize_t n;

		if (in_eof)
			return false;
		if (inbuf_size - in_end < room) {
			memmove(inbuf, inbuf + in_start, in_end - in_start);
			in_end -= in_start;
			in_start = 0;
		}
		if (inbuf_size - in_end < room) {
			inbuf_size = in_end + room;
			inbuf = xrealloc(inbuf, inbuf_size);
		}
		n = in_read(inbuf + in_end,
			    in_tape ? room : inbuf_size - in_end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			warn("read error on %s", volname);
			input_error = true;
			in_eof = true;
			return false;
		}
		if (n == 0) {
			in_eof = true;
			return false;
		}
		if (first_read == 0)
			first_read = (size_t)n;
		in_end += (size_t)n;
	}
	return true;
}

/* Read (and decompress) the next compressed record into blkbuf. */
static bool
read_zrecord(void)
{
	struct cprefix pfx;
	size_t len, out;
	const char *why;

	if (!in_fill(CPREFIX_SIZE)) {
		if (!input_error && change_volume())
			return true;
		return false;
	}
	cprefix_decode(inbuf + in_start, swapped, &pfx);
	len = pfx.length;
	if (len == 0 || len > (size_t)ntrec * TP_BSIZE) {
		warnx("bad compressed record length %zu at block %llu", len,
		      (unsigned long long)blocks_read);
		input_error = true;
		in_eof = true;
		return false;
	}
	if (!in_fill(CPREFIX_SIZE + len)) {
		/* A record cut by the end of the media is written again in
		 * full on the next volume (doc/format.md 10.4). */
		if (!input_error && change_volume())
			return true;
		warnx("truncated compressed record at block %llu",
		      (unsigned long long)blocks_read);
		input_error = true;
		return false;
	}
	out = (size_t)ntrec * TP_BSIZE;
	if (!pfx.compressed) {
		memcpy(blkbuf, inbuf + in_start + CPREFIX_SIZE, len);
		out = len;
	} else if (decompress_record((int)pfx.method,
				     inbuf + in_start + CPREFIX_SIZE, len,
				     blkbuf, &out, &why) != 0) {
		warnx("decompression error, block %llu: %s",
		      (unsigned long long)blocks_read, why);
		input_error = true;
		out = 0;
	}
	in_start += CPREFIX_SIZE + len;
	blk_pos = 0;
	blk_len = out - out % TP_BSIZE;
	phys_blocks += blk_len / TP_BSIZE;
	return true;
}

/* The next 1 KiB block, or NULL at end of input.  Valid until the next
 * call. */
const unsigned char *
media_next_block(void)
{
	const unsigned char *p;

	for (;;) {
		if (!compressed || raw_left > 0) {
			if (!in_fill(TP_BSIZE)) {
				/* The volume ended, not the dump: go on
				 * with the next one, if there is one. */
				if (!input_error && change_volume())
					continue;
				if (in_end > in_start) {
					warnx("ignoring %zu bytes of a partial "
					      "block at the end of the input",
					      in_end - in_start);
					in_start = in_end;
				}
				return NULL;
			}
			p = inbuf + in_start;
			in_start += TP_BSIZE;
			phys_blocks++;
			if (raw_left > 0)
				raw_left -= TP_BSIZE;
			break;
		}
		if (blk_pos < blk_len) {
			p = blkbuf + blk_pos;
			blk_pos += TP_BSIZE;
			break;
		}
		/* After a volume change the loop goes back to raw reads. */
		if (!read_zrecord())
			return NULL;
	}
	blocks_read++;
	return p;
}

/* Print the two dates of a "Wrong dump date" refusal. */
static void
wrong_date(int32_t got, int32_t wanted)
{
	time_t t = (time_t)got;

	rmsg("Wrong dump date\n\tgot: %s", ctime(&t));
	t = (time_t)wanted;
	rmsg("\twanted: %s", ctime(&t));
}

/* Check the first block of a candidate volume: it must be the TS_TAPE of
 * volume `want` of this dump (doc/format.md 10.5). */
static bool
volume_header_ok(union u_spcl *h, int want)
{
	enum spcl_kind k;

	if (!in_fill(TP_BSIZE)) {
		rmsg("tape is not dump tape\n");
		return false;
	}
	k = spcl_check(inbuf + in_start, swapped);
	if (k != (swapped ? SPCL_SWAPPED : SPCL_NATIVE)) {
		rmsg("tape is not dump tape\n");
		return false;
	}
	memcpy(h, inbuf + in_start, sizeof(*h));
	if (swapped)
		spcl_swap_header(h);
	if (h->s_spcl.c_type != TS_TAPE) {
		rmsg("tape is not dump tape\n");
		return false;
	}
	if (h->s_spcl.c_volume != want) {
		rmsg("Wrong volume (%d)\n", h->s_spcl.c_volume);
		return false;
	}
	if (h->s_spcl.c_date != dumpdate || h->s_spcl.c_ddate != dumpprev) {
		wrong_date(h->s_spcl.c_date, dumpdate);
		return false;
	}
	return true;
}

/*
 * Make name (taken over) the input and check that it is volume want of
 * this dump.  The old volume is closed first: a tape drive opens once,
 * and a remote link serves one volume.  False, after a message, when it
 * cannot be opened or is not the right one: the caller asks again.
 */
static bool
switch_volume(char *name, int want, union u_spcl *h)
{
	in_close();
	if (in_open(name) != 0) {
		rmsg("Cannot open %s\n", name);
		free(name);
		return false;
	}
	free(volname);
	volname = name;
	in_start = in_end = 0;
	in_eof = false;
	return volume_header_ok(h, want);
}

/* Volume 1 ended right after its header: 0.4b47's questions (none with
 * -y); "no" goes on to ask for volume 2. */
static void
header_only(void)
{
	rmsg("no header after volume mark!\n");
	if (ropt.yflag || !ask_yn("abort"))
		return;
	if (ask_yn("dump core"))
		abort();
	exit(R_ERROR);
}

/*
 * The current volume ended before the dump did: open the next one, check
 * its header and leave the reader just after it.  The blocks behind the
 * header continue the stream where the previous volume stopped (the
 * interrupted file's data, c_count of them, or the next header), except
 * after an end-of-media switch: the cut record is written again in full,
 * so the blocks of it already read are skipped, counted from c_firstrec
 * (doc/format.md 10.4).  False when there is no next volume.
 */
/* The last volume change (media_volume_serial()). */
static unsigned vol_serial;
static union u_spcl vol_header;
static bool vol_rejoined;

unsigned
media_volume_serial(void)
{
	return vol_serial;
}

const union u_spcl *
media_volume_header(bool *rejoined)
{
	*rejoined = vol_rejoined;
	return &vol_header;
}

bool
media_is_pipe(void)
{
	return in_is_pipe();
}

static bool
change_volume(void)
{
	int next = volno + 1;
	bool must_ask = false;
	union u_spcl h;
	uint64_t skip = 0, firstrec;
	char *last;

	if (seen_end || no_more_volumes)
		return false;
	/* Not one byte of volume 1 (an empty file or pipe): no volume 2
	 * can help, as 0.4b47 says. */
	if (volno == 1 && first_read == 0 && !input_error)
		errx(R_ERROR, "Tape read error on first record");
	if (volno == 1 && phys_blocks == 1 && !input_error)
		header_only();
	if (ropt.from_stdin) {
		rmsg("Standard input ended before the end of the "
		     "dump: volume %d cannot be read from a pipe\n",
		     next);
		no_more_volumes = true;
		return false;
	}
	/* The name offered next is the one tried last, as in 0.4b47. */
	last = xstrdup(volname);
	for (;;) {
		char *name = volume_choose(next, last, must_ask);

		free(last);
		if (name == NULL) {
			no_more_volumes = true;
			/* A volume opened and refused is no continuation. */
			if (must_ask) {
				in_close();
				in_start = in_end = 0;
				in_eof = true;
			}
			return false;
		}
		must_ask = true;
		last = xstrdup(name);
		/* What is left of the old volume is a cut block or record,
		 * read again from the new one. */
		if (switch_volume(name, next, &h))
			break;
	}
	free(last);
	volno = next;
	/* 0.4b47 says it again for every compressed volume. */
	if ((h.s_spcl.c_flags & DR_COMPRESSED) && compressed)
		rmsg("Dump tape is compressed.\n");
	/* Blocks of a record cut by the end of the media are not counted
	 * in c_firstrec: restart the count from it. */
	firstrec =
	    spcl_widen_blockno((uint32_t)h.s_spcl.c_firstrec, phys_blocks);
	if (phys_blocks > firstrec) {
		skip = phys_blocks - firstrec;
		phys_blocks = firstrec;
	}
	in_start += TP_BSIZE;
	phys_blocks++;
	blk_pos = blk_len = 0;
	raw_left = compressed ? (size_t)(ntrec - 1) * TP_BSIZE : 0;
	if (ropt.debug)
		rmsg("volume %d: first record %llu, skipping %llu "
		     "blocks read before\n",
		     next, (unsigned long long)firstrec,
		     (unsigned long long)skip);
	vol_rejoined = skip == 0;
	vol_header = h;
	vol_serial++;
	for (; skip > 0 && in_fill(TP_BSIZE); skip--) {
		in_start += TP_BSIZE;
		phys_blocks++;
		if (raw_left > 0)
			raw_left -= TP_BSIZE;
	}
	return true;
}

static void
open_input(void)
{
	volname = volume_first_name();
	if (ropt.from_stdin) {
		infd = STDIN_FILENO;
		in_tape = local_is_tape();
	} else {
		volume_first_script(volname);
		if (in_open(volname) != 0)
			err(R_ERROR, "cannot open %s", volname);
	}
	/* 0.4b47 calls any remote input a tape: scripts see the same line */
	msg_verbose("Input is from a %s %s\n", in_remote ? "remote" : "local",
		    in_remote || in_is_tape() ? "tape" : "file/pipe");
	inbuf_size = INBUF_SIZE;
	inbuf = xmalloc(inbuf_size);
}

/* -s n: skip n-1 dump files.  A file or pipe holds exactly one. */
static void
skip_files(void)
{
	struct mtop op;
	const char *why;

	if (ropt.skipfiles <= 1)
		return;
	if (!in_is_tape())
		errx(R_ERROR, "-s %ld: %s holds only one dump file",
		     ropt.skipfiles, ropt.tape);
	/* A tape: space forward over n-1 file marks. */
	if (in_remote) {
		if (remote_skip_files((int)(ropt.skipfiles - 1), &why) != 0)
			errx(R_ERROR, "%s: cannot skip %ld files: %s", volname,
			     ropt.skipfiles - 1, why);
		return;
	}
	op.mt_op = MTFSF;
	op.mt_count = (int)(ropt.skipfiles - 1);
	if (ioctl(infd, MTIOCTOP, &op) != 0)
		err(R_ERROR, "%s: cannot skip %ld files", volname,
		    ropt.skipfiles - 1);
}

/* Open the first volume (after -s, the right file of a tape). */
void
media_open(void)
{
	open_input();
	skip_files();
}

/* The archive is compressed with records of n blocks: from now on only
 * the first record of each volume is read raw. */
void
media_setup_compression(long n)
{
	/* 0.4b45 set the flag on archives it wrote uncompressed: read
	 * them (and so any archive) as uncompressed when told to. */
	if (ropt.ignore_zflag)
		return;
	compressed = true;
	ntrec = n;
	if (ntrec <= 0 || ntrec > MAXNTREC)
		errx(R_ERROR, "Tape blocksize %ld is out of range", ntrec);
	if (ropt.blocksize > 0 && ntrec > ropt.blocksize)
		errx(R_ERROR, "Tape blocksize is too large, use '-b %ld'",
		     ntrec);
	rmsg("Dump tape is compressed.\n");
	/* The volume header was the first block of the raw record. */
	raw_left = (size_t)(ntrec - 1) * TP_BSIZE;
	blkbuf = xmalloc((size_t)ntrec * TP_BSIZE);
	if (inbuf_size < ZINBUF_SIZE) {
		inbuf_size = ZINBUF_SIZE;
		inbuf = xrealloc(inbuf, inbuf_size);
	}
}

/*
 * Read the archive again from the start of volume 1, now named name
 * (restore -i: a further extract).  The volume must be volume 1 of the
 * same dump; its header is left in *h and the reader just after it.
 * False, after a message, when the volume cannot be opened or is not
 * the right one.
 */
bool
media_restart(const char *name, union u_spcl *h)
{
	in_close();
	free(volname);
	volname = xstrdup(name);
	in_start = in_end = 0;
	in_eof = true; /* until the header is found good */
	if (in_open(name) != 0) {
		rmsg("Cannot open %s\n", name);
		return false;
	}
	skip_files();
	in_eof = false;
	if (!volume_header_ok(h, 1)) {
		in_eof = true;
		return false;
	}
	volno = 1;
	seen_end = no_more_volumes = false;
	in_start += TP_BSIZE;
	blocks_read = phys_blocks = 1;
	blk_pos = blk_len = 0;
	raw_left = compressed ? (size_t)(ntrec - 1) * TP_BSIZE : 0;
	return true;
}

/* The input is given up: nothing more is read from it. */
static void
give_up(void)
{
	in_start = in_end = 0;
	in_eof = true;
}

/*
 * Go to position pos of volume vol (a byte offset, or a block number on
 * a tape: MTSEEK), for tape_seek_position().  With newmedia, what was
 * read so far is the -A table of contents: the archive itself is opened
 * at volume vol (pos 0: from its start) and checked like any new
 * volume.  Another volume than the current one is opened the same way
 * (asking for it as volume_choose() does; volume 1 of new media by its
 * own name); *switched then says so.  False when that volume cannot be
 * had or the seek fails; the input is then left at its end.
 */
bool
media_seek(int vol, uint64_t pos, bool newmedia, bool *switched)
{
	union u_spcl h;
	bool ask = false;

	*switched = false;
	if (newmedia || vol != volno) {
		for (;; ask = true) {
			char *name = newmedia && vol == 1 && !ask
			    ? volume_first_name()
			    : volume_choose(vol, newmedia ? ropt.tape : volname,
					    ask);

			if (name == NULL)
				goto fail;
			if (newmedia && vol == 1 && !ask)
				volume_first_script(name);
			if (switch_volume(name, vol, &h))
				break;
		}
		volno = vol;
		seen_end = false;
		*switched = true;
		if ((h.s_spcl.c_flags & DR_COMPRESSED) && !compressed)
			media_setup_compression(h.s_spcl.c_ntrec);
	}
	if (pos > 0) {
		if (in_remote) {
			if (remote_seek((off_t)pos, SEEK_SET) == (off_t)-1) {
				warnx("%s: cannot seek to %llu", volname,
				      (unsigned long long)pos);
				goto fail;
			}
		} else if (in_is_tape()) {
			struct mtop op = {.mt_op = MTSEEK,
					  .mt_count = (int)pos};

			if (ioctl(infd, MTIOCTOP, &op) != 0) {
				warn("%s: cannot seek to block %llu", volname,
				     (unsigned long long)pos);
				goto fail;
			}
		} else if (lseek(infd, (off_t)pos, SEEK_SET) == (off_t)-1) {
			warn("%s: cannot seek to %llu", volname,
			     (unsigned long long)pos);
			goto fail;
		} else {
			in_pos = in_dropped = (off_t)pos;
		}
		in_start = in_end = 0;
		in_eof = false;
	}
	/* pos 0 is a volume's start: its first record is raw */
	raw_left = compressed && pos == 0 ? (size_t)ntrec * TP_BSIZE : 0;
	blk_pos = blk_len = 0;
	return true;
fail:
	give_up();
	return false;
}

/* After a seek, h is the header found: count the blocks consumed on
 * earlier volumes and this one, as the next volume change counts them
 * (c_firstrec). */
void
media_count_from(const struct s_spcl *h)
{
	uint64_t idx = spcl_volume_index(h);
	uint64_t first =
	    spcl_widen_blockno((uint32_t)h->c_firstrec, phys_blocks);

	phys_blocks = first +
	    (compressed ? (idx / (uint64_t)ntrec + 1) * (uint64_t)ntrec
			: idx + 1);
}

/* Read the input to its end: a writer on the other end of a pipe must
 * never see it closed early (amrecover). */
void
media_drain(void)
{
	if (in_eof || !in_is_pipe())
		return;
	while (in_fill(in_end - in_start + 1))
		in_start = in_end;
	in_start = in_end;
}
