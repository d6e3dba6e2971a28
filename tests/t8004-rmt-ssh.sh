#!/bin/sh
test_description='dump, restore and GNU tar through ssh to our rmt

A real sshd, started by this script on a free loopback port with
throwaway host and user keys (package openssh-server), serves the
connections; RSH points at an ssh wrapper that uses those keys, RMT at our
rmt.  dump 0.4b47 writes a level-0 archive as root@localhost:<path> (a
path longer than the 63 bytes rmt 0.4b47 could take), restore 0.4b47 lists
and restores it through the same link, and GNU tar writes and reads an
archive there, byte for byte the one it writes locally.  Our dump writes
through ssh to our rmt and to rmt 0.4b47 (pipelined with ours): each
archive equals a local dump of the same device but for the dump date;
our restore lists and restores each through ssh as from the local file.
Skipped where sshd is not installed or the password of root is locked.'
. "$(dirname "$0")/lib.sh"

test -x "$ORACLE_RMT" && test_set_prereq RMTORACLE

SSHD=/usr/sbin/sshd
# Without PAM, sshd refuses every login to an account whose password is
# locked ("!" in /etc/shadow, as Ubuntu leaves root): no link to test.
case $(getent shadow root 2>/dev/null | cut -d: -f2) in
'!'*) ;;
*)
	test -x "$SSHD" && command -v ssh >/dev/null &&
		command -v ssh-keygen >/dev/null && test_set_prereq SSHD
esac
command -v tar >/dev/null && tar --version 2>/dev/null | grep -q "GNU tar" &&
	test_set_prereq GNUTAR
# sshd lives at most this long, should the script die before its cleanup
# (timeout passes the cleanup's TERM on to sshd).
SSHD_LIFETIME=600

