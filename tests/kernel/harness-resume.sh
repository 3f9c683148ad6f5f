#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The shared builds' harness (lib.sh's need_build) on a build stopped part
# way by SIGINT to its process group, as a session's end stops an hours-long
# one: a build of KRESUMABLE goes on in the same tree the next time (make
# builds only what is left) and its time counts both parts; any other build
# starts over; a finished build is reused.  Real make, real signals; a
# two-target Makefile stands for the kernel.
if [ "${1:-}" = --child ]; then
	. "$(dirname "$0")/lib.sh"
	KRESUMABLE="${KRESUMABLE:-} resume-probe"
	# shellcheck disable=SC2154 # dir: need_build's
	recipe_resume_probe() { make -s -C "$dir" -f "$PROBE_MK"; }
	recipe_resume_other() { make -s -C "$dir" -f "$PROBE_MK"; }
	need_build "$2"
	exit
fi
. "$(dirname "$0")/../lib/check.sh"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
export CCD_KTEST_WORK=$tmp/work PROBE_MK=$tmp/Makefile PROBE_GO=$tmp/go
# a takes two seconds, b waits for $PROBE_GO: the first run is stopped in
# b.  What was made is written beside the build's directory, which a build
# started over removes.
printf '%s\n' 'made = ../$(notdir $(CURDIR)).made' 'all: b' 'a:' \
	'	sleep 2; echo a >>$(made); touch a' 'b: a' \
	'	echo b started; touch b.started; while [ ! -f "$(PROBE_GO)" ]; do sleep 0.1; done' \
	'	echo b >>$(made); touch b' >"$PROBE_MK"
me=$(cd "$(dirname "$0")" && pwd)/${0##*/}

# interrupted NAME: a run of NAME, stopped by SIGINT once b has started.
interrupted() {
	local pid
	rm -f "$PROBE_GO"
	set -m	# its own process group, SIGINT not ignored
	"$me" --child "$1" >"$tmp/$1.1" 2>&1 &
	pid=$!
	set +m
	for _ in $(seq 100); do
		[ -f "$CCD_KTEST_WORK/$1/b.started" ] && break
		sleep 0.1
	done
	kill -INT -- -"$pid"
	wait "$pid" && bad "$1: the interrupted run exited 0"
	[ -f "$CCD_KTEST_WORK/$1/a" ] && [ ! -f "$CCD_KTEST_WORK/$1/b" ] ||
		fail "$1: the first run did not stop in b (its output: $(cat "$tmp/$1.1"))"
	[ ! -e "$CCD_KTEST_WORK/$1.failed" ] || bad "$1: an interrupted build is marked failed"
	touch "$PROBE_GO"
	"$me" --child "$1" >"$tmp/$1.2" 2>&1 || fail "$1: the second run failed: $(cat "$tmp/$1.2")"
}

interrupted resume-probe
w=$CCD_KTEST_WORK/resume-probe
grep -q 'resuming build resume-probe, interrupted after [2-9] s' "$tmp/resume-probe.2" &&
	pass "the second run resumed the interrupted build" ||
	bad "the second run did not resume: $(cat "$tmp/resume-probe.2")"
[ "$(tr '\n' ' ' <"$w.made")" = "a b " ] && pass "make built only b the second time" ||
	bad "made: $(tr '\n' ' ' <"$w.made"), expected a once, then b"
[ -f "$w.ok" ] && [ ! -e "$w.partial" ] && [ "$(cat "$w.seconds")" -ge 2 ] &&
	pass "stamped built, in $(cat "$w.seconds") s counting the first part" ||
	bad "after resuming: .ok, no .partial and at least 2 s expected: $(ls "$CCD_KTEST_WORK")"
"$me" --child resume-probe >"$tmp/resume-probe.3" 2>&1 &&
	grep -q 'reusing build resume-probe' "$tmp/resume-probe.3" &&
	pass "a third run reuses it" || bad "a third run: $(cat "$tmp/resume-probe.3")"

interrupted resume-other
grep -q 'building resume-other' "$tmp/resume-other.2" &&
	! grep -q resuming "$tmp/resume-other.2" &&
	pass "a build not in KRESUMABLE starts over" ||
	bad "resume-other's second run: $(cat "$tmp/resume-other.2")"
finish
