/*
 * tapetool.c - inspect, byte-swap and deliberately damage dump archives.
 *
 * A test helper, not part of the installed suite.  It loads a whole
 * archive into memory, walks it header by header (the data blocks of a
 * header are counted from its c_count/c_addr exactly as restore counts
 * them) and either prints what it found or writes an edited copy.  The
 * edits exist to build hostile archives for the robustness tests (an
 * edit that builds an archive on purpose keeps its data checksums true,
 * resum()):
 * renamed directory entries ("..", "a/b", absolute names, empty names,
 * names with a NUL), re-pointed entries, header fields set to
 * out-of-range values with or without a valid checksum, poked bytes,
 * inserted garbage and truncation.  Every format fact comes from
 * dumprestore.h and every byte-order operation from spcl.c and
 * cprefix.c, so the tool cannot drift from what dump and restore share.
 *
 * Blocks that are not headers where a header is expected are reported and
 * stepped over one at a time, so the tool also works on archives it has
 * damaged itself.  Editing commands work on native-order archives only,
 * on the bytes as stored (of a compressed archive: the raw first record,
 * then prefixes and payloads).  list, ents, records and swap accept
 * either byte order and see a compressed archive as its plain block
 * stream, its record framing kept aside.  swap gives each record of a
 * compressed archive its prefix in the other writer's layout (cprefix.h)
 * and compresses its payload again with the same method, as a machine of
 * the other byte order would have written it.
 */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_BZLIB
#include <bzlib.h>
#endif

#include "blockmap.h"
#include "cprefix.h"
#include "datasum.h"
#include "dumprestore.h"
#include "spcl.h"
#include "spclext.h"
#include "xalloc.h"
#include "xio.h"

#define TOOL_FAIL    1 /* any error */
#define USAGE_FAIL   2 /* bad command line */
#define MAX_INSERT   65536u /* most garbage blocks inserted at once */
#define GARBAGE_SEED 0x9e3779b9u /* default garbage generator seed */
#define ZLIB_LEVEL   2 /* as dump -z without a level */
#define BZLIB_BLOCKS 2 /* as dump -j without a level */

/* One walked header. */
struct hdr {
	size_t blk; /* block number in the archive */
	size_t ndata; /* data blocks following it */
	int valid; /* 0: not a header (stepped over) */
	union u_spcl h; /* native-order copy */
};

/* A directory inode's image: where its data blocks are on the archive. */
struct dirimg {
	uint32_t ino;
	uint64_t size; /* di_size */
	size_t nblk;
	size_t *blks; /* archive block numbers in order */
	size_t nhdr;
	size_t *hdrblks; /* its TS_INODE and TS_ADDR headers */
};

/* One record of a compressed archive after the raw first one. */
struct zrec {
	size_t off; /* of its prefix in the file */
	struct cprefix pfx; /* as found */
	size_t rawlen; /* bytes it holds uncompressed */
};

struct archive {
	unsigned char *buf; /* the plain block stream */
	size_t len; /* bytes */
	size_t nblocks; /* whole blocks */
	int swapped; /* other byte order than ours */
	struct hdr *hdrs;
	size_t nhdrs;
	struct dirimg *dirs;
	size_t ndirs;
	int compressed; /* DR_COMPRESSED: framed records */
	size_t reclen; /* c_ntrec * TP_BSIZE */
	struct zrec *zrecs;
	size_t nzrecs;
};

static unsigned char *
block_at(const struct archive *ar, size_t blk)
{
	return ar->buf + blk * TP_BSIZE;
}

static void
load_file(struct archive *ar, const char *path)
{
	struct stat st;
	ssize_t n;
	int fd;

	memset(ar, 0, sizeof(*ar));
	fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	if (fd < 0)
		err(TOOL_FAIL, "%s", path);
	if (fstat(fd, &st) < 0)
		err(TOOL_FAIL, "%s", path);
	if (!S_ISREG(st.st_mode))
		errx(TOOL_FAIL, "%s: not a regular file", path);
	ar->buf = xmalloc((size_t)st.st_size + 1);
	n = full_read(fd, ar->buf, (size_t)st.st_size);
	if (n < 0)
		err(TOOL_FAIL, "%s", path);
	if (fd != STDIN_FILENO && close(fd) < 0)
		err(TOOL_FAIL, "%s", path);
	ar->len = (size_t)n;
	ar->nblocks = ar->len / TP_BSIZE;
}

static void
write_bytes(const char *path, const unsigned char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		err(TOOL_FAIL, "%s", path);
	if (full_write(fd, buf, len) != (ssize_t)len)
		err(TOOL_FAIL, "%s", path);
	if (close(fd) < 0)
		err(TOOL_FAIL, "%s", path);
}

static void
save_file(const struct archive *ar, const char *path)
{
	write_bytes(path, ar->buf, ar->len);
}

/* Inflate one payload into out (room for outcap bytes); its length. */
static size_t
inflate_payload(unsigned method, const unsigned char *in, size_t len,
		unsigned char *out, size_t outcap, size_t off)
{
	switch (method) {
#ifdef HAVE_ZLIB
	case COMPRESS_ZLIB: {
		uLongf n = (uLongf)outcap;

		if (uncompress(out, &n, in, (uLong)len) != Z_OK)
			errx(TOOL_FAIL, "record at byte %zu: bad zlib data",
			     off);
		return (size_t)n;
	}
#endif
#ifdef HAVE_BZLIB
	case COMPRESS_BZLIB: {
		unsigned int n = (unsigned int)outcap;

		if (BZ2_bzBuffToBuffDecompress((char *)out, &n, (char *)in,
					       (unsigned int)len, 0,
					       0) != BZ_OK)
			errx(TOOL_FAIL, "record at byte %zu: bad bzip2 data",
			     off);
		return n;
	}
#endif
	default:
		errx(TOOL_FAIL, "record at byte %zu: method %u not supported",
		     off, method);
	}
}

/* Compress raw with method into out (room for outcap); 0 when it does
 * not fit. */
