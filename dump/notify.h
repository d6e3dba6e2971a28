/* notify.h - dump -n: messages to the operators' terminals. */
#ifndef DUMP_NOTIFY_H
#define DUMP_NOTIFY_H

/* Look up group "operator"; without it -n does nothing (and says so). */
void notify_setup(void);
/* Write MESSAGE to every logged-in operator's terminal, if set up. */
void notify_operators(const char *message);

#endif
