#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbench lava without a lab (suite 'kbench'): the jobs `kbench lava job`
# writes, checked by LAVA's own schema (Debian's lava-common) and against
# the QEMU command line `kbench run` gives a stand-in QEMU; its refusals;
# `kbench lava fetch` on job logs recorded from a real LAVA 2023.01,
# replayed by a stand-in of the lab's REST API (the real lab: the extended
# test kernel-lava, tests/kernel/lava.sh).
#   lava-test.sh CASE   (KBENCH=path/to/kbench, FIXTURES=tests/kbench/fixtures)
set -u
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x $PY ] && $PY -c 'import lava_common.schemas, yaml' 2>/dev/null ||
	skip "Debian's python3 with lava-common (scripts/install-deps installs it)"

# fakeqemu: a QEMU that logs its arguments (boots.txt) and plays a guest.
fakeqemu() {
	cat >fakeqemu <<EOF
#!/bin/sh
printf '%s\n' "\$@" >$W/boots.txt
printf '%s\n' "KBENCH-BEGIN v=1 runs=3 ns_per_insn=1 cpus=1" \\
	"KBENCH-ROW null_call us proc 1,1,1" "KBENCH-END ok rows=1"
exit 33
EOF
	chmod +x fakeqemu
}

# The job's QEMU arguments as the dispatcher makes them: extra_options
# joined and split again as a shell would, then -kernel and -initrd.
job_args() {
	$PY - "$1" <<'EOF'
import shlex, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
for a in shlex.split(" ".join(job["context"]["extra_options"])):
    print(a)
EOF
}

# group: an option and its values one line
group() { awk '/^-/ && NR > 1 { print line; line = $0; next } { line = line == "" ? $0 : line " " $0 } END { print line }'; }

# What the lab's QEMU gets of kbench's, against what kbench run gives its
# own: the same options but the binary, the display, memory (the job's
# context says it), the kernel and initramfs (downloaded: other paths).
case_job() {
	bzimage bz
	fakeqemu
	expect 0 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox --quick --runs=2 \
		--only=null_call,pipe_bw --append=foo=1 -o r.json bz
	mkdir lab
	expect 0 "$KBENCH" lava job --busybox=nobox --quick --runs=2 --only=null_call,pipe_bw \
		--append=foo=1 bz -o lab/x.yaml --url-base=http://lab.example:8000/files/
	has err.txt "lab/x.yaml: job for $W/bz on qemu"
	for f in x.yaml x.kernel x.cpio; do [ -s lab/$f ] || fail "no lab/$f"; done
	cmp -s bz lab/x.kernel || fail "lab/x.kernel is not the image"
	# The archive is kbench run's own (the guest, its files).
	cpio -it <lab/x.cpio 2>/dev/null | grep -qx init || fail "lab/x.cpio has no /init"
	# LAVA's schema says yes (as lava-server would on submission).
	$PY -c 'import sys, yaml; from lava_common.schemas import validate; validate(yaml.safe_load(open(sys.argv[1])), strict=True)' \
		lab/x.yaml || fail "LAVA's schema refuses lab/x.yaml"
	# Each option with its value a line, sorted: QEMU takes them in any order.
	job_args lab/x.yaml | group | sort >job.txt
	awk '
		skip { skip = 0; next }
		$0 == "-display" || $0 == "-m" || $0 == "-kernel" || $0 == "-initrd" { skip = 1; next }
		{ print }' boots.txt | group | sort >run.txt
	# -display none: the device type's -nographic.
	grep -qx -- '-nodefaults' run.txt || fail "no -nodefaults in run's: $(cat run.txt)"
	diff run.txt job.txt >d.txt || { cat d.txt; fail "the job's QEMU options are not run's"; }
	grep -q -- '^-append console=ttyS0 .* kbench_runs=2 kbench_quick=1 kbench_only=null_call,pipe_bw foo=1$' job.txt ||
		fail "the kernel's command line: $(cat job.txt)"
	has lab/x.yaml 'url: "http://lab.example:8000/files/x.kernel"'
	has lab/x.yaml 'url: "http://lab.example:8000/files/x.cpio"'
	has lab/x.yaml 'memory: 128'
	has lab/x.yaml 'no_kvm: true'
	has lab/x.yaml "kbench.kernel: \"$W/bz\""
	has lab/x.yaml 'kbench.runs: "2"'
	pass "a job LAVA's schema takes, with kbench run's QEMU options"
	# A board: its own deploy and boot, kbench's arguments on its command line.
	expect 0 "$KBENCH" lava job --busybox=nobox --quick bz -o board.yaml --url-base=file:///srv/ \
		--device-type=x86-board --boot=grub --tags=fast,big --priority=low --name="my run"
	$PY -c 'import sys, yaml; from lava_common.schemas import validate; validate(yaml.safe_load(open(sys.argv[1])), strict=True)' \
		board.yaml || fail "LAVA's schema refuses board.yaml"
	has board.yaml 'to: tftp'
	has board.yaml 'method: grub'
	has board.yaml 'kbench.clock: "board"'
	has board.yaml 'extra_kernel_args: "panic=-1 norandmaps nolapic_timer kbench_runs=3 kbench_quick=1"'
	has board.yaml '- "fast"'
	has board.yaml 'job_name: "my run"'
	grep -q 'console=' board.yaml && fail "kbench's console= on a board"
	pass "a board's job"
	finish
}

