#!/bin/sh
test_description='dump: signals, operator questions and notices, volume sizes

SIGTERM/SIGHUP abort with the words of dump 0.4b47 ("Signal on pipe:
cannot recover" on a pipe or FIFO, "Rewriting attempted as response to
unknown signal: N." otherwise), status 3, helpers killed, dumpdates
untouched; SIGINT asks "Do you want to abort dump?"; signals ignored at
start stay ignored.  An output that cannot be opened asks "Do you want to
retry the open?".  -n tells the operators (or says there is no group
operator).  After end of media a volume counts the blocks it holds.

The dumps that get signals write to something that blocks: a FIFO held
open but never read, or a pseudo-terminal nobody reads (not a pipe).'
. "$(dirname "$0")/lib.sh"

command -v mke2fs >/dev/null 2>&1 && test_set_prereq MKE2FS
command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID
command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT
command -v unshare >/dev/null 2>&1 && test_set_prereq UNSHARE
getent group operator >/dev/null 2>&1 && test_set_prereq OPERATOR_GROUP
env --default-signal=INT true 2>/dev/null && test_set_prereq ENV_DEFSIG

# wait_for TEXT FILE: until FILE holds TEXT (20 s at most).
wait_for() {
	wf_i=0
	while ! grep -q "$1" "$2" 2>/dev/null && test $wf_i -lt 400
	do
		sleep 0.05
		wf_i=$((wf_i + 1))
	done
	grep -q "$1" "$2"
}

# descendants PID: the processes below PID.
descendants() {
	for d in $(pgrep -P "$1")
	do
		echo $d && descendants $d
	done
}

# all_gone PID...: none of them is still running.
all_gone() {
	for p in "$@"
	do
		! kill -0 $p 2>/dev/null || return 1
	done
}

# hold_fifo: a FIFO "fifo" held open read-write on fd 7, never read.
hold_fifo() {
	rm -f fifo && mkfifo fifo && exec 7<>fifo
}

# hold_pty: a pseudo-terminal nobody reads; its name in pty.name.
hold_pty() {
	rm -f pty.name
	"$PYTHON" -c '
import os, sys, time
m, s = os.openpty()
print(os.ttyname(s), flush=True)
time.sleep(600)
' >pty.name &
	ptypid=$!
	wait_for pts pty.name
}

# signal_dump SIG ERR ARGS...: run our dump (stderr to ERR) in the
# background, once it writes pass IV send it SIG; its exit status goes to
# ERR.rc, its helpers (before the signal) to ERR.helpers.  The output
# must block, so that the dump cannot end before the signal.
signal_dump() {
	sd_sig=$1 sd_err=$2
	shift 2
	"$DUMP" "$@" </dev/null >/dev/null 2>"$sd_err" &
	sd_pid=$!
	wait_for "Pass IV" "$sd_err" && sleep 0.3 &&
	descendants $sd_pid >"$sd_err.helpers" &&
	kill -$sd_sig $sd_pid &&
	{ wait $sd_pid; echo $? >"$sd_err.rc"; }
}

# without_tty ARGS...: run ARGS in a session of its own (no terminal)
# with SIGINT at its default even in the background; exec, so that a
# background call's $! is the pid of ARGS.
without_tty() {
	exec "$PYTHON" -c '
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])
' "$@"
}

test_expect_success OURDUMP,MKE2FS 'setup: an ext4 image with ~12 MiB of data' '
	random_image img &&
	printf "%s\n" "/dev/other 0 Mon Jan  1 10:00:00 2024 +0000" >dd.orig
'

test_expect_success OURDUMP,MKE2FS,PYTHON 'SIGTERM while writing to a terminal (no pipe): the rewrite message, abort, status 3' '
	hold_pty && test_when_finished "kill $ptypid" &&
	cp dd.orig dd &&
	signal_dump TERM term.err -0 -u -D "$PWD/dd" -f "$(cat pty.name)" img &&
	test "$(cat term.err.rc)" = 3 &&
	grep "Pass IV" term.err && ! grep "DUMP IS DONE" term.err &&
	tail -n 2 term.err >actual &&
	printf "%s\n" "  DUMP: Rewriting attempted as response to unknown signal: 15." \
		"  DUMP: The ENTIRE dump is aborted." >expect &&
	test_cmp expect actual &&
	test_cmp dd.orig dd &&
	test -s term.err.helpers && all_gone $(cat term.err.helpers)
'

test_expect_success OURDUMP,MKE2FS,PYTHON 'SIGHUP likewise (signal 1)' '
	hold_pty && test_when_finished "kill $ptypid" &&
	signal_dump HUP hup.err -0 -f "$(cat pty.name)" img &&
	test "$(cat hup.err.rc)" = 3 &&
	grep "^  DUMP: Rewriting attempted as response to unknown signal: 1\.$" hup.err &&
	all_gone $(cat hup.err.helpers)