# A free TCP port on the loopback interface.
free_port() {
	"$PYTHON" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

test_expect_success ROOT,SSHD,PYTHON 'setup: sshd on a loopback port, keys, ssh wrapper' '
	ssh-keygen -q -t ed25519 -N "" -f hostkey &&
	ssh-keygen -q -t ed25519 -N "" -f userkey &&
	cp userkey.pub authorized_keys &&
	port=$(free_port) && echo "$port" >port &&
	cat >sshd_config <<-EOF &&
	ListenAddress 127.0.0.1
	Port $port
	HostKey $PWD/hostkey
	AuthorizedKeysFile $PWD/authorized_keys
	PidFile none
	PermitRootLogin prohibit-password
	PubkeyAuthentication yes
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	LogLevel ERROR
	EOF
	mkdir -p /run/sshd || return 1
	timeout $SSHD_LIFETIME "$SSHD" -D -e -f "$PWD/sshd_config" 2>sshd.log &
	echo $! >sshd.runner &&
	test_at_exit "kill $! 2>/dev/null" &&
	cat >ssh-rsh <<-EOF &&
	#!/bin/sh
	exec ssh -F /dev/null -i "$PWD/userkey" -p $port -o BatchMode=yes \\
		-o IdentitiesOnly=yes -o IdentityAgent=none \\
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \\
		-o LogLevel=ERROR "\$@"
	EOF
	chmod +x ssh-rsh &&
	i=0 && until ./ssh-rsh localhost -l root echo ok >ok 2>ssh.err
	do
		i=$((i + 1)) && test $i -lt 50 && sleep 0.2 || return 1
	done &&
	echo ok >expect && test_cmp expect ok
'
test "$(cat "$TRASH_DIRECTORY/ok" 2>/dev/null)" = ok && test_set_prereq SSHLINK
# A remote directory whose path is longer than rmt 0.4b47's 63-byte lines.
LONGDIR=$TRASH_DIRECTORY/a-directory-whose-name-makes-the-path-longer-than-63-bytes

test_expect_success SSHLINK,LOOP,ORACLE,OURRMT 'dump 0.4b47 through ssh to our rmt' '
	make_image ext4 fs.img small &&
	image_attach fs.img >loopdev &&
	mkdir "$LONGDIR" &&
	RSH=$PWD/ssh-rsh RMT=$RMT "$ORACLE_DUMP" -0 -f "root@localhost:$LONGDIR/s.dump" \
		"$(cat loopdev)" >dump.out 2>&1 &&
	grep "Connection to localhost established" dump.out &&
	grep "DUMP IS DONE" dump.out &&
	test -s "$LONGDIR/s.dump" && cp "$LONGDIR/s.dump" s.dump
'

test_expect_success SSHLINK,LOOP,ORACLE,OURRMT,PYTHON 'restore 0.4b47 lists and restores it through ssh' '
	RSH=$PWD/ssh-rsh RMT=$RMT "$ORACLE_RESTORE" -t -f "localhost:$LONGDIR/s.dump" \
		>remote.list 2>remote.err &&
	"$ORACLE_RESTORE" -t -f s.dump >local.list 2>/dev/null &&
	test_cmp local.list remote.list &&
	mkdir rr lr &&
	(cd rr && RSH=$PWD/../ssh-rsh RMT=$RMT \
		"$ORACLE_RESTORE" -r -f "localhost:$LONGDIR/s.dump") &&
	(cd lr && "$ORACLE_RESTORE" -r -f ../s.dump) &&
	manifest rr >rr.man && manifest lr >lr.man && test_cmp lr.man rr.man
'

test_expect_success SSHLINK,OURRMT,GNUTAR 'GNU tar writes and reads through ssh to our rmt' '
	mkdir tree && cp "$TOP"/rmt/*.c tree/ && seq 1 30000 >tree/numbers &&
	tar --rsh-command="$PWD/ssh-rsh" --rmt-command="$RMT" \
		-cf "localhost:$PWD/t.tar" tree &&
	tar -cf l.tar tree && cmp l.tar t.tar &&
	mkdir x && (cd x && tar --rsh-command="$PWD/../ssh-rsh" \
		--rmt-command="$RMT" -xf "localhost:$PWD/../t.tar") &&
	diff -r tree x/tree
'

# rmt 0.4b47 takes request lines of 63 bytes at most: a short directory.
SHORTDIR=$(short_dir) || exit 1
test_expect_success SSHLINK,LOOP,OURDUMP,OURRMT,PYTHON 'our dump through ssh to our rmt: the local archive' '
	"$DUMP" -0 -f l.dump "$(cat loopdev)" 2>l.err &&
	RSH=$PWD/ssh-rsh RMT=$RMT "$DUMP" -0 -f "root@localhost:$LONGDIR/o.dump" \
		"$(cat loopdev)" >od.out 2>&1 &&
	grep "Connection to localhost established" od.out &&
	grep "DUMP IS DONE" od.out &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp --strict l.dump "$LONGDIR/o.dump"
'

test_expect_success SSHLINK,LOOP,OURDUMP,RMTORACLE,PYTHON 'our dump through ssh to rmt 0.4b47: the local archive' '
	RSH=$PWD/ssh-rsh RMT=$ORACLE_RMT "$DUMP" -0 -f "root@localhost:$SHORTDIR/q.dump" \
		"$(cat loopdev)" >qd.out 2>&1 &&
	grep "DUMP IS DONE" qd.out &&
	"$PYTHON" "$HELPERS/cmpdump.py" cmp --strict l.dump "$SHORTDIR/q.dump"
'

for server in ours oracle
do
	test "$server" = ours && srv=$RMT prq=OURRMT what="our rmt" ||
		srv=$ORACLE_RMT prq=RMTORACLE what="rmt 0.4b47"
	test_expect_success SSHLINK,LOOP,OURRESTORE,PYTHON,$prq "our restore -t and -r through ssh from $what" '
		cp l.dump "$SHORTDIR/r.dump" &&
		"$RESTORE" -t -f l.dump >l.list 2>/dev/null &&
		RSH=$PWD/ssh-rsh RMT=$srv "$RESTORE" -t -f "root@localhost:$SHORTDIR/r.dump" \
			>r.list 2>r.err &&
		test_cmp l.list r.list &&
		rm -rf lr-'$server' rr-'$server' && mkdir lr-'$server' rr-'$server' &&
		(cd lr-'$server' && "$RESTORE" -r -f ../l.dump) &&
		(cd rr-'$server' && RSH=$PWD/../ssh-rsh RMT=$srv \
			"$RESTORE" -r -f "root@localhost:$SHORTDIR/r.dump") &&
		manifest lr-'$server' >lr.man && manifest rr-'$server' >rr.man &&
		test_cmp lr.man rr.man
	'
done

test_expect_success SSHLINK 'cleanup: stop sshd' '
	runner=$(cat sshd.runner) && test -n "$runner" &&
	kill "$runner" &&
	{ wait "$runner" 2>/dev/null; true; } &&
	! kill -0 "$runner" 2>/dev/null &&
	! ./ssh-rsh localhost -l root true 2>/dev/null
'

test_done
