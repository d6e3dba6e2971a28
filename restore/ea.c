/*
 * ea.c - extended attributes: walk the payloads of EA records, set or
 * compare each attribute.
 *
 * A payload is an ext4 EA block (magic 0xEA020000, values at block
 * offsets) or an in-inode area (0xEA020001, values relative to the first
 * entry), doc/format.md 8.  Every offset and length is checked against
 * the payload before use.  POSIX ACLs are stored in the ext4 on-disk form
 * and converted here to the kernel's xattr form before lsetxattr.  All
 * on-disk integers are little-endian whatever the dumping host was.
 *
 * An entry may name an EA inode instead of holding its value: 0.4b56
 * archives that inode as a nameless file, often after the files that
 * use it (8.5).  Its value is taken from eainode.c when it came already;
 * otherwise the set or compare waits in a list until the walk brings it
 * (ea_resolve) or ends without it (ea_walk_done).
 */
#include <endian.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "restore.h"
#include "extern.h"
#include "xalloc.h"

#define EA_BLOCK_HDR	  32 /* struct ext2_ext_attr_header */
#define EA_ENTRY_HDR	  16 /* struct ext2_ext_attr_entry */
#define EA_NAME_MAX	  255
#define ACL_EXT4_VERSION  1
#define ACL_XATTR_VERSION 2
#define ACL_USER_OBJ	  0x01
#define ACL_USER	  0x02
#define ACL_GROUP_OBJ	  0x04
#define ACL_GROUP	  0x08
#define ACL_MASK	  0x10
#define ACL_OTHER	  0x20
#define ACL_UNDEFINED_ID  0xffffffffu
/* Widest form of one byte of a value in a message: "\ooo". */
#define VALUE_ESC_LEN 4
/* Bytes of a value over EA_MAX_PAYLOAD shown in a message. */
#define VALUE_SHOW_MAX 64

static uint16_t
get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static uint32_t
get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

/* ext4 ACL -> kernel xattr ACL; returns the new length or 0 if bad. */
static size_t
acl_convert(const unsigned char *in, size_t len, unsigned char *out,
	    size_t outcap)
{
	size_t o = 4, i = 4;
	uint32_t v;

	if (len < 4 || get32(in) != ACL_EXT4_VERSION || outcap < 4)
		return 0;
	v = htole32(ACL_XATTR_VERSION);
	memcpy(out, &v, 4);
	while (i < len) {
		uint16_t tag, perm;
		uint32_t id = ACL_UNDEFINED_ID;

		if (i + 4 > len || o + 8 > outcap)
			return 0;
		tag = get16(in + i);
		perm = get16(in + i + 2);
		i += 4;
		if (tag == ACL_USER || tag == ACL_GROUP) {
			if (i + 4 > len)
				return 0;
			id = get32(in + i);
			i += 4;
		} else if (tag != ACL_USER_OBJ && tag != ACL_GROUP_OBJ &&
			   tag != ACL_MASK && tag != ACL_OTHER)
			return 0;
		tag = htole16(tag);
		perm = htole16(perm);
		id = htole32(id);
		memcpy(out + o, &tag, 2);
		memcpy(out + o + 2, &perm, 2);
		memcpy(out + o + 4, &id, 4);
		o += 8;
	}
	return o;
}

/* Attributes of an index this restore does not know, skipped, records
 * that could not be read or walked to their end, values missing. */
static unsigned long nskipped;

unsigned long
ea_skipped(void)
{
	return nskipped;
}

void
ea_count_error(void)
{
	nskipped++;
}

/* One entry of a payload, its offsets checked against the payload. */
struct ea_entry {
	unsigned nlen, idx;
	const char *name; /* nlen bytes, not terminated */
	const unsigned char *val; /* NULL: in EA inode inum */
	size_t vsize;
	uint32_t inum;
};

