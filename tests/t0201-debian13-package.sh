#!/bin/sh
test_description='the Debian package on Debian 13 (trixie), in a chroot: build, upgrade, use, forky over it, purge

A trixie chroot (debootstrap --variant=minbase, the build dependencies of
debian/control) is made once and kept in tests/oracle/debian13-chroot/
with the .debs of trixie'"'"'s dump 0.4b49-2 and forky'"'"'s 0.4b56-1; each
run unpacks it into the trash directory. There dpkg-buildpackage builds
the package from a copy of the tree, with the paths of trixie'"'"'s dump
(/usr/sbin) and a version above both. Trixie'"'"'s dump is installed, then
ours over it: /sbin/dump is ours, rmt-dump is the rmt alternative, the
/var/lib/dumpdates records are kept; ours dumps an image file (also with
zstd) and restores it. Forky'"'"'s dump then goes in over ours (dpkg -i, a
downgrade) and leaves a consistent system: its programs, the
alternative, the dumpdates records, dpkg --audit and --verify clean. A
purge leaves tar'"'"'s rmt. Nothing of the machine changes: the chroot
is the script'"'"'s own (no test_lock_system); /proc, /sys and /dev/pts
are mounted in it only during a check and always unmounted. Without the
cache, debootstrap and deb.debian.org are needed: missing, the checks
skip, but under CI (CI set) an unreachable archive is a failure.'
. "$(dirname "$0")/lib.sh"

# The makes of the package build must not inherit those of a make that
# runs the suite.
unset MAKEFLAGS MFLAGS MAKELEVEL

TRIXIE_VERSION=0.4b49-2
FORKY_VERSION=0.4b56-1
MIRROR=http://deb.debian.org/debian
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
CACHE=$TOP/tests/oracle/debian13-chroot
CHROOT=$TRASH_DIRECTORY/root
APT=$TRASH_DIRECTORY/apt
ARCH=$(dpkg --print-architecture)

# What the cached chroot was made for: the suite, the two packages and
# debian/control's Build-Depends (a change there makes it again).
CACHE_KEY="trixie minbase dump=$TRIXIE_VERSION dump=$FORKY_VERSION build-depends=$(
	awk '/^Build-Depends:/ { p = 1; print; next }
		p && /^[ \t]/ { print; next } { p = 0 }' "$TOP/debian/control" |
	sha256sum | cut -d' ' -f1)"

# aptq ARGS: apt-get on private lists of trixie and forky
# (helpers/suite-apt.sh): nothing of the machine's apt state changes.
aptq() {
	sh "$HELPERS/suite-apt.sh" "$APT" "$@"
}

# in_chroot CMD...: CMD in the chroot, with an environment of its own.
in_chroot() {
	chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C TZ=UTC DEBIAN_FRONTEND=noninteractive "$@"
}

# chroot_mount: what apt, dpkg and the build look for: /proc, a read-only
# /sys and a devpts instance of the chroot's own (never the machine's
# /dev: the trash directory is removed with rm -rf). Each check that
# mounts registers chroot_umount with test_when_finished.
chroot_mount() {
	mount -t proc proc "$CHROOT/proc" &&
	mount -t sysfs -o ro sysfs "$CHROOT/sys" &&
	mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts \
		"$CHROOT/dev/pts"
}

# chroot_mounts: the mount points below the chroot, deepest first.
chroot_mounts() {
	awk -v t="$CHROOT/" 'index($2, t) == 1 { print $2 }' /proc/self/mounts |
	sort -r
}

# chroot_umount: unmount everything below the chroot (also what a killed
# debootstrap left), lazily when busy; fails when anything is left.
chroot_umount() {
	chroot_mounts | while read -r cu_dir
	do
		umount "$cu_dir" 2>/dev/null || umount -l "$cu_dir"
	done
	test -z "$(chroot_mounts)"
}
test_at_exit chroot_umount

# pkg_state: the chroot's dump package's dpkg status and version.
pkg_state() {
	ps_s=$(in_chroot dpkg-query -W -f='${db:Status-Status} ${Version}' dump 2>/dev/null)
	case "$ps_s" in
	""|not-installed*) echo not-installed ;;
	*) echo "$ps_s" ;;
	esac
}

