#!/bin/sh
test_description='Amanda end to end: amdump, amcheckdump, amfetchdump, amrecover

Amanda (Debian 12 amanda-server and amanda-client, auth "local") runs
the dump and restore compiled into it (/sbin/dump, /sbin/restore) as
user backup in group disk.  For the run our programs sit at those paths;
what was there before (and /var/lib/dumpdates) comes back afterwards,
also after a failure or an interrupt.  A small ext4 on a loop device,
mounted read-write, goes through amcheck, a level 0 amdump of two disk
list entries (one compressed on the client, one not), changes (a file
rewritten in place, files added and removed, a directory renamed), a
level 1, amreport, amcheckdump, amfetchdump | restore -tvf -, and a
partial and a full amrecover; the full one matches the live tree but
for what amrecover does not replay (removals, renames).  The level-1
archive holds the new bytes of the file rewritten in place.  The same
with dump 0.4b47 at those paths shows its known defects.'
. "$(dirname "$0")/lib.sh"

# Amanda's tools and the paths compiled into it.
if command -v amdump >/dev/null 2>&1 && command -v amrecover >/dev/null 2>&1 &&
	command -v amfetchdump >/dev/null 2>&1 && command -v amcheckdump >/dev/null 2>&1 &&
	command -v amadmin >/dev/null 2>&1
then
	test_set_prereq AMANDA
else
	say "# Amanda is not installed (amanda-server, amanda-client: scripts/install-deps.sh)"
fi
disk_gid=$(getent group disk | cut -d: -f3)
# Amanda runs our programs as backup: they must be reachable (UNPRIV);
# from a closed checkout amdump waited on them until the time limit.
if test "$(getent passwd backup | cut -d: -f3)" = 34 && test -n "$disk_gid" &&
	test_have_prereq UNPRIV
then
	test_set_prereq BACKUP
fi
command -v setfacl >/dev/null 2>&1 && test_set_prereq ACL
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 && test_set_prereq CC
P=ROOT,LOOP,AMANDA,BACKUP,ATTR,ACL,PYTHON,OURDUMP,OURRESTORE,CC

CONF=dumptest-t8500
CONFDIR=/etc/amanda/$CONF
DD=/var/lib/dumpdates
T=$TRASH_DIRECTORY
SAVED= am_dump= am_restore=

# Amanda runs from cron, and its operator's commands from scripts: in a
# session of their own without a controlling terminal, with the few
# variables cron sets, none of the caller's.  Not TMPDIR in particular:
# restore 0.4b47 makes its temporary files there, and user backup may
# not be able to write the caller's.  Whether the caller has a terminal
# does not matter either: 0.4b47's defects below are those of restore
# finding no /dev/tty, and with one it would wait for answers on it.
JOB_ENV="SHELL=/bin/sh PATH=/usr/bin:/bin LC_ALL=C TZ=UTC"

# as_backup CMD...: CMD as user backup with its groups (disk among
# them), as cron would start Amanda.
as_backup() {
	ab_prog=$(command -v "$1") || return 127
	shift
	setsid -w env -i $JOB_ENV HOME=/var/backups USER=backup LOGNAME=backup \
		"$(command -v setpriv)" --reuid=backup --regid=backup --init-groups \
		"$ab_prog" "$@"
}

# as_root CMD...: CMD as root the same way (amrecover, the restore
# reading amfetchdump's output).
as_root() {
	ar_prog=$(command -v "$1") || return 127
	shift
	setsid -w env -i $JOB_ENV HOME=/root USER=root LOGNAME=root "$ar_prog" "$@"
}

