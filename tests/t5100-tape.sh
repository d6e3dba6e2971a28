#!/bin/sh
test_description='dump and restore on a tape drive (emulated)

No tape drive exists here: helpers/faketape.c, preloaded, makes every
file named *.tape behave as an st drive (character device, MTIOCGET, one
record per write and per read, fixed or variable blocks, filemarks,
rewind at the last close unless the name starts with "n", one open at a
time, a capacity that ends in ENOSPC); the file holds length-prefixed
records and filemarks that helpers/faketape (the same source) lists.
Checked: every record on tape is exactly the record size (-b 10, -b 64,
default); a drive with fixed 64 KiB blocks gets 64 KiB records without
-b, and a -b that does not fit its blocks is refused before anything is
written; the last filemark is written synchronously (MTWEOF) before the
volume is reported closed and before DUMP IS DONE; two dumps stack on a
non-rewinding drive and restore -s 2 finds the second (MTFSF); end of
media (-a) continues on the next cartridge loaded by the -F script, and
the volumes restore completely (also with fixed blocks and a record cut
by the end of the media); dump 0.4b47 writing to the drive is read by our
restore and the other way round.  Known breakages of our restore: reads
from a tape offer too little room for records above 256 KiB (ENOMEM, the
record lost), and -v says "Input block size" where 0.4b47 says "Tape
block size is <record of the first read>".'
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
command -v "$CC" >/dev/null && test_set_prereq CC
command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID
SHIM=$TRASH_DIRECTORY/faketape.so
FT=$TRASH_DIRECTORY/faketape
# A sanitizer build wants its runtime first among the preloads.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
export ASAN_OPTIONS

# tape [NAME=VALUE...] CMD...: run CMD with the drive emulation
# (settings such as FAKETAPE_BLKSIZE=65536 first, as env(1) takes them).
tape() {
	env LD_PRELOAD="$SHIM" "$@"
}

# blank NAME: an empty cartridge in drive NAME, its drive state reset.
blank() {
	rm -f "$1" "$1.state" "$1.lock" && : >"$1"
}

# records NAME: the cartridge's records and filemarks, runs counted.
records() {
	"$FT" ls "$1" | uniq -c | sed "s/^ *//"
}

# restores_tape DIR RESTORE REF [NAME=VALUE...] ARGS...: RESTORE -r from
# the drive (with the FAKETAPE_* settings given) into DIR; DIR's manifest
# must equal REF.man, the same restore of the same dump from a file.
restores_tape() {
	dir=$1 bin=$2 ref=$3 settings= && shift 3 &&
	while case "$1" in *=*) true ;; *) false ;; esac
	do
		settings="$settings $1" && shift
	done &&
	rm -rf "$dir" && mkdir "$dir" &&
	(cd "$dir" && tape $settings setsid -w "$bin" -r "$@" \
		</dev/null >/dev/null 2>../"$dir".err) &&
	manifest "$dir" --mtime=s >"$dir".man &&
	test_cmp "$ref".man "$dir".man
}

test_expect_success CC 'setup: the drive emulation and its listing tool' '
	"$CC" -shared -fPIC -o "$SHIM" "$HELPERS/faketape.c" -ldl &&
	"$CC" -DFAKETAPE_TOOL -o "$FT" "$HELPERS/faketape.c" &&
	blank st9.tape && echo data >plain &&
	test "$(tape stat -c %F st9.tape)" = "character special file" &&
	test "$(tape stat -c %F plain)" = "regular file" &&
	head -c 3000 /dev/zero >blk &&
	test_must_fail tape FAKETAPE_BLKSIZE=1024 dd if=blk of=st9.tape bs=1000 count=1 2>dd.err &&
	! test -s st9.tape && grep "Invalid argument" dd.err &&
	tape dd if=blk of=st9.tape bs=1000 count=3 2>/dev/null &&
	printf "3 rec 1000\n1 fm\n" >expect && records st9.tape >actual &&
	test_cmp expect actual
'
test -x "$FT" && test_set_prereq FAKETAPE

