#!/bin/sh
# tests/helpers/fetch-oracle.sh - fetch Debian 12's (bookworm's) dump
# 0.4b47 package and unpack it (never install it) into tests/oracle/, so
# the tests can run the reference dump, restore and rmt-dump as a
# black-box oracle.
# Idempotent: does nothing when tests/oracle/sbin/dump already exists.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
dest=$here/oracle
if test -x "$dest/sbin/dump" && test -x "$dest/sbin/restore"
then
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fetch-oracle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# Bookworm's lists of our own (suite-apt.sh), whatever suite the machine
# runs and however old its lists are: 0.4b47 and nothing else.
sh "$here/helpers/suite-apt.sh" "$tmp" update bookworm
sh "$here/helpers/suite-apt.sh" "$tmp" download dump=0.4b47-4
deb=$(ls dump_*.deb 2>/dev/null | head -n 1)
if test -z "$deb"
then
	echo "fetch-oracle: apt-get download dump gave no package" >&2
	exit 1
fi
rm -rf "$dest.new"
dpkg -x "$deb" "$dest.new"
# The newer releases (fetch-upstream.sh) live below $dest too: keep them.
mkdir -p "$dest"
for part in "$dest.new"/*
do
	rm -rf "$dest/${part##*/}"
	mv "$part" "$dest/"
done
rmdir "$dest.new"
echo "fetch-oracle: unpacked $deb into $dest"
"$dest/sbin/dump" 2>&1 | head -n 1 || true
