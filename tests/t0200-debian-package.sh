#!/bin/sh
test_description='the Debian package: build, lintian, install, use, upgrade, purge

dpkg-buildpackage builds the package from a copy of the source tree;
lintian finds no error or warning; the package holds the paths of
Debian'"'"'s dump 0.4b47-4 and a higher version. Installed, /sbin/dump and
/sbin/restore round trip an ext4 image, dump -u records in
/var/lib/dumpdates (root:disk 0664), and rmt-dump is the rmt alternative
as Debian registers it; remove and purge leave nothing of it, and tar'"'"'s
/etc/rmt as it was. Debian'"'"'s package upgraded to ours and back keeps the
alternative right. Every check that installs puts the machine back as it
was before the script (the dump package, /var/lib/dumpdates), also when
it fails.'
. "$(dirname "$0")/lib.sh"

# The makes of the package build must not inherit those of a make that
# runs the suite.
unset MAKEFLAGS MFLAGS MAKELEVEL

# The package is built from the sources with Debian's flags, whatever
# this tree was configured with: in a sanitizer build the script would
# only repeat what the normal build's run checks, at the same cost.
if grep -q -e -fsanitize "$TOP/Make.rules" 2>/dev/null
then
	say "# this tree is a sanitizer build: the package (built with Debian's flags) is checked by the normal build's run"
elif command -v dpkg-buildpackage >/dev/null 2>&1 && command -v dh >/dev/null 2>&1
then
	test_set_prereq DPKG_BUILDPACKAGE
else
	say "# dpkg-buildpackage or dh (debhelper) is missing: the package is not built (scripts/install-deps.sh installs them)"
fi
command -v lintian >/dev/null 2>&1 && test_set_prereq LINTIAN

DEBIAN_VERSION=0.4b47-4
STATE=$TRASH_DIRECTORY/state

# pkg_state: the dump package's dpkg status and version ("not-installed"
# for a package dpkg does not know or has purged).
pkg_state() {
	ps_s=$(dpkg-query -W -f='${db:Status-Status} ${Version}' dump 2>/dev/null)
	case "$ps_s" in
	""|not-installed*) echo not-installed ;;
	*) echo "$ps_s" ;;
	esac
}

# machine_state: what the package may touch and must give back.
machine_state() {
	pkg_state &&
	update-alternatives --query rmt 2>&1 &&
	if test -e /var/lib/dumpdates
	then
		stat -c 'dumpdates %a %U:%G %s %Y' /var/lib/dumpdates &&
		sha256sum </var/lib/dumpdates
	else
		echo no dumpdates
	fi &&
	etc_rmt
}

# etc_rmt: tar's /etc/rmt: its link, the file it leads to, its hash.
etc_rmt() {
	echo "/etc/rmt -> $(readlink /etc/rmt) => $(readlink -f /etc/rmt)" &&
	sha256sum <"$(readlink -f /etc/rmt)"
}

# restore_machine: the dump package and /var/lib/dumpdates as they were
# before the script (state/ holds what the setup check found). Every
# check that installs registers it with test_when_finished; the setup
# check has it run at the script's end too when the machine differs
# from what it recorded (a script stopped in the middle of a check).
restore_machine() {
	if test "$(cat "$STATE/pkg")" = not-installed
	then
		dpkg -P dump >>"$STATE/dpkg.log" 2>&1
	else
		dpkg -i "$DEBIAN_DEB" >>"$STATE/dpkg.log" 2>&1
	fi || { cat "$STATE/dpkg.log"; false; }
	if test -e "$STATE/dumpdates"
	then
		cp -p "$STATE/dumpdates" /var/lib/dumpdates
	else
		rm -f /var/lib/dumpdates
	fi
}

# alt_entry PATH: the lines of rmt's alternative PATH in --query
# (Alternative, Priority, Slaves), nothing when it is not registered.
alt_entry() {
	update-alternatives --query rmt |
	awk -v a="Alternative: $1" '$0 == a { p = 1 } p && /^$/ { exit } p'
}

# ours_registered: rmt-dump is the rmt alternative at priority 100 with
# its page as rmt.8.gz, and the best one (tar's rmt-tar has 50).
ours_registered() {
	alt_entry /usr/sbin/rmt-dump >alt.actual &&
	cat >alt.expect <<-EOF &&
	Alternative: /usr/sbin/rmt-dump
	Priority: 100
	Slaves:
	 rmt.8.gz /usr/share/man/man8/rmt-dump.8.gz
	EOF
	test_cmp alt.expect alt.actual &&
	update-alternatives --query rmt | grep -x "Best: /usr/sbin/rmt-dump"
}

# dumpdates_mode: /var/lib/dumpdates is a regular file root:disk 0664.
dumpdates_mode() {
	test -f /var/lib/dumpdates && test ! -h /var/lib/dumpdates &&
	test "$(stat -c '%a %U:%G' /var/lib/dumpdates)" = "664 root:disk"
}

