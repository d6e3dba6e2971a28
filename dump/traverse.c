/*
 * traverse.c - the file-system walk of the dump master.
 *
 * Pass I scans every inode in number order (libext2fs inode scan) and
 * fills the maps: used inodes (TS_CLRI), excluded inodes (journal,
 * resize inode, orphan file, quota files, -e/-E, nodump when level >=
 * -h), candidate directories, and the selected inodes (TS_BITS: ctime
 * >= base date, root always),
 * adding each selected inode to the size estimate (as 0.4b47 does);
 * the inodes of a group whose inode table is outside the file system or
 * overlaps another group's are skipped and reported.
 * Pass II propagates exclusion down excluded directories and selects
 * the directories on the path to any selected inode, until nothing
 * changes.  Passes III and IV then hand the selected directories, then
 * all other selected inodes, in ascending order to inode.c.  A subset
 * dump (dump.h) runs the same passes over the inodes subset.c marked,
 * leaving all others out of every map.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changes.h"
#include "dump.h"
#include "optr.h"
#include "sig.h"
#include "tape.h"
#include "xalloc.h"

#define EXCLUDE_FIRST_INO 3 /* -e accepts inode numbers above 2 */

/* Pass II results for one directory (BSD's HASDUMPEDFILE/HASSUBDIRS). */
#define HAS_DUMPED_FILE 1
#define HAS_SUBDIRS	2

struct pass2_ctx {
	const struct dump_opts *o;
	const struct dump_fs *dfs;
	struct dump_maps *maps;
	ext2_ino_t dir;
	int excluded; /* the directory itself is excluded */
	int result;
	int changed;
};

/* Size estimate of one inode in tape blocks, as 0.4b47 makes it. */
static uint64_t
blockest(const struct dump_fs *dfs, const struct ext2_inode_large *in)
{
	uint64_t b = dfs->blocksize, per = b / TP_BSIZE;
	uint64_t size = EXT2_I_SIZE(in);
	uint64_t blkest, sizeest;

	if (!LINUX_S_ISREG(in->i_mode) && !LINUX_S_ISDIR(in->i_mode) &&
	    !LINUX_S_ISLNK(in->i_mode))
		return 1;
	blkest = ((uint64_t)in->i_blocks * DEV_BSIZE + b - 1) / b * per;
	sizeest = (size + b - 1) / b * per;
	if (sizeest < blkest)
		blkest = sizeest;
	if (LINUX_S_ISDIR(in->i_mode)) {
		blkest /= 2;
		sizeest /= 2;
	}
	if (size > TAPE_NDADDR * b)
		blkest +=
		    (sizeest - TAPE_NDADDR * per + TP_NINDIR - 1) / TP_NINDIR;
	return blkest + 1;
}

/*
 * The inodes dump never dumps, in the order -v names them: the journal,
 * the resize inode, and the inodes no name leads to where ext4 keeps its
 * orphan list and its quota files.  No restore can place those; in the
 * archive they only made every restore warn (0.4b53 leaves them out too).
 */
struct fixed_exclusion {
	ext2_ino_t ino;
	const char *what;
};
#define MAX_FIXED_EXCLUSIONS 6

static size_t
fixed_exclusions(struct ext2_super_block *sb,
		 struct fixed_exclusion out[MAX_FIXED_EXCLUSIONS])
{
	size_t n = 0;

	if (ext2fs_has_feature_journal(sb) && sb->s_journal_inum != 0)
		out[n++] = (struct fixed_exclusion){sb->s_journal_inum,
						    "journal inode"};
	out[n++] = (struct fixed_exclusion){EXT2_RESIZE_INO, "resize inode"};
#ifdef EXT4_FEATURE_COMPAT_ORPHAN_FILE
	if (ext2fs_has_feature_orphan_file(sb) && sb->s_orphan_file_inum != 0)
		out[n++] = (struct fixed_exclusion){sb->s_orphan_file_inum,
						    "orphan inode"};
#endif
	if (ext2fs_has_feature_quota(sb)) {
		if (sb->s_usr_quota_inum != 0)
			out[n++] = (struct fixed_exclusion){
			    sb->s_usr_quota_inum, "user quota inode"};
		if (sb->s_grp_quota_inum != 0)
			out[n++] = (struct fixed_exclusion){
			    sb->s_grp_quota_inum, "group quota inode"};
		if (sb->s_prj_quota_inum != 0)
			out[n++] = (struct fixed_exclusion){
			    sb->s_prj_quota_inum, "project quota inode"};
	}
	return n;
}