# alt_entry PATH: the lines of rmt's alternative PATH in the chroot
# (Alternative, Priority, Slaves), nothing when it is not registered.
alt_entry() {
	in_chroot update-alternatives --query rmt |
	awk -v a="Alternative: $1" '$0 == a { p = 1 } p && /^$/ { exit } p'
}

# rmt_dump_registered: rmt-dump is the rmt alternative at priority 100
# with its page as rmt.8.gz, the best one, and /usr/sbin/rmt leads to it.
rmt_dump_registered() {
	alt_entry /usr/sbin/rmt-dump >alt.actual &&
	cat >alt.expect <<-EOF &&
	Alternative: /usr/sbin/rmt-dump
	Priority: 100
	Slaves:
	 rmt.8.gz /usr/share/man/man8/rmt-dump.8.gz
	EOF
	test_cmp alt.expect alt.actual &&
	in_chroot update-alternatives --query rmt >alt.query &&
	grep -x "Best: /usr/sbin/rmt-dump" alt.query &&
	grep -x "Value: /usr/sbin/rmt-dump" alt.query &&
	test "$(in_chroot readlink -f /usr/sbin/rmt)" = /usr/sbin/rmt-dump
}

# dumpdates_mode: the chroot's /var/lib/dumpdates is a regular file
# root:disk 0664.
dumpdates_mode() {
	test -f "$CHROOT/var/lib/dumpdates" &&
	test ! -h "$CHROOT/var/lib/dumpdates" &&
	test "$(in_chroot stat -c '%a %U:%G' /var/lib/dumpdates)" = "664 root:disk"
}

# consistent: dpkg finds nothing half done and every file of the
# installed package as it shipped.
consistent() {
	in_chroot dpkg --audit >audit.out 2>&1 &&
	test_cmp /dev/null audit.out &&
	in_chroot dpkg --verify dump >verify.out 2>&1 &&
	test_cmp /dev/null verify.out
}

# deb_files DEB: the files and links of DEB ("./path" or "./path ->
# target"), sorted, without directories.
deb_files() {
	dpkg-deb -c "$1" |
	awk '$6 !~ /\/$/ { if ($7 == "->") print $6, $7, $8; else print $6 }' |
	sort
}

# deb_paths DEB: those of the programs and manual pages.
deb_paths() {
	deb_files "$1" | grep -E "^\./(sbin|usr/sbin|usr/share/man)/"
}

# tlist: the paths of a restore -t listing, sorted.
tlist() {
	grep -a "^ *[0-9][0-9]*	" | cut -f 2- | sort
}

# The package is built with Debian's flags, whatever this tree was
# configured with (see t0200).
if grep -q -e -fsanitize "$TOP/Make.rules" 2>/dev/null
then
	say "# this tree is a sanitizer build: the package (built with Debian's flags) is checked by the normal build's run"
elif test "$(id -u)" != 0
then
	:	# ROOT is missing: every check says so
elif test -f "$CACHE/root.tar" && test "$(cat "$CACHE/stamp" 2>/dev/null)" = "$CACHE_KEY"
then
	test_set_prereq CACHED
else
	if command -v debootstrap >/dev/null 2>&1 && test -f "$KEYRING"
	then
		test_set_prereq DEBOOTSTRAP
	else
		say "# debootstrap or $KEYRING is missing: no trixie chroot (scripts/install-deps.sh installs debootstrap)"
	fi
	# The network: the lists of trixie and forky, read now (also for
	# the download of their dump packages).
	if aptq update trixie forky 2>"$TRASH_DIRECTORY/update.err"
	then
		test_set_prereq NETWORK
	elif test -n "${CI:-}"
	then
		test_expect_success "the lists of trixie and forky from $MIRROR (CI: the network is required)" '
			cat update.err && false
		'
	else
		say "# $MIRROR cannot be read: no trixie chroot"
		sed "s/^/#   /" "$TRASH_DIRECTORY/update.err"
	fi
fi

if test_have_prereq CACHED
then
	test_expect_success ROOT 'the trixie chroot, from the cache' '
		mkdir "$CHROOT" &&
		tar -C "$CHROOT" --numeric-owner -xf "$CACHE/root.tar" &&
		test -x "$CHROOT/usr/bin/dpkg-buildpackage" &&
		test_set_prereq CHROOT
	'
