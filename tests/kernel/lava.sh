#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-lava (extended: CCD_KTEST_EXTENDED=1, as root): kbench on a real
# LAVA lab.  Debian 12's lava-server and lava-dispatcher installed and
# started here (tests/lava/lab: PostgreSQL, the server, the scheduler, a
# worker with two qemu devices), kbench's jobs for the base build's x86_64
# kernel and the arm64-whole build's arm64 kernel written, served by
# `kbench lava serve`, submitted and fetched; under icount every sample of
# the fetched results equals `kbench run`'s of the same image, the two jobs
# ran at once on the two devices, and after `lab stop` nothing is left
# running.
. "$(dirname "$0")/lib.sh"
: "${KBENCH:?KBENCH must name the kbench binary}"
PY=/usr/bin/python3

[ "${CCD_KTEST_EXTENDED:-0}" = 1 ] ||
	skip "installs and starts LAVA (extended: CCD_KTEST_EXTENDED=1)"
[ "$(id -u)" = 0 ] || skip "LAVA's packages and services need root"
LAB=$KTEST_SRC/../lava/lab
need_build x86_64 || fail "the x86_64 build failed"
x86=$dir/obj/arch/x86/boot/bzImage
need_build arm64-whole || fail "the arm64-whole build failed"
arm64=$dir/obj/arch/arm64/boot/Image

W=$(mktemp -d "${TMPDIR:-/tmp}/kernel-lava.XXXXXX") || exit 1
# The lab's scheduler and server run as lavaserver and write into $W/state.
chmod 755 "$W"
serve_pid=
cleanup() {
	[ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null
	"$LAB" stop "$W/state" >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT
"$LAB" install >"$W/install.log" 2>&1 || { cat "$W/install.log"; fail "LAVA did not install"; }
url=$("$LAB" start "$W/state") || fail "the lab did not start"
id=$W/state/lavacli.yaml
log "lab at $url"

mkdir "$W/jobs"
"$KBENCH" lava serve --port=0 "$W/jobs" >"$W/serve.url" 2>"$W/serve.log" &
serve_pid=$!
for _ in $(seq 50); do [ -s "$W/serve.url" ] && break; sleep 0.2; done
files=$(cat "$W/serve.url")
[ -n "$files" ] || fail "kbench lava serve did not start: $(cat "$W/serve.log")"

# The same boots here and on the lab: a quick table of each kernel.
for k in x86:$x86 arm64:$arm64; do
	name=${k%%:*} image=${k#*:}
	"$KBENCH" run --quick "$image" -o "$W/$name-local.json" 2>"$W/$name-run.log" ||
		fail "kbench run $name: $(tail -5 "$W/$name-run.log")"
	"$KBENCH" lava job --quick "$image" -o "$W/jobs/$name.yaml" --url-base="$files" \
		2>"$W/$name-job.log" || fail "kbench lava job $name: $(cat "$W/$name-job.log")"
done
ids=$("$KBENCH" lava submit --identity="$id" "$W/jobs/x86.yaml" "$W/jobs/arm64.yaml" \
	2>"$W/submit.log") || fail "kbench lava submit: $(cat "$W/submit.log")"
set -- $ids
[ $# = 2 ] || fail "not two job ids: $ids"
jobs="x86:$1 arm64:$2"
for j in $jobs; do
	name=${j%%:*} job=${j#*:}
	"$KBENCH" lava fetch --identity="$id" --wait-timeout=1200 "$job" -o "$W/$name-lab.json" \
		2>"$W/$name-fetch.log" || fail "kbench lava fetch $name: $(cat "$W/$name-fetch.log")"
	grep -qF -- "$(sed -n 's/^ *token: //p' "$id")" "$W"/*.log "$W"/*.json &&
		fail "the token is in a log or result"
	$PY - "$W/$name-local.json" "$W/$name-lab.json" <<'EOF' || fail "$name: the lab's samples are not run's"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
rows = lambda r: {(x["name"], x["cpus"]): x["samples"] for x in r["benchmarks"]}
ra, rb = rows(a), rows(b)
assert ra == rb, [k for k in ra if ra[k] != rb.get(k)][:10]
assert b["machine"]["device_type"] == "qemu" and b["machine"]["worker"], b["machine"]
print("%d rows, every sample alike" % len(ra))
EOF
	log "$name: job $job: every sample is kbench run's"
done

# The two jobs ran at once, one on each device.
token=$(sed -n 's/^ *token: //p' "$id")
for j in $jobs; do
	curl -s -H "Authorization: Token $token" "$url/api/v0.2/jobs/${j#*:}/" >"$W/${j%%:*}-job.json"
done
$PY - "$W/x86-job.json" "$W/arm64-job.json" <<'EOF' || fail "the jobs did not run at once"
import json, sys
from datetime import datetime
a, b = (json.load(open(p)) for p in sys.argv[1:3])
t = lambda s: datetime.fromisoformat(s.rstrip("Z"))
assert a["actual_device"] != b["actual_device"], (a["actual_device"], b["actual_device"])
assert t(a["start_time"]) < t(b["end_time"]) and t(b["start_time"]) < t(a["end_time"])
EOF
log "the two jobs ran at once on two devices"

kill "$serve_pid"
serve_pid=
"$LAB" stop "$W/state" || fail "lab stop failed"
# The lab's QEMU runs on images below the dispatcher's directory.
left='lava-server|lava-worker|lava-run|gunicorn3|/var/lib/lava/dispatcher'
pgrep -f "$left" >/dev/null && fail "left running after lab stop: $(pgrep -af "$left")"
log "nothing left running"
pass "kbench on a real LAVA lab"