static int
always_excluded(const struct dump_fs *dfs, ext2_ino_t ino)
{
	struct fixed_exclusion fixed[MAX_FIXED_EXCLUSIONS];
	size_t i, n = fixed_exclusions(dfs->fs->super, fixed);

	for (i = 0; i < n; i++)
		if (fixed[i].ino == ino)
			return 1;
	return 0;
}

/* Verbose lines for them, printed before the passes as 0.4b47 does. */
void
traverse_report_fixed(const struct dump_opts *o, const struct dump_fs *dfs)
{
	struct fixed_exclusion fixed[MAX_FIXED_EXCLUSIONS];
	size_t i, n = fixed_exclusions(dfs->fs->super, fixed);

	if (!o->verbose)
		return;
	for (i = 0; i < n; i++)
		msg("Excluding inode %u (%s) from dump\n", fixed[i].ino,
		    fixed[i].what);
}

static int
in_list(const struct dump_opts *o, ext2_ino_t ino)
{
	size_t i;

	for (i = 0; i < o->nexcluded; i++)
		if (o->excluded[i] == ino)
			return 1;
	return 0;
}

static void
alloc_maps(const struct dump_fs *dfs, struct dump_maps *maps)
{
	maps->maxino = dfs->maxino;
	maps->mapsize = TAPE_MAPSIZE(dfs->maxino);
	maps->used = xcalloc(maps->mapsize, 1);
	maps->dumped = xcalloc(maps->mapsize, 1);
	maps->dirs = xcalloc(maps->mapsize, 1);
	maps->excluded = xcalloc(maps->mapsize, 1);
	maps->metaonly = xcalloc(maps->mapsize, 1);
	maps->estimate = 2 * (maps->mapsize / TP_BSIZE + 1);
}

/* Pass I decision for one allocated inode. */
static void
map_inode(const struct dump_opts *o, const struct dump_fs *dfs, time_t ddate,
	  struct dump_maps *maps, ext2_ino_t ino,
	  const struct ext2_inode_large *in)
{
	int isdir = LINUX_S_ISDIR(in->i_mode);
	const char *why = NULL;

	map_set(maps->used, ino);
	if (always_excluded(dfs, ino) || in_list(o, ino))
		why = "";
	else if ((in->i_flags & EXT2_NODUMP_FL) && o->level >= o->honor_level)
		why = " (nodump attribute)";
	else if (in->i_flags & EXT4_EA_INODE_FL)
		why = ""; /* a value of another inode's EA, dumped there */
	if (ino == EXT2_ROOT_INO)
		why = NULL;
	if (isdir)
		map_set(maps->dirs, ino);
	if (why != NULL) {
		/* Fixed and -e/-E exclusions were reported earlier. */
		if (o->verbose && *why != '\0')
			msg("Excluding inode %u%s from dump\n", ino, why);
		map_set(maps->excluded, ino);
		if (isdir)
			map_clear(maps->used, ino);
		return;
	}
	/* The root is always on the dump, but like 0.4b47 the estimate
	 * counts it only when it changed. */
	if (ino == EXT2_ROOT_INO)
		map_set(maps->dumped, ino);
	if ((uint32_t)in->i_ctime >= (uint32_t)ddate) {
		map_set(maps->dumped, ino);
		maps->estimate += blockest(dfs, in);
		/* -m: only the inode changed, not the data. */
		if (o->metadata_only && !isdir &&
		    (uint32_t)in->i_mtime < (uint32_t)ddate)
			map_set(maps->metaonly, ino);
	}
}

struct itable {
	blk64_t start;
	dgrp_t group;
};

static int
itable_cmp(const void *a, const void *b)
{
	const struct itable *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->group < y->group ? -1 : x->group > y->group;
}

/*
 * The groups whose inode table cannot be read as theirs: outside the
 * file system, or overlapping the table of a group with a lower number
 * (which keeps it: one of the two is wrong, and a stable rule beats a
 * guess).  Their inodes are skipped, each group reported once.  Returns
 * a malloced flag per group.
 */