/* Where the entries of payload p start: 0 for an unknown magic. */
static size_t
ea_first_entry(const unsigned char *p, size_t len)
{
	if (len < 4)
		return 0;
	if (get32(p) == EXT2_XATTR_MAGIC)
		return EA_BLOCK_HDR;
	if (get32(p) == EXT2_XATTR_MAGIC2)
		return 4;
	return 0;
}

/*
 * Decode the entry at *off of a payload whose entries start at first,
 * and move *off to the next.  1: an entry; 0: the end of the list; -1: an
 * entry that does not fit the payload, or names an EA inode for a value
 * larger than any EA value.
 */
static int
ea_entry_next(const unsigned char *p, size_t len, size_t first, size_t *off,
	      struct ea_entry *e)
{
	size_t o = *off, voff, vbase = first == 4 ? 4 : 0;

	if (o + 4 > len || get32(p + o) == 0)
		return 0;
	e->nlen = p[o];
	e->idx = p[o + 1];
	if (o + EA_ENTRY_HDR + e->nlen > len)
		return -1;
	voff = get16(p + o + 2);
	e->inum = get32(p + o + 4);
	e->vsize = get32(p + o + 8);
	if (e->inum != 0 ? e->vsize > XATTR_VALUE_MAX
			 : vbase + voff + e->vsize > len)
		return -1;
	e->name = (const char *)p + o + EA_ENTRY_HDR;
	e->val = e->inum != 0 ? NULL : p + vbase + voff;
	*off = o + ((EA_ENTRY_HDR + e->nlen + 3) & ~(size_t)3);
	return 1;
}

/* ext4 keeps an inline-data inode's bytes beyond i_block here. */
static bool
is_inline_data(const struct ea_entry *e)
{
	return e->idx == 7 && e->nlen == 4 && memcmp(e->name, "data", 4) == 0;
}

/*
 * The value of system.data in the payloads of ea, or NULL: the content
 * of an inline-data inode beyond its first 60 bytes.  Quiet: the walk
 * that sets or compares the attributes reports damage.
 */
const unsigned char *
ea_inline_data(const struct ealist *ea, size_t *len)
{
	for (size_t i = 0; i < EA_SLOT_BIG; i++) {
		const unsigned char *p = ea->payload[i];
		size_t first = ea_first_entry(p, ea->len[i]), off = first;
		struct ea_entry e;

		while (p != NULL && first != 0 &&
		       ea_entry_next(p, ea->len[i], first, &off, &e) > 0)
			if (is_inline_data(&e) && e.val != NULL) {
				*len = e.vsize;
				return e.val;
			}
	}
	return NULL;
}

/* Turn an ACL value into the kernel's form in *conv; 0 if malformed. */
static size_t
acl_to_xattr(const void *val, size_t vsize, unsigned char **conv)
{
	*conv = xrealloc(*conv, vsize * 2 + 8);
	return acl_convert(val, vsize, *conv, vsize * 2 + 8);
}

static bool
is_acl_name(const char *name)
{
	return strcmp(name, "system.posix_acl_access") == 0 ||
	    strcmp(name, "system.posix_acl_default") == 0;
}

/* Set once the walk over the inodes ended: a value from an EA inode not
 * seen by then is not on the archive. */
static bool walk_over;
/* Values from EA inodes that could not be had. */
static unsigned long nmissing;

/*
 * The value of entry e, kept in EA inode e->inum: *val NULL while the
 * walk may still bring it.  false (reported) when it cannot come.
 */
static bool
big_value(const struct ea_entry *e, const char *path, const char *name,
	  const void **val)
{
	size_t have;

	*val = eai_value(e->inum, &have);
	if (*val != NULL && have != e->vsize) {
		rmsg("%s: EA %s: EA inode %lu holds %zu bytes, not %zu\n", path,
		     name, (unsigned long)e->inum, have, e->vsize);
		nskipped++;
		nmissing++;
		return false;
	}
	if (*val == NULL && walk_over) {
		rmsg("%s: EA %s: its value (EA inode %lu) is not on the "
		     "archive\n",
		     path, name, (unsigned long)e->inum);
		nskipped++;
		nmissing++;
		return false;
	}
	return true;
}