static size_t
deflate_payload(unsigned method, const unsigned char *raw, size_t len,
		unsigned char *out, size_t outcap)
{
	switch (method) {
#ifdef HAVE_ZLIB
	case COMPRESS_ZLIB: {
		uLongf n = (uLongf)outcap;

		return compress2(out, &n, raw, (uLong)len, ZLIB_LEVEL) == Z_OK
		    ? (size_t)n
		    : 0;
	}
#endif
#ifdef HAVE_BZLIB
	case COMPRESS_BZLIB: {
		unsigned int n = (unsigned int)outcap;

		return BZ2_bzBuffToBuffCompress((char *)out, &n, (char *)raw,
						(unsigned int)len, BZLIB_BLOCKS,
						0, 0) == BZ_OK
		    ? n
		    : 0;
	}
#endif
	default: errx(TOOL_FAIL, "method %u not supported", method);
	}
}

/*
 * A compressed archive: replace the loaded bytes by the plain block
 * stream (the raw first record, then each record's payload inflated) and
 * keep each record's prefix, so that swap can frame it again.
 */
static void
unframe(struct archive *ar)
{
	union u_spcl h;
	enum spcl_kind kind;
	unsigned char *plain;
	size_t off, plen;

	if (ar->len < TP_BSIZE)
		return;
	kind = spcl_check(ar->buf, 0);
	if (kind != SPCL_NATIVE && kind != SPCL_SWAPPED)
		return;
	memcpy(&h, ar->buf, TP_BSIZE);
	if (kind == SPCL_SWAPPED)
		spcl_swap_header(&h);
	if (!(h.s_spcl.c_flags & DR_COMPRESSED))
		return;
	if (h.s_spcl.c_ntrec <= 0 || h.s_spcl.c_ntrec > MAXNTREC)
		errx(TOOL_FAIL, "compressed archive with c_ntrec %" PRId32,
		     h.s_spcl.c_ntrec);
	ar->compressed = 1;
	ar->reclen = (size_t)h.s_spcl.c_ntrec * TP_BSIZE;
	off = ar->reclen < ar->len ? ar->reclen : ar->len;
	plain = xmalloc(off);
	memcpy(plain, ar->buf, off);
	plen = off;
	while (off < ar->len) {
		struct zrec *z;

		if (ar->len - off < CPREFIX_SIZE)
			errx(TOOL_FAIL, "cut record prefix at byte %zu", off);
		ar->zrecs = xreallocarray(ar->zrecs, ar->nzrecs + 1,
					  sizeof(*ar->zrecs));
		z = &ar->zrecs[ar->nzrecs++];
		z->off = off;
		cprefix_decode(ar->buf + off, kind == SPCL_SWAPPED, &z->pfx);
		if (z->pfx.length > ar->reclen ||
		    z->pfx.length > ar->len - off - CPREFIX_SIZE)
			errx(TOOL_FAIL,
			     "record at byte %zu: bad length %" PRIu32, off,
			     z->pfx.length);
		plain = xrealloc(plain, plen + ar->reclen);
		if (z->pfx.compressed)
			z->rawlen = inflate_payload(
			    z->pfx.method, ar->buf + off + CPREFIX_SIZE,
			    z->pfx.length, plain + plen, ar->reclen, off);
		else {
			memcpy(plain + plen, ar->buf + off + CPREFIX_SIZE,
			       z->pfx.length);
			z->rawlen = z->pfx.length;
		}
		plen += z->rawlen;
		off += CPREFIX_SIZE + z->pfx.length;
	}
	free(ar->buf);
	ar->buf = plain;
	ar->len = plen;
	ar->nblocks = plen / TP_BSIZE;
}

/* Write the plain stream of a compressed archive framed again, each
 * prefix in the layout of the writer order to_foreign names. */
static void
reframe(const struct archive *ar, int to_foreign, const char *path)
{
	size_t first = ar->reclen < ar->len ? ar->reclen : ar->len;
	size_t cap = first + ar->nzrecs * (CPREFIX_SIZE + 2 * ar->reclen);
	unsigned char *out = xmalloc(cap);
	size_t olen = first, at = first;

	memcpy(out, ar->buf, first);
	for (size_t i = 0; i < ar->nzrecs; i++) {
		const struct zrec *z = &ar->zrecs[i];
		struct cprefix c = z->pfx;
		size_t n = 0;

		if (c.compressed)
			n = deflate_payload(c.method, ar->buf + at, z->rawlen,
					    out + olen + CPREFIX_SIZE,
					    2 * ar->reclen);
		/* what does not shrink is stored raw, as dump does */
		if (n == 0 || n >= z->rawlen) {
			memcpy(out + olen + CPREFIX_SIZE, ar->buf + at,
			       z->rawlen);
			n = z->rawlen;
			c.compressed = false;
		}
		c.length = (uint32_t)n;
		cprefix_encode(out + olen, to_foreign, &c);
		olen += CPREFIX_SIZE + n;
		at += z->rawlen;
	}
	write_bytes(path, out, olen);
	free(out);
}

/* Decode block blk as a header into native order; 0 if it is none. */
static int
decode_header(const struct archive *ar, size_t blk, union u_spcl *out)
{
	enum spcl_kind kind = spcl_check(block_at(ar, blk), ar->swapped);

	memcpy(out, block_at(ar, blk), TP_BSIZE);
	if (kind == SPCL_SWAPPED) {
		spcl_swap_header(out);
		if (out->s_spcl.c_type == TS_TAPE ||
		    out->s_spcl.c_type == TS_END)
			spcl_swap_inos(out);
	}
	return kind == SPCL_NATIVE || kind == SPCL_SWAPPED;
}

/* How many data blocks follow a header, as restore counts them. */
static size_t
data_blocks(const struct s_spcl *s)
{
	size_t n = 0;
	int32_t count = s->c_count;

	switch (s->c_type) {
	case TS_TAPE:
		/* Volume 1's header has c_count 1 but no data (doc/format.md 2.5). */
		return s->c_volume > 1 && count > 0 ? (size_t)count : 0;
	case TS_BITS:
	case TS_CLRI: return count > 0 ? (size_t)count : 0;
	case TS_INODE:
	case TS_ADDR: {
		uint64_t data, all;

		if (count > TP_NINDIR)
			count = TP_NINDIR;
		if (count > 0)
			(void)blockmap_count(s->c_addr, (size_t)count, &data,
					     &all);
		else
			data = 0;
		/* EA records: every block is read, as restore reads them. */
		n = (size_t)((s->c_flags & DR_EXTATTRIBUTES) ? all : data);
		return count > 0 ? n : 0;
	}
	default: return 0;
	}
}