static uint8_t *
bad_itables(const struct dump_fs *dfs)
{
	ext2_filsys fs = dfs->fs;
	dgrp_t g, n = fs->group_desc_count;
	blk64_t len = fs->inode_blocks_per_group, end = 0;
	blk64_t first = fs->super->s_first_data_block;
	struct itable *t = xreallocarray(NULL, n ? n : 1, sizeof(*t));
	uint8_t *bad = xcalloc(n ? n : 1, 1);
	dgrp_t i, owner = 0, other;

	for (g = 0; g < n; g++) {
		t[g].start = ext2fs_inode_table_loc(fs, g);
		t[g].group = g;
		if (t[g].start < first || t[g].start == 0 ||
		    t[g].start + len > ext2fs_blocks_count(fs->super)) {
			bad[g] = 1;
			msg("Error in the inode table of group %u: block %llu "
			    "is outside the file system; inodes %u-%u "
			    "skipped\n",
			    g, (unsigned long long)t[g].start,
			    g * fs->super->s_inodes_per_group + 1,
			    (g + 1) * fs->super->s_inodes_per_group);
		}
	}
	qsort(t, n, sizeof(*t), itable_cmp);
	for (i = 0; i < n; i++) {
		if (bad[t[i].group])
			continue;
		if (i > 0 && end > t[i].start) {
			/* Overlaps the table of group owner: the higher
			 * group number loses. */
			g = t[i].group > owner ? t[i].group : owner;
			other = t[i].group > owner ? owner : t[i].group;
			bad[g] = 1;
			if (g == owner) {
				owner = t[i].group;
				end = t[i].start + len;
			}
			msg("Error in the inode table of group %u: it overlaps "
			    "that of group %u; inodes %u-%u skipped\n",
			    g, other, g * fs->super->s_inodes_per_group + 1,
			    (g + 1) * fs->super->s_inodes_per_group);
			continue;
		}
		owner = t[i].group;
		end = t[i].start + len;
	}
	free(t);
	/* The summary counts the inodes the skipped groups have in use. */
	for (g = 0; g < n; g++)
		if (bad[g])
			optr_damage_add(fs->super->s_inodes_per_group -
					ext2fs_bg_free_inodes_count(fs, g));
	return bad;
}

/* Move the scan to the first group from g on that is not bad; -1 when
 * there is none. */
static int
skip_bad_groups(const struct dump_fs *dfs, ext2_inode_scan scan,
		const uint8_t *bad, dgrp_t g)
{
	errcode_t rc;

	while (g < dfs->fs->group_desc_count && bad[g])
		g++;
	if (g >= dfs->fs->group_desc_count)
		return -1;
	rc = ext2fs_inode_scan_goto_blockgroup(scan, (int)g);
	if (rc != 0) {
		optr_fs_error(rc, "Cannot read inode table of", dfs->device);
		dump_abort();
	}
	return 0;
}

static void
pass1(const struct dump_opts *o, const struct dump_fs *dfs, time_t ddate,
      struct dump_maps *maps)
{
	ext2_inode_scan scan;
	ext2_ino_t ino;
	struct ext2_inode_large *in;
	errcode_t rc;
	size_t isz =
	    dfs->inode_size > sizeof(*in) ? dfs->inode_size : sizeof(*in);
	ext2_ino_t ipg = dfs->fs->super->s_inodes_per_group;
	dgrp_t cur = 0;
	int scanning = 1;
	uint8_t *bad;

	rc = ext2fs_open_inode_scan(dfs->fs, 0, &scan);
	if (rc != 0) {
		optr_fs_error(rc, "Cannot scan inodes of", dfs->device);
		dump_abort();
	}
	in = xcalloc(1, isz);
	bad = bad_itables(dfs);
	if (bad[0] && skip_bad_groups(dfs, scan, bad, 0) < 0)
		scanning = 0;
	while (scanning) {
		rc = ext2fs_get_next_inode_full(
		    scan, &ino, (struct ext2_inode *)in, (int)dfs->inode_size);
		if (rc == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE)
			continue;
		/* Into a group bad_itables() reported: on to the next good
		 * one.  An inode table outside the file system fails as
		 * the scan enters its group, after the last inode of cur. */
		if (rc == 0 && ino != 0 && bad[(ino - 1) / ipg])
			rc = EXT2_ET_GDESC_BAD_INODE_TABLE;
		if (rc == EXT2_ET_GDESC_BAD_INODE_TABLE ||
		    rc == EXT2_ET_MISSING_INODE_TABLE) {
			if (skip_bad_groups(dfs, scan, bad, cur + 1) < 0)
				break;
			continue;
		}
		if (rc == 0 && ino != 0)
			cur = (ino - 1) / ipg;
		/* A damaged inode costs that inode only: a backup of a
		 * damaged file system should save everything else. */
		if (rc == EXT2_ET_INODE_IS_GARBAGE) {
			optr_damage(ino, rc, "inode skipped");
			continue;
		}
		if (rc == EXT2_ET_INODE_CSUM_INVALID) {
			optr_damage(ino, rc, "inode dumped as found");
			rc = 0;
		}
		if (rc != 0) {
			optr_fs_error(rc, "Cannot read inode table of",
				      dfs->device);
			dump_abort();
		}
		if (ino == 0)
			break;
		sig_check();
		if (in->i_mode != 0 && in->i_links_count != 0 &&
		    in->i_dtime == 0)
			map_inode(o, dfs, ddate, maps, ino, in);
	}
	free(bad);
	free(in);
	ext2fs_close_inode_scan(scan);
}