# ---- the machine-wide state this script changes ---------------------------
# save_path PATH: remember PATH (absent, or a copy with its owner, mode,
# times) in $SAVED.
save_path() {
	sp_key=$(echo "$1" | tr / _)
	if test -e "$1" || test -h "$1"
	then
		cp -a "$1" "$SAVED/$sp_key" && stat -c '%F %U:%G %a %s' "$1" >"$SAVED/$sp_key.stat"
	else
		echo absent >"$SAVED/$sp_key.stat"
	fi
}
# put_back PATH: PATH as save_path found it.
put_back() {
	pb_key=$(echo "$1" | tr / _)
	test -f "$SAVED/$pb_key.stat" || return 0
	rm -f "$1" || return 1
	if test "$(cat "$SAVED/$pb_key.stat")" != absent
	then
		cp -a "$SAVED/$pb_key" "$1" || return 1
	fi
}
# same_as_saved PATH: PATH is as save_path found it.
same_as_saved() {
	sa_key=$(echo "$1" | tr / _)
	if test "$(cat "$SAVED/$sa_key.stat")" = absent
	then
		! test -e "$1" && ! test -h "$1"
	else
		test "$(stat -c '%F %U:%G %a %s' "$1")" = "$(cat "$SAVED/$sa_key.stat")" &&
		if test -h "$1"
		then
			test "$(readlink "$1")" = "$(readlink "$SAVED/$sa_key")"
		else
			cmp "$1" "$SAVED/$sa_key"
		fi
	fi
}
# Amanda's own trees: what appears there during the run is removed.
AM_TREES="/var/lib/amanda /var/log/amanda /tmp/amanda"
list_trees() {
	for lt in $AM_TREES
	do
		test -d "$lt" && find "$lt" -print
	done | sort
}
restore_system() {
	test -n "$SAVED" && test -d "$SAVED" || return 0
	rs_ok=t
	for rs_p in $am_dump $am_restore $DD
	do
		put_back "$rs_p" || rs_ok=
	done
	if test -f "$SAVED/devs"
	then
		while read -r rs_dev rs_owner rs_mode
		do
			chown "$rs_owner" "$rs_dev" && chmod "$rs_mode" "$rs_dev" || rs_ok=
		done <"$SAVED/devs"
	fi
	rm -rf "$CONFDIR" || rs_ok=
	if test -f "$SAVED/trees"
	then
		list_trees >"$SAVED/trees.now" &&
		# Amanda's debug logs of the run stay in the trash directory
		# (kept when a check failed).
		comm -13 "$SAVED/trees" "$SAVED/trees.now" | grep "^/var/log/amanda/.*\.debug\$" |
		while read -r rs_f
		do
			mkdir -p "$T/debug" && cp "$rs_f" "$T/debug/"
		done
		comm -13 "$SAVED/trees" "$SAVED/trees.now" | sort -r |
		while read -r rs_f
		do
			rm -rf "$rs_f"
		done || rs_ok=
		if test -f "$SAVED/amandates"
		then
			cp -p "$SAVED/amandates" /var/lib/amanda/amandates || rs_ok=
		fi
	fi
	for rs_p in $am_dump $am_restore $DD
	do
		same_as_saved "$rs_p" || rs_ok=
	done
	list_trees >"$SAVED/trees.now" &&
	cmp "$SAVED/trees" "$SAVED/trees.now" || rs_ok=
	if test -n "$rs_ok"
	then
		rm -rf "$SAVED" && SAVED=
	else
		echo "t8500: could not put everything back; saved copies in $SAVED" >&2
		return 1
	fi
}

test_expect_success $P 'setup: lock the machine, save what the run replaces' '
	test_lock_system &&
	SAVED=$(mktemp -d "${TMPDIR:-/tmp}/t8500-saved.XXXXXX") &&
	test_at_exit restore_system &&
	test_at_exit "touch \"$T/ours/unpin\" \"$T/ref/unpin\" 2>/dev/null; test -z \"\$pin_pid\" || wait \$pin_pid" &&
	list_trees >"$SAVED/trees" &&
	amadmin x version >version &&
	am_dump=$(sed -n "s/.* DUMP=\"\([^\"]*\)\".*/\1/p" version) &&
	am_restore=$(sed -n "s/.* RESTORE=\"\([^\"]*\)\".*/\1/p" version) &&
	test -n "$am_dump" && test -n "$am_restore" &&
	save_path "$am_dump" && save_path "$am_restore" && save_path "$DD" &&
	if test -f /var/lib/amanda/amandates
	then
		cp -p /var/lib/amanda/amandates "$SAVED/amandates"
	fi &&
	! test -e "$CONFDIR"
'

