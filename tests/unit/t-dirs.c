/*
 * t-dirs.c - restore's directory records and the safety of names
 * (restore/dirs.c, symtab.c, symfile.c).  A stand-in for the tape layer
 * (tape.c) hands dirs_read() directory images built here, in native and
 * in foreign byte order; what survives is looked up in the tree.  Names
 * with '/', a NUL, empty names, extra "." or ".." and second names of a
 * directory must be refused, a duplicate kept under a name of its own;
 * command-line paths (absolute, with "." or "..") must resolve inside the
 * tree only; a restoresymtable naming ".." or "a/b" must be refused.  A line typed at restore -i's
 * prompt must be cut into the words 0.4b47 makes of it (restore/ishwords.c).
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "restore.h"
#include "extern.h"
#include "ish.h"
#include "spcl.h"
#include "symfile.h"
#include "unit.h"

/* ---- stand-ins for tape.c, main.c, ea.c, utilities.c ---- */
struct ropts ropt;
union u_spcl curhdr;
int32_t dumpdate, dumpprev;
uint32_t maxino = 100;
unsigned char *dumpmap;
size_t dumpmap_len;

struct fakefile {
	uint32_t ino;
	uint16_t mode;
	unsigned char *data;
	size_t len;
};
static struct fakefile files[4];
static int nfiles, cur = -1, swapped;

bool
map_test(const unsigned char *map, size_t len, uint32_t ino)
{
	(void)map;
	(void)len;
	return ino == 14; /* "dumped" but not on the tape */
}

