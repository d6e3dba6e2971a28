#!/bin/sh
test_description='rmt server: replies, exit status, debug log and files as rmt 0.4b47

Hand-written request streams go to our rmt and to rmt-dump of 0.4b47, each
in a fresh copy of a small fixture directory: the replies, the exit status,
the debug log and the files left behind must agree byte for byte.  Then
the deliberate differences, checked on ours alone: a malformed number gets
an E22 reply where 0.4b47 read it as 0; argument lines longer than 63 bytes
work (0.4b47 cut them and parsed the rest as a new request); reads and
writes beyond the record cap are answered short or streamed; a reply that
cannot be written ends rmt.'
. "$(dirname "$0")/lib.sh"

test -x "$ORACLE_RMT" && test_set_prereq RMTORACLE
command -v strace >/dev/null && test_set_prereq STRACE
# A sanitizer build of rmt reserves terabytes of address space for its
# shadow memory: a ulimit -v cannot bound it, and LeakSanitizer refuses to
# run under strace.
{ ldd "$RMT" 2>/dev/null | grep -q libasan || grep -q -a __asan_init "$RMT"; } 2>/dev/null &&
	test_set_prereq ASAN
NO_LEAKCHECK=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# Address space for one rmt run, in KiB: the record cap and the program,
# far below what an unbounded buffer would need for the counts sent.
RMT_VMEM=120000

# limit_vmem: bound this (sub)shell's address space, unless sanitized.
limit_vmem() {
	test_have_prereq ASAN || ulimit -v $RMT_VMEM
}

# The files each request stream starts with (fixture/, copied per run).
mkdir fixture fixture/dir &&
echo "hello world" >fixture/f &&
seq 1 1500 >fixture/big

# run_rmt BIN NAME: run BIN on ./req inside a fresh NAME/, leaving the
# replies in NAME.out, the status in NAME.rc, the debug log in NAME.log
# and a listing (checksums; then type and mode, size and name) of NAME/
# in NAME.files.  Few processes: some 80 runs, at 5 ms a process.
run_rmt() {
	rm -rf "$2" && cp -R fixture "$2" &&
	(cd "$2" && "$1" ../"$2".log <../req >../"$2".out; echo $? >../"$2".rc) &&
	(cd "$2" && find . -type f -exec sha256sum {} + | LC_ALL=C sort -k 2 &&
	 find . -printf "%M %s %p\n" | LC_ALL=C sort -k 3
	) >"$2".files
}

# same_as_oracle FORMAT [ARG...]: the request stream printf FORMAT ARG...
# gets the same answer from both servers: replies (shown with od -c
# when they differ), status, debug log and files.
same_as_oracle() {
	printf "$@" >req &&
	run_rmt "$ORACLE_RMT" ref &&
	run_rmt "$RMT" our &&
	if ! cmp -s ref.out our.out
	then
		od -c ref.out >ref.od && od -c our.out >our.od &&
		test_cmp ref.od our.od
	fi &&
	test_cmp ref.rc our.rc &&
	test_cmp ref.log our.log &&
	test_cmp ref.files our.files
}

# ours FORMAT [ARG...]: run our rmt alone on the stream (our.out, our.rc).
ours() {
	printf "$@" >req &&
	run_rmt "$RMT" our
}

test_expect_success OURRMT,RMTORACLE 'open, seek, read, version and status' '
	same_as_oracle "Of\n0 O_RDONLY\nL1024\n0\nR16\nI-1\n0\nV0\nS" &&
	grep "E25" our.out &&
	same_as_oracle "Obig\n0 O_RDONLY\nR100\nL-50\n1\nR50\nL-10\n2\nR100\nR100\nC\n" &&
	same_as_oracle "Obig\n0\nL0\n10\nL5\n11\nL0\n10\nL3\n7\nL-5\n0\nL0\n2\nL-100\n1\n"
'

