/*
 * media.h - the reader's lower layer (media.c): volumes, bytes and tape
 * blocks.  Only tape.c, the header gate above it, uses these.
 */
#ifndef MEDIA_H
#define MEDIA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dumprestore.h"

uint64_t media_blocks_read(void);
void media_count_from(const struct s_spcl *h);
void media_drain(void);
bool media_end_seen(void);
bool media_error(void);
void media_mark_end(void);
const unsigned char *media_next_block(void);
void media_open(void);
bool media_restart(const char *name, union u_spcl *h);
bool media_seek(int vol, uint64_t pos, bool newmedia, bool *switched);
void media_set_swapped(void);
void media_setup_compression(long n);
size_t media_tape_record(void);
bool media_swapped(void);
/* Volume changes made inside media_next_block(): a count that grows
 * with each, and the header of the newest volume, with *rejoined saying
 * whether its blocks continue the stream exactly where the last volume
 * stopped (not after an end-of-media cut, whose record was read twice,
 * doc/format.md 10.4). */
unsigned media_volume_serial(void);
const union u_spcl *media_volume_header(bool *rejoined);
/* Whether the input is a pipe (or socket). */
bool media_is_pipe(void);

#endif /* MEDIA_H */