void
msg_verbose(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void
ea_read_records(uint32_t ino, struct ealist *out)
{
	(void)ino;
	if (out != NULL)
		memset(out, 0, sizeof(*out));
}

void
tape_find_inode(void)
{
	memset(&curhdr, 0, sizeof(curhdr));
	if (++cur >= nfiles) {
		curhdr.s_spcl.c_type = TS_END;
		return;
	}
	curhdr.s_spcl.c_type = TS_INODE;
	curhdr.s_spcl.c_inumber = files[cur].ino;
	curhdr.s_spcl.c_dinode.di_mode = files[cur].mode;
	curhdr.s_spcl.c_dinode.di_size = files[cur].len;
}

uint64_t
tape_getfile(void (*data)(const unsigned char *, size_t, void *),
	     void (*hole)(size_t, void *), void *arg)
{
	(void)hole;
	data(files[cur].data, files[cur].len, arg);
	return 0;
}

void
tape_skipfile(void)
{
}

bool
tape_newinodefmt(void)
{
	return true;
}

bool
tape_swapped(void)
{
	return swapped != 0;
}

/* ---- directory images ---- */
struct image {
	unsigned char buf[RESTORE_DIRBLKSIZ];
	size_t pos;
};

static void
entry(struct image *im, uint32_t ino, uint8_t type, const char *name,
      size_t namlen)
{
	struct tape_direct d;

	memset(&d, 0, sizeof(d));
	d.d_ino = ino;
	d.d_reclen = (uint16_t)TAPE_DIRSIZ(namlen);
	d.d_type = type;
	d.d_namlen = (uint8_t)namlen;
	memcpy(d.d_name, name, namlen);
	memcpy(im->buf + im->pos, &d, d.d_reclen);
	im->pos += d.d_reclen;
}

/* The last entry takes the rest of the block. */
static void
finish(struct image *im, size_t last)
{
	uint16_t reclen = (uint16_t)(sizeof(im->buf) - last);

	memcpy(im->buf + last + 4, &reclen, sizeof(reclen));
}

static struct image root, sub;

static void
build(void)
{
	size_t last;

	memset(&root, 0, sizeof(root));
	entry(&root, ROOTINO, DT_TAPE_DIR, ".", 1);
	entry(&root, ROOTINO, DT_TAPE_DIR, "..", 2);
	entry(&root, 12, DT_TAPE_REG, "good", 4);
	entry(&root, 11, DT_TAPE_DIR, "sub", 3);
	entry(&root, 20, DT_TAPE_REG, "a/b", 3);
	entry(&root, 21, DT_TAPE_REG, "x\0y", 3);
	entry(&root, 22, DT_TAPE_REG, "", 0);
	entry(&root, 23, DT_TAPE_DIR, "..", 2);
	entry(&root, 24, DT_TAPE_REG, "good", 4);
	entry(&root, 14, DT_TAPE_DIR, "gone", 4);
	last = root.pos;
	entry(&root, 15, DT_TAPE_REG, "last", 4);
	finish(&root, last);

	memset(&sub, 0, sizeof(sub));
	entry(&sub, 11, DT_TAPE_DIR, ".", 1);
	entry(&sub, ROOTINO, DT_TAPE_DIR, "..", 2);
	entry(&sub, 13, DT_TAPE_REG, "leaf", 4);
	entry(&sub, ROOTINO, DT_TAPE_DIR, "loop", 4);
	last = sub.pos;
	entry(&sub, 16, DT_TAPE_REG, "mangled", 7);
	finish(&sub, last);
	/* a record length that is no multiple of 4 ends the block */
	sub.buf[last + 4] = 0x7f;
	sub.buf[last + 5] = 0x00;

	files[0] = (struct fakefile){ROOTINO, S_IFDIR | 0755, root.buf,
				     sizeof(root.buf)};
	files[1] =
	    (struct fakefile){11, S_IFDIR | 0755, sub.buf, sizeof(sub.buf)};
	files[2] = (struct fakefile){12, S_IFREG | 0644, NULL, 0};
	nfiles = 3;
}

static void
lookup(const char *path)
{
	struct entry *e = sym_lookup_path(path);

	printf("lookup %s = %lu\n", path, e ? (unsigned long)e->ino : 0ul);
}

/* Child: read pass III, build the tree, print what is found. */
static void
dirs_child(void *arg)
{
	char *canon;

	swapped = arg != NULL;
	build();
	if (swapped) {
		spcl_swap_dirents(root.buf, sizeof(root.buf), 0);
		spcl_swap_dirents(sub.buf, sizeof(sub.buf), 0);
	}
	ropt.verbose = true;
	dirs_read();
	dirs_build_tree();
	printf("refused %lu\n", dirs_refused());
	lookup("good");
	lookup("good.dup-24");
	lookup("sub");
	lookup("/sub/leaf");
	lookup("./sub/./leaf");
	lookup("sub//leaf/");
	lookup("last");
	lookup("sub/loop");
	lookup("sub/mangled");
	lookup("a/b");
	lookup("..");
	lookup("sub/../good");
	lookup("gone");
	canon = sym_canon("//sub/./leaf/");
	printf("canon %s\n", canon);
	free(canon);
}

static void
check_dirs(const char *order, void *arg)
{
	static const struct {
		const char *text, *what;
	} want[] = {
	    {"lookup good = 12\n", "a plain name is kept"},
	    {"lookup good.dup-24 = 24\n",
	     "... and its duplicate under a new one"},
	    {"lookup sub = 11\n", "a subdirectory is kept"},
	    {"lookup last = 15\n", "the entry that ends the block is kept"},
	    {"\"a/b\" (inode 20): '/' inside the name",
	     "a name with '/' is refused"},
	    {"entry \"x\\000y\" (inode 21) kept as \"x\": NUL inside the name",
	     "a name with a NUL is cut there and kept, shown escaped"},
	    {"\"\" (inode 22): empty name", "an empty name is refused"},
	    {"\"..\" (inode 23): extra \".\" or \"..\" entry",
	     "a third \".\" or \"..\" is refused"},
	    {"entry \"good\" (inode 24) kept as \"good.dup-24\": duplicate "
	     "name",
	     "a duplicate name is kept under a name of its own"},
	    {"\"loop\" (inode 2): second name of a directory (or a loop)",
	     "a name leading back to the root is refused"},
	    {"Mangled directory: inode 11",
	     "a bad record length ends the block"},
	    {"lookup sub/mangled = 0\n", "... and its entry is lost"},
	    {"gone: directory (inode 14) is not on the tape",
	     "a dumped directory missing from the tape is reported"},
	    {"refused 7\n",
	     "seven entries refused in all (5 + loop + missing)"},
	    {"lookup /sub/leaf = 13\n",
	     "an absolute path resolves inside the tree"},
	    {"lookup ./sub/./leaf = 13\n", "\".\" components are skipped"},
	    {"lookup sub//leaf/ = 13\n", "repeated and final '/' are skipped"},
	    {"lookup sub/loop = 0\n", "the refused loop is not in the tree"},
	    {"lookup a/b = 0\n", "the refused \"a/b\" is not in the tree"},
	    {"lookup .. = 0\n", "\"..\" finds nothing above the root"},
	    {"lookup sub/../good = 0\n", "\"..\" is never a name in the tree"},
	    {"canon ./sub/leaf\n",
	     "sym_canon: \"//sub/./leaf/\" is ./sub/leaf"},
	};
	char *out = NULL;
	int st = unit_fork(dirs_child, arg, &out);

	unit_eq_long(unit_exit_code(st), 0, "%s: pass III read", order);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!unit_ok(strstr(out, want[i].text) != NULL, "%s: %s", order,
			     want[i].what))
			unit_diag("no \"%s\" in:\n%s", want[i].text, out);
	free(out);
}

