/*
 * changes.h - files that changed while dump read them (changes.c).
 */
#ifndef DUMP_CHANGES_H
#define DUMP_CHANGES_H

#include <stdint.h>

#include "dump.h"

/* Before pass III: open the device for re-reading inodes; the
 * directories of maps name the files reported. */
void changes_start(const struct dump_fs *dfs, const struct dump_maps *maps);

/* Inode ino was archived as *in; its data ends before tape block end. */
void changes_watch(ext2_ino_t ino, const struct ext2_inode_large *in,
		   uint64_t end);

/* Check the watched files whose data lies in the first read_blocks
 * tape blocks (tape_blocks_read()). */
void changes_poll(uint64_t read_blocks);

/* Report an inode that changed in another way ("PATH: what", or
 * "inode N: what" when no directory names it) and count it. */
void changes_report(ext2_ino_t ino, const char *what);

/* After the last record was written: check the rest; returns how many
 * files changed as they were read. */
uint64_t changes_finish(void);

#endif /* DUMP_CHANGES_H */
