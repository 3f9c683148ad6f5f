#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-setup: build every configuration the suite shares, once each (two at
# a time), and report the wall time of each build.  Runs first (highest priority); the
# other tests reuse its builds but still build what they need on their own.
. "$(dirname "$0")/lib.sh"

# Every configuration the suite shares (the longest first, see KCONFIGS_CI).
KCONFIGS=$KCONFIGS_CI
if [ "${CCD_KTEST_EXTENDED:-0}" = 1 ]; then
	for c in $KCONFIGS_ROTATING; do
		case " $KCONFIGS " in *" $c "*) ;; *) KCONFIGS="$KCONFIGS $c" ;; esac
	done
	KCONFIGS="$KCONFIGS $KCONFIGS_EXTENDED"
fi
log "CI's turn this run: $KCONFIGS_PICKED (of $KCONFIGS_ROTATION)"
rm -f "$KWORK"/*.failed
t0=$(date +%s)
# Two builds at a time (CCD_KTEST_PARALLEL): a build's serial stretches
# (configuring, unpacking, the links, compressing bzImage) leave a core idle
# that the other one fills.  The builds' own times then overlap.
slots=${CCD_KTEST_PARALLEL:-2}
for c in $KCONFIGS; do
	while [ "$(jobs -rp | wc -l)" -ge "$slots" ]; do
		wait -n
	done
	need_build "$c" >"$KWORK/$c.setup.out" 2>&1 &
done
wait
bad=
for c in $KCONFIGS; do
	cat "$KWORK/$c.setup.out"
	rm -f "$KWORK/$c.setup.out"
	[ -f "$KWORK/$c.ok" ] && [ ! -f "$KWORK/$c.failed" ] || bad="$bad $c"
done
for c in $KCONFIGS; do
	[ -f "$KWORK/$c.seconds" ] || continue
	extra=
	if [ -f "$KWORK/$c/gcc.seconds" ]; then
		extra=" (plain gcc $(cat "$KWORK/$c/gcc.seconds") s,"
		extra="$extra ccd+lkd $(cat "$KWORK/$c/obj/.ccd-build-seconds") s"
		[ -f "$KWORK/$c/relink.seconds" ] &&
			extra="$extra, of which relinked by lkd $(cat "$KWORK/$c/relink.seconds") s"
		[ -f "$KWORK/$c/gcc.dirs" ] && extra="$extra; plain gcc made $(cat "$KWORK/$c/gcc.dirs")"
		extra="$extra)"
	fi
	log "build time $c: $(cat "$KWORK/$c.seconds") s$extra"
done
log "setup took $(($(date +%s) - t0)) s"
[ -z "$bad" ] || fail "builds failed:$bad"
