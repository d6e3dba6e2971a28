/*
 * ishextract.c - restore -i: the extract and setmodes commands.
 *
 * extract hands the selection to the passes -x uses (extract.c).  The
 * archive is read as one stream: the first extract asks 0.4b47's volume
 * question, each further one reads it again from volume 1
 * (tape_restart(), after 0.4b47's volume questions); an inode extracted
 * before under a name not selected now gets the new names as hard
 * links.  The operator's answers come from the shell's input, through
 * the function it passes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "restore.h"
#include "extern.h"
#include "ish.h"
#include "symfile.h"
#include "xalloc.h"

static bool extracted; /* an extract ran: read the archive again */

/* "Mount tape volume 1" of 0.4b47 before the archive is read again: the
 * name to open (malloc'ed), or NULL when the operator says none or
 * (*eof set) input ends. */
static char *
ask_first_volume(char *(*read_answer)(void), bool *eof)
{
	char *dflt = volume_first_name(), *ans;

	rmsg("Mount tape volume 1\n"
	     "Enter ``none'' if there are no more tapes\n"
	     "otherwise enter tape name (default: %s) ",
	     dflt);
	if ((ans = read_answer()) == NULL) {
		putc('\n', stderr);
		*eof = true;
	}
	if (ans == NULL || strcmp(ans, "none") == 0) {
		free(ans);
		free(dflt);
		return NULL;
	}
	if (ans[0] == '\0') {
		free(ans);
		return dflt;
	}
	free(dflt);
	return ans;
}

/* Open the archive again for a further extract; false when it cannot
 * be or the operator gives up. */
static bool
reread_archive(char *(*read_answer)(void))
{
	if (ropt.from_stdin) {
		rmsg("Standard input cannot be read again: leave "
		     "restore and start again to extract more\n");
		return false;
	}
	for (;;) {
		char *name;
		bool ok, eof = false;

		if (!volume_ask_number(read_answer, NULL))
			return false;
		/* "none" here asks for the volume number again. */
		if ((name = ask_first_volume(read_answer, &eof)) == NULL) {
			if (eof)
				return false;
			continue;
		}
		ok = tape_restart(name);
		free(name);
		if (ok) {
			dirs_skip();
			return true;
		}
	}
}

/* Names to extract again start afresh; a selected name whose inode an
 * earlier extract made under another name becomes a link to it (as in
 * 0.4b47), so it is hidden from extract_files(): the names hidden are
 * returned, to be selected again for extract_links(). */
static struct entry **
hide_linked(size_t *np)
{
	struct entry **hidden = NULL;
	size_t n = 0, cap = 0;

	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		if (e->type == E_LEAF && (e->flags & EF_SELECTED))
			e->flags &= (uint16_t)~EF_DONE;
	/* Each inode once, from its first name: one pass over its names
	 * finds whether one is done, a second hides the selected ones. */
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e)) {
		struct entry *p;

		if (sym_lookup_ino(e->ino) != e)
			continue;
		for (p = e; p != NULL; p = p->links)
			if (p->flags & EF_DONE)
				break;
		if (p == NULL)
			continue;
		for (p = e; p != NULL; p = p->links) {
			if (p->type != E_LEAF || !(p->flags & EF_SELECTED))
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				hidden =
				    xreallocarray(hidden, cap, sizeof(*hidden));
			}
			hidden[n++] = p;
		}
	}
	for (size_t i = 0; i < n; i++)
		hidden[i]->flags &= (uint16_t)~EF_SELECTED;
	*np = n;
	return hidden;
}

/* extract: the operator's answers come from read_answer.  R_ERROR when
 * something went wrong that the exit status must tell, else R_SUCCESS. */
int
ish_extract(char *(*read_answer)(void))
{
	bool root, verbose;
	struct entry **hidden;
	size_t nhidden;

	msg_verbose("Extract requested files\n");
	if (extracted ? !reread_archive(read_answer)
		      : !volume_ask_number(read_answer, NULL))
		return R_SUCCESS;
	extracted = true;
	if (!ropt.Nflag && target_fd < 0)
		target_open();
	/* 0.4b47 -i makes the directories silently, even with verbose. */
	verbose = ropt.verbose;
	ropt.verbose = false;
	extract_make_dirs();
	ropt.verbose = verbose;
	hidden = hide_linked(&nhidden);
	extract_files();
	for (size_t i = 0; i < nhidden; i++)
		hidden[i]->flags |= EF_SELECTED;
	free(hidden);
	extract_links();
	if (ropt.no_dot)
		root = false;
	else if (ropt.oflag)
		root = true;
	else if (ropt.Nflag || ropt.mflag)
		root = false;
	else
		root = ask_yn("set owner/mode for '.'");
	extract_dirmodes(root);
	extract_flags();
	extract_sync();
	/* Once extracted, nothing is selected any more (0.4b47's ls). */
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		e->flags &= (uint16_t)~EF_SELECTED;
	tape_drain();
	if (tape_truncated())
		rmsg("Input ended before the end-of-dump record: "
		     "the archive is truncated\n");
	if (extract_errors() > 0 || tape_had_error() || tape_resynced() ||
	    tape_truncated() || dirs_refused() > 0)
		return R_ERROR;
	return R_SUCCESS;
}

/* setmodes */
void
ish_setmodes(void)
{
	if (!ropt.Nflag && target_fd < 0)
		target_open();
	/* An explicit request: 0.4b47 sets '.' too without asking, and
	 * the directories are then no longer marked for extraction. */
	extract_dirmodes(!ropt.Nflag && !ropt.mflag);
	for (struct entry *e = sym_root; e != NULL; e = sym_next(sym_root, e))
		if (e->type == E_NODE)
			e->flags &= (uint16_t)~EF_SELECTED;
}
