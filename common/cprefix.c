/*
 * cprefix.c - encode and decode the compressed-record prefix in either
 * writer byte order (the layouts are described in cprefix.h).
 *
 * The word is assembled from its bytes explicitly, so the same code runs
 * on a machine of either order; "swapped" only picks the other writer's
 * layout.
 */
#include "cprefix.h"

#define METHOD_MASK 7u

/* Whether this machine writes little-endian words. */
static bool
host_little(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 1;
}

void
cprefix_decode(const unsigned char *p, bool swapped, struct cprefix *c)
{
	uint32_t w;

	if (host_little() != swapped) {
		w = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		c->compressed = (w & 1u) != 0;
		c->method = (w >> 1) & METHOD_MASK;
		c->length = w >> 4;
	} else {
		w = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		    (uint32_t)p[2] << 8 | (uint32_t)p[3];
		c->compressed = (w >> 31) != 0;
		c->method = (w >> 28) & METHOD_MASK;
		c->length = w & CPREFIX_LEN_MAX;
	}
}

void
cprefix_encode(unsigned char *p, bool swapped, const struct cprefix *c)
{
	uint32_t len = c->length & CPREFIX_LEN_MAX;
	uint32_t method = c->method & METHOD_MASK;
	uint32_t w;

	if (host_little() != swapped) {
		w = len << 4 | method << 1 | (c->compressed ? 1u : 0u);
		p[0] = (unsigned char)w;
		p[1] = (unsigned char)(w >> 8);
		p[2] = (unsigned char)(w >> 16);
		p[3] = (unsigned char)(w >> 24);
	} else {
		w = (c->compressed ? 1u : 0u) << 31 | method << 28 | len;
		p[0] = (unsigned char)(w >> 24);
		p[1] = (unsigned char)(w >> 16);
		p[2] = (unsigned char)(w >> 8);
		p[3] = (unsigned char)w;
	}
}
