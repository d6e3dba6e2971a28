/*
 * qfafile.h - the QFA position file (doc/format.md 13), written by
 * dump -Q and restore -P, read by restore -Q: its title lines.
 */
#ifndef QFAFILE_H
#define QFAFILE_H

#define QFA_MAGIC   "495115637697"
#define QFA_VERSION "1.0"
#define QFA_COLUMNS "ino\ttapeno\ttapepos"

#endif /* QFAFILE_H */
