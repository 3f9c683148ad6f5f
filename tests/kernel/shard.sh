#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-debian-61-shard-K (extended): shard K of Debian's whole 6.1 amd64
# configuration built through ccd+lkd alone (distro_shard in lib.sh).
# Every object of the shard is built, and ccd's check report vouches for
# each (same: the backend's own -c object by construction) or names the
# pass that changed it; none differs; lkd --lkd-verify is clean.  The
# shard's record line (what, how many, how long, at which version of ccd,
# asmfix, lkd and lib) goes to $KWORK/debian-61.record and to the log, for
# tests/kernel/distro/debian-6.1.record.
. "$(dirname "$0")/lib.sh"
k=${1:?usage: shard.sh K}
cfg=debian-61-shard-$k

need_build "$cfg" || fail "the $cfg build failed"
[ -s "$dir/shard.list" ] || fail "no objects in the shard"
total=$(wc -l <"$dir/all.list")
account "$dir/shard.list"
[ -f "$dir/by-directory.list" ] &&
	log "made with their directories (they cannot be made alone): $(tr '\n' ' ' <"$dir/by-directory.list")"

list=$KWORK/shard.$$.list
sed "s|^|$dir/obj/|" "$dir/shard.list" | while read -r f; do [ -f "$f" ] && echo "$f"; done >"$list"
if "$LKD" --lkd-verify @"$list" >"$list.out" 2>&1; then
	verified=clean
else
	head -n 20 "$list.out" | sed 's/^/  | /'
	bad "lkd --lkd-verify found problems"
	verified=FAILED
fi
rm -f "$list" "$list.out"

src=$KTEST_SRC/../..
trees=$(git -C "$src" rev-parse HEAD:ccd HEAD:asmfix HEAD:lkd HEAD:lib 2>/dev/null | cut -c1-12 | tr '\n' ' ')
dirty=$(git -C "$src" status --porcelain -- ccd asmfix lkd lib 2>/dev/null | head -1)
record="debian-61 shard $k/$DISTRO_SHARDS: $n of $total C objects, $built built, $same same, $repaired repaired, $((n - built)) not built, $other other; lkd --lkd-verify $verified; $(cat "$dir.seconds") s; $(date -u +%Y-%m-%d); commit $(git -C "$src" rev-parse --short HEAD 2>/dev/null), trees ccd asmfix lkd lib: ${trees% }${dirty:+ (modified)}"
log "record: $record"
touch "$KWORK/debian-61.record"
{ grep -v "^debian-61 shard $k/" "$KWORK/debian-61.record"; echo "$record"; } | sort -V >"$KWORK/debian-61.record.new" &&
	mv "$KWORK/debian-61.record.new" "$KWORK/debian-61.record"
finish
