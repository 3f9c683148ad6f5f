#!/bin/bash
# distcc.sh CCD: ccd with distcc, against a distccd this test starts on
# 127.0.0.1 (random port).  The server's whitelist is a DISTCC_CMDLIST
# file, so nothing on the machine changes.
#  (a) CCD_CC="distcc gcc": ccd hands the -S step to distcc (it appears in
#      distccd's log), asmfix and as stay local; objects and dep files equal
#      a local ccd build.
#  (b) make CC="distcc ccd", ccd whitelisted on the server: every compile
#      appears in the log as a ccd job; objects and dep files equal a local
#      ccd build.
# distcc is told never to fall back to local compiles, so a job that does
# not reach the server fails the build instead of hiding.
# The oracle is make CC="distcc gcc": a compile of distcc's preprocessed
# text gets other DWARF line/column entries on lines with macros than a
# compile of the source (plain gcc too), so distributed objects are
# compared with distributed gcc objects, not with local ones.
set -u
. "$(dirname "$0")/lib.sh"
ccd_built=$(realpath "${1:?usage: distcc.sh CCD}")
need_exe "$ccd_built"
need distcc distccd gcc make cpio python3

T=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	keep_or_remove "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
isolate "$T"
export CCD_CC=gcc

# distccd started by root drops to the distccd user.
server_workdir "$T" "$ccd_built"
export PATH=$T/bin:$PATH

triplet=$(gcc -dumpmachine)
{
	echo "$(command -v gcc)"
	# distcc names the compiler by its full triplet name on the wire.
	command -v "$triplet-gcc"
	echo "$ccd"
} > "$T/cmdlist"

# distccd on a port free a moment ago; another test may take it before
# distccd binds (distccd then exits), so try three ports.
for try in 1 2 3; do
	port=$(free_port)
	DISTCC_CMDLIST=$T/cmdlist distccd --no-detach --daemon --allow 127.0.0.1 \
		--listen 127.0.0.1 --port "$port" --jobs 2 --log-stderr --log-level info \
		2>"$T/distccd.log" &
	pid=$!
	for _ in $(seq 200); do
		grep -q 'listening on' "$T/distccd.log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	grep -q 'listening on' "$T/distccd.log" && break
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ "$try" = 3 ] && { cat "$T/distccd.log" >&2; fail "distccd did not start on three ports"; }
done

mkdir "$T/distcc"
export DISTCC_DIR=$T/distcc DISTCC_HOSTS=127.0.0.1:$port/2
export DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_BACKOFF_PERIOD=0

n=24
"$eco_dir/gen-corpus.sh" "$T/w" "$n"
cd "$T/w"
build() { make -s clean && make -s -j2 "$@" >"$T/make.out" 2>&1 || { cat "$T/make.out" >&2; return 1; }; }
# count_since LINE PATTERN: matching log lines after line LINE.  distccd
# logs a job after the client has its object: give it a moment to catch up.
count_since() {
	local c
	for _ in $(seq 30); do
		c=$(tail -n +"$(($1 + 1))" "$T/distccd.log" | grep -c -- "$2")
		[ "$c" -ge "$n" ] && break
		sleep 0.1
	done
	echo "$c"
}

build CC="$ccd" || fail "local ccd build failed"
[ "$(grep -c COMPILE_OK "$T/distccd.log")" -eq 0 ] || bad "local build reached distccd"
build CC="distcc gcc" || fail "make CC='distcc gcc' failed: distcc/distccd setup broken"
ok=$(count_since 0 "COMPILE_OK.*$triplet-gcc ")
[ "$ok" -eq "$n" ] || fail "make CC='distcc gcc': $ok of $n jobs served by distccd"
snapshot . "$T/ref"

# (a) distcc as ccd's backend prefix: the -S compiles travel.
before=$(wc -l < "$T/distccd.log")
if CCD_CC="distcc gcc" build CC="$ccd"; then
	ok=$(count_since "$before" "COMPILE_OK.*$triplet-gcc ")
	s=$(count_since "$before" 'compile from .* to .*\.s$')
	[ "$ok" -eq "$n" ] && [ "$s" -eq "$n" ] && pass "CCD_CC='distcc gcc': $n -S jobs served by distccd" ||
		bad "CCD_CC='distcc gcc': $ok COMPILE_OK, $s '-> .s' jobs in the log, expected $n"
	snapshot . "$T/a"
	same_tree "$T/ref" "$T/a" "CCD_CC='distcc gcc' objects == distcc gcc"
else
	bad "make CC=ccd with CCD_CC='distcc gcc' failed"
fi

# (b) distcc in front of ccd: ccd preprocesses locally, compiles remotely.
before=$(wc -l < "$T/distccd.log")
if build CC="distcc ccd"; then
	ok=$(count_since "$before" "COMPILE_OK.* $ccd ")
	[ "$ok" -eq "$n" ] && pass "make CC='distcc ccd': $n ccd jobs served by distccd" ||
		bad "make CC='distcc ccd': $ok ccd jobs in the log, expected $n"
	snapshot . "$T/b"
	same_tree "$T/ref" "$T/b" "CC='distcc ccd' objects == distcc gcc"
else
	bad "make CC='distcc ccd' failed"
fi
grep -E 'ERROR|CRITICAL|WARNING|Warning' "$T/distccd.log" | head -n5 >&2
sleep 0.5	# distccd removes its job files after logging the job
left=$(find "$T/tmp" -mindepth 1 | head -n5)
[ -z "$left" ] && pass "no temp files left in TMPDIR" || bad "temp files left: $left"

finish
