#!/bin/sh
test_description='the test harness checks itself'
. "$(dirname "$0")/lib.sh"

test_expect_success 'a body runs in the trash directory' '
	case "$PWD" in */tests/trash.t0000-lib) ;; *) false ;; esac
'

test_expect_success 'the environment is reset' '
	test "$LC_ALL" = C && test "$TZ" = UTC && test -z "${TAPE:-}"
'

setup_var=
test_expect_success 'variables set by one check are seen by the next (1)' '
	setup_var=hello
'
test_expect_success 'variables set by one check are seen by the next (2)' '
	test "$setup_var" = hello
'

run_sub() {
	# Runs a small script with lib.sh and prints its TAP output.
	mkdir -p sub &&
	cat >sub/tsub.sh &&
	cp "$TOP/tests/lib.sh" sub/lib.sh &&
	(cd sub && TOP="$TOP" sh tsub.sh >../out 2>&1; echo "rc=$?" >>../out)
}

test_expect_success 'success, failure, skip and known defect are reported' '
	run_sub <<-\EOS &&
	test_description=inner
	. ./lib.sh
	test_expect_success "good" "true"
	test_expect_success "bad" "false"
	test_expect_success NOSUCHPREREQ "skipped" "false"
	test_known_upstream_defect "upstream" "true"
	test_known_upstream_defect "not showing" "false"
	test_expect_failure "ours" "false"
	test_expect_success "!NOSUCHPREREQ" "negated" "true"
	test_done
	EOS
	cat >expect <<-\EOS &&
	ok 1 - good
	not ok 2 - bad
	ok 3 # skip skipped (missing NOSUCHPREREQ)
	ok 4 # skip known upstream defect: upstream
	not ok 5 - not showing (expected upstream defect did not show as described)
	not ok 6 - ours # TODO known breakage
	ok 7 - negated
	1..7
	EOS
	grep -v "^#" out | grep -v "^rc=" >actual &&
	test_cmp expect actual &&
	grep "^rc=1$" out
'

test_expect_success 'a passing script exits 0 and removes its trash' '
	run_sub <<-\EOS &&
	test_description=inner
	. ./lib.sh
	test_expect_success "good" "echo x >file"
	test_done
	EOS
	grep "^rc=0$" out && ! test -d sub/trash.tsub
'

test_expect_success 'a failing script keeps its trash' '
	run_sub <<-\EOS &&
	test_description=inner
	. ./lib.sh
	test_expect_success "bad" "echo x >file && false"
	test_done
	EOS
	grep "^rc=1$" out && test -f sub/trash.tsub/file
'

test_expect_success 'test_when_finished runs even when the body fails' '
	run_sub <<-\EOS &&
	test_description=inner
	. ./lib.sh
	test_expect_success "bad" "test_when_finished \"echo cleaned >../cleaned\" && false"
	test_done
	EOS
	grep cleaned sub/cleaned
'

test_expect_success 'a body left by return still runs its cleanups and fails' '
	run_sub <<-\EOS &&
	test_description=inner
	. ./lib.sh
	test_expect_success "left early" "test_when_finished \"echo cleaned >../cleaned-return\" && return 1"
	test_expect_success "next" "echo next >../next"
	test_done
	EOS
	grep cleaned sub/cleaned-return && grep next sub/next &&
	grep "^not ok 1 - left early" out
'

test_expect_success 'test_must_fail accepts failure, rejects success and signals' '
	test_must_fail false &&
	test_must_fail sh -c "exit 3" &&
	! test_must_fail true 2>/dev/null &&
	! test_must_fail sh -c "kill -SEGV \$\$" 2>/dev/null &&
	! test_must_fail no-such-command-anywhere 2>/dev/null
'

test_expect_success 'test_cmp shows a difference' '
	echo a >x && echo b >y &&
	! test_cmp x y >diff && grep "^-a" diff && grep "^+b" diff
'

test_expect_success 'mke2fs and e2fsck read no configuration of the machine' '
	test -n "$MKE2FS_CONFIG" && ! test -e "$MKE2FS_CONFIG" &&
	test -n "$E2FSCK_CONFIG" && ! test -e "$E2FSCK_CONFIG" &&
	truncate -s 8M conf.img && mke2fs -q -F -t ext4 conf.img &&
	e2fsck -fn conf.img >/dev/null
