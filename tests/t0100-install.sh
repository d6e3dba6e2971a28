#!/bin/sh
test_description='make install and uninstall honour prefix and DESTDIR and
touch no file they do not own; out-of-tree builds, make-line flags, make
dist and distcheck; the manual pages format cleanly'
. "$(dirname "$0")/lib.sh"

# The layout: programs in sbin with the r-names as links, pages in man8
# (rdump.8, rrestore.8 as links), the rmt server as rmt-dump (Debian's
# name: /usr/sbin/rmt and /etc/rmt belong to tar). Make's command-line
# variables reach every sub-make, so the prefix is ours and nothing
# depends on the prefix the tree was configured with. Every install goes
# below a DESTDIR in the trash directory.
PREFIX=/usr
SBIN=$PREFIX/sbin
MAN8=$PREFIX/share/man/man8

# The makes run here must not inherit the flags of a make that runs the
# suite (make check CFLAGS=...).
unset MAKEFLAGS MFLAGS MAKELEVEL

# install_into DIR [VAR=VALUE...]: make install with DESTDIR=DIR, quietly
# (the output is kept in DIR.log for -v and failures).
install_into() {
	dest=$1
	shift
	make -C "$TOP" install DESTDIR="$PWD/$dest" "$@" >"$dest.log" 2>&1 ||
	{ cat "$dest.log"; return 1; }
}

# exits_with CODE CMD...: CMD runs and exits with status CODE.
exits_with() {
	want=$1
	shift
	"$@"
	test $? = "$want"
}

# files_in DIR: the files and links below DIR, sorted, as ./path.
files_in() {
	(cd "$1" && find . -type f -o -type l) | sort
}

test_expect_success OURDUMP,OURRESTORE,OURRMT 'make install with DESTDIR and prefix' '
	install_into root prefix=$PREFIX
'

test_expect_success OURDUMP,OURRESTORE,OURRMT 'programs are installed executable' '
	for p in dump restore rmt-dump; do
		test -f root$SBIN/$p && test -x root$SBIN/$p &&
		test ! -h root$SBIN/$p || return 1
	done
'

test_expect_success OURDUMP,OURRESTORE,OURRMT 'rdump and rrestore are links; no rmt, no /etc/rmt' '
	test "$(readlink root$SBIN/rdump)" = dump &&
	test "$(readlink root$SBIN/rrestore)" = restore &&
	test ! -e root$SBIN/rmt && test ! -h root$SBIN/rmt &&
	test ! -e root/etc/rmt && test ! -h root/etc/rmt
'

test_expect_success OURDUMP,OURRESTORE,OURRMT 'manual pages and their links are installed' '
	for p in dump restore; do
		test -f root$MAN8/$p.8 && test ! -h root$MAN8/$p.8 &&
		cmp "$TOP/$p/$p.8" root$MAN8/$p.8 || return 1
	done &&
	test -f root$MAN8/rmt-dump.8 && test ! -h root$MAN8/rmt-dump.8 &&
	cmp "$TOP/rmt/rmt.8" root$MAN8/rmt-dump.8 &&
	test "$(readlink root$MAN8/rdump.8)" = dump.8 &&
	test "$(readlink root$MAN8/rrestore.8)" = restore.8 &&
	test -f root$MAN8/rdump.8 && test -f root$MAN8/rrestore.8
'

test_expect_success OURDUMP,OURRESTORE,OURRMT 'nothing is installed outside the layout' '
	(cd root && find . ! -type d | sort) >actual &&
	cat >expect <<-EOF &&
	.$SBIN/dump
	.$SBIN/rdump
	.$SBIN/restore
	.$SBIN/rmt-dump
	.$SBIN/rrestore
	.$MAN8/dump.8
	.$MAN8/rdump.8
	.$MAN8/restore.8
	.$MAN8/rmt-dump.8
	.$MAN8/rrestore.8
	EOF
	sort expect >expect.sorted &&
	test_cmp expect.sorted actual