# foreign_files: the package's programs that exist on a machine without
# the dump package (dpkg -i would overwrite them silently).
foreign_files() {
	for ff_f in /sbin/dump /sbin/restore /sbin/rdump /sbin/rrestore \
		/usr/sbin/rmt-dump
	do
		if test -e "$ff_f" || test -h "$ff_f"
		then
			echo "$ff_f exists and belongs to no package"
		fi
	done
}

# existing_dirs: those of the package's directories (ours.x) that exist
# on the machine now.
existing_dirs() {
	(cd ours.x && find . -type d) | sed "s|^\.||" | grep -v "^\$" |
	while read -r ed_d
	do
		if test -d "$ed_d"
		then
			echo "$ed_d"
		fi
	done
}

# left_over OWNED DIRS: the paths of OWNED (dpkg -L) that exist though
# they are not in DIRS (the directories that existed before).
left_over() {
	grep -v -x -e "/\." "$1" | while read -r lo_f
	do
		if test -e "$lo_f" || test -h "$lo_f"
		then
			grep -q -x -F -e "$lo_f" "$2" || echo "$lo_f"
		fi
	done
}

# deb_files DEB: the files and links of DEB ("./path" or "./path ->
# target"), sorted, without directories.
deb_files() {
	dpkg-deb -c "$1" |
	awk '$6 !~ /\/$/ { if ($7 == "->") print $6, $7, $8; else print $6 }' |
	sort
}

# tlist: the paths of a restore -t listing, sorted.
tlist() {
	grep -a "^ *[0-9][0-9]*	" | cut -f 2- | sort
}

test_expect_success DPKG_BUILDPACKAGE 'dpkg-buildpackage -us -uc -b builds from a copy of the tree' '
	mkdir src &&
	tar -C "$TOP" --exclude=./.git --exclude="./tests/trash.*" \
		--exclude=./tests/oracle --exclude="*.o" --exclude="*.a" \
		--exclude=./debian/dump --exclude=./debian/.debhelper \
		--exclude=./debian/files --exclude="./debian/*.substvars" \
		--exclude=./debian/debhelper-build-stamp -cf - . |
	tar -C src -xf - &&
	if test -f src/Makefile
	then
		make -C src distclean >distclean.log 2>&1 ||
		{ cat distclean.log; false; }
	fi &&
	(cd src && dpkg-buildpackage -us -uc -b -j2) >build.log 2>&1 ||
	{ tail -n 40 build.log; false; } &&
	ARCH=$(dpkg --print-architecture) &&
	OURS_DEB=$(echo "$TRASH_DIRECTORY"/dump_*_$ARCH.deb) &&
	test -f "$OURS_DEB" &&
	CHANGES=$(echo "$TRASH_DIRECTORY"/dump_*_$ARCH.changes) &&
	test -f "$CHANGES" &&
	test -f "${CHANGES%.changes}.buildinfo" &&
	test_set_prereq BUILT
'

test_expect_success BUILT 'its version is above Debian'"'"'s 0.4b47-4; it has no conffiles' '
	OURS_VERSION=$(dpkg-deb -f "$OURS_DEB" Version) &&
	dpkg --compare-versions "$OURS_VERSION" gt $DEBIAN_VERSION &&
	test "$(dpkg-deb -f "$OURS_DEB" Package)" = dump &&
	dpkg-deb --ctrl-tarfile "$OURS_DEB" | tar -tf - >ctrl.list &&
	grep -x "./postinst" ctrl.list && grep -x "./prerm" ctrl.list &&
	! grep "conffiles" ctrl.list
'

test_expect_success BUILT 'it holds the programs, links and pages of Debian'"'"'s layout' '
	deb_files "$OURS_DEB" >ours.list &&
	cat >expect <<-EOF &&
	./sbin/dump
	./sbin/rdump -> dump
	./sbin/restore
	./sbin/rrestore -> restore
	./usr/sbin/rmt-dump
	./usr/share/doc/dump/README.md.gz
	./usr/share/doc/dump/changelog.gz
	./usr/share/doc/dump/copyright
	./usr/share/man/man8/dump.8.gz
	./usr/share/man/man8/rdump.8.gz -> dump.8.gz
	./usr/share/man/man8/restore.8.gz
	./usr/share/man/man8/rmt-dump.8.gz
	./usr/share/man/man8/rrestore.8.gz -> restore.8.gz
	EOF
	test_cmp expect ours.list &&
	dpkg-deb -x "$OURS_DEB" ours.x &&
	gzip -dc ours.x/usr/share/man/man8/dump.8.gz | cmp - "$TOP/dump/dump.8" &&
	gzip -dc ours.x/usr/share/man/man8/restore.8.gz |
		cmp - "$TOP/restore/restore.8" &&
	gzip -dc ours.x/usr/share/man/man8/rmt-dump.8.gz | cmp - "$TOP/rmt/rmt.8"