'

test_expect_success ROOT,LOOP 'image_attach and image_mount are undone at exit' '
	run_sub <<-\EOS &&
	test_description=inner
	. ./lib.sh
	test_expect_success "mount" "
		truncate -s 8M fs.img && mke2fs -q -F -t ext2 fs.img &&
		image_mount fs.img mnt && echo x >mnt/f &&
		losetup -j \$PWD/fs.img >../loops &&
		false
	"
	test_done
	EOS
	test -s sub/loops &&
	! grep -q " $TOP/tests/trash.t0000-lib/sub/trash.tsub/mnt " /proc/mounts &&
	test -z "$(losetup -j "$PWD/sub/trash.tsub/fs.img")"
'

test_expect_success ROOT,LOOP 'in a checkout on another file system the trash is an ext4 of its own' '
	scratch_mount tmpfs co size=256m &&
	test_when_finished "image_umount co" &&
	mkdir co/sub && cp "$TOP/tests/lib.sh" co/sub/lib.sh &&
	for how in true false
	do
		cat >co/sub/tsub.sh <<-EOS &&
		test_description=inner
		. ./lib.sh
		test_expect_success "restores land on ext4" "
			test \\"\\\$(stat -f -c %T .)\\" = ext2/ext3 &&
			mknod big b 4095 1048575 && test ! -e lost+found && $how
		"
		test_done
		EOS
		{ (cd co/sub && TOP="$TOP" sh tsub.sh) >out.$how 2>&1; echo $? >rc.$how; } &&
		! grep -q " $PWD/co/sub/trash.tsub " /proc/mounts &&
		test -z "$(losetup -j "$PWD/co/sub/trash.tsub.ext4" 2>/dev/null)" ||
		return 1
		if $how
		then
			test ! -e co/sub/trash.tsub && test ! -e co/sub/trash.tsub.ext4 ||
			return 1
		fi
	done &&
	grep "^# passed all 1 test" out.true && test "$(cat rc.true)" = 0 &&
	grep "^# failed 1 among 1 test(s).*; trash kept in $PWD/co/sub/trash.tsub.ext4\$" out.false &&
	test "$(cat rc.false)" = 1 && test -s co/sub/trash.tsub.ext4
'

test_expect_success PYTHON 'manifest lists types, hard-link groups, sparse content' '
	mkdir -p tree/a tree/b &&
	echo one >tree/a/f && ln tree/a/f tree/b/g && ln -s a/f tree/l &&
	truncate -s 1M tree/sparse &&
	printf "x" | dd of=tree/sparse bs=1 seek=70000 conv=notrunc 2>/dev/null &&
	manifest tree --no-mtime >m1 &&
	grep "^a/f	file 0644 .* link=a/f" m1 &&
	grep "^b/g	file 0644 .* link=a/f" m1 &&
	grep "^l	symlink .* -> a/f" m1 &&
	cp -a tree tree2 && rm tree2/sparse &&
	python3 -c "f=open(\"tree2/sparse\",\"wb\"); f.write(bytes(70000)+b\"x\"); f.truncate(1<<20)" &&
	touch -r tree/sparse tree2/sparse &&
	manifest tree2 --no-mtime >m2 && test_cmp m1 m2 &&
	echo two >tree2/a/f && manifest tree2 --no-mtime >m3 && ! test_cmp m1 m3 >/dev/null
'

test_expect_success ROOT,PYTHON 'make_image small builds every kind of inode' '
	make_image ext4 small.img small &&
	image_mount small.img mnt ro &&
	manifest mnt >m &&
	grep "^bigdev	chr .* rdev=300,70000" m &&
	grep "^fifo	fifo" m && grep "^socket	sock" m &&
	grep "^owned	file 0644 70000:80000" m &&
	grep "^suid	file 4751" m && grep "^sticky	dir 1777" m &&
	grep "^other/two	.* link=dir/sub/three" m &&
	grep "^sparse-end	file .* size=3145728" m &&
	grep "^slowlink	symlink" m && grep "^fastlink	symlink 0777 70001:70002" m &&
	test $(grep -c "^names/L" m) = 1
'

test_done