static struct dirimg *
dir_add(struct archive *ar, uint32_t ino, uint64_t size)
{
	struct dirimg *d;

	ar->dirs = xreallocarray(ar->dirs, ar->ndirs + 1, sizeof(*ar->dirs));
	d = &ar->dirs[ar->ndirs++];
	memset(d, 0, sizeof(*d));
	d->ino = ino;
	d->size = size;
	return d;
}

static void
dir_add_blocks(struct dirimg *d, size_t first, size_t count, size_t limit)
{
	for (size_t i = 0; i < count && first + i < limit; i++) {
		d->blks = xreallocarray(d->blks, d->nblk + 1, sizeof(*d->blks));
		d->blks[d->nblk++] = first + i;
	}
}

/*
 * Walk the archive: record every header and, for each directory inode,
 * the archive blocks holding its image.  A block that is not a header
 * where one is expected is recorded as invalid and skipped alone.
 */
static void
walk(struct archive *ar)
{
	struct dirimg *cur = NULL;
	size_t blk = 0;

	if (ar->nblocks > 0 && spcl_check(block_at(ar, 0), 0) == SPCL_SWAPPED)
		ar->swapped = 1;
	while (blk < ar->nblocks) {
		struct hdr *hd;
		const struct s_spcl *s;

		ar->hdrs =
		    xreallocarray(ar->hdrs, ar->nhdrs + 1, sizeof(*ar->hdrs));
		hd = &ar->hdrs[ar->nhdrs++];
		hd->blk = blk;
		hd->ndata = 0;
		hd->valid = decode_header(ar, blk, &hd->h);
		if (!hd->valid) {
			blk++;
			continue;
		}
		s = &hd->h.s_spcl;
		hd->ndata = data_blocks(s);
		if (s->c_type == TS_INODE) {
			cur = NULL;
			if (S_ISDIR(s->c_dinode.di_mode) &&
			    !(s->c_flags & DR_EXTATTRIBUTES))
				cur = dir_add(ar, s->c_inumber,
					      s->c_dinode.di_size);
		} else if (s->c_type != TS_ADDR) {
			cur = NULL;
		}
		if (cur != NULL) {
			cur->hdrblks = xreallocarray(
			    cur->hdrblks, cur->nhdr + 1, sizeof(*cur->hdrblks));
			cur->hdrblks[cur->nhdr++] = blk;
			dir_add_blocks(cur, blk + 1, hd->ndata, ar->nblocks);
		}
		blk += 1 + hd->ndata;
	}
}

static const char *
type_name(int32_t type)
{
	static const char *const names[] = {
	    [TS_TAPE] = "TS_TAPE", [TS_INODE] = "TS_INODE",
	    [TS_BITS] = "TS_BITS", [TS_ADDR] = "TS_ADDR",
	    [TS_END] = "TS_END",   [TS_CLRI] = "TS_CLRI",
	};

	if (type >= TS_TAPE && type <= TS_CLRI)
		return names[type];
	return "TS_?";
}

/* ---- directory images ------------------------------------------------ */

struct dent {
	uint32_t ino;
	uint8_t type;
	uint8_t namlen;
	char name[DUMP_MAXNAMLEN + 1];
	size_t avail; /* name bytes inside the record */
	size_t off; /* offset in the image when parsed */
};

/* Gather a directory image (native order) into a fresh buffer. */
static unsigned char *
dir_gather(const struct archive *ar, const struct dirimg *d, size_t *lenp)
{
	size_t len = d->nblk * TP_BSIZE;
	unsigned char *img;

	if (d->size < len)
		len = (size_t)d->size;
	img = xcalloc(1, d->nblk * TP_BSIZE + 1);
	for (size_t i = 0; i < d->nblk; i++)
		memcpy(img + i * TP_BSIZE, block_at(ar, d->blks[i]), TP_BSIZE);
	if (ar->swapped)
		spcl_swap_dirents(img, len, 1);
	*lenp = len;
	return img;
}

static void
dir_scatter(struct archive *ar, const struct dirimg *d, unsigned char *img,
	    size_t len)
{
	if (ar->swapped)
		spcl_swap_dirents(img, len, 0);
	for (size_t i = 0; i < d->nblk; i++)
		memcpy(block_at(ar, d->blks[i]), img + i * TP_BSIZE, TP_BSIZE);
}

/*
 * Parse the entries of an image, chunk by chunk as dump packs them.
 * Returns the number of entries; a bad record length ends its chunk.
 */
static size_t
dir_parse(const unsigned char *img, size_t len, struct dent **out)
{
	struct dent *v = NULL;
	size_t n = 0;

	for (size_t chunk = 0; chunk < len; chunk += DUMP_DIRBLKSIZ) {
		size_t end =
		    chunk + DUMP_DIRBLKSIZ < len ? chunk + DUMP_DIRBLKSIZ : len;
		size_t off = chunk;

		while (off + TAPE_DIRENT_HDRLEN <= end) {
			struct tape_direct e;
			struct dent *de;

			memcpy(&e, img + off, TAPE_DIRENT_HDRLEN);
			if (e.d_reclen < TAPE_DIRENT_HDRLEN ||
			    off + e.d_reclen > end)
				break;
			if (e.d_ino != 0) {
				v = xreallocarray(v, n + 1, sizeof(*v));
				de = &v[n++];
				memset(de, 0, sizeof(*de));
				de->ino = e.d_ino;
				de->type = e.d_type;
				de->namlen = e.d_namlen;
				de->off = off;
				size_t nl = e.d_namlen;
				if (nl > e.d_reclen - TAPE_DIRENT_HDRLEN)
					nl = e.d_reclen - TAPE_DIRENT_HDRLEN;
				memcpy(de->name, img + off + TAPE_DIRENT_HDRLEN,
				       nl);
				de->avail = nl;
			}
			off += e.d_reclen;
		}
	}
	*out = v;
	return n;
}

/*
 * Pack entries into len bytes following dump's rule: 512-byte chunks, no
 * entry crosses a chunk, the last entry of a chunk absorbs the rest.
 * Returns 0, or -1 if they do not fit.
 */
