#!/bin/sh
test_description='dump and restore of an encrypted (fscrypt) tree

An ext4 with the encrypt feature gets a directory with an fscrypt v2
policy (helpers/fscrypt.py, a fixed test key), filled with 300 files, a
subdirectory and symbolic links, then is unmounted (the key is gone) and
dumped.  Encrypted names are ciphertext: any byte, NUL and "/" included
(with 300 names of 16 bytes, both occur with near certainty); a symbolic
link target starts with two length bytes, so it holds a NUL; each
encrypted inode has an attribute of index 9 (its encryption context).
dump must archive the names as they are on disk.  restore -t must list
the entries with unprintable bytes escaped; -r and -x must restore what
0.4b47 restores (names and link targets cut at their first NUL), name
every entry they alter or skip by inode number on one line, set the
other attributes of an inode with an index-9 one, and exit 1.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

test -r /sys/fs/ext4/features/encryption && test_set_prereq FSCRYPT

P=ROOT,LOOP,PYTHON,ATTR,FSCRYPT,TAPETOOL

test_expect_success $P,ORACLE 'setup: an encrypted tree, dumped' '
	mke2fs -q -F -t ext4 -b 1024 -O encrypt,^metadata_csum enc.img 16M &&
	image_mount enc.img mnt &&
	mkdir mnt/enc &&
	"$PYTHON" "$HELPERS/fscrypt.py" encrypt mnt mnt/enc &&
	for i in $(seq 1 300)
	do
		echo "file $i" >mnt/enc/f$i || return 1
	done &&
	mkdir -p mnt/enc/sub/deeper &&
	echo leaf >mnt/enc/sub/deeper/leaf &&
	for i in $(seq 1 20)
	do
		ln -s f$i mnt/enc/sym$i || return 1
	done &&
	ln -s "$(printf "%0100d" 0)" mnt/enc/longsym &&
	setfattr -n user.kept -v yes mnt/enc &&
	echo plain >mnt/plain &&
	image_umount mnt &&
	dev=$(image_attach enc.img) &&
	"$DUMP" -0 -f enc.dump "$dev" 2>dump.err &&
	"$ORACLE_DUMP" -0 -f oracle.dump "$dev" 2>oracle-dump.err &&
	enc=$(debugfs -R "stat /enc" enc.img 2>/dev/null |
		sed -n "s/^Inode: \([0-9]*\) .*/\1/p") &&
	test -n "$enc" &&
	debugfs -R "cat <$enc>" enc.img >enc.raw 2>/dev/null &&
	"$PYTHON" "$HELPERS/fscrypt.py" dirents enc.raw | sort >disk.ents &&
	test $(wc -l <disk.ents) = 322 &&
	BOX=$(pwd)/box && hostile_reset_box && hostile_snapshot >box.before
'

# ents ARCHIVE: "INO HEXNAME" of the encrypted directory's entries.
ents() {
	"$PYTHON" "$HELPERS/cmpdump.py" dirents "$1" |
	awk -v d="$enc" '$1 == d { print $2, $3 }' | sort
}

# The awk function cutname(HEX): the name cut at its first NUL, in hex,
# or "/" when restore can keep no name for it: empty, "." or "..", or
# holding a "/".  (A name of random bytes starts with "." and a NUL once
# in 65536: with 322 names, in about one run of 200.)
cutname='function cutname(h,  i, b) {
	for (i = 1; i < length(h); i += 2) {
		b = substr(h, i, 2)
		if (b == "00") { h = substr(h, 1, i - 1); break }
		if (b == "2f") return "/"
	}
	return h == "" || h == "2e" || h == "2e2e" ? "/" : h
}'

# unsafe FILE: the lines ("INO HEXNAME", or "DIR INO HEXNAME") whose name
# restore can keep no name for.
unsafe() {
	awk "$cutname"' cutname($NF) == "/"' "$1"
}

# dups FILE: the lines ("DIR INO HEXNAME") of a name restore keeps whose
# cut an earlier line of the directory has too: restore keeps it under a
# name made up, 0.4b47 under the cut.  (Two of 322 names of random bytes
# cut alike in about one run of 300.)
dups() {
	awk "$cutname"' { c = cutname($NF) } c != "/" && seen[$1 " " c]++' "$1"
}

test_expect_success $P 'dump archives the encrypted names as on disk' '
	ents enc.dump >archive.ents &&
	test_cmp disk.ents archive.ents &&
	grep -E "^[0-9]+ ([0-9a-f]{2})*00" archive.ents &&
	grep -E "^[0-9]+ ([0-9a-f]{2})*2f" archive.ents
'

test_known_upstream_defect $P,ORACLE \
	'dump 0.4b47 zeroes an encrypted name after its first NUL' '
	ents oracle.dump >oracle.ents &&
	! cmp disk.ents oracle.ents