'

test_expect_success BUILT,LINTIAN 'lintian: no errors, no warnings (.deb, .changes, .buildinfo)' '
	lintian --fail-on error,warning "$CHANGES" >lintian.out 2>lintian.err ||
	{ cat lintian.out lintian.err; false; } &&
	cat lintian.out &&
	! grep -E "^[EW]: " lintian.out
'

# Debian's own package, for the paths and the upgrade and downgrade:
# bookworm's, from lists of our own (helpers/suite-apt.sh), whatever the
# machine runs. Without the network the checks that need it are skipped
# (in CI they fail).
if test_have_prereq DPKG_BUILDPACKAGE
then
	if sh "$HELPERS/suite-apt.sh" "$TRASH_DIRECTORY/apt" update bookworm \
		2>"$TRASH_DIRECTORY/apt.err"
	then
		test_set_prereq BOOKWORM
	elif test -n "${CI:-}"
	then
		test_expect_success "bookworm's lists (CI: the network is required)" '
			cat apt.err && false
		'
	else
		say "# bookworm's lists cannot be read: Debian's package is not fetched"
		sed "s/^/#   /" "$TRASH_DIRECTORY/apt.err"
	fi
fi

test_expect_success BUILT,BOOKWORM 'Debian'"'"'s dump package (apt-get download)' '
	mkdir debian-dump &&
	(cd debian-dump &&
	sh "$HELPERS/suite-apt.sh" "$TRASH_DIRECTORY/apt" download dump=$DEBIAN_VERSION) \
		>download.log 2>&1 || { cat download.log; false; } &&
	DEBIAN_DEB=$(echo "$TRASH_DIRECTORY"/debian-dump/dump_*.deb) &&
	test -f "$DEBIAN_DEB" &&
	test "$(dpkg-deb -f "$DEBIAN_DEB" Version)" = $DEBIAN_VERSION &&
	test_set_prereq DEBIAN_DEB
'

test_expect_success BUILT,DEBIAN_DEB 'ours has the program and page paths of Debian'"'"'s' '
	deb_files "$DEBIAN_DEB" | grep -E "^\./(sbin|usr/sbin|usr/share/man)/" \
		>debian.paths &&
	deb_files "$OURS_DEB" | grep -E "^\./(sbin|usr/sbin|usr/share/man)/" \
		>ours.paths &&
	test_cmp debian.paths ours.paths
'

test_expect_success ROOT,LOOP,PYTHON,BUILT 'setup: an ext4 image and its manifest' '
	make_image ext4 fs.img small &&
	DEV=$(image_attach fs.img) &&
	image_mount "$DEV" mnt ro &&
	manifest mnt --mtime=us >src.man &&
	(cd mnt && find . -print | sort) >src.list &&
	test_set_prereq IMAGE
'

# restorable: the checks that change the machine may run; whatever they
# leave is given back at the latest when the script ends.
restorable() {
	test_set_prereq RESTORABLE &&
	test_at_exit "machine_state 2>/dev/null | cmp -s - \"\$STATE/machine\" ||
		restore_machine"
}

# From here on the machine changes: the lock first, then what is to be
# given back. Only a machine without a dump package or with Debian'"'"'s
# (whose .deb is at hand) can be given back as it was; a /sbin/dump of
# no package would be overwritten.
test_expect_success ROOT,BUILT 'setup: lock the machine, record its state' '
	test_lock_system &&
	mkdir "$STATE" &&
	pkg_state >"$STATE/pkg" &&
	machine_state >"$STATE/machine" &&
	if test -e /var/lib/dumpdates
	then
		cp -p /var/lib/dumpdates "$STATE/dumpdates"
	fi &&
	cat "$STATE/machine" &&
	case "$(cat "$STATE/pkg")" in
	not-installed)
		foreign_files >"$STATE/why" &&
		if ! test -s "$STATE/why"
		then
			restorable
		fi ;;
	"installed $DEBIAN_VERSION")
		if test_have_prereq DEBIAN_DEB
		then
			restorable
		else
			echo "Debian'"'"'s dump is installed and its .deb is missing" >"$STATE/why"
		fi ;;
	*)
		echo "dump $(cat "$STATE/pkg") is installed: not replacing it" >"$STATE/why" ;;
	esac
'
if test -s "$STATE/why"
then
	say "# the package is not installed: $(tr "\n" " " <"$STATE/why")"
fi

