#!/bin/sh
test_description='restore refuses archives that try to write outside its target

Archives of dump 0.4b47 are edited with helpers/tapetool so that their
directory entries carry names with "/" or "..", absolute names, empty names
and names with a NUL, or make a symbolic link and later write through it
(a file or a directory of the same name after the link, a directory that a
later link replaces).  For each, restore -r, -x and -t must end (no crash,
no hang) and nothing outside the target may change; -r and -x must say
why they refused, and the honest files still come back.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: dump the bait tree' '
	hostile_base &&
	"$TAPETOOL" ents base.dump >ents &&
	grep " mfile$" ents && grep " zdir$" ents && grep " aaa$" ents
'

# Each scenario: name, then the tapetool edits that build it from
# base.dump (as one shell snippet writing $s.dump).
scenarios='
dotdot         "$TAPETOOL" rename base.dump $s.dump mfile ..
dotdot-path    "$TAPETOOL" rename base.dump $s.dump mfile ../sentinel/victim
dotdot-new     "$TAPETOOL" rename base.dump $s.dump mfile ../outside_new
dot            "$TAPETOOL" rename base.dump $s.dump mfile .
slash-link     "$TAPETOOL" rename base.dump $s.dump mfile aaa/victim
slash-dir      "$TAPETOOL" rename base.dump $s.dump mfile sub/payload
absolute       "$TAPETOOL" rename base.dump $s.dump mfile "$BOX/sentinel/victim"
absolute-new   "$TAPETOOL" rename base.dump $s.dump mfile "$BOX/outside_new"
empty-name     "$TAPETOOL" rename base.dump $s.dump mfile ""
nul-name       "$TAPETOOL" rename base.dump $s.dump mfile "lnkfile\\0x"
link-then-file "$TAPETOOL" rename base.dump $s.dump mfile lnkfile
link-then-new  "$TAPETOOL" rename base.dump $s.dump mfile lnknew
link-then-dir  "$TAPETOOL" rename base.dump $s.dump zdir aaa
rel-link-dir   "$TAPETOOL" rename base.dump $s.dump zdir up
dir-then-link  hostile_dir_then_link $s.dump
dir-is-link    hostile_dir_is_link $s.dump
'

# A directory entry followed, in the same directory, by a symbolic link
# of the same name whose inode comes first (extracted before the files
# of the directory): the entries of aaa and zdir trade inodes, then the
# second is renamed to the first.
hostile_dir_then_link() {
	aaa=$(hostile_ino aaa) && zdir=$(hostile_ino zdir) &&
	"$TAPETOOL" entry base.dump t1.dump aaa d_ino "$zdir" &&
	"$TAPETOOL" entry t1.dump t2.dump aaa d_type 4 &&
	"$TAPETOOL" entry t2.dump t3.dump zdir d_ino "$aaa" &&
	"$TAPETOOL" entry t3.dump t4.dump zdir d_type 10 &&
	"$TAPETOOL" rename t4.dump "$1" zdir aaa
}

# The inode of a dumped directory re-typed as a symbolic link: its data
# (the directory image) would become the link text, and the entries it
# held lose their parent.
hostile_dir_is_link() {
	blk=$(hostile_hdr TS_INODE "$(hostile_ino zdir)") &&
	"$TAPETOOL" set base.dump "$1" "$blk" di_mode 0120777
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: build the scenarios' '
	echo "$scenarios" | while read -r s cmd
	do
		test -n "$s" || continue
		eval "$cmd" || { echo "cannot build $s" >&2; exit 1; }
	done &&
	"$TAPETOOL" ents link-then-file.dump | grep " lnkfile$" >two &&
	test_line_count=$(wc -l <two) && test "$test_line_count" = 2
'

echo "$scenarios" | while read -r s cmd
do
	test -n "$s" || continue
	echo "$s"
done >scenario.names

while read -r s
do
	# A directory inode turned into a symlink hides its entries: nothing
	# escapes, and restore need not notice.
	# Refusing an entry is an error: -r and -x exit 1 after saying why.
	says='test -s hostile.err && test $hostile_rc = 1'
	test "$s" = dir-is-link && says=:
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"$s: restore -r stays inside, says why, keeps the rest" "
		hostile_run r $s.dump &&
		$says &&
		hostile_restored big && hostile_restored zzz &&
		hostile_restored sub/payload
	"
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"$s: restore -x stays inside and says why" "
		hostile_run x $s.dump &&
		$says &&
		hostile_restored big && hostile_restored zzz
	"
	test_expect_success ROOT,LOOP,ORACLE,TAPETOOL,OURRESTORE \
		"$s: restore -t ends without harm" "
		hostile_run t $s.dump
	"
done <scenario.names

# The scenarios are real attacks: restore 0.4b47 falls for them.

test_known_upstream_defect ROOT,LOOP,ORACLE,TAPETOOL \
	'restore 0.4b47 -x writes through a symlink made by an earlier entry' '
	! oracle_run x link-then-file.dump &&
	test "$(cat box/sentinel/victim)" = ATTACK
'

test_known_upstream_defect ROOT,LOOP,ORACLE,TAPETOOL \
	'restore 0.4b47 -x creates a file outside through a symlink' '
	! oracle_run x link-then-new.dump &&
	test "$(cat box/outside_new)" = ATTACK
'

test_known_upstream_defect ROOT,LOOP,ORACLE,TAPETOOL \
	'restore 0.4b47 -x cuts a name at its NUL and writes through a symlink' '
	! oracle_run x nul-name.dump &&
	test "$(cat box/sentinel/victim)" = ATTACK
'

test_known_upstream_defect ROOT,LOOP,ORACLE,TAPETOOL \
	'restore 0.4b47 -x crashes on a name with a slash' '
	! oracle_run x slash-link.dump &&
	test "$hostile_rc" -ge 128
'

test_done