# fill DIR: the tree backed up.
fill() {
	(cd "$1" &&
	mkdir -p d1/sub d2 old keep && echo hello >top &&
	head -c 300000 /dev/urandom >d1/big &&
	head -c 5000 /dev/urandom >d1/sub/small &&
	: >d1/empty && echo one >old/a && echo two >old/b &&
	echo keep >keep/k && echo gone >d2/gone &&
	ln -s ../top d2/slink && ln -s nowhere d2/dangling &&
	ln d1/sub/small d2/hard &&
	head -c 65536 /dev/urandom >inplace &&
	setfattr -n user.note -v first d1/big &&
	setfattr -n user.dir -v attr d1 &&
	setfacl -m u:1234:rw,g:55:r top &&
	chown 1000:1000 keep/k && chmod 640 keep/k &&
	touch -d "2021-03-04 05:06:07" d1/sub/small)
}

# change_tree DIR: a file rewritten in place (same blocks, not synced),
# files added and removed, a directory renamed, an xattr changed.
change_tree() {
	(cd "$1" &&
	head -c 65536 /dev/urandom >../inplace.new && cp inplace ../inplace.old &&
	dd if=../inplace.new of=inplace conv=notrunc 2>/dev/null &&
	echo added >d1/added && mkdir newdir && echo n >newdir/n &&
	rm d2/gone && mv old renamed &&
	setfattr -n user.note -v second d1/big)
}

# pin_inplace R: read R/mnt/inplace's blocks into the device's page cache
# and hold them there (pin_cache) until unpin_inplace.  Each
# round pins them after its level 0 and before the file is rewritten in
# place: a buffered reader of the device (dump 0.4b47) then reads the old
# bytes at level 1 whatever else runs on the machine (a drop_caches once
# let it read the new ones), and ours must read the new ones all the same.
pin_inplace() {
	pi_bs=$(dumpe2fs -h "$dev" 2>/dev/null | sed -n "s/^Block size: *//p") &&
	debugfs -R "blocks /inplace" "$dev" 2>/dev/null | tr " " "\n" |
		grep -E "^[0-9]+\$" | sort -n >"$1/inplace.blocks" &&
	pi_first=$(head -n 1 "$1/inplace.blocks") &&
	pi_last=$(tail -n 1 "$1/inplace.blocks") &&
	test -n "$pi_bs" && test -n "$pi_first" &&
	pin_cache "$dev" $((pi_first * pi_bs)) $(((pi_last - pi_first + 1) * pi_bs)) \
		"$T/$1/unpin"
}

unpin_inplace() {
	touch "$T/$1/unpin" && wait $pin_pid
}

# amanda_config R: the configuration $CONF for round R (its state, tapes
# and holding disk below $T/R).
amanda_config() {
	(cd "$1" && mkdir -p state/log vtapes/slot1 vtapes/slot2 vtapes/slot3 vtapes/slot4 holding &&
	chown -R backup:backup state vtapes holding) &&
	rm -rf "$CONFDIR" && mkdir -m 750 "$CONFDIR" &&
	cat >"$CONFDIR/amanda.conf" <<-EOF &&
	org "t8500"
	mailto ""
	dumpuser "backup"
	dumpcycle 7 days
	runspercycle 2
	tapecycle 4 tapes
	runtapes 1
	inparallel 2
	netusage 100000 Kbps
	tpchanger "chg-disk:$T/$1/vtapes"
	tapetype "VTAPE"
	labelstr "^T8500-[0-9][0-9]*\$"
	autolabel "T8500-%%" empty volume_error
	autoflush yes
	infofile "$T/$1/state/curinfo"
	logdir "$T/$1/state/log"
	indexdir "$T/$1/state/index"
	tapelist "$T/$1/state/tapelist"
	define tapetype VTAPE {
		length 200 mbytes
	}
	holdingdisk hd {
		directory "$T/$1/holding"
		use 100 mbytes
		chunksize 10 mbytes
	}
	define dumptype t8500-base {
		program "DUMP"
		auth "local"
		index yes
		record yes
		estimate client
		strategy standard
		holdingdisk required
	}
	define dumptype t8500-fast {
		t8500-base
		compress client fast
	}
	define dumptype t8500-none {
		t8500-base
		compress none
	}
	EOF
	cat >"$CONFDIR/disklist" <<-EOF &&
	localhost $T/$1/mnt t8500-fast
	localhost $dev t8500-none
	EOF
	cat >"$CONFDIR/amanda-client.conf" <<-EOF &&
	conf "$CONF"
	index_server "localhost"
	tape_server "localhost"
	auth "local"
	EOF
	chown -R backup:backup "$CONFDIR"
}

