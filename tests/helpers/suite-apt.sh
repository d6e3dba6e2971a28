#!/bin/sh
# tests/helpers/suite-apt.sh DIR update SUITE...
# tests/helpers/suite-apt.sh DIR APT-GET-ARGS...
#
# apt-get on package lists of our own, kept in DIR, of the Debian suites
# named (main, from deb.debian.org, checked against Debian's archive
# keyring): what the tests fetch from a suite does not depend on the
# suite or the lists of the machine they run on, and nothing of the
# machine's apt state changes.  "update" writes DIR/sources.list and
# reads the lists; it fails, with apt's messages on stderr, when any
# list cannot be read.  Every other call runs apt-get with ARGS on those
# lists (e.g. "download dump", in the current directory).  Each run is
# bounded: a network that hangs fails too.
set -u
dir=${1:?usage: suite-apt.sh DIR update SUITE... | DIR APT-GET-ARGS...}
shift
mirror=http://deb.debian.org/debian
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

aptq() {
	timeout 600 apt-get -q -o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Dir::State::Status=/dev/null -o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root "$@"
}

if test "${1:-}" = update
then
	shift
	test $# -gt 0 || { echo "suite-apt.sh: update needs a suite" >&2; exit 2; }
	if ! test -r "$keyring"
	then
		echo "suite-apt.sh: $keyring is missing (package debian-archive-keyring)" >&2
		exit 1
	fi
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" || exit 1
	for suite
	do
		echo "deb [signed-by=$keyring] $mirror $suite main"
	done >"$dir/sources.list" || exit 1
	# apt-get update exits 0 with a "W:" line for a list it could not
	# fetch: that is a failure here.
	aptq update >"$dir/update.log" 2>&1 && ! grep -q "^[WE]:" "$dir/update.log" &&
		exit 0
	grep "^[WE]:" "$dir/update.log" >&2 || tail -n 3 "$dir/update.log" >&2
	echo "suite-apt.sh: cannot read the lists of $* from $mirror" >&2
	exit 1
fi
aptq "$@"