test_expect_success RESTORABLE,IMAGE 'ours installs: the files, rmt alternative, /var/lib/dumpdates' '
	test_when_finished restore_machine &&
	dpkg -P dump >purge0.log 2>&1 &&
	etc_rmt >etc-rmt.before &&
	existing_dirs >dirs.before &&
	dpkg -i "$OURS_DEB" >install.log 2>&1 || { cat install.log; false; } &&
	test "$(pkg_state)" = "installed $OURS_VERSION" &&
	dpkg -L dump | sort >installed.list &&
	(cd ours.x && find . | sed "s|^\./|/|; s|^\.\$|/.|" | sort) >expect &&
	test_cmp expect installed.list &&
	cmp ours.x/sbin/dump /sbin/dump &&
	cmp ours.x/sbin/restore /sbin/restore &&
	cmp ours.x/usr/sbin/rmt-dump /usr/sbin/rmt-dump &&
	test "$(readlink /sbin/rdump)" = dump &&
	test "$(readlink /sbin/rrestore)" = restore &&
	ours_registered &&
	test "$(readlink -f /usr/sbin/rmt)" = /usr/sbin/rmt-dump &&
	test "$(readlink -f /etc/rmt)" = /usr/sbin/rmt-dump &&
	test "$(readlink -f /usr/share/man/man8/rmt.8.gz)" = /usr/share/man/man8/rmt-dump.8.gz &&
	printf "Z\n" | { /usr/sbin/rmt >/dev/null; test $? = 3; } &&
	dumpdates_mode &&
	/sbin/dump -0u -f a.dump "$DEV" 2>dump.err &&
	grep "DUMP IS DONE" dump.err &&
	grep "^$DEV 0 " /var/lib/dumpdates &&
	dumpdates_mode &&
	/sbin/restore -t -f a.dump 2>t.err | tlist >t.list &&
	test_cmp src.list t.list &&
	mkdir r && (cd r && /sbin/rrestore -r -f ../a.dump) 2>r.err &&
	test_cmp /dev/null r.err &&
	manifest r --mtime=us >r.man &&
	test_cmp src.man r.man &&
	dpkg -r dump >remove.log 2>&1 || { cat remove.log; false; } &&
	test "$(pkg_state)" = "config-files $OURS_VERSION" &&
	test ! -e /sbin/dump && test ! -e /usr/sbin/rmt-dump &&
	test -z "$(alt_entry /usr/sbin/rmt-dump)" &&
	dumpdates_mode && grep "^$DEV 0 " /var/lib/dumpdates &&
	dpkg -P dump >purge.log 2>&1 || { cat purge.log; false; } &&
	test ! -e /var/lib/dumpdates &&
	left_over installed.list dirs.before >left &&
	test_cmp /dev/null left &&
	test ! -e /usr/share/doc/dump &&
	etc_rmt >etc-rmt.after &&
	test_cmp etc-rmt.before etc-rmt.after
'

test_expect_success RESTORABLE,DEBIAN_DEB 'Debian'"'"'s dump upgraded to ours and back: the alternative stays right' '
	test_when_finished restore_machine &&
	dpkg -P dump >purge0.log 2>&1 &&
	dpkg -i "$DEBIAN_DEB" >debian.log 2>&1 || { cat debian.log; false; } &&
	test "$(pkg_state)" = "installed $DEBIAN_VERSION" &&
	alt_entry /usr/sbin/rmt-dump >alt.debian &&
	test -s alt.debian &&
	dumpdates_mode &&
	echo "/dev/null 0 Thu Jan  1 00:00:00 2026 +0000" >>/var/lib/dumpdates &&
	cp /var/lib/dumpdates dumpdates.kept &&
	dpkg -i "$OURS_DEB" >upgrade.log 2>&1 || { cat upgrade.log; false; } &&
	test "$(pkg_state)" = "installed $OURS_VERSION" &&
	cmp ours.x/sbin/dump /sbin/dump &&
	test ! -e /usr/share/doc/dump/examples &&
	ours_registered &&
	alt_entry /usr/sbin/rmt-dump >alt.ours &&
	test_cmp alt.debian alt.ours &&
	dumpdates_mode && cmp dumpdates.kept /var/lib/dumpdates &&
	dpkg -i "$DEBIAN_DEB" >downgrade.log 2>&1 ||
	{ cat downgrade.log; false; } &&
	grep "downgrading dump from $OURS_VERSION to $DEBIAN_VERSION" downgrade.log &&
	test "$(pkg_state)" = "installed $DEBIAN_VERSION" &&
	! cmp ours.x/sbin/dump /sbin/dump &&
	alt_entry /usr/sbin/rmt-dump >alt.back &&
	test_cmp alt.debian alt.back &&
	ours_registered &&
	dumpdates_mode && cmp dumpdates.kept /var/lib/dumpdates
'

test_expect_success RESTORABLE 'the machine is as before: dump package, dumpdates, alternatives, /etc/rmt' '
	machine_state >machine.after &&
	test_cmp "$STATE/machine" machine.after
'

test_done