'

test_expect_success OURDUMP 'installed dump and rdump print their usage' '
	for p in dump rdump; do
		exits_with 1 root$SBIN/$p 2>err &&
		grep "^usage:" err &&
		grep "\[-W | -w\]" err || return 1
	done
'

test_expect_success OURRESTORE 'installed restore and rrestore print their usage' '
	for p in restore rrestore; do
		exits_with 1 root$SBIN/$p -Z 2>err &&
		grep "^usage:" err &&
		grep "restore -t" err || return 1
	done
'

test_expect_success OURRMT 'installed rmt-dump serves (ends cleanly at end of input)' '
	root$SBIN/rmt-dump </dev/null >out &&
	test ! -s out &&
	printf "Z\n" | exits_with 3 root$SBIN/rmt-dump >/dev/null
'

test_expect_success OURDUMP,OURRESTORE,OURRMT 'make uninstall removes every file it installed' '
	make -C "$TOP" uninstall DESTDIR="$PWD/root" prefix=$PREFIX >un.log 2>&1 ||
	{ cat un.log; false; } &&
	files_in root >left &&
	test_cmp /dev/null left
'

test_expect_success OURDUMP,OURRESTORE,OURRMT 'the configured directories follow prefix' '
	install_into opt prefix=/opt/dump &&
	test -x opt/opt/dump/sbin/dump &&
	test -x opt/opt/dump/sbin/restore &&
	test -x opt/opt/dump/sbin/rmt-dump &&
	test -f opt/opt/dump/share/man/man8/restore.8 &&
	test ! -e opt/etc/rmt && test ! -h opt/etc/rmt
'

test_expect_success OURDUMP,OURRESTORE,OURRMT 'sbindir, mandir and rmtdir on the make line' '
	install_into dirs prefix=/usr sbindir=/sbin mandir=/usr/man \
		rmtdir=/usr/sbin &&
	files_in dirs >actual &&
	cat >expect <<-EOF &&
	./sbin/dump
	./sbin/rdump
	./sbin/restore
	./sbin/rrestore
	./usr/man/man8/dump.8
	./usr/man/man8/rdump.8
	./usr/man/man8/restore.8
	./usr/man/man8/rmt-dump.8
	./usr/man/man8/rrestore.8
	./usr/sbin/rmt-dump
	EOF
	test_cmp expect actual
'

# The system owns /etc/rmt and /usr/sbin/rmt (Debian: tar, alternatives),
# and a link of the r-name that is not ours stays too.
test_expect_success OURDUMP,OURRESTORE,OURRMT 'install and uninstall leave files they do not own alone' '
	mkdir -p keep/etc keep$SBIN &&
	ln -s $SBIN/rmt keep/etc/rmt &&
	echo tar-rmt >keep$SBIN/rmt &&
	install_into keep prefix=$PREFIX &&
	test "$(readlink keep/etc/rmt)" = $SBIN/rmt &&
	echo tar-rmt >expect && test_cmp expect keep$SBIN/rmt &&
	rm keep$SBIN/rrestore && echo other >keep$SBIN/rrestore &&
	make -C "$TOP" uninstall DESTDIR="$PWD/keep" prefix=$PREFIX \
		>keep-un.log 2>&1 || { cat keep-un.log; false; } &&
	files_in keep >actual &&
	printf "%s\n" ./etc/rmt .$SBIN/rmt .$SBIN/rrestore >expect &&
	test_cmp expect actual &&
	test "$(readlink keep/etc/rmt)" = $SBIN/rmt &&
	echo tar-rmt >expect && test_cmp expect keep$SBIN/rmt
'

# ---- make dist, out-of-tree builds, make-line flags, distcheck -----------
# Two builds of the whole tree follow (the out-of-tree one and distcheck's),
# both at -O0 to be quick; neither writes into $TOP but the tarball, which
# is moved here at once.
DISTNAME=$(sed -n "s/^DISTNAME *= *//p" "$TOP/Makefile" 2>/dev/null)
test -n "$DISTNAME" && test -f "$TOP/configure" &&
if test -e "$TOP/.git"
then
	command -v git >/dev/null 2>&1
