/*
 * datasum.c - the running checksum of a header's data (datasum.h).
 */
#include "datasum.h"

void
datasum_reset(struct datasum *s)
{
	(void)XXH3_64bits_reset(&s->st);
}

void
datasum_add(struct datasum *s, const void *p, size_t len)
{
	(void)XXH3_64bits_update(&s->st, p, len);
}

uint64_t
datasum_value(const struct datasum *s)
{
	return XXH3_64bits_digest(&s->st);
}