case_job_errors() {
	bzimage bz
	expect 2 "$KBENCH" lava job bz --url-base=http://x/
	has err.txt "no -o JOB.yaml"
	expect 2 "$KBENCH" lava job bz -o j.yaml
	has err.txt "no --url-base=URL"
	expect 2 "$KBENCH" lava job bz -o j.yaml --url-base=/srv
	has err.txt "--url-base takes a URL"
	for o in --model=cycles --record-branches=r.txt --gcov-out=g --console=c.txt --qemu=q; do
		expect 2 "$KBENCH" lava job bz "$o" -o j.yaml --url-base=http://x/
		has err.txt "is not for a lab's boot"
	done
	expect 2 "$KBENCH" lava job bz --cpus=1,2 -o j.yaml --url-base=http://x/
	has err.txt "one --cpus count a job"
	expect 2 "$KBENCH" lava job bz --boot=grub -o j.yaml --url-base=http://x/
	has err.txt "--boot is for a board"
	expect 2 "$KBENCH" lava job bz --device-type=board -o j.yaml --url-base=http://x/
	has err.txt "needs --boot=u-boot or grub"
	expect 2 "$KBENCH" lava job --busybox=nobox bz --append='a="b c"' -o j.yaml --url-base=http://x/
	has err.txt "does not pass through the lab's command line"
	expect 2 "$KBENCH" lava job --busybox=nobox --arch=mips64el bz -o j.yaml --url-base=http://x/
	has err.txt "cannot start mips64el's QEMU"
	# LAVA's schema refuses a name over 200 characters: nothing is left, not
	# even an older job of that name.
	: >j.yaml
	: >j.kernel
	expect 3 "$KBENCH" lava job --busybox=nobox bz -o j.yaml --url-base=http://x/ \
		--name="$(head -c 201 /dev/zero | tr '\0' n)"
	has err.txt "j.yaml: LAVA's schema refuses the job: job_name"
	ls j.* 2>/dev/null && fail "files left after a refused job: $(ls j.*)"
	expect 3 "$KBENCH" lava job --busybox=nobox nothere -o j.yaml --url-base=http://x/
	ls j.* 2>/dev/null && fail "files left after a missing kernel: $(ls j.*)"
	expect 2 "$KBENCH" lava
	expect 2 "$KBENCH" lava nothing
	has err.txt "lava: unknown command 'nothing'"
	expect 0 "$KBENCH" lava job --help
	has out.txt "kbench lava job"
	pass "lava job's refusals"
	finish
}

