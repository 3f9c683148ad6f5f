#!/bin/bash
# icecc.sh CCD: ccd with the icecream distributed compiler (icecc 1.4), in
# a private icecream network on loopback that this test starts: a
# scheduler, a "local" daemon that compiles nothing itself (--no-remote)
# and a "remote" one.  The client talks to the local daemon through
# ICECC_TEST_SOCKET (not the machine's fixed socket, so nothing on the
# machine is touched), ICECC_TEST_REMOTEBUILD=1 makes it send jobs away
# even on one machine, and ICECC_PREFERRED_HOST names the remote daemon.
#  (a) CCD_CC="icecc gcc": ccd hands the -S step to icecream (the remote
#      daemon's log shows a job per file), asmfix and as stay local; the
#      objects and dependency files equal those of make CC="icecc gcc".
#  (b) make CC="icecc ccd": icecream does not know ccd as a compiler and
#      runs every compile locally (what doc/ecosystem.md warns about).
# The oracle is make CC="icecc gcc", also distributed: icecream compiles
# gcc -fdirectives-only text, whose DWARF differs from a local compile's
# on lines with macros, as distcc's does.
set -u
. "$(dirname "$0")/lib.sh"
ccd_built=$(realpath "${1:?usage: icecc.sh CCD}")
need_exe "$ccd_built"
need icecc iceccd icecc-scheduler icecc-create-env gcc make cpio python3

T=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null
	done
	keep_or_remove "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
isolate "$T"
export CCD_CC=gcc

# Daemons started by root run as the icecc user: the test's directory,
# sockets, logs and environments must be theirs to write.
server_workdir "$T" "$ccd_built"
mkdir -m 777 "$T/ice"
if [ "$(id -u)" = 0 ]; then
	id icecc >/dev/null 2>&1 || skip "run as root, iceccd wants the icecc user (Debian's icecc package makes it)"
	chown icecc: "$T/ice"
fi

# start NAME CMD...: a daemon in its own process group, stopped at exit.
start() {
	local name=$1
	shift
	setsid "$@" </dev/null >"$T/ice/$name.out" 2>&1 &
	pids+=($!)
}
# alive PID: the daemon started as PID still runs.
alive() { kill -0 "$1" 2>/dev/null; }
# network: a scheduler and both daemons on ports free a moment ago, all
# logged in.  Another test may take a port between free_port and the
# daemon's bind (the daemon then exits: "Address already in use"), so a
# network whose daemons died or did not log in is stopped and made again
# on other ports.
network() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	pids=()
	rm -rf "$T/ice/"*
	sport=$(free_port)
	export ICECC_TEST_SCHEDULER_PORTS=$sport:$(free_port)
	start sched icecc-scheduler -n "$net" -p "$sport" -l "$T/ice/sched.log" -vvv
	for _ in $(seq 50); do
		grep -qs 'scheduler ready' "$T/ice/sched.log" && break
		alive "${pids[0]}" || return 1
		sleep 0.2
	done
	ICECC_TEST_SOCKET=$T/ice/socket-local start local iceccd -n "$net" -N localice \
		-s "127.0.0.1:$sport" -p "$(free_port)" -b "$T/ice/envs-local" -l "$T/ice/local.log" \
		-m 2 --no-remote -vvv
	ICECC_TEST_SOCKET=$T/ice/socket-remote start remote iceccd -n "$net" -N remoteice \
		-s "127.0.0.1:$sport" -p "$(free_port)" -b "$T/ice/envs-remote" -l "$T/ice/remote.log" \
		-m 2 -vvv
	# Both daemons log in to the scheduler (they retry every 3 s).
	for _ in $(seq 300); do
		[ "$(cat "$T/ice/local.log" "$T/ice/remote.log" 2>/dev/null |
			grep -c 'Connected to scheduler')" -ge 2 ] && return 0
		for p in "${pids[@]}"; do
			alive "$p" || return 1
		done
		sleep 0.2
	done
	return 1
}
net=ccdtest$$
for try in 1 2 3; do
	network && break
	[ "$try" = 3 ] || continue
	for f in sched local remote; do
		echo "--- $f (log, then output):" >&2
		tail -n 5 "$T/ice/$f.log" "$T/ice/$f.out" >&2 2>/dev/null
	done
	fail "the daemons did not log in to the scheduler, three networks tried"
