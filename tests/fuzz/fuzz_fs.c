/*
 * fuzz_fs.c - dump's file-system reader on a damaged image: the input
 * is the image, opened as dump opens a device (libext2fs, unix I/O) and
 * walked as dump's master walks it: pass I (inode scan, estimate), pass
 * II (directories), the maps, passes III and IV (block maps, extents,
 * holes, inline data, directory conversion, EA blocks, symlinks).  The
 * output pipeline is dump_stubs.c.  Seeds: tiny images of each kind
 * made with mke2fs -d.
 */
#include <stdio.h>
#include <string.h>

#include "dump.h"
#include "changes.h"
#include "optr.h"
#include "harness.h"
#include "fsfuzz.h"

struct run {
	struct dump_opts o;
	struct dump_fs dfs;
	struct dump_maps maps;
};

static void
walk(void *arg)
{
	struct run *r = arg;
	union u_spcl ident;

	memset(&ident, 0, sizeof(ident));
	ident.s_spcl.c_date = FUZZ_DATE;
	inode_set_ident(&ident);
	traverse_map(&r->o, &r->dfs, 0, &r->maps);
	traverse_dump_maps(&r->dfs, &r->maps);
	changes_start(&r->dfs, &r->maps);
	traverse_dump_inodes(&r->o, &r->dfs, &r->maps, 1);
	traverse_dump_inodes(&r->o, &r->dfs, &r->maps, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct run r;
	ext2_filsys fs;
	int fd = fuzz_memfd(data, size);

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (ext2fs_open2(path, NULL, EXT2_FLAG_64BITS, 0, 0, unix_io_manager,
			 &fs) != 0)
		return 0;
	fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	memset(&r, 0, sizeof(r));
	r.o.level = 0;
	r.o.honor_level = DEFAULT_HONOR_LEVEL;
	r.o.ntrec = NTREC;
	r.dfs.fs = fs;
	r.dfs.device = path;
	r.dfs.filesys = path;
	r.dfs.blocksize = fs->blocksize;
	r.dfs.inode_size = (unsigned)EXT2_INODE_SIZE(fs->super);
	r.dfs.maxino = fs->super->s_inodes_count + 1;
	fuzz_fs_bytes = ext2fs_blocks_count(fs->super) * fs->blocksize;
	/* The damage map is sized once per process: count only. */
	optr_damage_setup(0);
	(void)fuzz_try(walk, &r);
	(void)changes_finish();
	traverse_free_maps(&r.maps);
	ext2fs_close_free(&fs);
	return 0;
}