'

# The archive without the unsafe names, which 0.4b47 cannot take (it
# crashes on a name holding a "/") or takes otherwise (it lists one cut
# to "." as such), and without the duplicates (dups), which it takes
# under their cut: each renamed to "renamedINO".  The names are
# encrypted with a new random nonce on every run, so those of the
# directories below enc/ (one entry each) are unsafe now and then too:
# they are renamed alike, else the comparisons with 0.4b47 would depend
# on the draw.
test_expect_success $P 'setup: an archive 0.4b47 can restore' '
	unsafe archive.ents >unsafe.ents &&
	test -s unsafe.ents &&
	"$PYTHON" "$HELPERS/cmpdump.py" dirents enc.dump >all.ents &&
	awk -v d="$enc" "\$1 != d" all.ents | unsafe /dev/stdin >below.ents &&
	dups all.ents >dup.ents &&
	sed "s/^/$enc /" unsafe.ents | cat - below.ents dup.ents >rename.ents &&
	cp enc.dump clean.dump &&
	while read -r dir ino hex
	do
		old=$(echo "$hex" | sed "s/../\\\\x&/g") &&
		"$TAPETOOL" rename -d "$dir" clean.dump c.tmp "$old" \
			"renamed$ino" &&
		mv c.tmp clean.dump || return 1
	done <rename.ents &&
	"$PYTHON" "$HELPERS/cmpdump.py" dirents clean.dump >clean.ents &&
	test -z "$(unsafe clean.ents)" && test -z "$(dups clean.ents)"
'

# check_names: every entry of the encrypted directory is restored or
# named: the unsafe ones refused, those with a NUL kept under the cut
# name (or refused as a duplicate of it), one line each by inode number.
check_names() {
	while read -r ino hex
	do
		grep "^Directory inode $enc: refusing entry .* (inode $ino): " \
			hostile.err >/dev/null || return 1
	done <unsafe.ents &&
	grep -E "^[0-9]+ ([0-9a-f]{2})*00" archive.ents >nul.ents &&
	while read -r ino hex
	do
		grep -F "$ino $hex" unsafe.ents >/dev/null ||
		grep -E "^Directory inode $enc: (entry .* \(inode $ino\) kept as |refusing entry .* \(inode $ino\): duplicate)" \
			hostile.err >/dev/null || return 1
	done <nul.ents &&
	refused=$(grep -c "^Directory inode $enc: refusing" hostile.err) &&
	test $(find "$BOX/target/enc" -mindepth 1 -maxdepth 1 -printf x | wc -c) = \
		$((322 - refused))
}

# unescape: turn restore -t's \ooo escapes back into bytes.
unescape() {
	"$PYTHON" -c 'import re, sys
s = sys.stdin.buffer.read()
s = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), s)
sys.stdout.buffer.write(s)'
}

