#!/bin/sh
test_description='restore and restore 0.4b47 side by side: options, modes

Our restore and restore 0.4b47 run with the same arguments on the same
archive (of an image file made with mke2fs -d, dumped by our dump); the
messages (less the program name), the standard output and the exit
status must be equal.'
. "$(dirname "$0")/lib.sh"

# both ARGS...: run both restores in fresh directories o/ and u/ with
# ARGS; write o.out/o.err/o.rc and u.out/u.err/u.rc; the program name in
# front of the messages is cut off.
both() {
	rm -rf o u && mkdir o u &&
	(cd o && "$ORACLE_RESTORE" "$@" </dev/null >../o.out 2>../o.err
	 echo $? >../o.rc) &&
	(cd u && "$RESTORE" "$@" </dev/null >../u.out 2>../u.err
	 echo $? >../u.rc) &&
	sed -i 's|^[^ :]*restore: ||' o.err u.err
}

# same ARGS...: both, then equal output, messages and status.
same() {
	both "$@" &&
	test_cmp o.err u.err && test_cmp o.out u.out && test_cmp o.rc u.rc
}

test_expect_success OURDUMP 'setup: an archive of a small file system' '
	mkdir -p tree/d1/d2 && echo hi >tree/d1/f && echo x >tree/d1/d2/g &&
	echo top >tree/a &&
	mke2fs -q -F -t ext4 -d tree fs.img 8M &&
	"$DUMP" -0 -f a0.dump fs.img 2>dump.err
'

for args in "-t -H 0" "-t -H x" "-t -H -1" "-t -H 5x" "-t -H 5" \
	"-t -e" "-t -E 5" "-t -E 5 -e" "-P p -e" "-P p -E 1" \
	"-t -b 0" "-t -b -5" "-t -b 1x" "-tv -b 1025" "-tv -b 99999" \
	"-t -L -1" "-t -L x" "-t -s 0" "-t -s x" "-t -c" "-tv -c"
do
	test_expect_success OURRESTORE,ORACLE,OURDUMP "restore $args -f a0.dump: as 0.4b47" '
		same '"$args"' -f ../a0.dump
	'
done

test_expect_success OURRESTORE,ORACLE,OURDUMP 'key letters: restore te a0.dump refused as by 0.4b47' '
	same te ../a0.dump && test_cmp o.rc - <<-\EOT
	1
	EOT
'

test_done