else
	test_expect_success ROOT,DEBOOTSTRAP,NETWORK 'a trixie chroot: debootstrap --variant=minbase, the build dependencies (then cached)' '
		test_when_finished "chroot_umount; rm -rf \"$CACHE.new\"" &&
		rm -rf "$CACHE.new" && mkdir -p "$CACHE.new/debs" &&
		(cd "$CACHE.new/debs" &&
		aptq download dump=$TRIXIE_VERSION dump=$FORKY_VERSION) \
			>download.log 2>&1 || { cat download.log; false; } &&
		debootstrap --variant=minbase --keyring="$KEYRING" trixie \
			"$CHROOT" "$MIRROR" >debootstrap.log 2>&1 ||
		{ tail -n 30 debootstrap.log; false; } &&
		chroot_mount &&
		mkdir -p "$CHROOT/tmp/control/debian" &&
		cp "$TOP/debian/control" "$CHROOT/tmp/control/debian/control" &&
		in_chroot sh -c "apt-get -q update &&
			apt-get -q -y --no-install-recommends build-dep /tmp/control &&
			apt-get clean &&
			find /var/lib/apt/lists -type f -delete" >deps.log 2>&1 ||
		{ tail -n 30 deps.log; false; } &&
		rm -rf "$CHROOT/tmp/control" &&
		chroot_umount &&
		tar -C "$CHROOT" --numeric-owner --one-file-system \
			-cf "$CACHE.new/root.tar" . &&
		echo "$CACHE_KEY" >"$CACHE.new/stamp" &&
		rm -rf "$CACHE" && mv "$CACHE.new" "$CACHE" &&
		test_set_prereq CHROOT
	'
fi

test_expect_success CHROOT 'the packages of trixie and forky: dump 0.4b49-2 and 0.4b56-1' '
	TRIXIE_DEB=$CACHE/debs/dump_${TRIXIE_VERSION}_$ARCH.deb &&
	FORKY_DEB=$CACHE/debs/dump_${FORKY_VERSION}_$ARCH.deb &&
	test "$(dpkg-deb -f "$TRIXIE_DEB" Version)" = $TRIXIE_VERSION &&
	test "$(dpkg-deb -f "$FORKY_DEB" Version)" = $FORKY_VERSION &&
	mkdir "$CHROOT/debs" &&
	cp "$TRIXIE_DEB" "$FORKY_DEB" "$CHROOT/debs/" &&
	dpkg-deb -x "$FORKY_DEB" forky.x
'

test_expect_success CHROOT 'dpkg-buildpackage -us -uc -b builds from a copy of the tree in the chroot' '
	test_when_finished chroot_umount &&
	mkdir -p "$CHROOT/build/src" &&
	tar -C "$TOP" --exclude=./.git --exclude="./tests/trash.*" \
		--exclude=./tests/oracle --exclude="*.o" --exclude="*.a" \
		--exclude=./debian/dump --exclude=./debian/.debhelper \
		--exclude=./debian/files --exclude="./debian/*.substvars" \
		--exclude=./debian/debhelper-build-stamp -cf - . |
	tar -C "$CHROOT/build/src" -xf - &&
	if test -f "$CHROOT/build/src/Makefile"
	then
		make -C "$CHROOT/build/src" distclean >distclean.log 2>&1 ||
		{ cat distclean.log; false; }
	fi &&
	chroot_mount &&
	in_chroot sh -c "cd /build/src && dpkg-buildpackage -us -uc -b -j2" \
		>build.log 2>&1 || { tail -n 40 build.log; false; } &&
	OURS_DEB=$(echo "$CHROOT"/build/dump_*_$ARCH.deb) &&
	test -f "$OURS_DEB" &&
	OURS_VERSION=$(dpkg-deb -f "$OURS_DEB" Version) &&
	dpkg-deb -x "$OURS_DEB" ours.x &&
	test_set_prereq BUILT
'

test_expect_success BUILT 'its version sorts above 0.4b49-2 (an upgrade) and 0.4b56-1 (forky'"'"'s goes in as a downgrade)' '
	in_chroot dpkg --compare-versions "$OURS_VERSION" gt $TRIXIE_VERSION &&
	in_chroot dpkg --compare-versions "$OURS_VERSION" gt $FORKY_VERSION
'

