/* walk.h - restore_walk.c: restore -t's reading of the whole archive. */
#ifndef FUZZ_WALK_H
#define FUZZ_WALK_H
void fuzz_restore_walk(void *arg);
#endif