# setup_round R DUMP RESTORE: a fresh file system on R/mnt, dumpdates
# empty, the configuration, DUMP and RESTORE at Amanda's paths.
setup_round() {
	mkdir "$1" && truncate -s 16M "$1/fs.img" && mkfs.ext4 -q -F "$1/fs.img" &&
	dev=$(image_attach "$1/fs.img") && image_mount "$dev" "$1/mnt" &&
	fill "$1/mnt" && sync && mf "$1/mnt" >"$1/mnt0.mf" &&
	stat -c "%n %u:%g %a" "$dev" >>"$SAVED/devs" &&
	chown root:disk "$dev" && chmod 660 "$dev" &&
	rm -f "$DD" && : >"$DD" && chown root:disk "$DD" && chmod 664 "$DD" &&
	test "$(stat -c "%U:%G %a" /var/lib)" = "root:root 755" &&
	amanda_config "$1" &&
	cp "$2" "$am_dump.t8500" && mv -f "$am_dump.t8500" "$am_dump" &&
	cp "$3" "$am_restore.t8500" && mv -f "$am_restore.t8500" "$am_restore" &&
	cmp "$2" "$am_dump" && cmp "$3" "$am_restore"
}

# run_amdump R LEVEL: amdump as backup; the run's time stamp in R/tsLEVEL;
# Amanda's find lists both entries at LEVEL from that run.
run_amdump() {
	amdump_once "$1" "$2" || return 1
	# Amanda 3.5.1's planner, cleaning the holding disk as it starts,
	# can remove the run's directory that the driver has just made
	# there (both start in the same instant); the driver then has no
	# holding space and fails every entry.  Only that is run again.
	if grep -q "no holdingdisk space available" "$1/state/log/log.$ts.0" &&
		grep -q "removed empty directory '$ts'" "$1/state/log/amdump.$ts"
	then
		echo "# amanda removed its own holding directory: amdump again" &&
		sleep 1 && amdump_once "$1" "$2" || return 1
	fi
	test "$am_rc" = 0 &&
	as_backup amadmin "$CONF" find >"$1/find$2" &&
	cat "$1/find$2" &&
	when=$(echo "$ts" | sed "s/\(....\)\(..\)\(..\)\(..\)\(..\)\(..\)/\1-\2-\3 \4:\5:\6/") &&
	test "$(grep -c "^$when localhost .* $2 $CONF $CONF .* OK *\$" "$1/find$2")" = 2
}

# amdump_once R LEVEL: one amdump; its status in $am_rc, its timestamp
# in R/tsLEVEL and $ts.
amdump_once() {
	as_backup amdump "$CONF"
	am_rc=$?
	ls "$1/state/log" | sed -n "s/^amdump\.\([0-9]\{14\}\)\$/\1/p" | sort | tail -n 1 >"$1/ts$2" &&
	ts=$(cat "$1/ts$2") && test -n "$ts"
}

# report R LEVEL: amreport of the run of that level as backup.
report() {
	as_backup amreport "$CONF" --log="$T/$1/state/log/log.$(cat "$1/ts$2").0" \
		--text="$T/$1/state/report$2" && cat "$1/state/report$2"
}

# fetch R DISK LEVEL: amfetchdump -p of that dump piped to restore -tvf -
# (statuses in R/fetch.rc, R/list.rc; listing in R/list).
fetch_list() {
	{ as_backup amfetchdump -p "$CONF" localhost "$2" "$(cat "$1/ts$3")" "$3" 2>"$1/fetch.err"
	  echo $? >"$1/fetch.rc"; } |
	{ as_root "$am_restore" -tvf - >"$1/list" 2>"$1/list.err"; echo $? >"$1/list.rc"; }
	cat "$1/fetch.err" "$1/list.err"
}

# recover R DIR CMDS: amrecover (as root: files of every owner) of $T/R/mnt
# into R/DIR with the amrecover commands CMDS between setdisk and extract.
recover() {
	mkdir "$1/$2" &&
	printf "sethost localhost\nsetdisk %s\nlcd %s\n%s\nextract\nY\nY\nY\nY\nY\nquit\n" \
		"$T/$1/mnt" "$T/$1/$2" "$3" |
	as_root amrecover -C "$CONF" -s localhost -t localhost >"$1/$2.out" 2>&1
	rc=$?
	cat "$1/$2.out"
	return $rc
}