/* ---- restoresymtable ---- */
static char dir[4096];

static void
symfile_child(void *arg)
{
	struct symfile t;
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	(void)arg;
	symfile_load(fd, &t);
	printf("loaded %zu, last %s\n", t.n, t.ent[t.n - 1].name);
}

static void
table(const char *name, int want, const char *text, const char *what)
{
	char path[4200], body[512], *out = NULL;
	int st;

	snprintf(path, sizeof(path), "%s/%s", dir, SYMTAB_NAME);
	snprintf(body, sizeof(body),
		 "%s\ndate 1 prev 0 maxino 100 volume 1\n"
		 "0 -1 2 D .\n1 0 12 L %s\nend 2\n",
		 SYMTAB_MAGIC, name);
	unit_write_file(path, body, strlen(body));
	st = unit_fork(symfile_child, NULL, &out);
	if (!unit_ok(unit_exit_code(st) == want && strstr(out, text) != NULL,
		     "restoresymtable: %s", what))
		unit_diag("exit %d: %s", unit_exit_code(st), out);
	free(out);
}

static void
test_symfile(void)
{
	snprintf(dir, sizeof(dir), "%s", unit_tmpdir());
	table("good%20name", 0, "loaded 2, last good name",
	      "a good (escaped) name loads");
	table("..", R_ERROR, "line 4: bad name", "\"..\" is refused");
	table(".", R_ERROR, "line 4: bad name", "\".\" is refused");
	table("a/b", R_ERROR, "line 4: bad name", "\"a/b\" is refused");
	table("a%2Fb", R_ERROR, "line 4: bad name",
	      "an escaped '/' is refused");
	table("a%00b", R_ERROR, "line 4: bad name", "a NUL is refused");
}

/* ---- restore -i: the words of a typed line ---- */
struct words_case {
	const char *line, *words, *said, *what;
};

/* Print the words of arg (a struct words_case) as "[w]..." to stdout;
 * what the lexer says goes to stderr, captured with it. */
static void
words_child(void *arg)
{
	const struct words_case *c = arg;
	char *line = strdup(c->line), **v;
	int n = ish_split_words(line, &v);

	for (int i = 0; i < n; i++)
		printf("[%s]", v[i]);
	free(v);
	free(line);
}

static void
test_words(void)
{
	static const struct words_case cases[] = {
	    {"add a b", "[add][a][b]", "", "blanks separate words"},
	    {" \tls\t a  ", "[ls][a]", "", "leading and trailing blanks"},
	    {"add 'a b' \"c d\"", "[add][a b][c d]", "",
	     "single and double quotes keep blanks"},
	    {"add a\\ b c", "[add][a b][c]", "",
	     "a backslash keeps a blank (and the next word follows)"},
	    {"add x'\"'y \"'\"", "[add][x\"y][']", "",
	     "each quote quotes the other"},
	    {"add a' 'b''", "[add][a b]", "", "quotes inside a word"},
	    {"add it\\'s back\\\\slash", "[add][it's][back\\slash]", "",
	     "a backslash before a quote or a backslash"},
	    {"add \"a\\b\"", "[add][a\\b]", "",
	     "a backslash inside quotes is kept"},
	    {"add f\\001 g\\377", "[add][f\\001][g\\377]", "",
	     "a backslash before an octal byte is kept"},
	    {"add \\400 \\09", "[add][400][09]", "",
	     "... only before one up to \\377"},
	    {"add ''", "[add][]", "", "an empty quoted word"},
	    {"add 'open", "[add][open]", "missing '\n",
	     "a quote left open is reported"},
	    {"add \"open", "[add][open]", "missing \"\n",
	     "a double quote left open is reported"},
	    {"add end\\", "[add][end]", "command lines cannot be continued\n",
	     "a backslash at the end is reported"},
	    {"", "", "", "an empty line has no words"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[256], *out = NULL;
		int st;

		snprintf(want, sizeof(want), "%s%s", cases[i].said,
			 cases[i].words);
		st = unit_fork(words_child, (void *)&cases[i], &out);
		if (!unit_ok(unit_exit_code(st) == 0 && strcmp(out, want) == 0,
			     "-i words: %s", cases[i].what))
			unit_diag("line <%s>: got <%s>, want <%s>",
				  cases[i].line, out, want);
		free(out);
	}
}

int
main(void)
{
	static char foreign[] = "foreign order";

	check_dirs("native order", NULL);
	check_dirs("foreign order", foreign);
	test_symfile();
	test_words();
	return unit_done();
}