else
	test -f "$TOP/MANIFEST"
fi &&
test_set_prereq DIST

# The files a tarball of $TOP must hold (besides configure and MANIFEST).
tracked_files() {
	if test -e "$TOP/.git"
	then
		git -c safe.directory="$TOP" -C "$TOP" ls-files
	else
		cat "$TOP/MANIFEST"
	fi
}

# tar_files TARBALL: the files and links of TARBALL, sorted, without the
# top directory.
tar_files() {
	tar -tzf "$1" | grep -v "/\$" | sed "s|^$DISTNAME/||" | sort
}

test_expect_success DIST 'make dist packs the tracked files, configure and MANIFEST' '
	make -C "$TOP" dist >dist.log 2>&1 || { cat dist.log; false; } &&
	mv "$TOP/$DISTNAME.tar.gz" . &&
	tar_files $DISTNAME.tar.gz >actual &&
	{ tracked_files | grep -vx MANIFEST; echo configure; echo MANIFEST; } |
	sort -u >expect &&
	test_cmp expect actual &&
	tar -xzf $DISTNAME.tar.gz &&
	cmp "$TOP/configure" $DISTNAME/configure &&
	cmp "$TOP/dump/dump.8" $DISTNAME/dump/dump.8 &&
	tracked_files | grep -vx MANIFEST >expect &&
	test_cmp expect $DISTNAME/MANIFEST
'

# Debian's layout, the rmt server under its own name, no LZO, and the
# user's flags on the make line: the build's own flags must stay.
test_expect_success DIST 'out-of-tree build with CFLAGS and CPPFLAGS on the make line' '
	mkdir $DISTNAME/b &&
	(cd $DISTNAME/b && ../configure --prefix=/usr --sbindir=/sbin \
		--with-rmt-dir=/usr/sbin --with-rmt-name=rmt --without-lzo \
		--without-libdeflate --cache-file="$TRASH_DIRECTORY/config.cache") \
		>conf.log 2>&1 || { cat conf.log; false; } &&
	make -C $DISTNAME/b CFLAGS=-O0 CPPFLAGS=-DT0100_USER_FLAG >make.log 2>&1 ||
	{ cat make.log; false; } &&
	test -x $DISTNAME/b/dump/dump && test -x $DISTNAME/b/restore/restore &&
	test -x $DISTNAME/b/rmt/rmt &&
	test ! -e $DISTNAME/dump/dump && test ! -e $DISTNAME/dump/main.o
'

test_expect_success DIST 'every compile has the user flags and the build flags' '
	grep " -c -o " make.log >compiles &&
	test -s compiles &&
	for f in -O0 -DT0100_USER_FLAG -Wall -D_FILE_OFFSET_BITS=64 "/common "; do
		if grep -v -F -e "$f" compiles >missing
		then
			echo "compiles without $f:" && cat missing && return 1
		fi
	done &&
	! grep -e "-O2" compiles
'

test_expect_success DIST 'configure prints a summary; --without-lzo builds without LZO, --without-libdeflate with zlib' '
	grep "^dump .* configured:" conf.log &&
	grep "^  clone(CLONE_IO) *\(yes\|no\)\$" conf.log &&
	grep "^  LZO (-y) *no (--without-lzo" conf.log &&
	grep "^  sanitizers *no\$" conf.log &&
	grep "^  programs *//*sbin/dump, //*sbin/restore " conf.log &&
	grep "^  rmt server *//*usr/sbin/rmt\$" conf.log &&
	grep "^  remote rmt program */etc/rmt " conf.log &&
	! grep -e "-DHAVE_LZO" $DISTNAME/b/Make.rules &&
	grep "^LZO_LIBS *= *\$" $DISTNAME/b/Make.rules &&
	grep "^  zlib format (-z) *yes, with zlib (--without-libdeflate)\$" conf.log &&
	! grep -e "-DHAVE_LIBDEFLATE" $DISTNAME/b/Make.rules &&
	readelf -d $DISTNAME/b/dump/dump >needed &&
	! grep -i lzo needed &&
	! grep -i libdeflate needed && grep "libz\.so" needed &&
	readelf -d $DISTNAME/b/restore/restore >rneeded &&
	! grep -i libdeflate rneeded && grep "libz\.so" rneeded