/* What is called for each attribute: val NULL while the value waits in
 * EA inode inum (ea_resolve). */
typedef int (*ea_fn)(const char *name, const void *val, size_t len,
		     uint32_t inum, void *arg);

/*
 * Walk one payload and call fn for each attribute.  An attribute of an
 * unknown index (9, the fscrypt context of an encrypted inode, which only
 * the kernel may set) is reported and skipped; the others are still set.
 * Returns the number of attributes seen, or -1 if the walk stopped at a
 * bad entry (after reporting it).
 */
static int
ea_walk(const unsigned char *p, size_t len, const char *path, uint32_t ino,
	ea_fn fn, void *arg)
{
	size_t first = ea_first_entry(p, len), off = first, at = first;
	int count = 0, r = 0;
	unsigned char *conv = NULL;
	struct ea_entry e;

	if (len < 4)
		return 0;
	if (first == 0) {
		rmsg("%s: EA magic 0x%08lx unknown\n", path,
		     (unsigned long)get32(p));
		nskipped++;
		return -1;
	}
	for (;;) {
		char name[EA_NAME_MAX + 32];
		const char *prefix;
		const void *val;
		size_t vsize;

		at = off;
		if ((r = ea_entry_next(p, len, first, &off, &e)) <= 0)
			break;
		val = e.val;
		vsize = e.vsize;
		switch (e.idx) {
		case 1: prefix = "user."; break;
		case 2: prefix = "system.posix_acl_access"; break;
		case 3: prefix = "system.posix_acl_default"; break;
		case 4: prefix = "trusted."; break;
		case 6: prefix = "security."; break;
		case 7: prefix = "system."; break;
		default:
			/* One line: an encrypted name may hold any byte. */
			report_name(path, strlen(path), stderr);
			rmsg(": Unknown EA index %u (inode %lu): "
			     "skipped\n",
			     e.idx, (unsigned long)ino);
			nskipped++;
			continue;
		}
		/* Inline data is file content, not an attribute to set. */
		if (is_inline_data(&e))
			continue;
		snprintf(name, sizeof(name), "%s%.*s", prefix, (int)e.nlen,
			 e.name);
		if (e.inum != 0 && !big_value(&e, path, name, &val)) {
			count++; /* it is one of the archived set */
			continue;
		}
		if (val != NULL && (e.idx == 2 || e.idx == 3)) {
			if ((vsize = acl_to_xattr(val, vsize, &conv)) == 0)
				goto bad;
			val = conv;
		}
		if (fn(name, val, vsize, e.inum, arg) != 0)
			break;
		count++;
	}
	if (r < 0)
		goto bad;
	free(conv);
	return count;
bad:
	nskipped++; /* what it held is not set: exit non-zero */
	rmsg("%s: malformed EA entry at offset %zu\n", path, at);
	free(conv);
	return -1;
}

/*
 * Walk every payload of ea: the two records, then each EA block that
 * brought a value from an EA inode (earead.c frames them).  Returns the
 * attributes seen; *whole is cleared if a walk stopped early.
 */
static int
ea_walk_all(const struct ealist *ea, const char *path, ea_fn fn, void *arg,
	    bool *whole)
{
	const unsigned char *big = ea->payload[EA_SLOT_BIG];
	size_t blen = ea->len[EA_SLOT_BIG], off = 0;
	int count = 0, n;
	uint32_t l;

	*whole = true;
	for (size_t i = 0; i < EA_SLOT_BIG; i++) {
		if (ea->payload[i] == NULL)
			continue;
		n = ea_walk(ea->payload[i], ea->len[i], path, ea->ino, fn, arg);
		if (n < 0)
			*whole = false;
		else
			count += n;
	}
	while (big != NULL && blen - off >= sizeof(l)) {
		memcpy(&l, big + off, sizeof(l));
		off += sizeof(l);
		if (l > blen - off)
			break; /* cannot be: earead.c wrote it */
		n = ea_walk(big + off, l, path, ea->ino, fn, arg);
		if (n < 0)
			*whole = false;
		else
			count += n;
		off += ((size_t)l + 3) & ~(size_t)3;
	}
	return count;
}