test_expect_success BUILT 'trixie'"'"'s libraries (libext2fs2t64), zstd and libdeflate in Depends' '
	dpkg-deb -f "$OURS_DEB" Depends | tr -d " " | tr "," "\n" |
		sed "s/(.*//" | sort >depends &&
	grep -x libext2fs2t64 depends &&
	grep -x libzstd1 depends &&
	grep -x libdeflate0 depends
'

test_expect_success BUILT 'ours has the program and page paths of trixie'"'"'s and forky'"'"'s (/usr/sbin)' '
	deb_paths "$TRIXIE_DEB" >trixie.paths &&
	deb_paths "$FORKY_DEB" >forky.paths &&
	deb_paths "$OURS_DEB" >ours.paths &&
	test_cmp trixie.paths ours.paths &&
	test_cmp forky.paths ours.paths &&
	grep -x "./usr/sbin/dump" ours.paths
'

test_expect_success BUILT 'trixie'"'"'s dump 0.4b49-2, then ours over it: /sbin/dump is ours, the rmt alternative, dumpdates kept' '
	test_when_finished chroot_umount &&
	chroot_mount &&
	in_chroot dpkg -i /debs/dump_${TRIXIE_VERSION}_$ARCH.deb \
		>trixie.log 2>&1 || { cat trixie.log; false; } &&
	test "$(pkg_state)" = "installed $TRIXIE_VERSION" &&
	alt_entry /usr/sbin/rmt-dump >alt.trixie &&
	test -s alt.trixie &&
	dumpdates_mode &&
	echo "/dev/null 0 Thu Jan  1 00:00:00 2026 +0000" \
		>>"$CHROOT/var/lib/dumpdates" &&
	cp "$CHROOT/var/lib/dumpdates" dumpdates.kept &&
	in_chroot dpkg -i "/build/${OURS_DEB##*/}" >upgrade.log 2>&1 ||
	{ cat upgrade.log; false; } &&
	grep -F "Unpacking dump ($OURS_VERSION) over ($TRIXIE_VERSION)" upgrade.log &&
	test "$(pkg_state)" = "installed $OURS_VERSION" &&
	consistent &&
	cmp ours.x/usr/sbin/dump "$CHROOT/sbin/dump" &&
	cmp ours.x/usr/sbin/restore "$CHROOT/sbin/restore" &&
	cmp ours.x/usr/sbin/rmt-dump "$CHROOT/usr/sbin/rmt-dump" &&
	{ in_chroot /sbin/dump 2>&1; true; } | sed -n 1p >version &&
	grep "^/sbin/dump ${OURS_VERSION%%-*} (using libext2fs " version &&
	in_chroot dpkg -S /usr/sbin/dump /usr/sbin/restore /usr/sbin/rdump \
		/usr/sbin/rrestore /usr/sbin/rmt-dump >owner &&
	test "$(cut -d: -f1 owner | sort -u)" = dump &&
	test ! -e "$CHROOT/usr/share/doc/dump/examples" &&
	rmt_dump_registered &&
	alt_entry /usr/sbin/rmt-dump >alt.ours &&
	test_cmp alt.trixie alt.ours &&
	printf "Z\n" | { in_chroot /usr/sbin/rmt >/dev/null; test $? = 3; } &&
	dumpdates_mode && cmp dumpdates.kept "$CHROOT/var/lib/dumpdates" &&
	test_set_prereq INSTALLED
'