static int
dir_pack(unsigned char *img, size_t len, const struct dent *v, size_t n)
{
	size_t off = 0, prev = SIZE_MAX;

	memset(img, 0, len);
	for (size_t i = 0; i < n; i++) {
		size_t rec = TAPE_DIRSIZ(v[i].namlen);
		struct tape_direct e;

		if (off / DUMP_DIRBLKSIZ != (off + rec - 1) / DUMP_DIRBLKSIZ) {
			size_t next =
			    (off / DUMP_DIRBLKSIZ + 1) * DUMP_DIRBLKSIZ;
			if (prev != SIZE_MAX) {
				uint16_t r;
				memcpy(&r, img + prev + 4, sizeof(r));
				r = (uint16_t)(r + (next - off));
				memcpy(img + prev + 4, &r, sizeof(r));
			}
			off = next;
		}
		if (off + rec > len)
			return -1;
		memset(&e, 0, sizeof(e));
		e.d_ino = v[i].ino;
		e.d_reclen = (uint16_t)rec;
		e.d_type = v[i].type;
		e.d_namlen = v[i].namlen;
		memcpy(img + off, &e, TAPE_DIRENT_HDRLEN);
		memcpy(img + off + TAPE_DIRENT_HDRLEN, v[i].name, v[i].namlen);
		prev = off;
		off += rec;
	}
	if (prev != SIZE_MAX) {
		size_t end = (off + DUMP_DIRBLKSIZ - 1) / DUMP_DIRBLKSIZ *
		    DUMP_DIRBLKSIZ;
		uint16_t r;

		if (end > len)
			end = len;
		memcpy(&r, img + prev + 4, sizeof(r));
		r = (uint16_t)(r + (end - off));
		memcpy(img + prev + 4, &r, sizeof(r));
		off = end;
	}
	/* Chunks left empty get one unused entry spanning each, so that no
	 * chunk starts with a zero record length. */
	for (; off + TAPE_DIRENT_HDRLEN <= len; off += DUMP_DIRBLKSIZ) {
		struct tape_direct e;
		size_t rest = len - off;

		memset(&e, 0, sizeof(e));
		e.d_reclen =
		    (uint16_t)(rest < DUMP_DIRBLKSIZ ? rest : DUMP_DIRBLKSIZ);
		memcpy(img + off, &e, TAPE_DIRENT_HDRLEN);
	}
	return 0;
}

/* Print a name with everything but plain printable bytes escaped. */
static void
print_name(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == '\\')
			fputs("\\\\", stdout);
		else if (isprint(c) && c != ' ')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
}

/* Decode \0, \\ and \xHH escapes; returns the decoded length. */
static size_t
unescape(const char *in, char *out, size_t max)
{
	size_t n = 0;

	while (*in != '\0') {
		int c = (unsigned char)*in++;

		if (c == '\\' && *in == '0') {
			c = 0;
			in++;
		} else if (c == '\\' && *in == '\\') {
			in++;
		} else if (c == '\\' && *in == 'x' &&
			   isxdigit((unsigned char)in[1]) &&
			   isxdigit((unsigned char)in[2])) {
			char hex[3] = {in[1], in[2], '\0'};
			c = (int)strtoul(hex, NULL, 16);
			in += 3;
		}
		if (n >= max)
			errx(USAGE_FAIL, "name too long");
		out[n++] = (char)c;
	}
	return n;
}

/* ---- numbers --------------------------------------------------------- */

static uint64_t
parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;
	int neg = 0;

	if (*s == '-') {
		neg = 1;
		s++;
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0')
		errx(USAGE_FAIL, "bad %s: %s", what, s);
	return neg ? (uint64_t) - (int64_t)v : (uint64_t)v;
}

static size_t
parse_blk(const struct archive *ar, const char *s)
{
	uint64_t v = parse_num(s, "block number");

	if (v >= ar->nblocks)
		errx(USAGE_FAIL, "block %s beyond the archive (%zu blocks)", s,
		     ar->nblocks);
	return (size_t)v;
}

/* ---- commands ---------------------------------------------------------- */

static int
cmd_list(struct archive *ar)
{
	printf("# blk type ino count size mode flags ndata%s\n",
	       ar->swapped ? " (byte-swapped archive)" : "");
	for (size_t i = 0; i < ar->nhdrs; i++) {
		const struct hdr *hd = &ar->hdrs[i];
		const struct s_spcl *s = &hd->h.s_spcl;

		if (!hd->valid) {
			printf("%zu NOTHEADER - - - - - 0\n", hd->blk);
			continue;
		}
		printf("%zu %s %" PRIu32 " %" PRId32 " %" PRIu64
		       " 0%o 0x%x %zu%s\n",
		       hd->blk, type_name(s->c_type), s->c_inumber, s->c_count,
		       s->c_dinode.di_size, (unsigned)s->c_dinode.di_mode,
		       (unsigned)s->c_flags, hd->ndata,
		       s->c_flags & DR_EXTATTRIBUTES ? " EA" : "");
	}
	return 0;
}

static int
cmd_ents(struct archive *ar)
{
	printf("# dirino blk off ino type namlen name\n");
	for (size_t i = 0; i < ar->ndirs; i++) {
		const struct dirimg *d = &ar->dirs[i];
		struct dent *v;
		size_t len, n;
		unsigned char *img = dir_gather(ar, d, &len);

		n = dir_parse(img, len, &v);
		for (size_t j = 0; j < n; j++) {
			size_t b = v[j].off / TP_BSIZE;
			printf("%" PRIu32 " %zu %zu %" PRIu32 " %u %u ", d->ino,
			       b < d->nblk ? d->blks[b] : 0,
			       v[j].off % TP_BSIZE, v[j].ino, v[j].type,
			       v[j].namlen);
			print_name(v[j].name, v[j].avail);
			if (v[j].avail < v[j].namlen)
				fputs("...(record too short)", stdout);
			putchar('\n');
		}
		free(v);
		free(img);
	}
	return 0;
}

/* Write a header back in the archive's byte order, checksummed or not. */
static void
store_header(struct archive *ar, size_t blk, union u_spcl *h, int fixsum)
{
	if (fixsum)
		spcl_set_checksum(h);
	if (ar->swapped) {
		if (h->s_spcl.c_type == TS_TAPE || h->s_spcl.c_type == TS_END)
			spcl_swap_inos(h);
		spcl_swap_header(h);
		if (fixsum) {
			h->s_spcl.c_checksum = 0;
			h->s_spcl.c_checksum = (int32_t)spcl_bswap32(
			    (uint32_t)CHECKSUM - spcl_sum_swapped(h));
		}
	}
	memcpy(block_at(ar, blk), h, TP_BSIZE);
}