test_expect_success OURRMT,RMTORACLE 'write, read back, close; KiB counts in the debug log' '
	same_as_oracle "Onew\n1 O_WRONLY|O_CREAT|O_TRUNC\nW5\nabcdeC\nOnew\n0 O_RDONLY\nR100\nR100\nC\nC\n" &&
	same_as_oracle "Obig\n2\nR1000\nL0\n1\nW2048\n%02048dR3000\nC\nC\n" 0 &&
	same_as_oracle "Onew\n1 O_WRONLY|O_CREAT\nW10240\n%010240dW10240\n%010240dC\nOnew\n0 O_RDONLY\nR4096\nR32768\nR4096\nC\n" 7 9 &&
	same_as_oracle "Of\n0\nR2048\nOnope\n0\nR1024\nC\nC\nOf\n0\nR3072\nOf\n0\nR0\n" &&
	same_as_oracle "Onew\n1 O_WRONLY|O_CREAT|O_APPEND\nW3\nabcW3\ndefC\nOf\n1 O_WRONLY|O_TRUNC\nW2\nxyC\n"
'

test_expect_success OURRMT,RMTORACLE 'open errors and the open file being replaced' '
	same_as_oracle "Onotexist\n0\nOnew\n577\nOdir\n1 O_WRONLY\nOdir/x/y\n1 O_WRONLY|O_CREAT\n" &&
	same_as_oracle "Of\n0\nOnotexist\n0\nR5\n" &&
	same_as_oracle "Of\n1 O_WRONLY|O_CREAT|O_EXCL\nO\n0\n" &&
	same_as_oracle "O/dev/full\n1 O_WRONLY\nW4\nabcdC\n" &&
	grep "^E28$" our.out
'

# Each line: one mode line of an O request.
cat >modes <<\EOF
0 O_RDONLY
1 O_WRONLY|O_CREAT|O_TRUNC
2 O_RDWR
65
577
3
-1
0O_WRONLY
0  O_WRONLY
 0 O_WRONLY
O_WRONLY
x O_WRONLY
0 0 O_WRONLY
1 O_WRONLY O_CREAT
1 O_WRONLY O_CREAT|O_TRUNC
1 O_WRONLY| O_CREAT
1 O_WRONLY,O_CREAT
1 O_WRONLY|O_CREAT|
O_WRONLY|0 O_CREAT
0 O_RDONLY | O_CREAT
0 X|O_CREAT
0 X|Y|O_APPEND
0 X|O|O_APPEND
0 X|O_|O_APPEND
0 O_RDWR|garbage|O_APPEND
0 O_RDWR|O_TRUNC|O_FOO|O_APPEND
0 O_RDWR| x|O_APPEND
0 O_RDWR|x O_TRUNC|O_APPEND
0 O_RDWR||O_APPEND
0 O_CREATX
0 O_TRUNC,x
1 |O_SYNC
1|O_SYNC
1|2 O_SYNC
O_RDWR|1|O_SYNC
1 O_FSYNC
1 O_DSYNC|O_RSYNC|O_ASYNC|O_TEXT|O_PRIV|O_LARGEFILE
1 O_LARGEFILE
1 O_DIRECT
1 O_NDELAY|O_NONBLOCK|O_NOCTTY
EOF

test_expect_success OURRMT,RMTORACLE 'open flags: names, numbers and odd spellings decode alike' '
	while IFS= read -r mode
	do
		same_as_oracle "Onew\n%s\nW3\nabcC\n" "$mode" || return 1
	done <modes
'

test_expect_success OURRMT,RMTORACLE 'tape requests on a file and without one; version-1 op codes' '
	same_as_oracle "I6\n1\ni2\n1\ni0\n1\nS" &&
	same_as_oracle "Of\n0\nI6\n1\nI-1\n0\nI5\n1\nI11\n1\nI-2\n3\ni0\n1\ni2\n1\ni4\n1\ni9\n1\n" &&
	same_as_oracle "I99\n1\nOf\n0\nI99\n1\nI-2\n1\nsXsTsBsbS" &&
	same_as_oracle "L0\n7\nL0\n10\nL0\n11\nsZi0\n1\ni2\n1\nI-1\n0\nI11\n0\nW3\nabc" &&
	same_as_oracle "I-1\n0\nV\nVabc\n"