test_expect_success FAKETAPE,ROOT,LOOP,OURDUMP,OURRESTORE 'setup: image and what our restore makes of a file dump' '
	make_image ext4 fs.img small &&
	image_attach fs.img >dev &&
	"$DUMP" -0 -f file.dump $(cat dev) 2>/dev/null &&
	mkdir ref && (cd ref && "$RESTORE" -r -f ../file.dump) &&
	manifest ref --mtime=s >ref.man &&
	test $(wc -l <ref.man) -gt 20
'
test -s "$TRASH_DIRECTORY/ref.man" && test_set_prereq IMAGE

test_expect_success IMAGE,ORACLE 'setup: what restore 0.4b47 makes of it, and ours of a 0.4b47 dump' '
	mkdir oref && (cd oref && "$ORACLE_RESTORE" -r -f ../file.dump) &&
	manifest oref --mtime=s >oref.man &&
	"$ORACLE_DUMP" -0 -f ofile.dump $(cat dev) 2>/dev/null &&
	mkdir ofref && (cd ofref && "$RESTORE" -r -f ../ofile.dump) &&
	manifest ofref --mtime=s >ofref.man &&
	test $(wc -l <oref.man) -gt 20 && test $(wc -l <ofref.man) -gt 20
'

for b in "" 10 64
do
	test_expect_success IMAGE,SETSID "records on tape are exactly the record size (-b ${b:-default})" "
		blank st0.tape &&
		tape \"\$DUMP\" -0 ${b:+-b $b} -f st0.tape \$(cat dev) 2>dump$b.err &&
		grep 'DUMP IS DONE' dump$b.err &&
		records st0.tape >rec$b &&
		test \$(wc -l <rec$b) = 2 &&
		grep -x '[0-9]* rec $((${b:-10} * 1024))' rec$b &&
		tail -1 rec$b | grep -x '1 fm' &&
		restores_tape r$b "$RESTORE" ref -f ../st0.tape
	"
done

test_expect_success IMAGE,SETSID 'a drive with fixed 64 KiB blocks gets 64 KiB records without -b' '
	blank st0.tape &&
	tape FAKETAPE_BLKSIZE=65536 "$DUMP" -0 -f st0.tape $(cat dev) 2>fixed.err &&
	grep "Writing 64 Kilobyte records" fixed.err &&
	records st0.tape >rec.fixed &&
	test $(wc -l <rec.fixed) = 2 && grep -x "[0-9]* rec 65536" rec.fixed &&
	restores_tape rfixed "$RESTORE" ref FAKETAPE_BLKSIZE=65536 -f ../st0.tape &&
	blank st0.tape &&
	tape FAKETAPE_BLKSIZE=65536 "$DUMP" -0 -b 128 -f st0.tape $(cat dev) 2>fixed128.err &&
	grep "Writing 128 Kilobyte records" fixed128.err &&
	records st0.tape >rec.fixed128 &&
	test $(wc -l <rec.fixed128) = 2 && grep -x "[0-9]* rec 65536" rec.fixed128
'

test_expect_success IMAGE 'a -b that does not fit the fixed blocks is refused before writing' '
	(for b in 10 32 100
	do
		blank st0.tape &&
		test_must_fail tape FAKETAPE_BLKSIZE=65536 "$DUMP" -0 -b $b \
			-f st0.tape $(cat dev) 2>refused$b.err &&
		grep "Records of ${b}kB (-b $b) do not fit the fixed 65536-byte blocks of the tape drive st0.tape" refused$b.err &&
		grep "Use -b 64 (or a multiple of it)" refused$b.err &&
		grep "The ENTIRE dump is aborted" refused$b.err &&
		! grep "Dumping" refused$b.err &&
		! test -s st0.tape || exit 1
	done) &&
	blank st0.tape &&
	tape FAKETAPE_BLKSIZE=512 "$DUMP" -0 -f st0.tape $(cat dev) 2>fixed512.err &&
	grep "Writing 10 Kilobyte records" fixed512.err &&
	records st0.tape | grep -x "[0-9]* rec 512"
