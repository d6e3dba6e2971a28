#!/bin/sh
test_description='helpers/tapetool edits archives the way the t9 tests rely on

The hostile-input tests trust tapetool to change exactly what they ask:
a renamed entry keeps every other entry readable (dump 0.4b47 restore
lists them all), set fixes the checksum unless -n, truncate and insert
produce the requested sizes, and list walks an archive header by header.'
. "$(dirname "$0")/lib.sh"
. "$HELPERS/hostile.sh"

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'setup: dump a tree with a multi-chunk directory' '
	mkdir -p src/many &&
	for i in $(seq 1 60)
	do
		echo $i >src/many/entry-with-a-longish-name-$i || return 1
	done &&
	echo a >src/short &&
	mke2fs -q -F -t ext4 -b 1024 -O ^metadata_csum -d src fs.img 8M &&
	dev=$(image_attach fs.img) &&
	"$ORACLE_DUMP" -0 -f base.dump "$dev" 2>dump.err &&
	"$ORACLE_RESTORE" -tf base.dump 2>/dev/null | sed "s/^ *[0-9]*	//" |
		sort >names.base &&
	test "$(grep -c entry-with names.base)" = 60
'

# names ARCHIVE: the sorted names 0.4b47 lists.
names() {
	"$ORACLE_RESTORE" -tf "$1" </dev/null 2>/dev/null |
	sed "s/^ *[0-9]*	//" | sort
}

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'rename to a longer name repacks the directory' '
	long=$(printf "L%.0s" $(seq 1 200)) &&
	"$TAPETOOL" rename base.dump grow.dump entry-with-a-longish-name-7 "$long" &&
	names grow.dump >names.grow &&
	sed "s|^./many/entry-with-a-longish-name-7\$|./many/$long|" names.base |
		sort >names.expect &&
	test_cmp names.expect names.grow
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'a directory that outgrows its blocks gets more' '
	long=$(printf "M%.0s" $(seq 1 250)) &&
	"$TAPETOOL" rename grow.dump grow2.dump entry-with-a-longish-name-8 "${long}8" &&
	"$TAPETOOL" rename grow2.dump grow3.dump entry-with-a-longish-name-9 "${long}9" &&
	test $(wc -c <grow3.dump) -gt $(wc -c <base.dump) &&
	! "$TAPETOOL" list grow3.dump | grep NOTHEADER &&
	names grow3.dump >names.grow3 &&
	grep -c "^./many/" names.grow3 >count && test "$(cat count)" = 60 &&
	mkdir r3 && (cd r3 && "$ORACLE_RESTORE" -r -y -T .. -f ../grow3.dump </dev/null) &&
	test "$(cat "r3/many/${long}9")" = 9 && test "$(cat r3/short)" = a
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'rename to a shorter name keeps the others' '
	"$TAPETOOL" rename base.dump shrink.dump entry-with-a-longish-name-60 x &&
	names shrink.dump >names.shrink &&
	sed "s|^./many/entry-with-a-longish-name-60\$|./many/x|" names.base |
		sort >names.expect &&
	test_cmp names.expect names.shrink
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'rename takes escapes and an empty name' '
	"$TAPETOOL" rename base.dump nul.dump short "a\\0b" &&
	"$TAPETOOL" ents nul.dump | grep " 3 a\\\\x00b\$" &&
	"$TAPETOOL" rename base.dump empty.dump short "" &&
	"$TAPETOOL" ents empty.dump | awk "\$6 == 0" | grep . &&
	test_must_fail "$TAPETOOL" rename base.dump no.dump no-such-name y
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'set keeps the header valid unless -n' '
	blk=$(hostile_hdr TS_INODE $(hostile_ino short)) &&
	"$TAPETOOL" set base.dump ok.dump "$blk" di_uid 4242 &&
	"$TAPETOOL" list ok.dump | awk -v b="$blk" "\$1 == b" | grep TS_INODE &&
	"$TAPETOOL" set -n base.dump bad.dump "$blk" di_uid 4242 &&
	"$TAPETOOL" list bad.dump | awk -v b="$blk" "\$1 == b" | grep NOTHEADER &&
	mkdir r && (cd r && "$ORACLE_RESTORE" -r -y -T .. -f ../bad.dump </dev/null) 2>r.err;
	grep "Checksum error" r.err
'

test_expect_success ROOT,LOOP,ORACLE,TAPETOOL 'truncate, insert, garble and poke sizes' '
	"$TAPETOOL" truncate base.dump t1.dump 5+100 &&
	test "$(wc -c <t1.dump)" = $((5 * 1024 + 100)) &&
	"$TAPETOOL" insert base.dump i.dump 3 4 &&
	test "$(wc -c <i.dump)" = $(($(wc -c <base.dump) + 4096)) &&
	"$TAPETOOL" garble base.dump g.dump 0 &&
	test "$(wc -c <g.dump)" = "$(wc -c <base.dump)" &&
	"$TAPETOOL" list g.dump | sed -n 2p | grep NOTHEADER &&
	"$TAPETOOL" poke base.dump p.dump 24 00000000 &&
	"$TAPETOOL" list p.dump | sed -n 2p | grep NOTHEADER &&
	test_must_fail "$TAPETOOL" truncate base.dump t2.dump 999999
'

test_done