/* Drop what walk() found (headers, directory images), to walk again. */
static void
forget_walk(struct archive *ar)
{
	for (size_t i = 0; i < ar->ndirs; i++) {
		free(ar->dirs[i].blks);
		free(ar->dirs[i].hdrblks);
	}
	free(ar->dirs);
	free(ar->hdrs);
	ar->dirs = NULL;
	ar->hdrs = NULL;
	ar->ndirs = ar->nhdrs = 0;
}

/*
 * Give every header that carries a data checksum (doc/format.md 2.6) the
 * sum of the blocks between the header before it and itself, as our dump
 * writes it (a block stepped over counts as data).  An edit that builds
 * an unusual archive on purpose (rename, entry, set, swap) thus leaves
 * one whose checksums hold, and a test of the edit sees only the edit;
 * the damaging edits (poke, garble, insert, truncate) leave them as they
 * are.
 */
static void
resum(struct archive *ar)
{
	struct datasum st;
	size_t next = 0;

	datasum_reset(&st);
	for (size_t blk = 0; blk < ar->nblocks; blk++) {
		while (next < ar->nhdrs && ar->hdrs[next].blk < blk)
			next++;
		if (next < ar->nhdrs && ar->hdrs[next].blk == blk &&
		    ar->hdrs[next].valid) {
			union u_spcl h = ar->hdrs[next].h; /* native copy */

			if (spclext_set_datasum(&h, datasum_value(&st)))
				store_header(ar, blk, &h, 1);
			datasum_reset(&st);
			continue;
		}
		datasum_add(&st, block_at(ar, blk), TP_BSIZE);
	}
}

/* Save an archive built on purpose: walked again (an edit may have moved
 * blocks) and its checksums set; a compressed one, edited as stored, is
 * saved as it is. */
static void
save_edit(struct archive *ar, const char *out)
{
	if (!ar->compressed) {
		forget_walk(ar);
		walk(ar);
		resum(ar);
	}
	save_file(ar, out);
}

/*
 * Convert to the other byte order.  Directory images are swapped entry
 * by entry before their headers change, while the walk still knows them.
 */
static int
cmd_swap(struct archive *ar, const char *out)
{
	int from_foreign = ar->swapped;

	for (size_t i = 0; i < ar->nhdrs; i++)
		if (!ar->hdrs[i].valid)
			errx(TOOL_FAIL,
			     "block %zu is not a header: cannot swap",
			     ar->hdrs[i].blk);
	for (size_t i = 0; i < ar->ndirs; i++) {
		const struct dirimg *d = &ar->dirs[i];
		size_t left = (size_t)d->size;

		for (size_t j = 0; j < d->nblk && left > 0; j++) {
			size_t len = left < TP_BSIZE ? left : TP_BSIZE;
			spcl_swap_dirents(block_at(ar, d->blks[j]), len,
					  from_foreign);
			left -= len;
		}
	}
	for (size_t i = 0; i < ar->nhdrs; i++) {
		union u_spcl h = ar->hdrs[i].h; /* native copy */

		ar->swapped = !from_foreign; /* target order */
		store_header(ar, ar->hdrs[i].blk, &h, 1);
	}
	resum(ar);
	if (ar->compressed)
		reframe(ar, !from_foreign, out);
	else
		save_file(ar, out);
	return 0;
}

/* records: the framing of a compressed archive, one line per record
 * after the raw first one: index, byte offset, compressed flag, method,
 * payload length, uncompressed length. */
static int
cmd_records(const struct archive *ar)
{
	if (!ar->compressed)
		errx(TOOL_FAIL, "not a compressed archive");
	for (size_t i = 0; i < ar->nzrecs; i++) {
		const struct zrec *z = &ar->zrecs[i];

		printf("%zu %zu %d %u %" PRIu32 " %zu\n", i + 1, z->off,
		       z->pfx.compressed ? 1 : 0, z->pfx.method, z->pfx.length,
		       z->rawlen);
	}
	return 0;
}

/* Selection of one directory entry: by name, optionally dir and index. */
struct entsel {
	uint32_t dirino; /* 0: any directory */
	unsigned nth; /* which match, from 1 */
	char name[DUMP_MAXNAMLEN + 1];
	size_t namlen;
};

/*
 * Find the selected entry; on success *dp, *imgp, *vp, *np describe its
 * directory (caller frees img and v) and the entry index is returned.
 */
static size_t
find_entry(struct archive *ar, const struct entsel *sel, struct dirimg **dp,
	   unsigned char **imgp, size_t *lenp, struct dent **vp, size_t *np)
{
	unsigned seen = 0;

	for (size_t i = 0; i < ar->ndirs; i++) {
		struct dirimg *d = &ar->dirs[i];
		unsigned char *img;
		struct dent *v;
		size_t len, n;

		if (sel->dirino != 0 && d->ino != sel->dirino)
			continue;
		img = dir_gather(ar, d, &len);
		n = dir_parse(img, len, &v);
		for (size_t j = 0; j < n; j++) {
			if (v[j].namlen != sel->namlen ||
			    memcmp(v[j].name, sel->name, sel->namlen) != 0 ||
			    ++seen != sel->nth)
				continue;
			*dp = d;
			*imgp = img;
			*lenp = len;
			*vp = v;
			*np = n;
			return j;
		}
		free(v);
		free(img);
	}
	errx(TOOL_FAIL, "no directory entry %.*s (match %u)", (int)sel->namlen,
	     sel->name, sel->nth);
}

/* Parse [-d DIRINO] [-n NTH] options in front of an entry command. */
static int
parse_entsel(int argc, char **argv, struct entsel *sel)
{
	int i = 0;

	memset(sel, 0, sizeof(*sel));
	sel->nth = 1;
	while (i + 1 < argc && argv[i][0] == '-' && argv[i][1] != '\0' &&
	       argv[i][2] == '\0') {
		if (argv[i][1] == 'd')
			sel->dirino = (uint32_t)parse_num(argv[i + 1], "inode");
		else if (argv[i][1] == 'n')
			sel->nth = (unsigned)parse_num(argv[i + 1], "match");
		else
			errx(USAGE_FAIL, "unknown option %s", argv[i]);
		i += 2;
	}
	return i;
}