# mf DIR [OPTIONS]: manifest without lost+found, sorted as sort(1) does.
mf() {
	mf_dir=$1 && shift && manifest "$mf_dir" --exclude=lost+found "$@" | sort
}

# extracted_into DIR...: a manifest on stdin with the mtimes of the
# directories DIR masked: the directory amrecover extracts into keeps the
# time of the extraction (it answers no to "set owner/mode for '.'").
# Every other directory has its archived attributes, also one that the
# level 0 made and the level 1 adds names to (0.4b47 leaves those with
# the time of the extraction).
extracted_into() {
	awk -v dirs=" $* " 'BEGIN { FS = OFS = "\t" }
		index(dirs, " " $1 " ") { sub(/mtime=[0-9.]+/, "mtime=EXTRACTION") } 1'
}

# expected_full R: the manifest a full amrecover of R/mnt gives: the live
# tree, but for what amrecover does not replay: d2/gone (removed before
# the level 1) is back (d2 itself has its level-1 attributes: restore -x
# sets them on a directory that exists already); old (renamed to
# "renamed") is back whole from level 0, and "renamed" is empty: its
# files, unchanged, are only in level 0, under the old name.
expected_full() {
	{ grep -v -e "^renamed/" "$1/mnt.mf" &&
	  grep -e "^d2/gone	" -e "^old	" -e "^old/" "$1/mnt0.mf"; } |
	sort | extracted_into .
}

# ---- our dump and restore --------------------------------------------------
test_expect_success $P 'ours: setup: ext4 with a varied tree, configuration, programs in place' '
	setup_round ours "$DUMP" "$RESTORE"
'

test_expect_success $P 'ours: amcheck finds no problem' '
	as_backup amcheck "$CONF" >ours/amcheck.out 2>&1; rc=$?
	cat ours/amcheck.out && test $rc = 0 &&
	grep "Client check: 1 host checked in .* 0 problems found" ours/amcheck.out
'

test_expect_success $P 'ours: amdump level 0 of both entries' '
	run_amdump ours 0
'

test_expect_success $P 'ours: amdump level 1 after changes' '
	pin_inplace ours &&
	change_tree ours/mnt &&
	sed -i "s/strategy standard/strategy incronly/" "$CONFDIR/amanda.conf" &&
	run_amdump ours 1 &&
	unpin_inplace ours
'

test_expect_success $P 'ours: amreport of both runs: no FAILED or STRANGE line' '
	report ours 0 && report ours 1 &&
	! grep -E "FAILED|STRANGE" ours/state/report0 ours/state/report1 &&
	grep "^localhost .*mnt  *0 " ours/state/report0 &&
	grep "^localhost .*mnt  *1 " ours/state/report1
'

test_expect_success $P 'ours: amcheckdump validates the last run' '
	as_backup amcheckdump "$CONF" >ours/checkdump 2>&1; rc=$?
	cat ours/checkdump && test $rc = 0 &&
	grep "All images (2) successfully validated" ours/checkdump
'

test_expect_success $P 'ours: amfetchdump | restore -tvf - of each dump' '
	for l in 0 1; do
		for d in "$dev" "$T/ours/mnt"; do
			fetch_list ours "$d" $l &&
			test "$(cat ours/fetch.rc) $(cat ours/list.rc)" = "0 0" &&
			grep "^leaf.*\./inplace\$" ours/list && grep "\./d1/big\$" ours/list ||
			return 1
		done
	done &&
	grep "\./renamed\$" ours/list && ! grep "\./old\$" ours/list
'

test_expect_success $P 'ours: the level 1 made as backup holds the bytes rewritten in place' '
	mkdir ours/x && as_backup amfetchdump -p "$CONF" localhost "$dev" "$(cat ours/ts1)" 1 >ours/l1 &&
	(cd ours/x && as_root "$am_restore" -xf - ./inplace <../l1) &&
	cmp ours/x/inplace ours/mnt/inplace && cmp ours/x/inplace ours/inplace.new
'

test_expect_success $P 'ours: partial amrecover: d1 and top as they are now' '
	recover ours partial "add d1
