/*
 * verify.h - dump --verify: the read-back of each finished volume
 * (verify.c).
 */
#ifndef DUMP_VERIFY_H
#define DUMP_VERIFY_H

/*
 * Read volume `volume` back from the file name (closed and fsynced) and
 * check it, carrying the state of the volumes before; last: the dump
 * ends on it.  Says on one line whether it verified (and on one line
 * each what is wrong); 0 when it did, -1 otherwise.
 */
int verify_volume(const char *name, int volume, int compressed, int ntrec,
		  int last);
/* The volume ended at the end of the media: no volume after it can be
 * followed (its cut record is written again on the next one). */
void verify_stop(int volume);

#endif /* DUMP_VERIFY_H */
