#!/bin/sh
test_description='dump -0: the stderr lines scripts parse, in the order of dump 0.4b47'
. "$(dirname "$0")/lib.sh"

# normalise: dates -> DATE, numbers -> N; drop the lines whose presence
# depends on timing (progress, per-volume time and rate).
normalise() {
	sed -e 's/[A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9][0-9][0-9][0-9]/DATE/g' \
	    -e 's/[0-9][0-9]*\.[0-9][0-9]MB/X.XXMB/g' \
	    -e 's/[0-9][0-9]*/N/g' |
	grep -v -e "% done" -e "^  DUMP: Volume N took " -e "^  DUMP: Volume N transfer rate: " |
	sed -e 's/^  DUMP: finished in N seconds, throughput N kBytes\/sec$/  DUMP: finished in less than a second/'
}

test_expect_success ROOT,LOOP 'setup: a small image, not mounted, an existing dumpdates' '
	make_image ext4 fs.img small &&
	dev=$(image_attach fs.img) && : >dd
'

test_expect_success ROOT,LOOP,OURDUMP 'a level 0 run to a file prints the lines of dump 0.4b47 in order' '
	"$DUMP" -0 -f out.dump -D dd "$dev" 2>err &&
	normalise <err >actual &&
	cat >expect <<-EOF &&
	  DUMP: Date of this level N dump: DATE
	  DUMP: Dumping /dev/loopN (an unlisted file system) to out.dump
	  DUMP: Label: test-extN
	  DUMP: Writing N Kilobyte records
	  DUMP: mapping (Pass I) [regular files]
	  DUMP: mapping (Pass II) [directories]
	  DUMP: estimated N blocks.
	  DUMP: Volume N started with block N at: DATE
	  DUMP: dumping (Pass III) [directories]
	  DUMP: dumping (Pass IV) [regular files]
	  DUMP: Closing out.dump
	  DUMP: Volume N completed at: DATE
	  DUMP: Volume N N blocks (X.XXMB)
	  DUMP: N blocks (X.XXMB) on N volume(s)
	  DUMP: finished in less than a second
	  DUMP: Date of this level N dump: DATE
	  DUMP: Date this dump completed:  DATE
	  DUMP: Average transfer rate: N kB/s
	  DUMP: DUMP IS DONE
	EOF
	test_cmp expect actual
'

test_expect_success ROOT,LOOP,OURDUMP 'the numbers in the lines are right' '
	grep "^  DUMP: Date of this level 0 dump: " err &&
	grep "^  DUMP: Writing 10 Kilobyte records$" err &&
	grep "^  DUMP: Volume 1 started with block 1 at: " err &&
	blocks=$(( $(wc -c <out.dump) / 1024 )) &&
	grep "^  DUMP: $blocks blocks (.*MB) on 1 volume(s)$" err &&
	est=$(sed -n "s/^  DUMP: estimated \([0-9]*\) blocks\.$/\1/p" err) &&
	test "$est" -gt 0 &&
	test $((est - blocks)) -le 64 && test $((blocks - est)) -le 64
'

test_expect_success ROOT,LOOP,OURDUMP 'the label line shows -L' '
	"$DUMP" -0 -L mylabel -f lbl.dump -D dd "$dev" 2>lerr &&
	grep "^  DUMP: Label: mylabel$" lerr &&
	test "$(dd if=lbl.dump bs=1 skip=676 count=7 2>/dev/null)" = mylabel
'

test_expect_success ROOT,LOOP,OURDUMP 'a missing dumpdates file is a warning only' '
	"$DUMP" -0 -f w.dump -D "$PWD/nodd" "$dev" 2>werr &&
	grep "^  DUMP: WARNING: no file \`$PWD/nodd'"'"'$" werr &&
	grep "DUMP IS DONE" werr
'

test_expect_success ROOT,LOOP,OURDUMP '-u writes the dumpdates line' '
	: >ud &&
	"$DUMP" -0 -u -f u.dump -D ud "$dev" 2>uerr &&
	grep "^$dev 0 [A-Z][a-z][a-z] [A-Z][a-z][a-z] [ 0-9][0-9] [0-9:]* [0-9]* +0000$" ud
'

test_expect_success ROOT,LOOP,OURDUMP 'nothing on standard output for a dump to a file' '
	"$DUMP" -0 -f o.dump -D dd "$dev" >stdout 2>/dev/null &&
	test_cmp /dev/null stdout
'

test_expect_success ROOT,LOOP,OURDUMP 'exit status 0 for a successful dump' '
	"$DUMP" -0 -f s.dump -D dd "$dev" 2>/dev/null
'

test_done