'

test_expect_success OURDUMP,MKE2FS 'SIGTERM while writing to a FIFO named by -f: "Signal on pipe: cannot recover", status 3' '
	hold_fifo && test_when_finished "exec 7>&-" &&
	cp dd.orig dd &&
	signal_dump TERM fterm.err -0 -u -D "$PWD/dd" -f fifo img &&
	test "$(cat fterm.err.rc)" = 3 &&
	tail -n 2 fterm.err >actual &&
	printf "%s\n" "  DUMP: Signal on pipe: cannot recover" \
		"  DUMP: The ENTIRE dump is aborted." >expect &&
	test_cmp expect actual &&
	test_cmp dd.orig dd &&
	all_gone $(cat fterm.err.helpers)
'

test_expect_success OURDUMP,MKE2FS 'SIGTERM sent to the whole process group: the same, once' '
	hold_fifo && test_when_finished "exec 7>&-" &&
	{ "$DUMP" -0 -f - img </dev/null >fifo 2>grp.err & pid=$!; } &&
	wait_for "Pass IV" grp.err && sleep 0.3 &&
	helpers=$(descendants $pid) && test -n "$helpers" &&
	kill -TERM $helpers && kill -TERM $pid &&
	{ wait $pid; echo $? >grp.rc; } &&
	test "$(cat grp.rc)" = 3 &&
	test $(grep -c "Signal on pipe: cannot recover" grp.err) = 1 &&
	! grep "process was killed" grp.err &&
	all_gone $helpers
'

test_expect_success OURDUMP,MKE2FS,PYTHON,SETSID 'SIGINT without a terminal: "Interrupt received.", the question fails, status 3' '
	hold_fifo && test_when_finished "exec 7>&-" &&
	{ without_tty "$DUMP" -0 -f fifo img </dev/null 2>int.err & pid=$!; } &&
	wait_for "Pass IV" int.err && sleep 0.3 &&
	kill -INT $pid && { wait $pid; echo $? >int.rc; } &&
	test "$(cat int.rc)" = 3 &&
	tail -n 3 int.err | sed "s/fails: .*/fails: ERR/" >actual &&
	printf "%s\n" "  DUMP: Interrupt received." \
		"  DUMP: fopen on /dev/tty fails: ERR" \
		"  DUMP: The ENTIRE dump is aborted." >expect &&
	test_cmp expect actual
'

test_expect_success OURDUMP,MKE2FS,PYTHON,SETSID 'SIGINT with -q: "Do you want to abort dump? - forced abort"' '
	hold_fifo && test_when_finished "exec 7>&-" &&
	{ without_tty "$DUMP" -0 -q -f fifo img </dev/null 2>intq.err & pid=$!; } &&
	wait_for "Pass IV" intq.err && sleep 0.3 &&
	kill -INT $pid && { wait $pid; echo $? >intq.rc; } &&
	test "$(cat intq.rc)" = 3 &&
	tail -n 3 intq.err >actual &&
	printf "%s\n" "  DUMP: Interrupt received." \
		"  DUMP: Do you want to abort dump? - forced abort" \
		"  DUMP: The ENTIRE dump is aborted." >expect &&
	test_cmp expect actual
'

test_expect_success OURDUMP,MKE2FS,SCRIPT,ENV_DEFSIG 'SIGINT answered "no" on the terminal: the dump goes on' '
	hold_fifo && test_when_finished "exec 7>&-" &&
	rm -f in && mkfifo in &&
	{ script -q -e -c "exec env --default-signal=INT \"$DUMP\" -0 -f fifo img" /dev/null <in >ts.int 2>&1 & spid=$!; } &&
	test_when_finished "kill -9 \$(descendants \$spid) \$spid 2>/dev/null || :" &&
	exec 8>in && test_when_finished "exec 8>&-" &&
	wait_for "Pass IV" ts.int && sleep 0.3 &&
	pid=$(pgrep -P $spid) && test "$(cat /proc/$pid/comm)" = dump &&
	kill -INT $pid &&
	wait_for "Do you want to abort dump?" ts.int &&
	echo no >&8 &&
	{ cat fifo 7>&- >int.dump & cat=$!; } &&
	exec 7>&- &&
	{ wait $spid; echo $? >intno.rc; } && wait $cat &&
	test "$(cat intno.rc)" = 0 &&
	grep "Interrupt received\." ts.int &&
	grep "DUMP IS DONE" ts.int &&
	test $(stat -c %s int.dump) -gt 3000000
'

