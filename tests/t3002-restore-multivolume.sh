#!/bin/sh
test_description='restore: reading multi-volume archives

-M volumes of our dump and of dump 0.4b47, split by -B at many points
(headers, data runs, directories), compressed and not, give the same tree
and the same -t listing as a single volume; -x of a file split across
volumes; the -F script supplies volumes; a pipe cannot change volumes;
wrong volume and wrong dump date are refused; after an end-of-media
switch the blocks of the cut record already read are skipped (c_firstrec).
Runs without a controlling terminal (setsid) where restore could ask.'
. "$(dirname "$0")/lib.sh"

command -v setsid >/dev/null 2>&1 && test_set_prereq SETSID

# Restore volumes <prefix>001... with -r -M into directory $2 and compare
# its manifest with ${3:-single}.man.  Of 0.4b47's volumes (osingle),
# restore also says that the file of the 255-byte name, whose entry
# 0.4b47 drops, has no name.
restores_as() {
	rm -rf "$2" && mkdir "$2" &&
	(cd "$2" && setsid -w "$RESTORE" -r -M -f "../$1" </dev/null \
		>/dev/null 2>../"$2".err) &&
	manifest "$2" --mtime=s >"$2".man &&
	test_cmp ${3:-single}.man "$2".man &&
	if test "${3:-}" = osingle
	then
		! grep -v -e "^Dump tape is compressed.$" \
			-e "has no name reached from the root: not restored$" "$2".err
	else
		! grep -v "^Dump tape is compressed.$" "$2".err
	fi
}

# The small image with 3 MiB of random data and a large directory
# (volume_image): an archive of about 5 MB, 2 (-B 2900) to 50 (-b 1
# -B 100) volumes; the full image made 7 times as many of each.
test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,SETSID 'setup: image, single-volume restores' '
	volume_image fs.img 3 &&
	image_attach fs.img >dev &&
	"$DUMP" -0 -f single.dump $(cat dev) 2>/dev/null &&
	mkdir single && (cd single && "$RESTORE" -r -f ../single.dump) &&
	manifest single --mtime=s >single.man &&
	"$RESTORE" -t -f single.dump | sed 1d >single.t &&
	"$ORACLE_DUMP" -0 -f osingle.dump $(cat dev) 2>/dev/null &&
	mkdir osingle && (cd osingle && "$RESTORE" -r -f ../osingle.dump) &&
	manifest osingle --mtime=s >osingle.man &&
	test $(wc -l <single.man) -gt 100
'

for opts in "-B 700" "-B 2900" "-b 1 -B 61" "-b 7 -B 1234" "-z -B 600" \
	"-j -b 32 -B 1500" "-z -b 1 -B 150"
do
	tag=$(echo "$opts" | tr -d " -")
	test_expect_success ROOT,LOOP,ORACLE,OURDUMP,OURRESTORE,SETSID "-r -M and -t -M of our volumes ($opts)" "
		\"\$DUMP\" -0 $opts -M -f u$tag. \$(cat dev) 2>/dev/null &&
		test -f u$tag.002 &&
		restores_as u$tag. ru$tag &&
		\"\$RESTORE\" -t -M -f u$tag. 2>/dev/null | sed 1d >u$tag.t &&
		test_cmp single.t u$tag.t
	"
	test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,SETSID "-r -M of 0.4b47 volumes ($opts)" "
		\"\$ORACLE_DUMP\" -0 $opts -M -f o$tag. \$(cat dev) 2>/dev/null &&
		test -f o$tag.002 &&
		restores_as o$tag. ro$tag osingle
	"
done

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,SETSID '-x of a file split across volumes' '
	grep -E "^[A-Za-z0-9./_-]+	file .* size=[0-9]{6,} " single.man | head -1 | cut -f1 >bigname &&
	test -s bigname &&
	"$DUMP" -0 -b 1 -B 100 -M -f x. $(cat dev) 2>/dev/null &&
	mkdir xo && (cd xo && setsid -w "$RESTORE" -x -M -f ../x. "./$(cat ../bigname)" </dev/null) &&
	cmp "single/$(cat bigname)" "xo/$(cat bigname)"
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,SETSID '-F script: volumes put in place by the script' '
	cat >swap.sh <<-\EOF &&
	rm -f "$1" && cp "$(dirname "$1")/x.$(printf %03d "$2")" "$1"
	EOF
	mkdir fo && (cd fo && setsid -w "$RESTORE" -r -f ../cur -F "sh ../swap.sh" </dev/null >/dev/null 2>../f.err) &&
	grep "^Launching sh ../swap.sh$" f.err &&
	manifest fo --mtime=s >fo.man && test_cmp single.man fo.man
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,SETSID '-F script status 2 aborts' '
	{ setsid -w "$RESTORE" -t -f x.001 -F "exit 2;" </dev/null >/dev/null 2>fa.err; echo $? >fa.rc; } &&
	test $(cat fa.rc) -eq 1 &&
	grep "^Restore aborted by the beginning of tape script$" fa.err
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,SETSID 'a pipe cannot change volumes' '
	{ setsid -w "$RESTORE" -r -N -f - <x.001 >/dev/null 2>pipe.err; echo $? >pipe.rc; } &&
	test $(cat pipe.rc) -eq 1 &&
	grep "cannot be read from a pipe" pipe.err &&
	grep "truncated" pipe.err
'

test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,SETSID 'wrong volume and wrong dump date are refused' '
	cp x.001 w.001 && cp x.003 w.002 &&
	{ setsid -w "$RESTORE" -r -N -M -f w. </dev/null >/dev/null 2>wv.err; echo $? >wv.rc; } &&
	test $(cat wv.rc) -eq 1 &&
	grep "^Wrong volume (3)$" wv.err &&
	grep "^Mount tape volume 2$" wv.err &&
	sleep 1 && "$DUMP" -0 -b 1 -B 100 -M -f y. $(cat dev) 2>/dev/null &&
	cp y.002 w.002 &&
	{ setsid -w "$RESTORE" -r -N -M -f w. </dev/null >/dev/null 2>wd.err; echo $? >wd.rc; } &&
	test $(cat wd.rc) -eq 1 &&
	grep "^Wrong dump date$" wd.err &&
	grep "^	got: " wd.err && grep "^	wanted: " wd.err
'

# An end-of-media switch leaves part of record R on volume n and writes R
# again in full on volume n+1 (doc/format.md 10.4): build one from a
# -B split by appending the start of volume 2 (after its TS_TAPE), plus a
# partial block, to volume 1.
for k in 1 5
do
	test_expect_success ROOT,LOOP,OURDUMP,OURRESTORE,SETSID "end-of-media volumes: $k block(s) read twice are skipped" "
		for v in x.*; do cp \$v e$k.\${v#x.}; done &&
		{ dd if=x.002 bs=1024 skip=1 count=$k 2>/dev/null && printf partial; } >>e$k.001 &&
		restores_as e$k. re$k
	"
done

test_expect_success ROOT,LOOP,OURRESTORE,SETSID 'a -M volume that cannot be opened is reported' '
	cp x.001 m.001 &&
	{ setsid -w "$RESTORE" -r -N -M -f m. </dev/null >/dev/null 2>m.err; echo $? >m.rc; } &&
	test $(cat m.rc) -eq 1 &&
	grep "^Cannot open m.002$" m.err &&
	grep "truncated" m.err
'

test_done