add top" &&
	grep "Load tape T8500-02 now" ours/partial.out &&
	mf ours/partial --no-root >ours/partial.mf &&
	(cd ours/mnt && mkdir -p ../want && cp -a d1 top ../want/) &&
	mf ours/want --no-root >ours/want.mf &&
	test_cmp ours/want.mf ours/partial.mf
'

test_expect_success $P 'ours: full amrecover: the live tree but for removals and renames' '
	recover ours full "add ." &&
	grep "Load tape T8500-02 now" ours/full.out &&
	mf ours/full | extracted_into . >ours/full.mf && mf ours/mnt >ours/mnt.mf &&
	expected_full ours >ours/expect.mf &&
	test_cmp ours/expect.mf ours/full.mf
'

# ---- dump 0.4b47 at the same paths ---------------------------------------
P=$P,ORACLE

test_expect_success $P '0.4b47: setup: the same tree, configuration, its programs in place' '
	setup_round ref "$ORACLE_DUMP" "$ORACLE_RESTORE"
'

test_expect_success $P '0.4b47: amcheck finds no problem' '
	as_backup amcheck "$CONF" >ref/amcheck.out 2>&1; rc=$?
	cat ref/amcheck.out && test $rc = 0 &&
	grep "Client check: 1 host checked in .* 0 problems found" ref/amcheck.out
'

test_expect_success $P '0.4b47: amdump level 0 and, after the same changes, level 1' '
	run_amdump ref 0 &&
	pin_inplace ref &&
	change_tree ref/mnt &&
	sed -i "s/strategy standard/strategy incronly/" "$CONFDIR/amanda.conf" &&
	run_amdump ref 1 &&
	unpin_inplace ref
'

test_expect_success $P '0.4b47: amreport of both runs: no FAILED or STRANGE line' '
	report ref 0 && report ref 1 &&
	! grep -E "FAILED|STRANGE" ref/state/report0 ref/state/report1
'

test_known_upstream_defect $P '0.4b47: amcheckdump fails: its restore opens /dev/tty' '
	as_backup amcheckdump "$CONF" >ref/checkdump 2>&1; rc=$?
	cat ref/checkdump && test $rc != 0 &&
	grep "/sbin/restore: cannot open /dev/tty" ref/checkdump &&
	grep "2 images failed to be correctly validated" ref/checkdump
'

test_known_upstream_defect $P '0.4b47: amfetchdump | restore -tvf - breaks the pipe' '
	fetch_list ref "$dev" 0 &&
	test "$(cat ref/fetch.rc)" != 0 && grep "Broken pipe" ref/fetch.err &&
	grep "cannot open /dev/tty" ref/list.err && grep "\./inplace\$" ref/list
'

# The device's page cache holds the old bytes (pin_inplace): 0.4b47's
# level 1 has those, not the live ones.
test_known_upstream_defect $P '0.4b47: the level 1 made as backup holds stale bytes' '
	mkdir ref/x && as_backup amfetchdump -p "$CONF" localhost "$dev" "$(cat ref/ts1)" 1 >ref/l1 &&
	(cd ref/x && as_root "$RESTORE" -xf - ./inplace <../l1) &&
	! cmp ref/x/inplace ref/mnt/inplace && cmp ref/x/inplace ref/inplace.old
'

test_known_upstream_defect $P '0.4b47: partial amrecover: restore cannot open /dev/tty, per tape' '
	recover ref partial "add d1
add top" &&
	grep "restore: cannot open /dev/tty" ref/partial.out &&
	test -f ref/partial/d1/added && cmp ref/partial/top ref/mnt/top
'

# The file rewritten in place does not come back as it is: its bytes
# are those of the stale level 1.
test_known_upstream_defect $P '0.4b47: full amrecover: /dev/tty questions, stale level 1' '
	recover ref full "add ." &&
	grep "restore: cannot open /dev/tty" ref/full.out &&
	grep "Load tape T8500-02 now" ref/full.out &&
	! cmp ref/full/inplace ref/mnt/inplace && cmp ref/full/inplace ref/inplace.old &&
	test -f ref/full/old/a
'

test_expect_success ROOT 'the machine is as before: programs, dumpdates, Amanda state' '
	test -z "$SAVED" ||
	{ restore_system && test -z "$SAVED" && ! test -e "$CONFDIR"; }
'

test_done
