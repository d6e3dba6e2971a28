#!/bin/sh
test_description='rmt server on a tape drive (simulated)

There is no tape drive here, so helpers/faketape.c, preloaded, stands in
for the st driver: files whose names end in ".tape" are drives (records,
filemarks, positions; see the file), here answering MTIOCGET with fixed,
distinct values per member (FAKETAPE_STATUS=pattern) and logging every
MTIOCTOP (op and count) and MTIOCPOS; ops with a count of 99, or the op
named in FAKETAPE_FAIL_OP, fail with EIO.  Our rmt and
rmt-dump 0.4b47 get the same requests on such a file: replies, debug logs
and the operations that reach the "driver" must agree (status, the
version-1 byte order of S, the mapping of I, I-1 and i op codes, the QFA
position requests L 10 and 11).  One deliberate difference: before a QFA
position request 0.4b47 sets the drive options with MT_ST_BOOLEANS, which
clears every other boolean option of the drive (buffered writes among
them); we set the one option with MT_ST_SETBOOLEANS.'
. "$(dirname "$0")/lib.sh"

test -x "$ORACLE_RMT" && test_set_prereq RMTORACLE
CC=${CC:-cc}
command -v "$CC" >/dev/null && test_set_prereq CC

# MTSETDRVBUFFER counts (linux/mtio.h): MT_ST_SCSI2LOGICAL with
# MT_ST_BOOLEANS (0.4b47) or with MT_ST_SETBOOLEANS (ours).
DRV_BOOLEANS_LOGICAL=$((0x10000000 | 0x800))
DRV_SETBOOLEANS_LOGICAL=$((0x30000000 | 0x800))
MTSETDRVBUFFER=24
# A sanitizer build of rmt wants its runtime first among the preloads.
ASAN_PRELOAD_OK=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0


# run_tape BIN NAME: run BIN on ./req in a fresh NAME/ holding x.tape (a
# cartridge of 100 records and a filemark) and f, with the fake driver;
# NAME.out replies, NAME.rc status, NAME.log debug log, NAME.ops what
# reached the driver.
run_tape() {
	rm -rf "$2" "$2.ops" && mkdir "$2" &&
	cp cartridge "$2/x.tape" && echo filedata >"$2/f" && : >"$2.ops" &&
	(cd "$2" && FAKETAPE_LOG=$PWD/../$2.ops FAKETAPE_STATUS=pattern \
		FAKETAPE_FAIL_COUNT=99 LD_PRELOAD=$PWD/../fake-tape.so \
		ASAN_OPTIONS=$ASAN_PRELOAD_OK \
		"$1" ../"$2".log <../req >../"$2".out; echo $? >../"$2".rc)
}

# same_on_tape FORMAT [ARG...]: both servers answer alike and drive the
# tape alike (the MTSETDRVBUFFER count aside, see above).
same_on_tape() {
	printf "$@" >req &&
	run_tape "$ORACLE_RMT" ref && run_tape "$RMT" our &&
	od -c ref.out >ref.od && od -c our.out >our.od && test_cmp ref.od our.od &&
	test_cmp ref.rc our.rc && test_cmp ref.log our.log &&
	sed "s/^op $MTSETDRVBUFFER .*/op $MTSETDRVBUFFER logical/" ref.ops >ref.nops &&
	sed "s/^op $MTSETDRVBUFFER .*/op $MTSETDRVBUFFER logical/" our.ops >our.nops &&
	test_cmp ref.nops our.nops
}

test_expect_success CC 'setup: build the fake tape driver' '
	"$CC" -shared -fPIC -o fake-tape.so "$HELPERS/faketape.c" -ldl &&
	: >c.tape && head -c 51200 /dev/zero >zeros &&
	LD_PRELOAD=$PWD/fake-tape.so dd if=zeros of=c.tape bs=512 2>/dev/null &&
	mv c.tape cartridge && test $(stat -c %s cartridge) = $((100 * 516 + 4)) &&
	printf "Ox.tape\n0\nS" >req && run_tape "$RMT" our &&
	head -c 7 our.out >head && printf "A0\nA48\n" >expect && test_cmp expect head
'
test -f "$TRASH_DIRECTORY/fake-tape.so" && test_set_prereq FAKETAPE

test_expect_success FAKETAPE,OURRMT,RMTORACLE 'status: S raw, S after I-1 in version-1 byte order, s members' '
	same_on_tape "Ox.tape\n0\nS" &&
	same_on_tape "Ox.tape\n0\nI-1\n0\nS" &&
	same_on_tape "Ox.tape\n0\nsTsDsEsRsFsBsfsbsx" &&
	same_on_tape "Ox.tape\n0\nI-1\n0\nsTsDsEsRsFsBsfsbsx" &&
	same_on_tape "Of\n0\nI-1\n0\nSOx.tape\n0\nS"
'

test_expect_success FAKETAPE,OURRMT,RMTORACLE 'I with native and version-1 op codes, i, and driver errors' '
	same_on_tape "Ox.tape\n0\nI0\n1\nI1\n2\nI2\n3\nI3\n4\nI4\n5\nI5\n6\nI6\n7\nI7\n8\nI8\n9\nI9\n10\nI12\n1\nI13\n1\nI22\n5\nI24\n1\nI99\n1\nI-2\n1\nI6\n99\n" &&
	same_on_tape "Ox.tape\n0\nI-1\n0\nI0\n1\nI1\n2\nI2\n3\nI3\n4\nI4\n5\nI5\n6\nI6\n7\nI7\n8\nI8\n9\nI9\n10\nI10\n11\nI11\n1\nI-2\n1\nI6\n99\n" &&
	same_on_tape "Ox.tape\n0\ni0\n1\ni1\n2\ni2\n3\ni3\n4\ni4\n5\ni5\n6\ni6\n1\ni-1\n1\ni2\n99\n" &&
	same_on_tape "Ox.tape\n2\nW5\nabcdeR100\nI5\n1\nC\n"
'

test_expect_success FAKETAPE,OURRMT,RMTORACLE 'QFA positions: L 10 and L 11 on a tape' '
	same_on_tape "Ox.tape\n0\nL0\n10\nL77\n11\nL0\n10\nL5\n0\nL0\n1\n" &&
	FAKETAPE_FAIL_OP=$MTSETDRVBUFFER same_on_tape "Ox.tape\n0\nL0\n10\nL77\n11\n" &&
	grep "^E5$" our.out
'

test_expect_success FAKETAPE,OURRMT 'logical positions are set without clearing other drive options' '
	printf "Ox.tape\n0\nL0\n10\n" >req && run_tape "$RMT" our &&
	grep "^op $MTSETDRVBUFFER $DRV_SETBOOLEANS_LOGICAL$" our.ops
'

test_known_upstream_defect FAKETAPE,RMTORACLE 'rmt 0.4b47 clears the drive boolean options on a position request' '
	printf "Ox.tape\n0\nL0\n10\n" >req && run_tape "$ORACLE_RMT" ref &&
	grep "^op $MTSETDRVBUFFER $DRV_BOOLEANS_LOGICAL$" ref.ops
'

test_expect_success FAKETAPE,OURRMT 'a tape record beyond the cap is refused, its payload consumed' '
	{ printf "Ox.tape\n1\nW20000000\n" && head -c 20000000 /dev/zero &&
	  printf "V\n"; } >req &&
	run_tape "$RMT" our &&
	printf "A0\nE22\nInvalid argument\nA2\n" >expect && test_cmp expect our.out &&
	test_cmp cartridge our/x.tape
'

test_done
