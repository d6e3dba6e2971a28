/*
 * ask.h - yes/no questions to the operator, answered on /dev/tty.
 */
#ifndef DUMP_ASK_H
#define DUMP_ASK_H

/*
 * Print "  DUMP: <question>: ("yes" or "no") " on stderr and read the
 * answer from /dev/tty until it starts with y/Y (returns 1) or n/N
 * (returns 0).  With noask (-q) the question is printed as
 * "<question> - forced abort" and the dump aborts; so does a terminal
 * that cannot be opened or keeps failing.
 */
int ask_operator(const char *question, int noask);

#endif /* DUMP_ASK_H */
