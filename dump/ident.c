/*
 * ident.c - the dump's identity fields and the fresh headers that carry
 * them.
 *
 * Every header is built from zero: only c_date, c_ddate, c_level,
 * c_label, c_filesys, c_dev and c_host come from the template main.c
 * sets once, so no stale field of an earlier header reaches the archive.
 * inode.c, ea.c, traverse.c and main.c all start their headers here.
 */
#include <string.h>

#include "dump.h"

static union u_spcl ident_tmpl;

void
inode_set_ident(const union u_spcl *ident)
{
	ident_tmpl = *ident;
}

/* A fresh header carrying only the dump's identity fields. */
void
inode_new_header(union u_spcl *h, int type, ext2_ino_t ino)
{
	const struct s_spcl *t = &ident_tmpl.s_spcl;
	struct s_spcl *s = &h->s_spcl;

	memset(h, 0, sizeof(*h));
	s->c_type = type;
	s->c_date = t->c_date;
	s->c_ddate = t->c_ddate;
	s->c_level = t->c_level;
	s->c_inumber = ino;
	memcpy(s->c_label, t->c_label, sizeof(s->c_label));
	memcpy(s->c_filesys, t->c_filesys, sizeof(s->c_filesys));
	memcpy(s->c_dev, t->c_dev, sizeof(s->c_dev));
	memcpy(s->c_host, t->c_host, sizeof(s->c_host));
}
