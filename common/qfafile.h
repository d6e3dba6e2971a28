/*
 * qfafile.h - the QFA position file (qfa-and-toc.md 1.1), written by
 * dump -Q and restore -P, read by restore -Q: its title lines.
 */
#ifndef QFAFILE_H
#define QFAFILE_H

#define QFA_MAGIC	"495115637697"
#define QFA_VERSION	"1.0"
#define QFA_COLUMNS	"ino\ttapeno\ttapepos"

#endif /* QFAFILE_H */
