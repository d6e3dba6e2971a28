#!/bin/sh
test_description='restore -i: the interactive shell

Commands piped on standard input: ls (columns, suffixes, selection marks,
verbose inode numbers), cd, pwd, add, delete, globs, help, the toggles,
what and an unknown command give the same output as restore 0.4b47 on
the same archive; add + extract brings back exactly the selected files
(compared by manifest with what 0.4b47 extracts); one session run
through a pseudo-terminal (readline) shows the prompt and extracts; and
a second and third extract in one session read the archive again, as
0.4b47 does (same questions, a name of an inode extracted before becomes
a hard link to it).'
. "$(dirname "$0")/lib.sh"

# short_name PROG DIR: a directory DIR holding PROG as "restore".  The
# prompt starts with argv[0], and 0.4b47's readline redraws a line longer
# than 80 columns (prompt + command) with a carriage return: run as plain
# "restore" from PATH, the prompt is as short wherever the tree lives
# (check 3 failed in CI's sanitizer copy, under a longer path).
short_name() {
	mkdir "$2" && ln -s "$1" "$2/restore"
}

# run_i PROG DIR CMDFILE [ARCHIVE]: one session of PROG -i in DIR (made
# here) on ARCHIVE (a.dump); stdout (prompts) to DIR.out, stderr to
# DIR.err.
run_i() {
	short_name "$1" "bin.$2" &&
	mkdir "$2" &&
	(PATH="$PWD/bin.$2:$PATH" && cd "$2" &&
	 restore -i -f "../${4:-a.dump}" <"../$3" >"../$2.out" 2>"../$2.err")
}

# in_tty PROG DIR CMDFILE: the session of run_i through a pseudo-terminal,
# one line of CMDFILE every 0.5 s; everything shown goes to DIR.tty.
in_tty() {
	short_name "$1" "bin.$2" &&
	mkdir "$2" &&
	(PATH="$PWD/bin.$2:$PATH" && cd "$2" &&
	 { sleep 1; while IFS= read -r l
	   do
		printf "%s\n" "$l"; sleep 0.5
	   done <"../$3"; } |
	 timeout 60 script -qfec "restore -i -f ../a.dump" /dev/null \
		>"../$2.tty" 2>&1)
}

command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT
# A further extract needs tape.c to read the archive again.
grep -q "^tape_restart(" "$TOP/restore/tape.c" 2>/dev/null &&
	test_set_prereq REREAD