struct setctx {
	int fd; /* open object, or -1 to use target */
	const char *target; /* path usable with lsetxattr */
	const char *path; /* for messages */
	char **names; /* every name the archive gives */
	size_t nnames;
};

/*
 * Namespaces whose attributes are the file's own, so that one on disk but
 * not in the archive is stale: left over from an earlier restore -r of
 * an inode an incremental now brings, or an access ACL inherited from a
 * parent's default ACL.  security.* is not here: a security module labels
 * new files itself and the label must stay.
 */
static const char *const owned_prefix[] = {
    "user.",
    "trusted.",
    "system.posix_acl_access",
    "system.posix_acl_default",
};

/*
 * Names a file system lists beside the attributes that are not ones of
 * their own: ext4's inline data, and XFS's ACLs under a second name
 * (listed to root with system.posix_acl_*; removing one removes the
 * ACL).  Never stale, never counted against the archive.
 */
static bool
is_second_view(const char *name)
{
	return strcmp(name, "system.data") == 0 ||
	    strcmp(name, "trusted.SGI_ACL_FILE") == 0 ||
	    strcmp(name, "trusted.SGI_ACL_DEFAULT") == 0;
}

/*
 * A value as 0.4b47 prints it in its messages (as a C string, so up to
 * the first NUL), with bytes that are not printable ASCII written as
 * \ooo so that binary values (ACLs) cannot reach the terminal raw.
 * Printable ASCII, backslash included, is copied as 0.4b47 prints it.
 * Returns a new string.
 */
static char *
value_text(const void *val, size_t len)
{
	const unsigned char *v = val;
	/* Values from EA inodes (up to 64 KiB) are cut in messages. */
	size_t show = len > EA_MAX_PAYLOAD ? VALUE_SHOW_MAX : len;
	char *s = xreallocarray(NULL, show + 4, VALUE_ESC_LEN);
	size_t o = 0, i;

	for (i = 0; i < show && v[i] != '\0'; i++) {
		if (v[i] >= ' ' && v[i] < 0x7f)
			s[o++] = (char)v[i];
		else
			o += (size_t)sprintf(s + o, "\\%03o", v[i]);
	}
	if (i == show && show < len)
		o += (size_t)sprintf(s + o, "...");
	s[o] = '\0';
	return s;
}

/*
 * Set one value on fd, or when it is -1 on target.  A value that cannot
 * be set is reported in 0.4b47's words, but unlike 0.4b47 (which drops
 * the rest of the record after one failure) the walk goes on: one
 * unsupported namespace must not cost the others.  A target without
 * attributes (ENOTSUP) only costs the message, as in 0.4b47; a value
 * too large for a target that has them is lost data: exit non-zero.
 */
static void
put_value(int fd, const char *target, const char *path, const char *name,
	  const void *val, size_t len)
{
	if ((fd >= 0 ? fsetxattr(fd, name, val, len, 0)
		     : lsetxattr(target, name, val, len, 0)) != 0) {
		int e = errno;
		char *t = value_text(val, len);

		if (e == ENOSPC || e == E2BIG || e == ERANGE)
			nskipped++;
		errno = e;
		warn("%s: EA set %s:%s failed", path, name, t);
		free(t);
	}
}

/* The sets and compares waiting for the EA inode that holds the value. */
struct pending {
	char *path, *name;
	uint32_t inum;
	size_t size;
	bool cmp;
};
static struct pending *pend;
static size_t npend;
/* Differences found by the compares that waited (ea_late_diffs). */
static int late_diffs;

static void
defer(const char *path, const char *name, uint32_t inum, size_t size, bool cmp)
{
	struct pending *p;

	pend = xreallocarray(pend, npend + 1, sizeof(*pend));
	p = &pend[npend++];
	p->path = xstrdup(path);
	p->name = xstrdup(name);
	p->inum = inum;
	p->size = size;
	p->cmp = cmp;
}