for m in r x
do
	test_expect_success $P,OURRESTORE \
		"restore -$m: every entry restored or named, exit 1" "
		hostile_run $m enc.dump &&
		test \$hostile_rc = 1 &&
		check_names
	"

	test_expect_success $P,OURRESTORE \
		"restore -$m: each link target cut at its NUL is named" "
		hostile_run $m enc.dump &&
		n=\$(find \"\$BOX/target/enc\" -type l -printf x | wc -c) &&
		test \$n -gt 0 &&
		test \$(grep -c ': symbolic link target (inode [0-9]*) holds a NUL byte, cut there: ' hostile.err) = \$n
	"

	test_expect_success $P,OURRESTORE \
		"restore -$m: index 9 skipped, user.kept set, one line per inode" "
		hostile_run $m enc.dump &&
		test \"\$(getfattr --only-values -n user.kept \"\$BOX/target/enc\")\" = yes &&
		grep -Fx './enc: Unknown EA index 9 (inode $enc): skipped' hostile.err &&
		n=\$(grep -c ': Unknown EA index 9 (inode [0-9]*): skipped\$' hostile.err) &&
		test \$n = \$(find \"\$BOX/target/enc\" -printf x | wc -c)
	"

	# 0.4b47 drops the whole attribute set at index 9: user.kept too.
	test_expect_success $P,ORACLE,OURRESTORE \
		"restore -$m restores the tree 0.4b47 restores" "
		oracle_run $m clean.dump &&
		manifest \"\$BOX/target\" >oracle.manifest &&
		test \$(grep -c '^enc/' oracle.manifest) -gt 300 &&
		hostile_run $m clean.dump &&
		test \$hostile_rc = 1 &&
		manifest \"\$BOX/target\" >ours.manifest &&
		grep '^enc	.* xattr:user.kept=' ours.manifest &&
		sed 's/ xattr:user.kept=[0-9a-f]*//' ours.manifest >ours.cut &&
		test_cmp oracle.manifest ours.cut
	"

	test_known_upstream_defect $P,ORACLE \
		"restore -$m of 0.4b47 drops user.kept with index 9" "
		oracle_run $m clean.dump &&
		! getfattr -n user.kept \"\$BOX/target/enc\"
	"
done

test_expect_success $P,OURRESTORE 'restore -t lists the entries escaped' '
	hostile_run t enc.dump &&
	test $hostile_rc = 1 &&
	! LC_ALL=C grep -q "[^ -~	]" hostile.out &&
	refused=$(grep -c "^Directory inode $enc: refusing" hostile.err) &&
	test $(grep -c "^ *[0-9]*	\./enc/[^/]*\$" hostile.out) = \
		$((322 - refused))
'

# The names of -t (escaped) that restore keeps as they are (no NUL, no
# "/"), every one of them: the names are new random bytes on each run,
# and a check of one of them would pass or fail with the draw (a blank,
# a quote or a glob character in it).  -x takes them as -t lists them;
# -i too, with a backslash before each blank and quote, as for any name
# typed at its prompt.
test_expect_success $P,OURRESTORE 'restore -x and -i take the names as -t lists them' '
	hostile_run t enc.dump &&
	sed -n "s|^ *[0-9]*	\(\./enc/.*\\\\[0-7][0-7][0-7].*\)\$|\1|p" hostile.out |
		grep -v "\\\\000\|\\\\057" >escaped.names &&
	test $(wc -l <escaped.names) -gt 250 &&
	grep " " escaped.names &&
	sed "s|^\./enc/||; s|/.*||" escaped.names | sort -u >top.names &&
	set -- &&
	while IFS= read -r n
	do
		set -- "$@" "$n"
	done <escaped.names &&
	hostile_run x enc.dump "$@" &&
	! grep "is not on the tape" hostile.err &&
	test $(find "$BOX/target/enc" -mindepth 1 -maxdepth 1 -printf x | wc -c) = \
		$(wc -l <top.names) &&
	name=$1 &&
	hostile_run x enc.dump ./plain &&
	test "$(cat "$BOX/target/plain")" = plain &&
	hostile_run x enc.dump "$name.not" &&
	grep -F "$name.not is not on the tape" hostile.err &&
	{ sed "s/[ \"'\'']/\\\\&/g; s/^/add /" escaped.names &&
	  printf "extract\nquit\n"; } >ish.in &&
	grep "^add .*\\\\ " ish.in &&
	rm -rf ish && mkdir ish &&
	(cd ish && "$RESTORE" -i -a -o -y -f ../enc.dump <../ish.in \
		>../ish.out 2>../ish.err; test $? -le 1) &&
	! grep "is not on the tape" ish.err &&
	test $(find ish/enc -mindepth 1 -maxdepth 1 -printf x | wc -c) = \
		$(wc -l <top.names)
'

# An encrypted directory of no entries: -C can compare all but its
# encryption context, which it reports and counts as -r and -x do.
test_expect_success $P,OURRESTORE 'restore -C counts a skipped attribute: exit 1' '
	mke2fs -q -F -t ext4 -b 1024 -O encrypt,^metadata_csum small.img 16M &&
	image_mount small.img smnt &&
	mkdir smnt/e &&
	"$PYTHON" "$HELPERS/fscrypt.py" encrypt smnt smnt/e &&
	setfattr -n user.kept -v yes smnt/e &&
	image_umount smnt &&
	sdev=$(image_attach small.img) &&
	"$DUMP" -0 -f small.dump "$sdev" 2>small-dump.err &&
	hostile_run x small.dump ./e &&
	test $hostile_rc = 1 &&
	test "$(getfattr --only-values -n user.kept "$BOX/target/e")" = yes &&
	{ "$RESTORE" -C -D "$BOX/target" -f small.dump ./e >cmp.out 2>cmp.err
	  rc=$?; } &&
	cat cmp.err &&
	test $rc = 1 &&
	grep "^\./e: Unknown EA index 9 (inode [0-9]*): skipped\$" cmp.err &&
	! grep "compare errors" cmp.out &&
	setfattr -n user.kept -v no "$BOX/target/e" &&
	{ "$RESTORE" -C -D "$BOX/target" -f small.dump ./e >cmp.out 2>cmp.err
	  rc=$?; } &&
	test $rc = 2 &&
	grep "compare errors" cmp.out
'

test_expect_success $P,ORACLE,OURRESTORE \
	'restore -t lists what 0.4b47 lists, escaped' '
	oracle_run t clean.dump &&
	mv hostile.out oracle.out &&
	hostile_run t clean.dump &&
	test $hostile_rc = 1 &&
	unescape <hostile.out >ours.decoded &&
	cmp oracle.out ours.decoded
'

test_done