'

test_expect_success OURRMT,RMTORACLE 'end of input inside a request: status 0, no reply' '
	for r in "" O Of "Of\n" "Of\n0" L "L5\n" s V I "I1\n" "i1\n" C R5 "W5"
	do
		same_as_oracle "$r" && test "$(cat our.rc)" = 0 || return 1
	done
'

test_expect_success OURRMT,RMTORACLE 'W with no or a short payload: status 2' '
	for r in "W0\n" "W-1\n" "Wabc\n" "W5\nab" "Of\n0\nW3\nab"
	do
		same_as_oracle "$r" && test "$(cat our.rc)" = 2 || return 1
	done
'

test_expect_success OURRMT,RMTORACLE 'unknown command letters: status 3, no reply' '
	for r in X "\n" "V\n\n" "Of\n0\nR5\nq" "sX\nS"
	do
		same_as_oracle "$r" && test "$(cat our.rc)" = 3 || return 1
	done
'

test_expect_success OURRMT 'arguments: -c is skipped, an unopenable debug file is status 1' '
	printf "V\n" | "$RMT" -c ignored dbg >out &&
	printf "A2\n" >expect && test_cmp expect out &&
	printf "rmtd: V \nrmtd: A 2\n" >expect && test_cmp expect dbg &&
	printf "V\n" | "$RMT" >out && printf "A2\n" >expect && test_cmp expect out &&
	{ printf "V\n" | "$RMT" nodir/dbg >out 2>err; test $? = 1; } &&
	! test -s out && grep "nodir/dbg" err
'

test_expect_success OURRMT,RMTORACLE 'arguments: same status as 0.4b47' '
	for bin in "$ORACLE_RMT" "$RMT"
	do
		{ printf "V\n" | "$bin" nodir/dbg >out; echo $? >>rc; } &&
		{ printf "V\n" | "$bin" -c x >>out; echo $? >>rc; } || return 1
	done &&
	printf "1\n0\n1\n0\n" >expect && test_cmp expect rc
'

# ---- deliberate differences, ours alone --------------------------------

test_expect_success OURRMT 'malformed numbers get E22 and the session goes on' '
	ours "Of\n0\nR-1\nRabc\nR5x\nLabc\n0\nL0\nx\nL99999999999999999999\n0\nIx\n1\nI1\n\ni1\n99999999999\nOf\nabc\nV\n" &&
	test "$(cat our.rc)" = 0 &&
	printf "A0\n" >expect &&
	for i in 1 2 3 4 5 6 7 8 9 10; do printf "E22\nInvalid argument\n"; done >>expect &&
	printf "A2\n" >>expect &&
	test_cmp expect our.out
'

test_known_upstream_defect OURRMT,RMTORACLE 'rmt 0.4b47 cuts argument lines at 63 bytes' '
	long=$(printf "%0200d" 0) &&
	printf "O%s\n1 O_WRONLY|O_CREAT\nV\n" "$long" >req &&
	run_rmt "$ORACLE_RMT" ref &&
	! test -f "ref/$long"
'

test_expect_success OURRMT 'long paths and long mode lines work' '
	long=$(printf "%0200d" 0) &&
	ours "O%s\n1 O_WRONLY|O_CREAT|O_EXCL|O_NOCTTY|O_TRUNC|O_APPEND|O_NONBLOCK|O_SYNC\nW3\nabcC\n" "$long" &&
	printf "A0\nA3\nA0\n" >expect && test_cmp expect our.out &&
	echo abc | tr -d "\n" >expect && test_cmp expect "our/$long"
'

