#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-setup: build every configuration the suite shares, once each, and
# report the wall time of each build.  Runs first (highest priority); the
# other tests reuse its builds but still build what they need on their own.
. "$(dirname "$0")/lib.sh"

rm -f "$KWORK"/*.failed
t0=$(date +%s)
bad=
for c in x86_64 x86_64-keep x86_64-clang i386; do
	need_build "$c" || bad="$bad $c"
done
for c in x86_64 x86_64-keep x86_64-clang i386; do
	[ -f "$KWORK/$c.seconds" ] || continue
	extra=
	if [ -f "$KWORK/$c/gcc.seconds" ]; then
		extra=" (plain gcc $(cat "$KWORK/$c/gcc.seconds") s,"
		extra="$extra ccd+lkd $(cat "$KWORK/$c/obj/.ccd-build-seconds") s)"
	fi
	log "build time $c: $(cat "$KWORK/$c.seconds") s$extra"
done
log "setup took $(($(date +%s) - t0)) s"
[ -z "$bad" ] || fail "builds failed:$bad"
