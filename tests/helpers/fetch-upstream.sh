#!/bin/sh
# tests/helpers/fetch-upstream.sh SUITE - fetch the dump package of a newer
# Debian suite (trixie: 0.4b49, forky: 0.4b56) and the runtime libraries it
# needs from that same suite, unpack them (never install) into
# tests/oracle/SUITE/, and write tests/oracle/SUITE/bin/{dump,restore}:
# wrappers that run the unpacked programs through the unpacked loader, so
# the host's libraries are never mixed with the suite's.
# apt-get works on private lists and caches (suite-apt.sh): nothing of
# the system's apt state changes.  Idempotent: does nothing once
# bin/restore works.
set -e
suite=${1:?usage: fetch-upstream.sh SUITE}
here=$(cd "$(dirname "$0")/.." && pwd)
dest=$here/oracle/$suite
if test -x "$dest/bin/restore" && "$dest/bin/restore" 2>&1 | grep -q '^restore 0'
then
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fetch-upstream.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
aptq() {
	sh "$here/helpers/suite-apt.sh" "$tmp" "$@"
}
aptq update "$suite" || exit 1
# dump's Depends in trixie and forky, and what those libraries need.
pkgs="dump libc6 libext2fs2t64 libcom-err2 libblkid1 zlib1g libbz2-1.0
      liblzo2-2 libreadline8t64 libtinfo6 libselinux1 libpcre2-8-0"
(cd "$tmp" && aptq download $pkgs) >"$tmp/download.log" 2>&1 || {
	cat "$tmp/download.log" >&2
	echo "fetch-upstream: cannot download the $suite packages" >&2
	exit 1
}
rm -rf "$dest.new"
for deb in "$tmp"/*.deb
do
	dpkg -x "$deb" "$dest.new"
done
mkdir -p "$dest.new/bin"
for prog in dump restore
do
	cat >"$dest.new/bin/$prog" <<EOS
#!/bin/sh
# $prog of Debian $suite, run with that suite's own libraries.
d=\$(cd "\$(dirname "\$0")/.." && pwd)
lib=\$d/usr/lib/x86_64-linux-gnu
exec "\$lib/ld-linux-x86-64.so.2" --library-path "\$lib" --argv0 $prog \\
	"\$d/usr/sbin/$prog" "\$@"
EOS
	chmod 755 "$dest.new/bin/$prog"
done
rm -rf "$dest"
mv "$dest.new" "$dest"
echo "fetch-upstream: $("$dest/bin/restore" 2>&1 | head -n 1) in $dest"
