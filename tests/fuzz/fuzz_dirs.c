/*
 * fuzz_dirs.c - dumped directories as restore reads them (pass III):
 * entry validation, refused names, the breadth-first choice of one name
 * per directory, the tree of names and its paths.
 *
 * Input: one flags byte (bit 0: the archive is in the other byte order),
 * then directories, each a 4-byte little-endian inode number, a 2-byte
 * little-endian length and that many bytes of directory image (struct
 * direct records, as dump writes them).  The target wraps them in the
 * records of an archive around them.
 */
#include <endian.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "walk.h"

#define MAX_DIRS 64

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct abuf b = {NULL, 0, 0};
	union u_spcl h;
	int swapped;

	if (size < 1)
		return 0;
	swapped = data[0] & 1;
	data++;
	size--;
	ab_start(&b, swapped, 0, NTREC);
	for (int n = 0; n < MAX_DIRS && size >= 6; n++) {
		uint32_t ino;
		uint16_t len;

		memcpy(&ino, data, sizeof(ino));
		memcpy(&len, data + 4, sizeof(len));
		ino = le32toh(ino);
		len = le16toh(len);
		data += 6;
		size -= 6;
		if (len > size)
			len = (uint16_t)size;
		ab_file(&b, swapped, ino, S_IFDIR | 0755, 0, data, len, len);
		data += len;
		size -= len;
	}
	ab_init_header(&h, TS_END, 0);
	ab_header(&b, &h, swapped);
	fuzz_restore_input(b.p, b.len);
	ab_free(&b);
	(void)fuzz_try(fuzz_restore_walk, NULL);
	fuzz_restore_done();
	return 0;
}