static int
set_one(const char *name, const void *val, size_t len, uint32_t inum, void *arg)
{
	struct setctx *c = arg;

	c->names = xreallocarray(c->names, c->nnames + 1, sizeof(*c->names));
	c->names[c->nnames++] = xstrdup(name);
	if (val == NULL)
		defer(c->path, name, inum, len, false);
	else
		put_value(c->fd, c->target, c->path, name, val, len);
	return 0;
}

static bool
is_owned(const char *name)
{
	for (size_t i = 0; i < sizeof(owned_prefix) / sizeof(*owned_prefix);
	     i++)
		if (strncmp(name, owned_prefix[i], strlen(owned_prefix[i])) ==
		    0)
			return true;
	return false;
}

static bool
in_archive(const struct setctx *c, const char *name)
{
	for (size_t i = 0; i < c->nnames; i++)
		if (strcmp(c->names[i], name) == 0)
			return true;
	return false;
}

/* Remove the owned attributes of the object that the archive lacks. */
static void
drop_stale(const struct setctx *c)
{
	ssize_t len = c->fd >= 0 ? flistxattr(c->fd, NULL, 0)
				 : llistxattr(c->target, NULL, 0);
	char *list;

	if (len <= 0)
		return; /* none, or no attribute support at all */
	list = xmalloc((size_t)len);
	len = c->fd >= 0 ? flistxattr(c->fd, list, (size_t)len)
			 : llistxattr(c->target, list, (size_t)len);
	for (ssize_t i = 0; i < len; i += (ssize_t)strlen(list + i) + 1) {
		const char *n = list + i;

		if (!is_owned(n) || is_second_view(n) || in_archive(c, n))
			continue;
		if ((c->fd >= 0 ? fremovexattr(c->fd, n)
				: lremovexattr(c->target, n)) != 0 &&
		    errno != ENODATA)
			warn("%s: EA remove %s failed", c->path, n);
	}
	free(list);
}

/*
 * Set the attributes on fd, or when it is -1 on target (a path whose
 * last component lsetxattr does not follow), then drop the stale ones,
 * so that the object ends with exactly the archived set.  A payload
 * that could not be walked to its end leaves the set unknown: nothing
 * is removed then.  fresh: the object was just made and inherited no
 * ACL, so it has nothing stale and its list is not read (one system
 * call less per file).
 */
void
ea_apply(const struct ealist *ea, int fd, const char *target, const char *path,
	 bool fresh)
{
	struct setctx c = {fd, target, path, NULL, 0};
	unsigned long before = nmissing;
	bool whole;

	(void)ea_walk_all(ea, path, set_one, &c, &whole);
	if (nmissing != before)
		whole = false; /* a value missing: keep what the disk has */
	if (whole && !fresh)
		drop_stale(&c);
	for (size_t i = 0; i < c.nnames; i++)
		free(c.names[i]);
	free(c.names);
}

struct cmpctx {
	const char *target, *path;
	int diffs;
};

/*
 * One archived attribute against the disk, with 0.4b47's messages: a
 * missing attribute is a failed lgetxattr, a different one shows both
 * values.  Returns 1 for a difference (0.4b47 stops at the first of a
 * record; we report them all).
 */
static int
cmp_value(const char *target, const char *path, const char *name,
	  const void *val, size_t len)
{
	ssize_t n = lgetxattr(target, name, NULL, 0);
	char *disk = NULL, *t, *d;
	int diff = 0;

	if (n >= 0) {
		disk = xmalloc((size_t)n + 1);
		n = lgetxattr(target, name, disk, (size_t)n + 1);
	}
	if (n < 0) {
		/* ERANGE: it grew between the two calls; still a change. */
		if (errno != ERANGE) {
			warn("%s: EA compare lgetxattr for %s failed", path,
			     name);
			free(disk);
			return 1;
		}
		n = 0;
	}
	if ((size_t)n != len || memcmp(disk, val, len) != 0) {
		t = value_text(val, len);
		d = value_text(disk, (size_t)n);
		rmsg("%s: EA %s value changed from %s on tape to "
		     "%s on disk\n",
		     path, name, t, d);
		free(t);
		free(d);
		diff = 1;
	}
	free(disk);
	return diff;
}

