#!/bin/sh
test_description='restore saves what it can from damaged directories

An archive whose directories hold no entry at all is read without a
sanitizer report.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: dump the test tree' '
	hostile_base
'

# A file system whose only directory is an empty root: no directory entry
# at all reaches the list of entries.
test_expect_success ROOT,LOOP,ORACLE 'setup: dump an empty root directory' '
	mkdir empty &&
	mke2fs -q -F -t ext4 -b 1024 -O ^metadata_csum -d empty e.img 4M &&
	debugfs -w -R "rmdir lost+found" e.img &&
	debugfs -R "ls -l /" e.img >e.ls &&
	! grep lost+found e.ls &&
	e_dev=$(image_attach e.img) &&
	"$ORACLE_DUMP" -0 -f empty.dump "$e_dev" 2>e.err
'

for m in r x t
do
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"empty root directory: restore -$m succeeds" "
		hostile_run $m empty.dump &&
		test \$hostile_rc = 0 &&
		! test -s hostile.err
	"
done

test_done
