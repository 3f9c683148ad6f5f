#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-ccache: a whole Linux 6.1 build with make CC="ccache ccd" LD=lkd
# (x86_64-ccache: cold into an empty cache, make clean, warm): at least
# 99 % of the warm build's compiles hit, none miss beyond that, and the
# warm vmlinux is byte-identical to the cold one.
. "$(dirname "$0")/lib.sh"

need_build x86_64-ccache || fail "the x86_64-ccache build failed (log $KWORK/x86_64-ccache.log)"
stat() {	# file counter
	awk -v k="$2" '$1 == k { print $2 }' "$1"
}
hits=$(( $(stat "$dir/warm.stats" direct_cache_hit) + $(stat "$dir/warm.stats" preprocessed_cache_hit) ))
misses=$(stat "$dir/warm.stats" cache_miss)
cold_misses=$(stat "$dir/cold.stats" cache_miss)
log "cold: $(cat "$dir/cold.seconds") s, $cold_misses misses; warm: $(cat "$dir/warm.seconds") s, $hits hits, $misses misses"
[ "$cold_misses" -ge 300 ] || fail "the cold build compiled only $cold_misses files through ccache"
[ $((hits * 100)) -ge $(((hits + misses) * 99)) ] || fail "warm hit rate below 99 %: $hits hits, $misses misses"
cmp -s "$dir/vmlinux.cold" "$dir/vmlinux.warm" || fail "the warm vmlinux differs from the cold one"