test_expect_success INSTALLED,PYTHON 'ours in the chroot: dump -0u of an image file, restore -t and -r, dump -Z' '
	test_when_finished chroot_umount &&
	mkdir -p tree/d/e &&
	printf "one\n" >tree/a &&
	head -c 300000 /dev/urandom >tree/d/big &&
	ln tree/d/big tree/d/e/hard &&
	ln -s ../a tree/d/link &&
	truncate -s 5M tree/d/sparse && printf end >>tree/d/sparse &&
	chmod 640 tree/a && chown 1:2 tree/d/big &&
	mke2fs -q -F -t ext4 -d tree "$CHROOT/build/fs.img" 16M &&
	{ (cd tree && find . -print) && echo ./lost+found; } | sort >src.list &&
	# mke2fs -d keeps whole seconds only
	manifest tree --no-root --mtime=s >src.man &&
	chroot_mount &&
	in_chroot /sbin/dump -0u -f /build/a.dump /build/fs.img 2>dump.err ||
	{ cat dump.err; false; } &&
	grep "DUMP IS DONE" dump.err &&
	grep "^/build/fs.img 0 " "$CHROOT/var/lib/dumpdates" &&
	dumpdates_mode &&
	in_chroot /sbin/restore -t -f /build/a.dump 2>t.err | tlist >t.list &&
	test_cmp src.list t.list &&
	mkdir "$CHROOT/build/r" &&
	in_chroot sh -c "cd /build/r && /sbin/rrestore -r -f /build/a.dump" \
		2>r.err &&
	test_cmp /dev/null r.err &&
	manifest "$CHROOT/build/r" --no-root --mtime=s --exclude=lost+found \
		>r.man &&
	test_cmp src.man r.man &&
	in_chroot /sbin/dump -0 -Z -f /build/z.dump /build/fs.img 2>z.err ||
	{ cat z.err; false; } &&
	in_chroot /sbin/restore -t -f /build/z.dump 2>zt.err | tlist >zt.list &&
	test_cmp src.list zt.list
'

test_expect_success INSTALLED 'forky'"'"'s dump 0.4b56-1 over ours (dpkg -i, a downgrade): consistent, alternative and dumpdates kept' '
	test_when_finished chroot_umount &&
	chroot_mount &&
	cp "$CHROOT/var/lib/dumpdates" dumpdates.kept &&
	in_chroot dpkg -i /debs/dump_${FORKY_VERSION}_$ARCH.deb \
		>forky.log 2>&1 || { cat forky.log; false; } &&
	grep -F "downgrading dump ($OURS_VERSION) to ($FORKY_VERSION)" forky.log &&
	test "$(pkg_state)" = "installed $FORKY_VERSION" &&
	consistent &&
	cmp forky.x/usr/sbin/dump "$CHROOT/sbin/dump" &&
	cmp forky.x/usr/sbin/restore "$CHROOT/sbin/restore" &&
	cmp forky.x/usr/sbin/rmt-dump "$CHROOT/usr/sbin/rmt-dump" &&
	test "$(readlink "$CHROOT/usr/sbin/rdump")" = dump &&
	test "$(readlink "$CHROOT/usr/sbin/rrestore")" = restore &&
	{ in_chroot /sbin/dump 2>&1; true; } | sed -n 1p >version &&
	grep "^/sbin/dump ${FORKY_VERSION%%-*} (using libext2fs " version &&
	in_chroot dpkg -S /usr/sbin/dump /usr/sbin/restore /usr/sbin/rdump \
		/usr/sbin/rrestore /usr/sbin/rmt-dump >owner &&
	test "$(cut -d: -f1 owner | sort -u)" = dump &&
	rmt_dump_registered &&
	alt_entry /usr/sbin/rmt-dump >alt.forky &&
	test_cmp alt.trixie alt.forky &&
	dumpdates_mode && cmp dumpdates.kept "$CHROOT/var/lib/dumpdates"
'

test_expect_success INSTALLED 'purge: nothing of dump is left, tar'"'"'s rmt-tar is the rmt alternative' '
	test_when_finished chroot_umount &&
	chroot_mount &&
	in_chroot dpkg -P dump >purge.log 2>&1 || { cat purge.log; false; } &&
	test "$(pkg_state)" = not-installed &&
	in_chroot dpkg --audit >audit.out 2>&1 &&
	test_cmp /dev/null audit.out &&
	for pf in /sbin/dump /sbin/restore /usr/sbin/rdump /usr/sbin/rrestore \
		/usr/sbin/rmt-dump /var/lib/dumpdates /usr/share/doc/dump
	do
		if test -e "$CHROOT$pf" || test -h "$CHROOT$pf"
		then
			echo "$pf is left"
		fi
	done >left &&
	test_cmp /dev/null left &&
	test -z "$(alt_entry /usr/sbin/rmt-dump)" &&
	test "$(in_chroot readlink -f /usr/sbin/rmt)" = /usr/sbin/rmt-tar
'

test_expect_success CHROOT 'nothing is left mounted below the chroot' '
	chroot_mounts >mounts.left &&
	test_cmp /dev/null mounts.left
'

test_done