/* Pass I of a subset dump: the inodes subset.c listed, in its order. */
static void
pass1_subset(const struct dump_opts *o, const struct dump_fs *dfs, time_t ddate,
	     struct dump_maps *maps, const ext2_ino_t *order, size_t n)
{
	struct ext2_inode_large *in;
	size_t i,
	    isz = dfs->inode_size > sizeof(*in) ? dfs->inode_size : sizeof(*in);
	errcode_t rc;

	in = xcalloc(1, isz);
	for (i = 0; i < n; i++) {
		memset(in, 0, isz);
		rc = ext2fs_read_inode_full(dfs->fs, order[i],
					    (struct ext2_inode *)in,
					    (int)dfs->inode_size);
		if (rc == EXT2_ET_INODE_CSUM_INVALID) {
			optr_damage(order[i], rc, "inode dumped as found");
			rc = 0;
		}
		if (rc != 0) {
			optr_damage(order[i], rc, "inode skipped");
			continue;
		}
		if (in->i_mode != 0 && in->i_links_count != 0 &&
		    in->i_dtime == 0)
			map_inode(o, dfs, ddate, maps, order[i], in);
	}
	free(in);
}

static int
pass2_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *de, int offset,
	    int blocksize, char *buf, void *priv)
{
	struct pass2_ctx *c = priv;
	ext2_ino_t ino = de->inode;

	(void)dir;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!dirwalk_is_child(entry, de, c->maps->maxino))
		return 0;
	if (c->excluded) {
		/* Exclusion covers the whole subtree. */
		if (map_test(c->maps->dumped, ino)) {
			struct ext2_inode_large in;

			/* Taken back out of the estimate, as 0.4b47 does. */
			if (ext2fs_read_inode_full(c->dfs->fs, ino,
						   (struct ext2_inode *)&in,
						   sizeof(in)) == 0)
				c->maps->estimate -= blockest(c->dfs, &in);
			map_clear(c->maps->dumped, ino);
			c->changed = 1;
		}
		if (map_test(c->maps->dirs, ino) &&
		    !map_test(c->maps->excluded, ino)) {
			map_set(c->maps->excluded, ino);
			map_clear(c->maps->used, ino);
			c->changed = 1;
		}
		return 0;
	}
	if (map_test(c->maps->dumped, ino))
		c->result |= HAS_DUMPED_FILE;
	if (map_test(c->maps->dirs, ino))
		c->result |= HAS_SUBDIRS;
	return 0;
}

/* One round over the candidate directories; returns whether any map
 * changed. */
static int
pass2_round(const struct dump_opts *o, const struct dump_fs *dfs,
	    struct dump_maps *maps)
{
	struct pass2_ctx c;
	struct ext2_inode_large in;
	ext2_ino_t ino;
	int changed = 0;

	for (ino = 1; ino < maps->maxino; ino++) {
		if (!map_test(maps->dirs, ino))
			continue;
		sig_check();
		memset(&c, 0, sizeof(c));
		c.o = o;
		c.dfs = dfs;
		c.maps = maps;
		c.dir = ino;
		c.excluded = map_test(maps->excluded, ino);
		if (map_test(maps->dumped, ino) && !c.excluded)
			continue;
		if (ext2fs_read_inode_full(dfs->fs, ino,
					   (struct ext2_inode *)&in,
					   sizeof(in)) != 0) {
			map_clear(maps->dirs, ino);
			continue;
		}
		/* A damaged block costs its own entries only; pass III
		 * reports it. */
		(void)dirwalk(dfs, ino, &in, 0, pass2_entry, &c);
		changed |= c.changed;
		if (c.excluded) {
			map_clear(maps->dirs, ino);
			changed = 1;
			continue;
		}
		if ((c.result & HAS_SUBDIRS) == 0) {
			map_clear(maps->dirs, ino);
			changed = 1;
		}
		if (c.result & HAS_DUMPED_FILE) {
			map_set(maps->dumped, ino);
			maps->estimate += blockest(dfs, &in);
			changed = 1;
		}
	}
	return changed;
}