'

# Line number of the first line of FILE matching the extended regex.
lineno() {
	grep -n -E "$2" "$1" | head -1 | cut -d: -f1
}

test_expect_success IMAGE 'the final filemark is MTWEOF (synchronous), before the volume is closed' '
	blank st0.tape && : >sync.log &&
	tape FAKETAPE_LOG="$PWD/sync.log" "$DUMP" -0 -f st0.tape $(cat dev) 2>>sync.log &&
	test $(grep -c "^op 5 1$" sync.log) = 1 &&
	! grep -E "^op 35 |^close-weof" sync.log &&
	weof=$(lineno sync.log "^op 5 1$") &&
	closing=$(lineno sync.log "DUMP: Closing st0.tape") &&
	done=$(lineno sync.log "DUMP IS DONE") &&
	test $weof -lt $closing && test $closing -lt $done &&
	test $(lineno sync.log "^close-rewind") -lt $closing
'

test_expect_success IMAGE 'a final filemark that fails is an error, not DUMP IS DONE' '
	blank st0.tape &&
	{ tape FAKETAPE_FAIL_OP=5 "$DUMP" -0 -f st0.tape $(cat dev) 2>weof.err; rc=$?; } &&
	test $rc = 3 &&
	grep "Cannot flush output \"st0.tape\": Input/output error" weof.err &&
	! grep "DUMP IS DONE" weof.err
'

test_expect_success IMAGE,ORACLE 'dump 0.4b47 left the filemark to the driver (no MTIOCTOP)' '
	blank st0.tape && : >osync.log &&
	tape FAKETAPE_LOG="$PWD/osync.log" "$ORACLE_DUMP" -0 -f st0.tape $(cat dev) 2>>osync.log &&
	! grep "^op " osync.log && grep "^close-weof" osync.log
'

test_expect_success IMAGE,SETSID 'two dumps stack on a non-rewinding drive; restore -s 2 reads the second' '
	blank nst0.tape && : >stack.log &&
	tape "$DUMP" -0 -L first -f nst0.tape $(cat dev) 2>/dev/null &&
	tape "$DUMP" -0 -L second -f nst0.tape $(cat dev) 2>/dev/null &&
	test $(records nst0.tape | grep -c "^1 fm$") = 2 &&
	mv nst0.tape st1.tape &&
	tape FAKETAPE_LOG="$PWD/stack.log" "$RESTORE" -t -s 2 -f st1.tape >list2 &&
	grep "^Label: second$" list2 && grep -x "op 1 1" stack.log &&
	tape "$RESTORE" -t -f st1.tape >list1 && grep "^Label: first$" list1 &&
	restores_tape rs2 "$RESTORE" ref -s 2 -f ../st1.tape
'

test_expect_success IMAGE,SETSID,ORACLE 'restore 0.4b47 -s 2 reads the second dump of ours' '
	restores_tape ors2 "$ORACLE_RESTORE" oref -s 2 -f ../st1.tape
'

# The operator's scripts: dump's unloads the full cartridge as vol<n>.tape
# and loads a blank one; restore's loads vol<n>.tape.
cat >unload.sh <<EOF
#!/bin/sh
unset LD_PRELOAD
mv "\$1" "$TRASH_DIRECTORY/vol\$2.tape" && rm -f "\$1.state" &&
: >"\$1.new" && mv "\$1.new" "\$1"
EOF
cat >load.sh <<EOF
#!/bin/sh
unset LD_PRELOAD
cp "$TRASH_DIRECTORY/vol\$2.tape" "\$1.new" && mv "\$1.new" "\$1"
EOF
chmod +x unload.sh load.sh