/* Bytes dump's packing needs for these entries (whole 512-byte chunks). */
static size_t
dir_packed_size(const struct dent *v, size_t n)
{
	size_t off = 0;

	for (size_t i = 0; i < n; i++) {
		size_t rec = TAPE_DIRSIZ(v[i].namlen);

		if (off / DUMP_DIRBLKSIZ != (off + rec - 1) / DUMP_DIRBLKSIZ)
			off = (off / DUMP_DIRBLKSIZ + 1) * DUMP_DIRBLKSIZ;
		off += rec;
	}
	return (off + DUMP_DIRBLKSIZ - 1) / DUMP_DIRBLKSIZ * DUMP_DIRBLKSIZ;
}

/* Splice count blocks from add into the archive after block blk. */
static void
splice_blocks(struct archive *ar, size_t blk, const unsigned char *add,
	      size_t count)
{
	size_t at = (blk + 1) * TP_BSIZE, len = count * TP_BSIZE;
	unsigned char *nbuf = xmalloc(ar->len + len);

	memcpy(nbuf, ar->buf, at);
	memcpy(nbuf + at, add, len);
	memcpy(nbuf + at + len, ar->buf + at, ar->len - at);
	free(ar->buf);
	ar->buf = nbuf;
	ar->len += len;
	ar->nblocks = ar->len / TP_BSIZE;
}

/*
 * Give a directory image newlen bytes: di_size in all its headers, and
 * when its blocks are too few, new TS_ADDR headers with one block each
 * after its last block (restore reads them as more of the directory).
 * The image (already packed to newlen) is written in place.
 */
static void
dir_resize(struct archive *ar, struct dirimg *d, unsigned char *img,
	   size_t newlen)
{
	size_t have = d->nblk * TP_BSIZE;
	size_t extra =
	    newlen > have ? (newlen - have + TP_BSIZE - 1) / TP_BSIZE : 0;
	union u_spcl h;

	for (size_t i = 0; i < d->nhdr; i++) {
		if (!decode_header(ar, d->hdrblks[i], &h))
			errx(TOOL_FAIL, "block %zu: lost header",
			     d->hdrblks[i]);
		h.s_spcl.c_dinode.di_size = newlen;
		store_header(ar, d->hdrblks[i], &h, 1);
	}
	for (size_t i = 0; i < d->nblk; i++)
		memcpy(block_at(ar, d->blks[i]), img + i * TP_BSIZE, TP_BSIZE);
	if (extra > 0) {
		unsigned char *add = xcalloc(extra * 2, TP_BSIZE);

		h.s_spcl.c_type = TS_ADDR;
		h.s_spcl.c_count = 1;
		memset(h.s_spcl.c_addr, 0, sizeof(h.s_spcl.c_addr));
		h.s_spcl.c_addr[0] = 1;
		for (size_t i = 0; i < extra; i++) {
			spcl_set_checksum(&h);
			memcpy(add + 2 * i * TP_BSIZE, &h, TP_BSIZE);
			memcpy(add + (2 * i + 1) * TP_BSIZE,
			       img + have + i * TP_BSIZE, TP_BSIZE);
		}
		splice_blocks(ar, d->blks[d->nblk - 1], add, extra * 2);
		free(add);
	}
}

/* Rename an entry; the directory grows (pads) when the name needs it. */
static int
cmd_rename(struct archive *ar, const struct entsel *sel, const char *newname,
	   const char *out)
{
	struct dirimg *d;
	unsigned char *img;
	struct dent *v;
	size_t len, n, j, need;

	j = find_entry(ar, sel, &d, &img, &len, &v, &n);
	memset(v[j].name, 0, sizeof(v[j].name));
	v[j].namlen = (uint8_t)unescape(newname, v[j].name, DUMP_MAXNAMLEN);
	if (dir_pack(img, len, v, n) == 0) {
		dir_scatter(ar, d, img, len);
	} else {
		need = dir_packed_size(v, n);
		free(img);
		img = xcalloc(1, need + TP_BSIZE);
		if (d->nblk == 0 || dir_pack(img, need, v, n) < 0)
			errx(TOOL_FAIL, "directory %" PRIu32 ": cannot repack",
			     d->ino);
		dir_resize(ar, d, img, need);
	}
	save_edit(ar, out);
	free(v);
	free(img);
	return 0;
}

/*
 * Change one field of a selected entry in place: d_ino and d_type keep
 * the record valid; d_reclen and d_namlen are written raw, to mangle it.
 */
static int
cmd_entry(struct archive *ar, const struct entsel *sel, const char *field,
	  const char *value, const char *out)
{
	struct dirimg *d;
	unsigned char *img;
	struct dent *v;
	size_t len, n, j, off;
	uint64_t val = parse_num(value, "value");

	j = find_entry(ar, sel, &d, &img, &len, &v, &n);
	off = v[j].off;
	if (strcmp(field, "d_ino") == 0) {
		uint32_t x = (uint32_t)val;
		memcpy(img + off + offsetof(struct tape_direct, d_ino), &x, 4);
	} else if (strcmp(field, "d_reclen") == 0) {
		uint16_t x = (uint16_t)val;
		memcpy(img + off + offsetof(struct tape_direct, d_reclen), &x,
		       2);
	} else if (strcmp(field, "d_type") == 0) {
		img[off + offsetof(struct tape_direct, d_type)] = (uint8_t)val;
	} else if (strcmp(field, "d_namlen") == 0) {
		img[off + offsetof(struct tape_direct, d_namlen)] =
		    (uint8_t)val;
	} else {
		errx(USAGE_FAIL, "unknown entry field %s", field);
	}
	dir_scatter(ar, d, img, len);
	save_edit(ar, out);
	free(v);
	free(img);
	return 0;
}

/* Header fields `set` knows; width 2, 4 or 8 bytes at an offset. */
struct field {
	const char *name;
	size_t off;
	size_t width;
};

#define HFIELD(f, w)                                                           \
	{                                                                      \
#f, offsetof(struct s_spcl, f), w                              \
	}
#define IFIELD(f, w)                                                           \
	{                                                                      \
#f,                                                            \
		    offsetof(struct s_spcl, c_dinode) +                        \
		    offsetof(struct tape_dinode, f),                           \
		    w                                                          \
	}