test_expect_success OURDUMP,MKE2FS 'signals ignored at start stay ignored: the dump ends normally' '
	hold_fifo &&
	{ (trap "" TERM INT HUP && exec "$DUMP" -0 -f fifo img) </dev/null 2>ign.err & pid=$!; } &&
	wait_for "Pass IV" ign.err && sleep 0.3 &&
	kill -TERM $pid && kill -HUP $pid && kill -INT $pid &&
	sleep 0.3 && kill -0 $pid &&
	{ cat fifo 7>&- >ign.dump & cat=$!; } &&
	exec 7>&- &&
	{ wait $pid; echo $? >ign.rc; } && wait $cat &&
	test "$(cat ign.rc)" = 0 &&
	grep "DUMP IS DONE" ign.err &&
	! grep "Interrupt\|Signal on pipe\|Rewriting" ign.err &&
	test $(stat -c %s ign.dump) -gt 3000000
'

test_expect_success OURDUMP,MKE2FS,SETSID 'an output that cannot be opened, no terminal: the question fails, status 3' '
	rc=0 && setsid -w "$DUMP" -0 -f "$PWD/nodir/out" img </dev/null 2>open.err || rc=$? &&
	test $rc = 3 &&
	tail -n 3 open.err | sed "s/fails: .*/fails: ERR/" >actual &&
	printf "%s\n" "  DUMP: Cannot open output \"$PWD/nodir/out\": No such file or directory" \
		"  DUMP: fopen on /dev/tty fails: ERR" \
		"  DUMP: The ENTIRE dump is aborted." >expect &&
	test_cmp expect actual
'

test_expect_success ROOT,LOOP,ORACLE,SETSID 'so does dump 0.4b47' '
	dev=$(image_attach img) &&
	rc=0 && setsid -w "$ORACLE_DUMP" -0 -f "$PWD/nodir/out" "$dev" </dev/null 2>open.ref || rc=$? &&
	test $rc = 3 &&
	tail -n 3 open.ref | sed "s/fails: .*/fails: ERR/" >actual.ref &&
	test_cmp expect actual.ref
'

test_expect_success OURDUMP,MKE2FS,SCRIPT 'an output that cannot be opened: "yes" on the terminal retries the open' '
	rm -f in && mkfifo in &&
	{ script -q -e -c "exec \"$DUMP\" -0 -f \"$PWD/later/out\" img" /dev/null <in >typescript 2>&1 & pid=$!; } &&
	test_when_finished "kill -9 \$(descendants \$pid) \$pid 2>/dev/null || :" &&
	exec 8>in &&
	wait_for "Do you want to retry the open?" typescript &&
	mkdir later && echo yes >&8 &&
	{ wait $pid; echo $? >retry.rc; } && exec 8>&- &&
	test "$(cat retry.rc)" = 0 &&
	grep "DUMP IS DONE" typescript &&
	test $(grep -c "Cannot open output" typescript) = 1 &&
	test $(stat -c %s later/out) -gt 3000000
'

test_expect_success OURDUMP,MKE2FS,OPERATOR_GROUP '-n with a group operator: the dump runs as usual' '
	"$DUMP" -0 -n -f n.dump img 2>n.err &&
	grep "DUMP IS DONE" n.err &&
	! grep "No group entry" n.err
'

test_expect_success ROOT,LOOP,ORACLE,UNSHARE '-n without a group operator: "No group entry for operator." first, as 0.4b47' '
	dev=$(image_attach img) &&
	{ grep -v "^operator:" /etc/group >group.noop || :; } &&
	unshare -m sh -c "mount --bind \"$PWD/group.noop\" /etc/group &&
		\"$DUMP\" -0 -n -f n1.dump img 2>n1.err &&
		\"$ORACLE_DUMP\" -0 -n -f n2.dump $dev 2>n2.err" &&
	head -n 1 n1.err >actual && head -n 1 n2.err >expect &&
	echo "  DUMP: No group entry for operator." >expect2 &&
	test_cmp expect2 expect && test_cmp expect actual &&
	grep "DUMP IS DONE" n1.err
'

test_expect_success ROOT,LOOP,OURDUMP,MKE2FS 'end of media: each volume counts the blocks it holds' '
	dd if=/dev/zero of=small.img bs=1M count=4 2>/dev/null &&
	mke2fs -q -F -t ext2 -m 0 small.img &&
	image_mount small.img small &&
	test_when_finished "image_umount small" &&
	"$DUMP" -0 -f small/a,eb img 2>eom.err &&
	grep "End of tape detected" eom.err &&
	a=$(( $(stat -c %s small/a) / 1024 )) && b=$(( $(stat -c %s eb) / 1024 )) &&
	test $a -gt 1000 &&
	grep "^  DUMP: Volume 1 $a blocks" eom.err &&
	grep "^  DUMP: Volume 2 $b blocks" eom.err
'

test_done
