#!/bin/sh
test_description='dump -a/-B/-c/-d/-s/-F on the command line: checks, estimate line, record size

The option checks of 0.4b47 (-a against the volume-size options, the
missing operand, -T checked when seen), the "estimated N blocks on X.XX
tape(s)." line for -B lists and the tape-length options (equal to
0.4b47 own), the plain line on standard output, the 32 KiB records of
-d 6250 and the old key-letter form.  The volumes themselves are
checked in t5000.'
. "$(dirname "$0")/lib.sh"

# The estimate line of a run that stops at the first volume change (-q).
estimate_line() {
	"$@" 2>&1 | grep "estimated"
}

test_expect_success OURDUMP '-a with -B, -c, -d or -s: 0.4b47 message naming B, c, d, s first' '
	for args in "-a -B 10" "-s 4 -B 10 -a" "-a -c" "-d 1600 -c -a" \
		"-a -d 1600" "-s 4 -d 1600 -a" "-a -s 4"
	do
		test_must_fail "$DUMP" -0 $args -f x /dev/null 2>err &&
		grep "You cannot use the a and" err >line &&
		grep "The ENTIRE dump is aborted." err || return 1
		case $args in
		*B*) echo "  DUMP: You cannot use the a and B flags together." ;;
		*c*) echo "  DUMP: You cannot use the a and c flags together." ;;
		*d*) echo "  DUMP: You cannot use the a and d flags together." ;;
		*) echo "  DUMP: You cannot use the a and s flags together." ;;
		esac >expect &&
		test_cmp expect line || return 1
	done
'

test_expect_success OURDUMP 'options but no file system: "Must specify disk or filesystem"' '
	test_must_fail "$DUMP" -0 -s 40 2>err &&
	grep "^  DUMP: Must specify disk or filesystem\$" err &&
	! grep "usage:" err
'

test_expect_success OURDUMP '-T is checked when seen' '
	test_must_fail "$DUMP" -0 -T nodate -b 2000 /dev/null 2>err1 &&
	grep "bad time \"nodate\"" err1 && ! grep "blocksize" err1 &&
	test_must_fail "$DUMP" -0 -b 2000 -T nodate /dev/null 2>err2 &&
	grep "Please choose a blocksize <= 1024kB" err2 && ! grep "bad time" err2
'

test_expect_success ROOT,LOOP 'setup: a small image' '
	make_image ext2 fs.img small &&
	image_attach fs.img >dev
'

test_expect_success ROOT,LOOP,OURDUMP '-A, -Q, -n are accepted: the dump runs and writes the side files' '
	"$DUMP" -0 -A toc -Q qfa -n -f x $(cat dev) 2>err &&
	grep "DUMP IS DONE" err && ! grep "not supported" err &&
	test -s x && test -s toc && test -s qfa
'

for opts in "-B 300" "-B 500,200,100" "-b 7 -B 333,77" "-z -B 300" \
	"-s 2" "-c -s 1" "-d 6250 -s 3" "-d 800 -s 5" "-c -d 6250" "-d 1600" "-c"
do
	test_expect_success ROOT,LOOP,ORACLE "estimate line ($opts) equals 0.4b47 one" '
		estimate_line "$ORACLE_DUMP" -0 -q '"$opts"' -f o.x $(cat dev) >expect &&
		estimate_line "$DUMP" -0 -q '"$opts"' -f u.x $(cat dev) >actual &&
		grep -E "^  DUMP: estimated [0-9]+ blocks on [0-9]+\.[0-9]{2} tape\(s\)\.\$" actual &&
		test_cmp expect actual
	'
done

test_expect_success ROOT,LOOP 'standard output: plain estimate line with -B, -s, -c, -d' '
	for opts in "-B 300" "-s 2" "-c" "-d 1600"
	do
		"$DUMP" -0 $opts -f - $(cat dev) 2>err >out.dump &&
		grep -E "^  DUMP: estimated [0-9]+ blocks\.\$" err &&
		! grep "Change Volumes" err || return 1
	done
'

test_expect_success ROOT,LOOP '-d 6250 makes 32 KiB records unless -b came first' '
	"$DUMP" -0 -d 6250 -f - $(cat dev) 2>e1 >/dev/null &&
	grep "Writing 32 Kilobyte records" e1 &&
	"$DUMP" -0 -b 16 -d 6250 -f - $(cat dev) 2>e2 >/dev/null &&
	grep "Writing 16 Kilobyte records" e2 &&
	"$DUMP" -0 -d 6250 -b 16 -f - $(cat dev) 2>e3 >/dev/null &&
	grep "Writing 16 Kilobyte records" e3 &&
	"$DUMP" -0 -d 6240 -f - $(cat dev) 2>e4 >/dev/null &&
	grep "Writing 10 Kilobyte records" e4
'

test_expect_success ROOT,LOOP 'old key letters: 0sdMf takes its words in order' '
	"$DUMP" 0sdMf 3 6250 k. $(cat dev) 2>k1 &&
	"$DUMP" -0 -s 3 -d 6250 -M -f g. $(cat dev) 2>k2 &&
	grep "estimated" k1 >k1.est && grep "estimated" k2 >k2.est &&
	test_cmp k2.est k1.est &&
	stat -c %s k.0* >k.sizes && stat -c %s g.0* >g.sizes &&
	test $(wc -l <k.sizes) -ge 2 &&
	test_cmp g.sizes k.sizes
'

test_done