# replay DIR: a stand-in of the lab's REST API answering from DIR's
# recorded replies (jobs/ID.json, jobs/ID.log, devices/NAME.json), each
# request's Authorization header kept in auth.txt; its port in port.txt;
# id.yaml an identity for it.
replay() {
	$PY - "$1" <<'EOF' >port.txt 2>replay.err &
import http.server, os, sys
root = sys.argv[1]
class Lab(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open("auth.txt", "a") as f:
            f.write("%s %s\n" % (self.path, self.headers.get("Authorization")))
        p = self.path.strip("/").split("/")
        name = None
        if p[:3] == ["api", "v0.2", "jobs"] and len(p) == 4:
            name = "jobs/%s.json" % p[3]
        elif p[:3] == ["api", "v0.2", "jobs"] and len(p) == 5 and p[4] == "logs":
            name = "jobs/%s.log" % p[3]
        elif p[:3] == ["api", "v0.2", "devices"] and len(p) == 4:
            name = "devices/%s.json" % p[3]
        path = os.path.join(root, name) if name else None
        if not path or not os.path.exists(path):
            self.send_response(404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"detail": "Not found."}')
            return
        body = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
srv = http.server.HTTPServer(("127.0.0.1", 0), Lab)
print(srv.server_address[1], flush=True)
srv.serve_forever()
EOF
	replay_pid=$!
	local _
	for _ in $(seq 100); do [ -s port.txt ] && break; sleep 0.1; done
	[ -s port.txt ] || fail "the stand-in lab did not start: $(cat replay.err)"
	printf 'default:\n  uri: http://127.0.0.1:%s/RPC2\n  username: kbench\n  token: %s\n' \
		"$(cat port.txt)" "$TOKEN" >id.yaml
	chmod 600 id.yaml
}
TOKEN=kb-T0ken-n0t-t0-be-5een-4f1
replay_pid=
trap '[ -z "$replay_pid" ] || kill $replay_pid 2>/dev/null; rm -rf "$W"' EXIT

# no_token: nothing kbench printed or wrote names the token
no_token() {
	! grep -rqF -- "$TOKEN" out.txt err.txt ./*.json 2>/dev/null || fail "the token was printed"
}

case_fetch() {
	replay "$FIXTURES/lava"
	expect 0 "$KBENCH" lava fetch --identity=id.yaml 6 -o r.json
	no_token
	has err.txt "job 6: 43 benchmarks from qemu-01 (qemu) on worker lab-worker"
	grep -q "^/api/v0.2/jobs/6/ Token $TOKEN\$" auth.txt || fail "no token sent: $(cat auth.txt)"
	# The guest's console as LAVA logged it: every row, every sample, and
	# the rest of a result file (the same kernel booted by kbench run gave
	# these very samples: kernel-lava, tests/kernel/lava.sh, checks that on a lab).
	$PY - r.json "$FIXTURES/lava/jobs/6.log" <<'EOF' || fail "the rows are not the log's"
import json, re, sys, yaml
r = json.load(open(sys.argv[1]))
rows = {}
for rec in yaml.safe_load(open(sys.argv[2])):
    m = re.match(r"KBENCH-ROW (\S+) (\S+) (\S+) (\S+)$", str(rec.get("msg")))
    if rec["lvl"] in ("target", "feedback") and m:
        rows[m.group(1)] = (m.group(2), m.group(3), [float(x) for x in m.group(4).split(",")])
got = {b["name"]: (b["unit"], b["group"], b["samples"]) for b in r["benchmarks"]}
assert got == rows, (len(got), len(rows))
assert len(rows) == 43
assert r["clock"] == "icount" and r["runs"] == 3 and r["quick"] is True
assert r["kernel"] == "/work/kern/b61/gcc/arch/x86/boot/bzImage"
assert r["machine"]["device_type"] == "qemu" and r["machine"]["device"] == "qemu-01"
assert r["machine"]["worker"] == "lab-worker" and r["machine"]["job"] == "6"
assert r["version"].startswith("Linux version 6.1.192")
assert all(b["cpus"] == 1 for b in r["benchmarks"])
EOF
	# LAVA logs the console it reads after the test action as feedback.
	expect 0 "$KBENCH" lava fetch --identity=id.yaml 65 -o r65.json
	# kbench compare takes it beside a local result.
	expect 0 "$KBENCH" compare r.json r.json
	pass "a job's log into a result file"
	# A job whose guest panicked, one whose files were not there, one not
	# kbench's, a log cut short, a log that is not LAVA's, a job still
	# running: an error naming the job, no result, an older one removed.
	for c in "9 1 job 9: kernel /work/kern/b61/gcc/arch/x86/boot/bzImage panicked before the guest started: Kernel panic - not syncing: Requested init /nothere failed" \
		"8 3 job 8: LAVA ended it Incomplete before the kernel said anything: Job error: Invalid job data: [\"Resource unavailable at 'http://127.0.0.1:18090/gone/gone.kernel' (400)\"" \
		"2 3 job 2 is not a kbench job" \
		"61 1 job 61: its log ends before the guest's end line (after benchmark mem_read_bw): a truncated log or a guest that died" \
		"62 3 job 62: its log is not LAVA's: line 1 is not a record" \
		"63 3 job 63 has not finished: Running" \
		"64 3 job 64: GET http://127.0.0.1:"; do
		set -- $c
		echo old >r.json
		expect "$2" "$KBENCH" lava fetch --no-wait --identity=id.yaml "$1" -o r.json
		has err.txt "${c#* * }"
		[ -e r.json ] && fail "job $1: an older result left"
		no_token
	done
	# Two jobs of one kernel are one result; of two CPU counts each, a sweep.
	expect 3 "$KBENCH" lava fetch --identity=id.yaml 6 6 -o r.json
	has err.txt "job 6: its CPU count (1) is another job's already"
	pass "fetch's refusals"
	# The identity: others may not read it; the lab must know the token.
	chmod 644 id.yaml
	expect 3 "$KBENCH" lava fetch --identity=id.yaml 6 -o r.json
	has err.txt "readable by others"
	no_token
	expect 2 "$KBENCH" lava fetch --identity=id.yaml x6 -o r.json
	has err.txt "'x6' is not a job id"
	expect 2 "$KBENCH" lava fetch --identity=id.yaml
	has err.txt "no job id"
	pass "fetch's usage"
	finish
}

# backends and pgo --lava: every measurement a job a CPU count, submitted,
# fetched into the result compare reads; the trainings stay here.
case_sweep() {
	printf 'default:\n  uri: https://lab.example/RPC2\n  token: %s\n' "$TOKEN" >id.yaml
	chmod 600 id.yaml
	expect 0 "$KBENCH" backends --dry-run --source=linux --cc=gcc --cc=clang --out=o \
		--lava=https://lab.example/ --lava-identity=id.yaml --cpus=1,2 --quick
	no_token
	for cc in gcc clang; do
		for n in 1 2; do
			has out.txt "kbench lava job --quick --cpus=$n -o $W/o/lava/$cc-${n}cpu.yaml --url-base http://127.0.0.1:PORT/ $W/o/$cc/arch/x86/boot/bzImage"
			has out.txt "kbench lava submit $W/o/lava/$cc-${n}cpu.yaml"
		done
		has out.txt "kbench lava fetch -o $W/o/$cc.json JOBID..."
	done
	# Every kernel is submitted before the waiting; compare comes last.
	tail -1 out.txt | grep -q "^kbench compare $W/o/gcc.json $W/o/clang.json\$" ||
		fail "compare is not last: $(tail -3 out.txt)"
	[ "$(grep -n 'lava fetch' out.txt | head -1 | cut -d: -f1)" -gt \
	  "$(grep -n 'lava submit' out.txt | tail -1 | cut -d: -f1)" ] || fail "a fetch before the last submit"
	expect 0 "$KBENCH" backends --dry-run --source=linux --cc=gcc --cc=clang --out=o \
		--lava=https://lab.example/ --lava-identity=id.yaml --lava-files=https://files.example/k/
	has out.txt "--url-base https://files.example/k/"
	# pgo: the trainings here, the two measurements on the lab.
	expect 0 "$KBENCH" pgo --dry-run --source=linux --out=p --lava=https://lab.example/ \
		--lava-identity=id.yaml
	has out.txt "kbench lava job --cpus=1 -o $W/p/lava/plain-1cpu.yaml"
	has out.txt "kbench lava job --cpus=1 -o $W/p/lava/pgo-1cpu.yaml"
	grep -q '^kbench run .*--gcov-out' out.txt || fail "the training is not here: $(cat out.txt)"
	pass "backends and pgo on a lab (dry runs)"
	expect 2 "$KBENCH" backends --dry-run --source=linux --cc=gcc --cc=clang \
		--lava=https://other.example/ --lava-identity=id.yaml
	has err.txt "--lava=https://other.example/: the identity 'default' is for https://lab.example/RPC2"
	expect 2 "$KBENCH" backends --dry-run --source=linux --cc=gcc --cc=clang --model=cycles \
		--lava=https://lab.example/ --lava-identity=id.yaml
	has err.txt "--lava measures in the lab's QEMU"
	no_token
	pass "--lava's refusals"
	finish
}

case_${1:?which case}