static const struct field fields[] = {
    HFIELD(c_type, 4),		HFIELD(c_date, 4),
    HFIELD(c_ddate, 4),		HFIELD(c_volume, 4),
    HFIELD(c_tapea, 4),		HFIELD(c_inumber, 4),
    HFIELD(c_magic, 4),		HFIELD(c_checksum, 4),
    HFIELD(c_count, 4),		HFIELD(c_level, 4),
    HFIELD(c_flags, 4),		HFIELD(c_firstrec, 4),
    HFIELD(c_ntrec, 4),		HFIELD(c_extattributes, 4),
    IFIELD(di_mode, 2),		IFIELD(di_nlink, 2),
    IFIELD(di_size, 8),		IFIELD(di_flags, 4),
    IFIELD(di_blocks, 4),	IFIELD(di_uid, 4),
    IFIELD(di_gid, 4),		IFIELD(di_db[0], 4),
    IFIELD(di_db[1], 4),	IFIELD(di_atime.tv_sec, 4),
    IFIELD(di_mtime.tv_sec, 4), IFIELD(di_mtime.tv_usec, 4),
};

static void
put_field(unsigned char *p, size_t width, uint64_t val)
{
	if (width == 2) {
		uint16_t x = (uint16_t)val;
		memcpy(p, &x, sizeof(x));
	} else if (width == 4) {
		uint32_t x = (uint32_t)val;
		memcpy(p, &x, sizeof(x));
	} else {
		memcpy(p, &val, sizeof(val));
	}
}

/*
 * set [-n] BLK FIELD VALUE: FIELD is a header field, c_addr[I], or
 * d_ino@OFF / d_reclen@OFF / d_type@OFF / d_namlen@OFF for a raw entry at
 * byte OFF of a data block (no checksum involved).  -n leaves the header
 * checksum as it was, i.e. wrong.
 */
static int
cmd_set(struct archive *ar, int nofix, const char *blkarg, const char *field,
	const char *value, const char *out)
{
	size_t blk = parse_blk(ar, blkarg);
	uint64_t val = parse_num(value, "value");
	union u_spcl h;
	const char *at = strchr(field, '@');
	unsigned idx;

	if (at != NULL) {
		size_t off = (size_t)parse_num(at + 1, "offset");
		size_t flen = (size_t)(at - field);
		static const struct field ef[] = {
		    {"d_ino", offsetof(struct tape_direct, d_ino), 4},
		    {"d_reclen", offsetof(struct tape_direct, d_reclen), 2},
		};
		unsigned char *p = block_at(ar, blk);

		if (off + TAPE_DIRENT_HDRLEN > TP_BSIZE)
			errx(USAGE_FAIL, "entry offset %zu out of block", off);
		for (size_t i = 0; i < sizeof(ef) / sizeof(ef[0]); i++)
			if (strlen(ef[i].name) == flen &&
			    strncmp(field, ef[i].name, flen) == 0) {
				put_field(p + off + ef[i].off, ef[i].width,
					  val);
				save_edit(ar, out);
				return 0;
			}
		if (strncmp(field, "d_type@", 7) == 0)
			p[off + offsetof(struct tape_direct, d_type)] =
			    (uint8_t)val;
		else if (strncmp(field, "d_namlen@", 9) == 0)
			p[off + offsetof(struct tape_direct, d_namlen)] =
			    (uint8_t)val;
		else
			errx(USAGE_FAIL, "unknown entry field %s", field);
		save_edit(ar, out);
		return 0;
	}
	if (!decode_header(ar, blk, &h))
		errx(TOOL_FAIL, "block %zu is not a header", blk);
	if (sscanf(field, "c_addr[%u]", &idx) == 1) {
		if (idx >= TP_NINDIR)
			errx(USAGE_FAIL, "c_addr index %u out of range", idx);
		h.s_spcl.c_addr[idx] = (uint8_t)val;
	} else {
		size_t i;
		for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			if (strcmp(fields[i].name, field) == 0)
				break;
		if (i == sizeof(fields) / sizeof(fields[0]))
			errx(USAGE_FAIL, "unknown header field %s", field);
		put_field((unsigned char *)&h + fields[i].off, fields[i].width,
			  val);
	}
	store_header(ar, blk, &h, !nofix);
	if (nofix)
		save_file(ar, out);
	else
		save_edit(ar, out);
	return 0;
}

/* poke BYTEOFF HEX: overwrite bytes, e.g. "deadbeef". */
static int
cmd_poke(struct archive *ar, const char *offarg, const char *hex,
	 const char *out)
{
	uint64_t off = parse_num(offarg, "offset");
	size_t n = strlen(hex);

	if (n == 0 || n % 2 != 0)
		errx(USAGE_FAIL, "bad hex string %s", hex);
	if (off > ar->len || n / 2 > ar->len - off)
		errx(USAGE_FAIL, "bytes beyond the end of the archive");
	for (size_t i = 0; i < n; i += 2) {
		char b[3] = {hex[i], hex[i + 1], '\0'};
		char *end;
		unsigned long v = strtoul(b, &end, 16);

		if (*end != '\0')
			errx(USAGE_FAIL, "bad hex string %s", hex);
		ar->buf[off + i / 2] = (unsigned char)v;
	}
	save_file(ar, out);
	return 0;
}

/* A small deterministic generator: garbage must be reproducible. */
static uint32_t
garbage_next(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

static void
fill_garbage(unsigned char *p, size_t len, const char *pattern)
{
	uint32_t state = GARBAGE_SEED;

	if (pattern != NULL && strcmp(pattern, "random") != 0) {
		memset(p, (int)parse_num(pattern, "fill byte"), len);
		return;
	}
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)garbage_next(&state);
}

/* insert BLK COUNT [FILL]: COUNT garbage blocks right after block BLK. */
static int
cmd_insert(struct archive *ar, const char *blkarg, const char *countarg,
	   const char *pattern, const char *out)
{
	size_t blk = parse_blk(ar, blkarg);
	uint64_t count = parse_num(countarg, "count");
	unsigned char *add;

	if (count == 0 || count > MAX_INSERT)
		errx(USAGE_FAIL, "count must be 1..%u", MAX_INSERT);
	add = xreallocarray(NULL, (size_t)count, TP_BSIZE);
	fill_garbage(add, (size_t)count * TP_BSIZE, pattern);
	splice_blocks(ar, blk, add, (size_t)count);
	free(add);
	save_file(ar, out);
	return 0;
}

