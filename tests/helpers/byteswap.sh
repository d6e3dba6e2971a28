# tests/helpers/byteswap.sh - shared steps of the foreign-byte-order tests.
# Sourced by tests/t9002-restore-byteswap.sh and
# tests/t9012-restore-byteswap-compressed.sh after lib.sh and hostile.sh
# (which sets TAPETOOL).
#
# swap_twice NATIVE SWAPPED BACK: converts NATIVE to the other byte order
# into SWAPPED, converts that back into BACK, and fails unless BACK has
# the bytes of NATIVE and SWAPPED does not.
#
# swap_restore RESTORE-BINARY ARCHIVE DIR: restore -r of ARCHIVE into a
# fresh DIR (DIR.tmp its -T directory, DIR.err its stderr), then the
# manifest of DIR without restoresymtable into DIR.manifest.

swap_twice() {
	"$TAPETOOL" swap "$1" "$2" &&
	"$TAPETOOL" swap "$2" "$3" &&
	cmp "$1" "$3" &&
	! cmp -s "$1" "$2"
}

swap_restore() {
	rm -rf "$3" "$3.tmp" && mkdir "$3" "$3.tmp" &&
	(cd "$3" && timeout 300 "$1" -r -y -T "../$3.tmp" -f "../$2" \
		</dev/null) 2>"$3.err" &&
	rm -f "$3/restoresymtable" &&
	manifest "$3" --no-root >"$3.manifest"
}
