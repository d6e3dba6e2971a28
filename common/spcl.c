/*
 * spcl.c - header checksum, validation and byte swapping.
 *
 * Checksums are computed over 256 32-bit words with wrap-around, using
 * fixed-width types so the result never depends on the size of int.
 * The swap pattern of a header is that of doc/format.md 12: the 528
 * bytes of c_addr + c_label and the 192 bytes of names are byte strings
 * and stay as they are.
 */
#include <string.h>

#include "spcl.h"

uint16_t
spcl_bswap16(uint16_t v)
{
	return (uint16_t)((v >> 8) | (v << 8));
}

uint32_t
spcl_bswap32(uint32_t v)
{
	return __builtin_bswap32(v);
}

uint64_t
spcl_bswap64(uint64_t v)
{
	return __builtin_bswap64(v);
}

#define HEADER_WORDS (TP_BSIZE / sizeof(uint32_t))

uint32_t
spcl_sum(const void *block)
{
	uint32_t word, sum = 0;
	const unsigned char *p = block;

	for (size_t i = 0; i < HEADER_WORDS; i++) {
		memcpy(&word, p + i * sizeof(word), sizeof(word));
		sum += word;
	}
	return sum;
}

uint32_t
spcl_sum_swapped(const void *block)
{
	uint32_t word, sum = 0;
	const unsigned char *p = block;

	for (size_t i = 0; i < HEADER_WORDS; i++) {
		memcpy(&word, p + i * sizeof(word), sizeof(word));
		sum += spcl_bswap32(word);
	}
	return sum;
}

void
spcl_set_checksum(union u_spcl *h)
{
	h->s_spcl.c_checksum = 0;
	h->s_spcl.c_checksum = (int32_t)((uint32_t)CHECKSUM - spcl_sum(h));
}

enum spcl_kind
spcl_check(const void *block, int swapped)
{
	int32_t magic;

	memcpy(&magic, (const char *)block + offsetof(struct s_spcl, c_magic),
	       sizeof(magic));
	if (!swapped && magic == NFS_MAGIC)
		return spcl_sum(block) == CHECKSUM ? SPCL_NATIVE
						   : SPCL_BAD_CHECKSUM;
	if ((int32_t)spcl_bswap32((uint32_t)magic) == NFS_MAGIC)
		return spcl_sum_swapped(block) == CHECKSUM ? SPCL_SWAPPED
							   : SPCL_BAD_CHECKSUM;
	if (swapped && magic == NFS_MAGIC)
		return spcl_sum(block) == CHECKSUM ? SPCL_NATIVE
						   : SPCL_BAD_CHECKSUM;
	return SPCL_NOT_HEADER;
}

static void
swap32_run(unsigned char *p, size_t count)
{
	uint32_t v;

	for (size_t i = 0; i < count; i++, p += sizeof(v)) {
		memcpy(&v, p, sizeof(v));
		v = spcl_bswap32(v);
		memcpy(p, &v, sizeof(v));
	}
}

static void
swap16_run(unsigned char *p, size_t count)
{
	uint16_t v;

	for (size_t i = 0; i < count; i++, p += sizeof(v)) {
		memcpy(&v, p, sizeof(v));
		v = spcl_bswap16(v);
		memcpy(p, &v, sizeof(v));
	}
}

void
spcl_swap_header(union u_spcl *h)
{
	unsigned char *p = (unsigned char *)h;
	uint64_t size;

	swap32_run(p, 8); /* 0..31 */
	swap16_run(p + 32, 4); /* mode..ogid */
	memcpy(&size, p + 40, sizeof(size)); /* di_size */
	size = spcl_bswap64(size);
	memcpy(p + 40, &size, sizeof(size));
	swap32_run(p + 48, 29); /* 48..163 */
	swap32_run(p + offsetof(struct s_spcl, c_level), 1);
	swap32_run(p + offsetof(struct s_spcl, c_flags), 4); /* 888..903 */
}

void
spcl_swap_inos(union u_spcl *h)
{
	swap32_run((unsigned char *)h->s_spcl.c_inos, TP_NINOS);
}

void
spcl_swap_dirents(void *buf, size_t len, int from_foreign)
{
	unsigned char *p = buf;
	size_t off = 0;

	while (off + TAPE_DIRENT_HDRLEN <= len) {
		uint16_t reclen;

		memcpy(&reclen, p + off + 4, sizeof(reclen));
		swap32_run(p + off, 1);
		swap16_run(p + off + 4, 1);
		if (from_foreign)
			reclen = spcl_bswap16(reclen);
		if (reclen < TAPE_DIRENT_HDRLEN || reclen % 4 != 0)
			break;
		off += reclen;
	}
}

uint32_t
spcl_volume_index(const struct s_spcl *h)
{
	return h->c_tapea - (uint32_t)h->c_firstrec;
}

uint64_t
spcl_widen_blockno(uint32_t low32, uint64_t near)
{
	uint64_t hi = near & ~(uint64_t)UINT32_MAX;
	uint64_t v = hi | low32;

	/* Of v - 2^32, v and v + 2^32, the one closest to near. */
	if (v > near && v - near > ((uint64_t)1 << 31) && hi != 0)
		v -= (uint64_t)1 << 32;
	else if (v < near && near - v > ((uint64_t)1 << 31))
		v += (uint64_t)1 << 32;
	return v;
}
