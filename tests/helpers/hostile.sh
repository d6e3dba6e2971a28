# tests/helpers/hostile.sh - shared setup of the t9 hostile-input tests.
# Sourced by tests/t9*.sh after lib.sh.  Needs ROOT, LOOP, ORACLE and the
# tapetool helper (helpers/tapetool, built by tests/Makefile or by
# `make -C tests -f helpers/tapetool.mk`).
#
# hostile_base builds, in the trash directory, a small ext4 image from a
# tree made for escape attempts and dumps it with dump 0.4b47 into
# base.dump.  Every symbolic link of that tree points into box/, a
# sandbox next to the restore target:
#   box/target       restore runs here (empty before each run)
#   box/sentinel/    must never change: victim (a file), keep/x
#   box/outside_new  must never appear
# Tree (mke2fs -d creates it in alphabetical order, depth first, so the
# inode numbers grow in that order too):
#   aaa -> $BOX/sentinel      afile, hardlink (one inode)   big (104 KiB)
#   fifo   lnkfile -> $BOX/sentinel/victim   lnknew -> $BOX/outside_new
#   mfile ("ATTACK")   sub/deep/f  sub/payload   up -> ../sentinel
#   zdir/outside_new  zdir/victim ("ATTACK")   zzz (the last file)
#
# hostile_run MODE ARCHIVE [OPTIONS] runs $RESTORE (or $HOSTILE_RESTORE)
# in MODE r, x or t (rp, xp, tp: the archive on a pipe, -f -) inside a
# fresh box/target, without a controlling terminal and under `timeout`;
# it leaves the exit status in hostile_rc, stdout in hostile.out and
# stderr in hostile.err, and fails when the run timed out, died by a
# signal, printed a sanitizer report, or changed anything outside the
# target.  HOSTILE_TIMEOUT (seconds, default 60) bounds each run.

TAPETOOL=$HELPERS/tapetool
HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-60}
# Build tapetool when the suite's Makefile has not: under a private name
# first, so scripts started in parallel never run a half-written binary.
if ! test -x "$TAPETOOL" && test -f "$TOP/Make.rules"
then
	make -s -C "$TEST_DIR" -f helpers/tapetool.mk \
		TAPETOOL="helpers/tapetool.tmp$$" "helpers/tapetool.tmp$$" \
		>/dev/null 2>&1 &&
	mv -f "$HELPERS/tapetool.tmp$$" "$TAPETOOL"
	rm -f "$HELPERS/tapetool.tmp$$"
fi
test -x "$TAPETOOL" && test_set_prereq TAPETOOL

# First header block of TYPE for inode INO (not an EA record).
hostile_hdr() {
	"$TAPETOOL" list "${3:-base.dump}" |
	awk -v t="$1" -v i="$2" '$2 == t && $3 == i && $9 != "EA" { print $1; exit }'
}

# Inode number of directory entry NAME (first match).
hostile_ino() {
	"$TAPETOOL" ents "${2:-base.dump}" |
	awk -v n="$1" '$7 == n { print $4; exit }'
}

hostile_base() {
	BOX=$(pwd)/box &&
	rm -rf src box &&
	mkdir -p src/sub/deep src/zdir &&
	hostile_reset_box &&
	ln -s "$BOX/sentinel" src/aaa &&
	echo hello >src/afile &&
	ln src/afile src/hardlink &&
	seq 1 20000 >src/big &&
	mkfifo src/fifo &&
	ln -s "$BOX/sentinel/victim" src/lnkfile &&
	ln -s "$BOX/outside_new" src/lnknew &&
	echo ATTACK >src/mfile &&
	echo deep >src/sub/deep/f &&
	echo pay >src/sub/payload &&
	ln -s ../sentinel src/up &&
	echo ATTACK >src/zdir/outside_new &&
	echo ATTACK >src/zdir/victim &&
	echo "last file" >src/zzz &&
	mke2fs -q -F -t ext4 -b 1024 -O ^metadata_csum -d src base.img 8M &&
	hostile_dev=$(image_attach base.img) &&
	"$ORACLE_DUMP" -0 -f base.dump "$hostile_dev" 2>dump.err &&
	hostile_snapshot >box.before
}

