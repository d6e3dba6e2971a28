#!/bin/sh
test_description='restore -i, -Q and -A on archives of dump 0.4b49 and 0.4b56

The tree of helpers/xvtree.py (block-map boundaries, sparse and inline
files), dumped by 0.4b56 and 0.4b49 with a QFA file (-Q) and a table of
contents (-A).  Our restore: -i adds and extracts a subset exactly; -x
-Q goes straight to a file and extracts it exactly; -t -A lists from
the table of contents what -t lists from the archive.'
. "$(dirname "$0")/lib.sh"

# subset_of MAN NAMES...: the lines of manifest MAN under the names.
subset_of() {
	m=$1
	shift
	pat=$(printf '%s\n' "$@" | sed 's/.*/^&[	\/]/' | paste -sd'|')
	grep -E "$pat" "$m"
}

test_expect_success ROOT,LOOP,PYTHON 'setup: the image and its manifest' '
	truncate -s 128M src.img &&
	mke2fs -q -t ext4 -b 4096 -I 256 -O inline_data,^metadata_csum src.img &&
	image_mount src.img mnt &&
	"$PYTHON" "$HELPERS/xvtree.py" mnt &&
	manifest mnt --mtime=s --no-root >src.man &&
	image_umount mnt &&
	image_attach src.img >dev
'

for v in 49 56
do
	pre=UPSTREAM$v
	eval "up=\$UPSTREAM$v"
	test_expect_success ROOT,LOOP,PYTHON,OURRESTORE,$pre "0.4b$v: dump with -Q and -A" '
		"'$up'/dump" -0 -Q '$v'.qfa -A '$v'.toc -f '$v'.dump "$(cat dev)" \
			>'$v'.err 2>&1 &&
		test -s '$v'.qfa && test -s '$v'.toc
	'
	test_expect_success ROOT,LOOP,PYTHON,OURRESTORE,$pre "0.4b$v: restore -i adds and extracts a subset exactly" '
		rm -rf i'$v' && mkdir i'$v' &&
		(cd i'$v' && printf "add sparse\nadd inline/i100\nadd f3m\nextract\nquit\n" |
			"$RESTORE" -i -a -o -f ../'$v'.dump) >i'$v'.out 2>&1 &&
		manifest i'$v' --mtime=s --no-root >i'$v'.man &&
		subset_of i'$v'.man sparse inline/i100 f3m >got &&
		subset_of src.man sparse inline/i100 f3m >want &&
		test_cmp want got
	'
	test_expect_success ROOT,LOOP,PYTHON,OURRESTORE,$pre "0.4b$v: restore -x -Q extracts a file exactly" '
		rm -rf q'$v' && mkdir q'$v' &&
		(cd q'$v' && "$RESTORE" -x -a -o -Q ../'$v'.qfa -f ../'$v'.dump ./long ./sparse/strad) &&
		manifest q'$v' --mtime=s --no-root >q'$v'.man &&
		subset_of q'$v'.man long sparse/strad >got &&
		subset_of src.man long sparse/strad >want &&
		test_cmp want got
	'
	test_expect_success ROOT,LOOP,PYTHON,OURRESTORE,$pre "0.4b$v: restore -t -A lists what -t of the archive lists" '
		"$RESTORE" -t -f '$v'.dump >t.archive 2>/dev/null &&
		"$RESTORE" -t -A '$v'.toc >t.toc 2>/dev/null &&
		grep "	\./" t.archive >t1 && grep "	\./" t.toc >t2 &&
		test_cmp t1 t2
	'
done

test_done