void
traverse_map(const struct dump_opts *o, const struct dump_fs *dfs, time_t ddate,
	     struct dump_maps *maps)
{
	alloc_maps(dfs, maps);
	if (!o->estimate_only)
		msg("mapping (Pass I) [regular files]\n");
	pass1(o, dfs, ddate, maps);
	if (!o->estimate_only)
		msg("mapping (Pass II) [directories]\n");
	while (pass2_round(o, dfs, maps))
		;
}

int
traverse_map_subset(const struct dump_opts *o, const struct dump_fs *dfs,
		    const struct dump_subset *sub, time_t ddate,
		    struct dump_maps *maps)
{
	ext2_ino_t *order;
	size_t n;

	alloc_maps(dfs, maps);
	if (!o->estimate_only)
		msg("mapping (Pass I) [regular files]\n");
	if (subset_visit(dfs, sub, &order, &n) < 0) {
		free(order);
		return -1;
	}
	pass1_subset(o, dfs, ddate, maps, order, n);
	free(order);
	if (!o->estimate_only)
		msg("mapping (Pass II) [directories]\n");
	while (pass2_round(o, dfs, maps))
		;
	return 0;
}

void
traverse_free_maps(struct dump_maps *maps)
{
	free(maps->used);
	free(maps->dumped);
	free(maps->dirs);
	free(maps->excluded);
	free(maps->metaonly);
	memset(maps, 0, sizeof(*maps));
}

static ext2_ino_t
first_dumped(const struct dump_maps *maps)
{
	ext2_ino_t ino;

	for (ino = 1; ino < maps->maxino; ino++)
		if (map_test(maps->dumped, ino))
			return ino;
	return 0;
}

/* One map record: header (built from zero) plus the bitmap blocks. */
static void
dump_one_map(const struct dump_maps *maps, int type, ext2_ino_t ino,
	     const uint8_t *map)
{
	union u_spcl h;
	size_t nblocks = maps->mapsize / TP_BSIZE;

	inode_new_header(&h, type, ino);
	h.s_spcl.c_count = (int32_t)nblocks;
	h.s_spcl.c_dinode.di_size = maps->mapsize;
	tape_header(&h);
	tape_mem(map, nblocks);
}

void
traverse_dump_maps(const struct dump_fs *dfs, const struct dump_maps *maps)
{
	dump_one_map(maps, TS_CLRI, dfs->maxino - 1, maps->used);
	dump_one_map(maps, TS_BITS, first_dumped(maps), maps->dumped);
}

/* Pass III (dirs != 0) or pass IV: every selected inode of that kind. */
void
traverse_dump_inodes(const struct dump_opts *o, const struct dump_fs *dfs,
		     const struct dump_maps *maps, int dirs)
{
	struct ext2_inode_large *in;
	size_t isz =
	    dfs->inode_size > sizeof(*in) ? dfs->inode_size : sizeof(*in);
	ext2_ino_t ino;
	errcode_t rc;

	msg(dirs ? "dumping (Pass III) [directories]\n"
		 : "dumping (Pass IV) [regular files]\n");
	in = xcalloc(1, isz);
	for (ino = 1; ino < maps->maxino; ino++) {
		if (!map_test(maps->dumped, ino))
			continue;
		memset(in, 0, isz);
		rc = ext2fs_read_inode_full(dfs->fs, ino,
					    (struct ext2_inode *)in,
					    (int)dfs->inode_size);
		if (rc != 0) {
			optr_damage(ino, rc, "inode unreadable, skipped");
			continue;
		}
		/* An inode whose type changed since mapping is skipped in
		 * the wrong pass. */
		if ((LINUX_S_ISDIR(in->i_mode) != 0) != (dirs != 0))
			continue;
		/* Mapped with links in pass I: removed since. */
		if (in->i_links_count == 0)
			changes_report(ino, "file removed as we read it");
		inode_dump(o, dfs, maps, ino, in);
		if (LINUX_S_ISREG(in->i_mode) || LINUX_S_ISLNK(in->i_mode))
			changes_watch(ino, in, tape_blocks());
		changes_poll(tape_blocks_read());
		sig_check(); /* once per inode: a signal is acted on soon */
	}
	free(in);
}