test_expect_success OURRMT 'a line beyond the line cap is an error, and the stream stays in step' '
	long=$(printf "%05000d" 0) &&
	ours "O%s\n0\nV\nVx%s\nR%s\nV\n" "$long" "$long" "$long" &&
	printf "E36\nFile name too long\nA2\nA2\nE22\nInvalid argument\nA2\n" >expect &&
	test_cmp expect our.out
'

test_expect_success OURRMT 'bounded memory: a huge read is answered short, a huge write streams' '
	truncate -s 40M sparse &&
	printf "O%s\n0\nR1073741824\nR9223372036854775807\nC\n" "$PWD/sparse" >req &&
	(limit_vmem && "$RMT" <req >out) &&
	head -c 13 out >head && printf "A0\nA16777216\n" >expect &&
	test_cmp expect head &&
	test $(wc -c <out) = $((3 + 2 * (10 + 16777216) + 3)) &&
	{ printf "O%s\n1 O_WRONLY|O_CREAT\nW41943040\n" "$PWD/new" &&
	  head -c 41943040 /dev/zero && printf "C\n"; } >req &&
	(limit_vmem && "$RMT" <req >out) &&
	printf "A0\nA41943040\nA0\n" >expect && test_cmp expect out &&
	cmp new sparse
'

test_expect_success OURRMT 'a payload bigger than the cap and no file: E9 after reading it all' '
	{ printf "W20000000\n" && head -c 20000000 /dev/zero && printf "V\n"; } >req &&
	(limit_vmem && "$RMT" <req >out) &&
	printf "E9\nBad file descriptor\nA2\n" >expect && test_cmp expect out
'

test_expect_success OURRMT 'a reply that cannot be written ends rmt (status 5)' '
	{ printf "V\nV\n" | "$RMT" dbg >/dev/full; test $? = 5; } &&
	grep "write error" dbg &&
	test $(grep -c "^rmtd: V" dbg) = 1
'

test_expect_success OURRMT 'a client that goes away: status 5, not death by SIGPIPE' '
	i=0 && while test $i -lt 200; do printf "V\n"; i=$((i + 1)); done >v200 &&
	cat v200 v200 v200 v200 v200 v200 v200 v200 v200 v200 >v2000 &&
	cat v2000 v2000 v2000 v2000 v2000 v2000 v2000 v2000 v2000 v2000 >req &&
	{ "$RMT" <req; echo $? >rc; } | head -c 0 &&
	echo 5 >expect && test_cmp expect rc
'

test_expect_success OURRMT,STRACE 'closing a written file syncs it before the reply' '
	printf "Onew\n1 O_WRONLY|O_CREAT\nW3\nabcC\nOnew\n0\nC\n" >req &&
	ASAN_OPTIONS=$NO_LEAKCHECK strace -o trace -e trace=fsync,write "$RMT" <req >out &&
	printf "A0\nA3\nA0\nA0\nA0\n" >expect && test_cmp expect out &&
	grep -v "^+++" trace | sed -e "s/ *=.*//" -e "s/^write(1,/reply(/" \
		-e "s/^write([0-9]*,/write(D,/" -e "s/^fsync([0-9]*)/fsync(D)/" >calls &&
	cat >expect <<-\EOF &&
	reply( "A0\n", 3)
	write(D, "abc", 3)
	reply( "A3\n", 3)
	fsync(D)
	reply( "A0\n", 3)
	reply( "A0\n", 3)
	reply( "A0\n", 3)
	EOF
	test_cmp expect calls
'

test_expect_success OURRMT,STRACE 'a failed sync is an error reply' '
	printf "Onew\n1 O_WRONLY|O_CREAT\nW3\nabcC\nV\n" >req &&
	ASAN_OPTIONS=$NO_LEAKCHECK strace -o /dev/null -e trace=fsync \
		-e inject=fsync:error=EIO "$RMT" <req >out &&
	printf "A0\nA3\nE5\nInput/output error\nA2\n" >expect && test_cmp expect out
'

test_done
