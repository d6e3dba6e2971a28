#!/bin/sh
test_description='dump and dump 0.4b47 side by side: remote links, messages

A remote output whose remote shell fails never counts as connected: the
dump says "login to HOST as USER failed." (0.4b47 words for a failed
rcmd) and exits 1, with RSH set to a remote shell that fails (status
255, as ssh) or cannot be run, and with RSH unset (a stand-in ssh first in
PATH).  A server that dies before answering is a lost connection, status
3, as in 0.4b47.  (0.4b47 itself needs rcmd and a real host here: not
run side by side.)'
. "$(dirname "$0")/lib.sh"

test_expect_success OURDUMP 'setup: a small file system image, a failing ssh' '
	mkdir -p tree/d && echo hi >tree/d/f &&
	mke2fs -q -F -t ext4 -d tree fs.img 8M &&
	mkdir bin && cat >bin/ssh <<-\EOF &&
	#!/bin/sh
	echo "$@" >"${0%/bin/ssh}/ssh.args"
	echo "ssh: Could not resolve hostname $1" >&2
	exit 255
	EOF
	chmod +x bin/ssh
'

# no_link OUT: the messages of a link that never was.
no_link() {
	grep "login to h as [^ ]* failed\.\$" "$1" &&
	! grep "established" "$1" && ! grep "DUMP IS DONE" "$1"
}

test_expect_success OURDUMP 'dump -f h:file, RSH fails (255): login failed, status 1' '
	RSH=$PWD/bin/ssh && export RSH &&
	test_when_finished "unset RSH" &&
	{ "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err; echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err &&
	grep "^  DUMP: login to" err
'

test_expect_success OURDUMP 'dump -f h:file, RSH unset: ssh is used, no false connection' '
	{ PATH=$PWD/bin:$PATH "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err
	  echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err &&
	grep "^ssh: Could not resolve hostname h\$" err &&
	grep "^h -l [^ ]* [^ ]*rmt" ssh.args
'

test_expect_success OURRESTORE 'restore -f h:file, RSH fails (255): login failed, status 1' '
	{ RSH=$PWD/bin/ssh "$RESTORE" -t -f h:/nonexistent/x >out 2>err
	  echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err && test_cmp /dev/null out
'

test_expect_success OURDUMP 'dump -f h:file, RSH cannot be run: login failed, status 1' '
	{ RSH=$PWD/nonexistent "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err
	  echo $? >rc; } &&
	echo 1 | test_cmp - rc && no_link err && grep "cannot exec" err
'

test_expect_success OURDUMP 'dump -f h:file, rmt dies at once: lost connection, status 3 as 0.4b47' '
	{ RSH=false "$DUMP" -0 -f h:/nonexistent/x fs.img 2>err
	  echo $? >rc; } &&
	echo 3 | test_cmp - rc &&
	grep "^  DUMP: Lost connection to remote host\.\$" err &&
	! grep "login to" err
'

# 0.4b47 prints the libext2fs error of the open without "  DUMP: ";
# ours prints the same words with it, for log parsers.
for what in zero badmagic
do
	test_expect_success ROOT,LOOP,OURDUMP,ORACLE "dump of a $what device: libext2fs error with the DUMP prefix" '
		if test '$what' = zero
		then
			truncate -s 4M '$what'.img
		else
			cp fs.img '$what'.img &&
			printf "\\377\\377" | dd of='$what'.img bs=1 seek=1080 conv=notrunc 2>/dev/null
		fi &&
		dev=$(image_attach '$what'.img) &&
		{ "$ORACLE_DUMP" -0 -f /dev/null "$dev" 2>o.err; echo $? >o.rc; } &&
		{ "$DUMP" -0 -f /dev/null "$dev" 2>u.err; echo $? >u.rc; } &&
		test_cmp o.rc u.rc &&
		grep "^$dev: Bad magic number in super-block while opening filesystem\$" o.err >o.line &&
		grep "^  DUMP: $dev: Bad magic number" u.err | sed "s/^  DUMP: //" >u.line &&
		test_cmp o.line u.line
	'
done

test_done
