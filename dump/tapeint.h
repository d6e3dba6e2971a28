/*
 * tapeint.h - what the files of the master side of the output pipeline
 * share: struct tape_state, which tape.c owns and passes by pointer, and
 * their prototypes, grouped by the file that defines them.  The rest of
 * dump sees only tape.h.
 */
#ifndef DUMP_TAPEINT_H
#define DUMP_TAPEINT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "dumprestore.h"
#include "ring.h"
#include "slave.h"
#include "tape.h"
#include "writer.h"

#define NHELPERS   (SLAVE_COUNT + 1) /* slaves, then the writer */
#define WRITER_IDX SLAVE_COUNT
/* Without pidfds: how often a waiting master looks at its helpers. */
#define POLL_INTERVAL_MS   100
#define LOOKBEHIND_RECORDS 2

struct helper {
	pid_t pid; /* 0 once reaped */
	int pidfd; /* readable when it exits; -1 if unavailable */
	int status; /* wait status once reaped */
};

/* The helper processes (procs.c). */
struct procs {
	struct helper helpers[NHELPERS];
	int socks[SLAVE_COUNT]; /* the master's end of each slave's socket */
};

/* The record being built. */
struct record {
	struct slave_item *items; /* ntrec entries at most */
	uint32_t nitems;
	unsigned char *inline_data; /* ntrec * TP_BSIZE */
	uint32_t ninline; /* inline blocks queued */
	uint32_t fill; /* blocks in the record so far */
};

/* The last header that has data blocks behind it (TS_INODE, TS_ADDR,
 * TS_BITS, TS_CLRI, EA records): a new volume's header is made from it. */
struct hdr_state {
	union u_spcl hdr;
	int valid;
	uint64_t end; /* logical block just after its data */
};

/* A record sent but maybe not on the medium (eom.c): what the slave
 * packet said, plus where the record starts. */
struct hist_rec {
	uint64_t first_block;
	uint32_t nitems, ninline;
	struct slave_item *items;
	unsigned char *inline_data;
	struct hdr_state at_start;
};

struct tape_state {
	struct tape_config cfg;
	struct ring *ring;
	struct writer_output out; /* volume 1's output, as opened */
	struct procs procs;
	struct record cur;
	uint64_t nblocks; /* tape blocks queued: next c_tapea */
	uint64_t nrecords; /* records handed to slaves */
	int volume;
	int32_t firstrec; /* c_firstrec of the current volume */
	time_t vol_start;
	int started;
	int closing; /* tape_finish is padding the last record */
	int verify_failed; /* --verify: a volume did not verify */
	/* Unreadable ranges dumped as zeros, known once tape_finish is done. */
	unsigned long read_errors;
	/* called when a record ended the volume (volume_switch) */
	void (*volume_over)(struct tape_state *ts);

	/* Volumes. */
	char vol_name[RING_NAME_MAX]; /* output of the current volume */
	uint64_t vol_first_block; /* c_tapea of its TS_TAPE */
	uint64_t vol_first_rec; /* its first record */
	uint64_t vol_limit; /* blocks (uncompressed) or bytes; 0: none */
	int feedback; /* compressed sizes learnt (sizes.c) */
	uint64_t sized_next; /* next record whose output size to learn */
	uint64_t vol_known_bytes; /* output bytes, records < sized_next */
	uint64_t vol_known_tenths; /* the same in 0.1 inch of tape */
	uint64_t tape_tenths; /* length mode: tape length; 0 if off */
	uint64_t density; /* length mode: bytes per 0.1 inch */
	uint64_t gap_tenths; /* length mode: per record */
	uint64_t total_cbytes; /* output bytes of the finished volumes */
	int compressed_totals_valid;

	struct hdr_state last;
	struct hdr_state rec_start; /* `last` when cur began */
	uint64_t cur_first_block; /* c_tapea of cur's first block */
	uint64_t phys_blocks; /* blocks in whole records on past volumes */

	/* End of media (eom.c): records kept until written. */
	struct hist_rec *hist;
	size_t hist_cap;
	uint64_t hist_first;
	int hist_on; /* outputs that can reach end of media */
	/* Queuing records again (replay.c): blocks keep their numbers
	 * (replay_pos is the number of the next one), nblocks does not
	 * move. */
	int replaying;
	uint64_t replay_pos;
	int nocount; /* the block being added takes no number */
	int final_pending; /* the next flushed record is the last */
};

/* dialogue.c */
int dialogue_script(const struct tape_config *cfg, const char *name,
		    int finished);
void dialogue_media_change(const struct tape_config *cfg, int volume);
void dialogue_open_failed(const struct tape_config *cfg, const char *name,
			  int err);

/* eom.c */
void eom_keep(struct tape_state *ts);
uint64_t eom_check(struct tape_state *ts, int *eom);
size_t eom_take_lost(struct tape_state *ts, uint64_t lost, int eom,
		     struct hist_rec **lost_recs);

/* failmsg.c */
void fail_report(const struct tape_state *ts);
_Noreturn void fail_abort(const struct tape_state *ts);

/* procs.c */
int procs_start_writer(struct procs *p, struct writer_output *out,
		       struct ring *ring, int ntrec);
int procs_release_output(const struct writer_output *out);
int procs_start_slaves(struct procs *p, const struct tape_config *cfg,
		       struct ring *ring);
int procs_reap(struct procs *p, int i, int block);
int procs_helper_ok(const struct procs *p, int i);
int procs_wait_event(struct procs *p, struct ring *ring, int fd, short events);
int procs_wait_ring(struct procs *p, struct ring *ring, int (*poll_fn)(void *),
		    void *arg);
int procs_wait_writer(struct procs *p, struct ring *ring);
int procs_wait_helpers(struct procs *p, struct ring *ring);
void procs_kill(struct procs *p);

/* records.c */
uint64_t records_next(const struct tape_state *ts);
void records_header(struct tape_state *ts, union u_spcl *h);
void records_mem(struct tape_state *ts, const void *buf, size_t n);
void records_inline(struct tape_state *ts, enum slave_item_kind kind,
		    const void *buf, size_t n);
void records_disk(struct tape_state *ts, uint64_t off, size_t n);
void records_zero(struct tape_state *ts, size_t n);
void records_pad_final(struct tape_state *ts, union u_spcl *end);

/* replay.c */
void replay_records(struct tape_state *ts, struct hist_rec *h, size_t n,
		    int skip_header);

/* sizes.c */
void sizes_setup(struct tape_state *ts, int limited);
void sizes_learn(struct tape_state *ts, uint64_t rec);

/* volend.c */
uint64_t volend_limit(const struct tape_state *ts, int vol);
void volend_setup(struct tape_state *ts);
int volend_full(struct tape_state *ts, uint64_t rec);

/* volname.c (tape_volume_name is in tape.h) */
int volname_named(const struct tape_config *cfg, int vol);

/* volreport.c */
void volreport_volume(const struct tape_state *ts, time_t end, uint64_t blocks,
		      uint64_t vol_bytes);

/* volume.c */
void volume_begin(struct tape_state *ts, const struct hdr_state *vs,
		  int shared_number);
void volume_switch(struct tape_state *ts);

#endif /* DUMP_TAPEINT_H */