# hostile_reset_box [DIR...]: a fresh sandbox, so that each run starts
# from the same sentinel, and each DIR made afresh too (one rm and one
# mkdir for all).
hostile_reset_box() {
	rm -rf "$BOX" "$@" &&
	mkdir -p "$BOX/sentinel/keep" "$BOX/target" "$@" &&
	echo original >"$BOX/sentinel/victim" &&
	echo x >"$BOX/sentinel/keep/x"
}

# Everything in the box but the target: names, types, modes, sizes, link
# targets and contents, from one find and one cksum (a process per
# entry would cost some 5 ms each, hundreds of times per script).
hostile_snapshot() {
	(cd "$BOX" && find . -path ./target -prune -o \
		-printf "%p %y %m %s %l\n" -type f -exec cksum {} + | sort)
}

# hostile_run MODE ARCHIVE [extra restore args...]
hostile_run() {
	hostile_mode=$1 hostile_ar=$2
	case $hostile_ar in
	/*) ;;
	*) hostile_ar=$PWD/$hostile_ar ;;
	esac
	shift 2
	# restore's temporary files go to a fresh directory of ours: a crashed
	# run must not leave files that make the next one fail.
	hostile_tmp=$PWD/tmp.restore
	hostile_reset_box "$hostile_tmp" || return 1
	case $hostile_mode in
	r*) set -- -r -y -T "$hostile_tmp" "$@" ;;
	x*) set -- -x -a -o -y -T "$hostile_tmp" "$@" ;;
	t*) set -- -t -T "$hostile_tmp" "$@" ;;
	*) echo "hostile_run: bad mode $hostile_mode" >&2; return 1 ;;
	esac
	# No controlling terminal (setsid): a question restore wants to ask
	# on /dev/tty must not wait for a person.  Mode letters followed by
	# "p" feed the archive through a pipe (-f -).
	case $hostile_mode in
	?p) hostile_in=$hostile_ar; set -- "$@" -f - ;;
	*) hostile_in=/dev/null; set -- "$@" -f "$hostile_ar" ;;
	esac
	(cd "$BOX/target" &&
	 exec setsid -w timeout -s KILL "$HOSTILE_TIMEOUT" \
		"${HOSTILE_RESTORE:-$RESTORE}" "$@" <"$hostile_in") \
		>hostile.out 2>hostile.err
	hostile_rc=$?
	test -s hostile.err && cat hostile.err >&2
	echo "hostile_run: $hostile_mode ${hostile_ar##*/}: exit $hostile_rc" >&2
	if test $hostile_rc = 137 || test $hostile_rc = 124
	then
		echo "hostile_run: restore timed out or was killed" >&2
		return 1
	fi
	if test $hostile_rc -ge 128
	then
		echo "hostile_run: restore died by signal $((hostile_rc - 128))" >&2
		return 1
	fi
	# restore's statuses are 0 (done), 1 (errors), 2 (-C differences)
	# and 3 (lost rmt connection): none of these runs may give 2 or 3.
	if test $hostile_rc -gt 1
	then
		echo "hostile_run: unexpected exit status $hostile_rc" >&2
		return 1
	fi
	if test -s hostile.err &&
		grep -E 'AddressSanitizer|runtime error:|LeakSanitizer' \
			hostile.err >/dev/null
	then
		echo "hostile_run: sanitizer report" >&2
		return 1
	fi
	hostile_snapshot >box.after
	test_cmp box.before box.after || return 1
	if test -e "$BOX/outside_new" || test -L "$BOX/outside_new"
	then
		echo "hostile_run: $BOX/outside_new appeared" >&2
		return 1
	fi
	return 0
}

# The last run restored FILE of the source tree with its content.
hostile_restored() {
	cmp "src/$1" "$BOX/target/$1"
}

# oracle_run: hostile_run with restore 0.4b47, to show a scenario is real.
oracle_run() {
	HOSTILE_RESTORE=$ORACLE_RESTORE
	hostile_run "$@"
	oracle_rc=$?
	HOSTILE_RESTORE=
	return $oracle_rc
}