'

# Its other checks come from the cache of the configure above: the
# answer to the one that matters is given on the command line.
test_expect_success DIST '--with-lzo fails when liblzo2 is missing' '
	mkdir $DISTNAME/c &&
	(cd $DISTNAME/c &&
	 exits_with 1 ../configure --with-lzo ac_cv_header_lzo_lzo1x_h=no \
		--cache-file="$TRASH_DIRECTORY/config.cache") \
		>lzo.log 2>&1 &&
	grep "error: --with-lzo: liblzo2 not found" lzo.log &&
	test ! -f $DISTNAME/c/Make.rules &&
	rm -rf $DISTNAME/c
'

test_expect_success DIST 'out-of-tree install and uninstall (--with-rmt-name=rmt)' '
	make -C $DISTNAME/b install DESTDIR="$PWD/deb" >deb.log 2>&1 ||
	{ cat deb.log; false; } &&
	files_in deb >actual &&
	cat >expect <<-EOF &&
	./sbin/dump
	./sbin/rdump
	./sbin/restore
	./sbin/rrestore
	./usr/sbin/rmt
	./usr/share/man/man8/dump.8
	./usr/share/man/man8/rdump.8
	./usr/share/man/man8/restore.8
	./usr/share/man/man8/rmt.8
	./usr/share/man/man8/rrestore.8
	EOF
	test_cmp expect actual &&
	make -C $DISTNAME/b uninstall DESTDIR="$PWD/deb" >deb-un.log 2>&1 ||
	{ cat deb-un.log; false; } &&
	files_in deb >left &&
	test_cmp /dev/null left
'

# From the unpacked tarball (no git there: MANIFEST lists the files).
test_expect_success DIST 'make distcheck' '
	make -C $DISTNAME/b distcheck CFLAGS=-O0 >distcheck.log 2>&1 ||
	{ cat distcheck.log; false; } &&
	grep "^$DISTNAME.tar.gz is ready for distribution" distcheck.log &&
	tar_files $DISTNAME/b/$DISTNAME.tar.gz >again &&
	tar_files $DISTNAME.tar.gz >first &&
	test_cmp first again &&
	test ! -e $DISTNAME/b/$DISTNAME.check
'

test_expect_success 'manual pages format without warnings (groff)' '
	for p in dump restore; do
		groff -man -ww -z "$TOP/$p/$p.8" 2>err &&
		test_cmp /dev/null err || return 1
	done
'

command -v mandoc >/dev/null 2>&1 && test_set_prereq MANDOC
test_expect_success MANDOC 'manual pages pass mandoc -T lint' '
	mandoc -T lint -W style "$TOP/dump/dump.8" "$TOP/restore/restore.8"
'

# An option's entry starts ".B \-x" or, beside its long name,
# "\fB\-x\fR, \fB\-\-name\fR".
test_expect_success 'manual pages name every option of the usage' '
	for o in a B b c d D e E f F h I j L m M q S s T u v W w y z; do
		grep -Eq "^(\.B[IR]* *|\\\\fB)\\\\-$o" "$TOP/dump/dump.8" ||
		{ echo "dump.8 lacks -$o"; return 1; }
	done &&
	for o in a b C d D f F h L m M N o r s t T u v x X y 0; do
		grep -Eq "^(\.B[IR]* *|\\\\fB)\\\\-$o" "$TOP/restore/restore.8" ||
		{ echo "restore.8 lacks -$o"; return 1; }
	done
'

test_done