/* garble BLK [COUNT [FILL]]: overwrite blocks with garbage in place. */
static int
cmd_garble(struct archive *ar, const char *blkarg, const char *countarg,
	   const char *pattern, const char *out)
{
	size_t blk = parse_blk(ar, blkarg);
	uint64_t count = countarg != NULL ? parse_num(countarg, "count") : 1;

	if (count > ar->nblocks - blk)
		errx(USAGE_FAIL, "count beyond the archive");
	fill_garbage(block_at(ar, blk), (size_t)count * TP_BSIZE, pattern);
	save_file(ar, out);
	return 0;
}

/* truncate BLK[+BYTES]: keep blocks 0..BLK-1 and BYTES more bytes. */
static int
cmd_truncate(struct archive *ar, const char *arg, const char *out)
{
	char *copy = xstrdup(arg), *plus = strchr(copy, '+');
	uint64_t blk, extra = 0, len;

	if (plus != NULL) {
		*plus = '\0';
		extra = parse_num(plus + 1, "byte count");
	}
	blk = parse_num(copy, "block number");
	free(copy);
	if (blk > ar->nblocks || extra >= TP_BSIZE)
		errx(USAGE_FAIL, "truncation point %s out of range", arg);
	len = blk * TP_BSIZE + extra;
	if (len > ar->len)
		errx(USAGE_FAIL, "truncation point %s beyond the end", arg);
	ar->len = (size_t)len;
	save_file(ar, out);
	return 0;
}

static void
usage(void)
{
	fputs(
	    "usage: tapetool list IN\n"
	    "       tapetool ents IN\n"
	    "       tapetool records IN\n"
	    "       tapetool swap IN OUT\n"
	    "       tapetool rename [-d DIRINO] [-n NTH] IN OUT OLD NEW\n"
	    "       tapetool entry [-d DIRINO] [-n NTH] IN OUT NAME FIELD VALUE\n"
	    "       tapetool set [-n] IN OUT BLK FIELD VALUE\n"
	    "       tapetool poke IN OUT BYTEOFF HEX\n"
	    "       tapetool garble IN OUT BLK [COUNT [FILL|random]]\n"
	    "       tapetool insert IN OUT BLK COUNT [FILL|random]\n"
	    "       tapetool truncate IN OUT BLK[+BYTES]\n"
	    "names take \\0, \\\\ and \\xHH escapes\n",
	    stderr);
	exit(USAGE_FAIL);
}

static void
archive_free(struct archive *ar)
{
	forget_walk(ar);
	free(ar->zrecs);
	free(ar->buf);
	memset(ar, 0, sizeof(*ar));
}

/* Run one command on a loaded archive; argv[0] is IN. */
static int
dispatch(struct archive *ar, const char *cmd, int argc, char **argv,
	 struct entsel *sel, int nofix)
{
	if (strcmp(cmd, "list") == 0 && argc == 1)
		return cmd_list(ar);
	if (strcmp(cmd, "ents") == 0 && argc == 1)
		return cmd_ents(ar);
	if (strcmp(cmd, "records") == 0 && argc == 1)
		return cmd_records(ar);
	if (strcmp(cmd, "swap") == 0 && argc == 2)
		return cmd_swap(ar, argv[1]);
	if (ar->swapped &&
	    (strcmp(cmd, "rename") == 0 || strcmp(cmd, "entry") == 0))
		errx(TOOL_FAIL, "%s: edit a native-order archive, then swap",
		     argv[0]);
	if (strcmp(cmd, "rename") == 0 && argc == 4) {
		sel->namlen = unescape(argv[2], sel->name, DUMP_MAXNAMLEN);
		return cmd_rename(ar, sel, argv[3], argv[1]);
	}
	if (strcmp(cmd, "entry") == 0 && argc == 5) {
		sel->namlen = unescape(argv[2], sel->name, DUMP_MAXNAMLEN);
		return cmd_entry(ar, sel, argv[3], argv[4], argv[1]);
	}
	if (strcmp(cmd, "set") == 0 && argc == 5)
		return cmd_set(ar, nofix, argv[2], argv[3], argv[4], argv[1]);
	if (strcmp(cmd, "poke") == 0 && argc == 4)
		return cmd_poke(ar, argv[2], argv[3], argv[1]);
	if (strcmp(cmd, "garble") == 0 && argc >= 3 && argc <= 5)
		return cmd_garble(ar, argv[2], argc > 3 ? argv[3] : NULL,
				  argc > 4 ? argv[4] : NULL, argv[1]);
	if (strcmp(cmd, "insert") == 0 && (argc == 4 || argc == 5))
		return cmd_insert(ar, argv[2], argv[3],
				  argc > 4 ? argv[4] : NULL, argv[1]);
	if (strcmp(cmd, "truncate") == 0 && argc == 3)
		return cmd_truncate(ar, argv[2], argv[1]);
	usage();
	return USAGE_FAIL;
}

int
main(int argc, char **argv)
{
	struct archive ar;
	struct entsel sel;
	const char *cmd;
	int nofix = 0, rc;

	if (argc < 3)
		usage();
	cmd = argv[1];
	argc -= 2;
	argv += 2;
	memset(&sel, 0, sizeof(sel));
	if (strcmp(cmd, "rename") == 0 || strcmp(cmd, "entry") == 0) {
		int used = parse_entsel(argc, argv, &sel);
		argc -= used;
		argv += used;
	} else if (strcmp(cmd, "set") == 0 && argc > 0 &&
		   strcmp(argv[0], "-n") == 0) {
		nofix = 1;
		argc--;
		argv++;
	}
	if (argc < 1)
		usage();
	load_file(&ar, argv[0]);
	/* Edits poke the bytes as stored, prefixes included. */
	if (strcmp(cmd, "list") == 0 || strcmp(cmd, "ents") == 0 ||
	    strcmp(cmd, "records") == 0 || strcmp(cmd, "swap") == 0)
		unframe(&ar);
	walk(&ar);
	rc = dispatch(&ar, cmd, argc, argv, &sel, nofix);
	archive_free(&ar);
	return rc;
}
