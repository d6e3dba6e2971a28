#!/bin/sh
# scripts/install-deps.sh - install what building and testing need on a
# fresh Debian 12 machine (run as root). Idempotent.
#   build: compiler, autoconf, pkg-config and the libraries configure looks
#          for (libext2fs/com_err, blkid, zlib, libdeflate, bzip2, lzo2,
#          zstd, xxhash, readline)
#   tests: e2fsprogs (mke2fs, debugfs), util-linux (losetup, mount,
#          setpriv), python3, attr/acl (xattr checks), openssh for rmt
#          tests, strace (write-size and fsync checks), script(1) from
#          bsdutils for terminal questions; xfsprogs (an XFS to hold an
#          ext4 image of more than 16 TiB, t5300); Amanda (server and client, with
#          mailutils as its mailer so that no MTA comes along, and the
#          Encode::Locale its Perl tools need) for t8500
#   fuzz:  clang and its libFuzzer/sanitizer runtimes (make fuzz);
#          clang-format for the layout check of t0020
#   package: debhelper, dpkg-dev, fakeroot and lintian for the Debian
#          package (debian/, dpkg-buildpackage -us -uc -b; t0200);
#          debootstrap for the Debian 13 chroot of t0201
set -e
if test "$(id -u)" != 0
then
	echo "install-deps.sh: run as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
	build-essential autoconf pkg-config \
	libext2fs-dev comerr-dev libblkid-dev zlib1g-dev libdeflate-dev libbz2-dev \
	liblzo2-dev libzstd-dev libxxhash-dev libreadline-dev \
	e2fsprogs util-linux mount python3 attr acl xfsprogs \
	openssh-server openssh-client strace tar bsdutils procps time groff-base bzip2 \
	ca-certificates clang libclang-rt-14-dev clang-format \
	amanda-server amanda-client mailutils libencode-locale-perl \
	debhelper dpkg-dev fakeroot lintian debootstrap
