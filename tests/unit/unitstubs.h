/*
 * unitstubs.h - what dumpstubs.c's stand-ins recorded.
 */
#ifndef UNITSTUBS_H
#define UNITSTUBS_H

extern int stub_report_calls, stub_report_all;
extern const char *stub_preconnect;
extern long stub_tape_blksize;

#endif /* UNITSTUBS_H */
