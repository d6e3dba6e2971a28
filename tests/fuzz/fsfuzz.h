/* fsfuzz.h - fuzz_fs.c and its tape stubs (dump_stubs.c). */
#ifndef FUZZ_FSFUZZ_H
#define FUZZ_FSFUZZ_H
#include <stdint.h>
/* Size of the file system being dumped: blocks count x block size. */
extern uint64_t fuzz_fs_bytes;
#endif