done
pass "private icecream network: scheduler on 127.0.0.1:$sport, daemons localice and remoteice"

export ICECC_TEST_SOCKET=$T/ice/socket-local ICECC_TEST_REMOTEBUILD=1 ICECC_PREFERRED_HOST=remoteice
n=12
"$eco_dir/gen-corpus.sh" "$T/w" "$n"
cd "$T/w"
build() { make -s clean && make -s -j2 "$@" >"$T/make.out" 2>&1 || { cat "$T/make.out" >&2; return 1; }; }
# jobs_since LINE: remote compiles the remote daemon logged after line LINE.
jobs_since() {
	local c
	for _ in $(seq 30); do
		c=$(tail -n +"$(($1 + 1))" "$T/ice/remote.log" | grep -c 'Remote compilation completed with exit code 0')
		[ "$c" -ge "$n" ] && break
		sleep 0.1
	done
	echo "$c"
}
lines() { wc -l < "$T/ice/remote.log"; }

before=$(lines)
build CC="icecc gcc" || fail "make CC='icecc gcc' failed: the icecream setup is broken"
ok=$(jobs_since "$before")
[ "$ok" -eq "$n" ] || fail "make CC='icecc gcc': $ok of $n compiles ran on remoteice"
snapshot . "$T/ref"

# (a) icecream as ccd's backend prefix: the -S compiles travel.
before=$(lines)
if CCD_CC="icecc gcc" build CC="$ccd"; then
	ok=$(jobs_since "$before")
	tail -n +"$((before + 1))" "$T/ice/remote.log" | grep -c 'remote compile arguments: .* -S' > "$T/s"
	[ "$ok" -eq "$n" ] && [ "$(cat "$T/s")" -eq "$n" ] &&
		pass "CCD_CC='icecc gcc': $n -S compiles ran on remoteice" ||
		bad "CCD_CC='icecc gcc': $ok remote compiles, $(cat "$T/s") with -S, expected $n"
	snapshot . "$T/a"
	same_tree "$T/ref" "$T/a" "CCD_CC='icecc gcc' objects == icecc gcc"
else
	bad "make CC=ccd with CCD_CC='icecc gcc' failed"
fi

# An object in the current directory (icecc 1.4 aborts on an empty
# argument, such as the -dumpdir '' ccd once gave gcc for one).
printf 'int top(int x) { return x * 3; }\n' > top.c
before=$(lines)
icecc gcc -O2 -c -o top-ref.o top.c || bad "icecc gcc on top.c"
CCD_CC="icecc gcc" "$ccd" -O2 -c -o top.o top.c 2>"$T/top.err" ||
	bad "ccd with icecc, object in the current directory: $(cat "$T/top.err")"
cmp -s top.o top-ref.o || bad "top.o: not icecc gcc's object"
n=2 ok=$(jobs_since "$before")
[ "$ok" -eq 2 ] || bad "top.c: $ok of 2 compiles ran on remoteice"

# (b) icecc in front of ccd: icecream runs what it does not know locally.
before=$(lines)
if build CC="icecc $ccd"; then
	ok=$(jobs_since "$before")
	[ "$ok" -eq 0 ] && pass "make CC='icecc ccd': every compile ran locally, none on remoteice" ||
		bad "make CC='icecc ccd': $ok compiles ran on remoteice"
else
	bad "make CC='icecc ccd' failed"
fi
left=$(find "$T/tmp" -mindepth 1 | head -n5)
[ -z "$left" ] && pass "no temp files left in TMPDIR" || bad "temp files left: $left"

finish