static int
cmp_one(const char *name, const void *val, size_t len, uint32_t inum, void *arg)
{
	struct cmpctx *c = arg;

	if (val == NULL)
		defer(c->path, name, inum, len, true);
	else
		c->diffs += cmp_value(c->target, c->path, name, val, len);
	return 0;
}

/* Compare the archived attributes with the disk; returns differences. */
int
ea_compare(const struct ealist *ea, const char *target, const char *path)
{
	struct cmpctx c = {target, path, 0};
	bool whole;
	int count = ea_walk_all(ea, path, cmp_one, &c, &whole);
	ssize_t disk;
	char *names;

	disk = llistxattr(target, NULL, 0);
	if (disk > 0) {
		int ndisk = 0;

		names = xmalloc((size_t)disk);
		disk = llistxattr(target, names, (size_t)disk);
		for (ssize_t i = 0; i < disk;
		     i += (ssize_t)strlen(names + i) + 1)
			if (!is_second_view(names + i))
				ndisk++;
		free(names);
		if (ndisk != count) {
			rmsg("%s: file does not have the same "
			     "number of attributes (%d) as the tape (%d).\n",
			     path, ndisk, count);
			c.diffs++;
		}
	} else if (count > 0) {
		rmsg("%s: file does not have the same number of "
		     "attributes (0) as the tape (%d).\n",
		     path, count);
		c.diffs++;
	}
	return c.diffs;
}

/* Set or compare one waiting attribute now that its value came. */
static void
resolve_one(const struct pending *p, const unsigned char *val, size_t have)
{
	const char *target = fd_name_path(target_fd, p->path);
	unsigned char *conv = NULL;
	size_t len = have;
	const void *v = val;

	if (have != p->size) {
		rmsg("%s: EA %s: EA inode %lu holds %zu bytes, not %zu\n",
		     p->path, p->name, (unsigned long)p->inum, have, p->size);
		nskipped++;
		return;
	}
	if (is_acl_name(p->name)) {
		if ((len = acl_to_xattr(val, have, &conv)) == 0) {
			rmsg("%s: EA %s: malformed ACL in EA inode %lu\n",
			     p->path, p->name, (unsigned long)p->inum);
			nskipped++;
			free(conv);
			return;
		}
		v = conv;
	}
	if (p->cmp)
		late_diffs += cmp_value(target, p->path, p->name, v, len);
	else
		put_value(-1, target, p->path, p->name, v, len);
	free(conv);
}

/* EA inode inum came (eainode.c keeps it): do what waited for it. */
void
ea_resolve(uint32_t inum)
{
	const unsigned char *val;
	size_t have, i = 0;

	if ((val = eai_value(inum, &have)) == NULL)
		return;
	while (i < npend) {
		if (pend[i].inum != inum) {
			i++;
			continue;
		}
		resolve_one(&pend[i], val, have);
		free(pend[i].path);
		free(pend[i].name);
		pend[i] = pend[--npend];
	}
}

/* The walk over the inodes ended: what still waits cannot be done. */
void
ea_walk_done(void)
{
	walk_over = true;
	for (size_t i = 0; i < npend; i++) {
		rmsg("%s: EA %s: its value (EA inode %lu) is not on the "
		     "archive\n",
		     pend[i].path, pend[i].name, (unsigned long)pend[i].inum);
		nskipped++;
		free(pend[i].path);
		free(pend[i].name);
	}
	free(pend);
	pend = NULL;
	npend = 0;
}

/* Differences that the compares which waited found since the last call. */
int
ea_late_diffs(void)
{
	int n = late_diffs;

	late_diffs = 0;
	return n;
}