test_expect_success IMAGE '-a: end of media continues on the next cartridge' '
	rm -f vol*.tape && blank st0.tape &&
	size=$(stat -c %s file.dump) &&
	tape FAKETAPE_CAPACITY=$((size * 2 / 5)) "$DUMP" -0 -a -F "$PWD/unload.sh" \
		-f st0.tape $(cat dev) 2>eom.err &&
	grep "DUMP IS DONE" eom.err &&
	test $(grep -c "End of tape detected" eom.err) = 2 &&
	grep "Volume 3 started with block" eom.err &&
	mv st0.tape vol3.tape &&
	(for v in 1 2 3
	do
		records vol$v.tape >rec.vol$v &&
		test $(wc -l <rec.vol$v) = 2 &&
		grep -x "[0-9]* rec 10240" rec.vol$v &&
		tail -1 rec.vol$v | grep -x "1 fm" || exit 1
	done)
'

test_expect_success IMAGE,SETSID,ORACLE 'restore 0.4b47 reads those volumes through the drive' '
	restores_tape oeom "$ORACLE_RESTORE" oref -F "$PWD/load.sh" -f ../st0.tape
'

test_expect_success IMAGE,SETSID 'our restore reads those volumes through the drive' '
	restores_tape ueom "$RESTORE" ref -F "$PWD/load.sh" -f ../st0.tape
'

test_expect_success IMAGE,SETSID 'fixed 1 KiB blocks: end of media inside a record, -M volumes restore' '
	rm -f mv.tape* &&
	for i in 1 2 3 4 5 6; do blank mv.tape00$i; done && test -f mv.tape006 &&
	blocks=$(($(stat -c %s file.dump) / 1024)) &&
	n=$((blocks * 2 / 5 / 10 * 10 + 2)) &&
	tape FAKETAPE_BLKSIZE=1024 FAKETAPE_CAPACITY=$((n * 1028)) "$DUMP" -0 -a -M \
		-f mv.tape $(cat dev) 2>fixedeom.err &&
	grep "DUMP IS DONE" fixedeom.err &&
	test $(grep -c "End of tape detected" fixedeom.err) = 2 &&
	printf "%s rec 1024\n1 fm\n" $n >expect &&
	records mv.tape001 >actual && test_cmp expect actual &&
	records mv.tape002 >actual && test_cmp expect actual &&
	restores_tape rmv "$RESTORE" ref FAKETAPE_BLKSIZE=1024 -M -f ../mv.tape
'

test_expect_success IMAGE,ORACLE,SETSID 'dump 0.4b47 on the drive is read by our restore' '
	blank st0.tape &&
	tape "$ORACLE_DUMP" -0 -f st0.tape $(cat dev) 2>/dev/null &&
	records st0.tape >rec.oracle &&
	grep -x "[0-9]* rec 10240" rec.oracle &&
	restores_tape rfromo "$RESTORE" ofref -f ../st0.tape
'

test_expect_success IMAGE,ORACLE 'restore 0.4b47 -v on a tape: the record size of the first read' '
	blank st0.tape &&
	tape "$DUMP" -0 -b 20 -f st0.tape $(cat dev) 2>/dev/null &&
	tape "$ORACLE_RESTORE" -tvf st0.tape >otv 2>&1 &&
	grep -x "Input is from a local tape" otv &&
	grep -x "Tape block size is 20" otv
'

test_expect_success IMAGE 'our restore -v on a tape: the record size of the first read' '
	tape "$RESTORE" -tvf st0.tape >utv 2>&1 &&
	grep -x "Input is from a local tape" utv &&
	grep -x "Tape block size is 20" utv
'

test_expect_success IMAGE,ORACLE,SETSID 'restore 0.4b47 reads records of 1 MiB of ours (-b 1024)' '
	blank st0.tape &&
	tape "$DUMP" -0 -b 1024 -f st0.tape $(cat dev) 2>/dev/null &&
	records st0.tape | grep -x "[0-9]* rec 1048576" &&
	restores_tape o1024 "$ORACLE_RESTORE" oref -b 1024 -f ../st0.tape
'

test_expect_success IMAGE,SETSID 'our restore reads records of 1 MiB from a tape' '
	restores_tape u1024 "$RESTORE" ref -f ../st0.tape
'

test_done