test_expect_success ROOT,LOOP,ORACLE 'setup: a small image and its archive' '
	mkdir -p tree/d/sub tree/e &&
	echo hi >tree/d/x && echo yo >tree/d/y && echo z >tree/top &&
	ln -s top tree/lnk && mkfifo tree/fifo && mknod tree/dev c 1 3 &&
	ln tree/top tree/e/hl &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12
	do
		echo $i >tree/e/file_number_$i || return 1
	done &&
	truncate -s 8M fs.img &&
	mke2fs -q -F -t ext2 -d tree fs.img &&
	dev=$(image_attach fs.img) &&
	"$ORACLE_DUMP" -0 -f a.dump "$dev" 2>/dev/null
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'ls, cd, pwd, add, delete, toggles, help: output of 0.4b47' '
	cat >cmds <<-\EOF &&
	ls
	ls e
	cd d
	pwd
	ls
	add x
	ls
	verbose
	ls
	verbose
	what
	bogus
	prompt
	pwd
	delete zz
	?
	cd nope
	cd /top
	ls nope
	ls /top
	cd ..
	ls d/*
	ls e/file_number_1*
	add e/file_number_1?
	ls e
	delete e
	ls e
	Debug
	D
	help foo
	l
	p
	cd lost+found
	pwd
	prompt
	cd ../d/sub
	pwd
	cd /d
	ls x
	ls /lnk
	ls /dev
	ls ../e
	delete x
	cd /
	ls
	verbose
	ls
	ls d
	xit
	EOF
	run_i "$ORACLE_RESTORE" o cmds &&
	run_i "$RESTORE" m cmds &&
	test_cmp o.err m.err &&
	grep "^\./e:" m.err &&
	grep "^ sub/ \*x     y $" m.err &&
	grep "^\*d/x$" m.err
'

# 0.4b47 echoes through readline, which redraws lines longer than 80
# columns: compare only the short prompt lines and what "what" prints.
test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'prompts and what on standard output' '
	printf "what\nprompt\ncd d\nprompt\nls\n" >cmds.w &&
	run_i "$ORACLE_RESTORE" ow cmds.w &&
	run_i "$RESTORE" mw cmds.w &&
	test_cmp ow.out mw.out &&
	grep "^restore > what$" mw.out &&
	grep "^Level 0 dump of " mw.out &&
	grep "^restore:an unlisted file system: > cd d$" mw.out &&
	grep "^restore:an unlisted file system:/d > prompt$" mw.out
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'unknown command and EOF as quit' '
	printf "frobnicate now\n" >cmds.u &&
	run_i "$RESTORE" u cmds.u &&
	echo "frobnicate: unknown command; type ? for help" >u.expect &&
	test_cmp u.expect u.err &&
	test_line_count() { test $(wc -l <"$2") -eq "$1"; } &&
	test_line_count 2 u.out
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'add + extract gives exactly the selected files' '
	printf "add d/x\nadd e/file_number_1?\ncd e\nadd file_number_7\nextract\n1\nn\nquit\n" >cmds.x &&
	run_i "$ORACLE_RESTORE" ox cmds.x &&
	run_i "$RESTORE" mx cmds.x &&
	manifest ox | grep -v "^\.	" >ox.manifest &&
	manifest mx | grep -v "^\.	" >mx.manifest &&
	test_cmp ox.manifest mx.manifest &&
	test -f mx/d/x && test -f mx/e/file_number_7 &&
	test -f mx/e/file_number_12 && ! test -e mx/e/file_number_1 &&
	! test -e mx/d/y && ! test -e mx/top
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'delete removes names from the extraction list' '
	printf "add e\ndelete e/file_number_1*\nadd top\nadd lnk\ndelete top\nextract\n1\nn\nquit\n" >cmds.d &&
	run_i "$ORACLE_RESTORE" od cmds.d &&
	run_i "$RESTORE" md cmds.d &&
	manifest od | grep -v "^\.	" >od.manifest &&
	manifest md | grep -v "^\.	" >md.manifest &&
	test_cmp od.manifest md.manifest &&
	test -f md/e/file_number_9 && ! test -e md/e/file_number_10 &&
	test -L md/lnk && ! test -e md/top
'

# Names with blanks, quotes and backslashes are typed as 0.4b47 reads
# them: quoted with '...' or "...", or each character after a backslash.
test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'quotes and backslashes in typed names: as 0.4b47' '
	mkdir -p qtree/"dir x" &&
	for n in "a b" "it'\''s" "q\"d" "back\\slash" "x\\101" 101 plain \
		"dir x/in"
	do
		printf "%s\n" "$n" >"qtree/$n" || return 1
	done &&
	truncate -s 8M q.img &&
	mke2fs -q -F -t ext2 -d qtree q.img &&
	qdev=$(image_attach q.img) &&
	"$ORACLE_DUMP" -0 -f q.dump "$qdev" 2>/dev/null &&
	cat >cmds.q <<-\EOF &&
	add '\''a b'\''
	add it\'\''s q'\''"'\''d
	add back\\slash x\\101
	ls
	delete a\ b
	add a'\'' '\''b
	add "dir x" 101
	cd "dir x"
	pwd
	ls '\''/dir x'\''
	cd ..
	add '\''unterminated
	add trail\
	add "never closed
	ls
	extract
	1
	n
	quit
	EOF
	run_i "$ORACLE_RESTORE" oq cmds.q q.dump &&
	run_i "$RESTORE" mq cmds.q q.dump &&
	test_cmp oq.err mq.err &&
	grep "^missing '\''$" mq.err &&
	grep "^missing \"$" mq.err &&
	grep "^command lines cannot be continued$" mq.err &&
	manifest oq | grep -v "^\.	" >oq.manifest &&
	manifest mq | grep -v "^\.	" >mq.manifest &&
	test_cmp oq.manifest mq.manifest &&
	diff -r -x plain qtree mq &&
	! test -e mq/plain
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,SCRIPT 'through a terminal: readline prompt, completion, extract' '
	short_name "$RESTORE" bin.tty &&
	mkdir tty && (
		PATH="$PWD/bin.tty:$PATH" && cd tty &&
		{ sleep 1; printf "cd lo\\t\\n"; sleep 0.5; printf "pwd\\n";
		  sleep 0.5; printf "add /top\\n"; sleep 0.5;
		  printf "extract\\n"; sleep 0.5; printf "1\\n"; sleep 0.5;
		  printf "n\\n"; sleep 0.5; printf "quit\\n"; } |
		timeout 30 script -qfec "restore -i -f ../a.dump" /dev/null
	) >tty.out 2>&1 &&
	grep -a "restore > add /top" tty.out &&
	grep -a "/lost+found" tty.out &&
	grep -a "Specify next volume #" tty.out &&
	test "$(cat tty/top)" = z
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE,REREAD,SCRIPT 'extract again in one session: the questions and files of 0.4b47' '
	printf "%s\n" "add d/x" extract 1 n "add top" extract 1 "" n "ls e" \
		"add e/hl" "add d/x" extract 1 none 1 "" n quit >cmds.r &&
	run_i "$RESTORE" mr cmds.r &&
	cat >mr.expect <<-\EOF &&
	You have not read any volumes yet.
	Unless you know which volume your file(s) are on you should start
	with the last volume and work towards the first.
	Specify next volume # (none if no more volumes): set owner/mode for '"'.'"'? [yn] You have not read any volumes yet.
	Unless you know which volume your file(s) are on you should start
	with the last volume and work towards the first.
	Specify next volume # (none if no more volumes): Mount tape volume 1
	Enter ``none'"'"''"'"' if there are no more tapes
	otherwise enter tape name (default: ../a.dump) set owner/mode for '"'.'"'? [yn] ./e:
	file_number_1  file_number_12 file_number_4  file_number_7  hl
	file_number_10 file_number_2  file_number_5  file_number_8
	file_number_11 file_number_3  file_number_6  file_number_9

	You have not read any volumes yet.
	Unless you know which volume your file(s) are on you should start
	with the last volume and work towards the first.
	Specify next volume # (none if no more volumes): Mount tape volume 1
	Enter ``none'"'"''"'"' if there are no more tapes
	otherwise enter tape name (default: ../a.dump) You have not read any volumes yet.
	Unless you know which volume your file(s) are on you should start
	with the last volume and work towards the first.
	Specify next volume # (none if no more volumes): Mount tape volume 1
	Enter ``none'"'"''"'"' if there are no more tapes
	otherwise enter tape name (default: ../a.dump) set owner/mode for '"'.'"'? [yn] 
	EOF
	echo >>mr.err &&
	test_cmp mr.expect mr.err &&
	test "$(stat -c %i mr/top)" = "$(stat -c %i mr/e/hl)" &&
	test "$(cat mr/d/x)" = hi && ! test -e mr/d/y &&
	in_tty "$ORACLE_RESTORE" or cmds.r &&
	grep -a "^Mount tape volume 1" or.tty &&
	manifest or | grep -v "^\.	" >or.manifest &&
	manifest mr | grep -v "^\.	" >mr.manifest &&
	test_cmp or.manifest mr.manifest
'

test_expect_success ROOT,LOOP,ORACLE,OURRESTORE 'delete of an unlisted name, a line of blanks, setmodes: as 0.4b47' '
	printf "add d\nadd top\nls\ndelete e\ndelete top\ndelete top\n\n   \nsetmodes\nls\nls d\nquit\n" >cmds.s &&
	run_i "$ORACLE_RESTORE" os cmds.s &&
	run_i "$RESTORE" ms cmds.s &&
	test_cmp os.err ms.err &&
	grep "^\./e: not on extraction list$" ms.err &&
	grep "^: unknown command; type ? for help$" ms.err &&
	grep "^d/  *e/" ms.err
'

test_done
