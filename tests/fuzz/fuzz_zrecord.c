/*
 * fuzz_zrecord.c - the records of a compressed archive (dump -z, -j,
 * -y): the 4-byte record prefix (flag, method, length; its other bit
 * layout in a foreign-order archive), zlib/bzip2/LZO decompression into
 * one record, and the headers found in what comes out.
 *
 * Input: one flags byte (bit 0: other byte order; bits 1-2: the method
 * also tried directly on the whole rest), a 4-byte little-endian dump
 * date, then the records that follow the first (raw) record of a
 * volume.  The target writes that first record: volume header with
 * DR_COMPRESSED, the maps and an empty root directory, dated as given,
 * so that records cut from a real archive after its first record read
 * on as they did there.
 */
#include <endian.h>
#include <string.h>
#include <sys/stat.h>

#include "restore.h"
#include "extern.h"
#include "decompress.h"
#include "harness.h"
#include "walk.h"

#define PREFIX_LEN 5
/* ab_start's five blocks and the root directory's header. */
#define ROOT_BLOCKS (NTREC - 6)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char out[NTREC * TP_BSIZE];
	unsigned char root[ROOT_BLOCKS * TP_BSIZE];
	struct abuf b = {NULL, 0, 0};
	size_t outlen = sizeof(out);
	const char *why;
	int32_t date;
	int swapped;

	if (size < PREFIX_LEN)
		return 0;
	swapped = data[0] & 1;
	(void)decompress_record((data[0] >> 1) & 3, data + PREFIX_LEN,
				size - PREFIX_LEN, out, &outlen, &why);
	memcpy(&date, data + 1, sizeof(date));
	ab_date = (int32_t)le32toh((uint32_t)date);
	ab_start(&b, swapped, DR_COMPRESSED, NTREC);
	memset(root, 0, sizeof(root));
	ab_file(&b, swapped, ROOTINO, S_IFDIR | 0755, 0, root, sizeof(root),
		sizeof(root));
	ab_data(&b, data + PREFIX_LEN, size - PREFIX_LEN);
	ab_date = FUZZ_DATE;
	fuzz_restore_input(b.p, b.len);
	ab_free(&b);
	(void)fuzz_try(fuzz_restore_walk, NULL);
	fuzz_restore_done();
	return 0;
}
