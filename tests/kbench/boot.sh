#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbench boot tests: real kernels built from `kbench config` booted under
# QEMU (icount clock, so they hold on a loaded machine).
#   boot.sh CASE   (KBENCH=path/to/kbench; KBENCH_KERNEL_GCC=bzImage,
#                   KBENCH_KERNEL_CLANG=bzImage for 'backends'; KBENCH_ARCH:
#                   the machine, where the image cannot say, e.g. armel)
# determinism  two --quick runs of one kernel agree within 1 % on every row
# sensitivity  init_on_alloc=1 init_on_free=1 (the kernel zeroes every page
#              and slab object it allocates and frees) makes the rows that
#              allocate slower and leaves the memory controls and the null
#              system call where they are
# backends     the gcc and the clang kernel differ on several rows, not on
#              the controls
# faults       a garbage image, a panic, a tiny --timeout, no rows: a
#              message naming the kernel, exit 1, no result file
# workload     --workload and --post run in the guest, before and after
#              the benchmarks; a failing workload is a warning
# identity     two kernels with the same code, built with another host,
#              user, time and build number (KBENCH_KERNEL_TWIN: the
#              gcc kernel relinked so): compare marks no row significant
#              (the rows beyond 1 % are listed)
# identity_model  the same two kernels under --model=cycles: every row's
#              difference in cycles and in the model's instructions within
#              the built-in noise table's threshold for that row and metric
# model        --model=cycles (the cost model, kbench/model/): two boots give
#              identical cycles and events; every row's modelled
#              instructions per operation are its icount figure; cycles
#              follow from the events and the profile; the memory controls
#              miss where the profile's caches say they must
# programs     --program: rt-tests' hackbench and stress-ng's get stressor (Debian's,
#              dynamic, with their libraries) run in the guest as rows of the
#              group programs with values, cycles and events under
#              --model=cycles (instructions per run 90-100 % of icount's
#              time: idle costs time, no instructions); a program
#              that exits non-zero fails the run, named, with its output
# smp          a sweep at 1 and 2 CPUs (--cpus=1,2) of the smp rows: every
#              row at both counts, the guest saw 2 CPUs, and two fork_exit
#              copies at once take about twice the instructions per copy
#              (the icount clock counts both CPUs), so both CPUs ran; the
#              same sweep again gives every sample the same.  Without
#              KBENCH_SMP_QEMU kbench chooses the QEMU (x86_64: one of 8 or
#              later); the result names it as its --version does, and the
#              second sweep gets it by --qemu and names it too
# branches     --record-branches on the gcc kernel's quick run: the same run
#              twice gives the same record; it names the vmlinux's build ID;
#              its order names functions of the vmlinux, its autofdo text
#              has the three counts; a kernel without debug information
#              gives no sample profile (an error, no file)
# A case whose kernel is not given or not there is skipped (77).
set -u

: "${KBENCH:?KBENCH must name the kbench binary}"
export LC_ALL=C
SKIP=77

W=$(mktemp -d "${TMPDIR:-/tmp}/kbench-boot.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

. "$(dirname "$0")/../lib/check.sh"
need_kernel() {
	[ -n "${2:-}" ] && [ -f "$2" ] && return 0
	echo "SKIP: no kernel in $1 (a kbench-config bzImage)"
	exit $SKIP
}
# run NAME ARGS...: kbench run --quick into NAME.json, QEMU at lower priority
run() {
	local name=$1; shift
	nice -n 5 "$KBENCH" run --quick ${KBENCH_ARCH:+--arch="$KBENCH_ARCH"} -o "$name.json" "$@" \
		2>"$name.err" ||
		{ cat "$name.err" >&2; fail "kbench run $* failed"; }
}
# pct A B ROW: the compare table's percentage of ROW (B against A)
pct() {
	"$KBENCH" compare "$1.json" "$2.json" >table.txt || fail "compare $1 $2"
	awk -v r="$3" '$1 == r { v = $NF; sub(/%.*/, "", v); print v }' table.txt
}
# within LIMIT VALUE: |VALUE| <= LIMIT
within() { awk -v l="$1" -v v="$2" 'BEGIN { exit !(v <= l && v >= -l) }'; }
below() { awk -v l="$1" -v v="$2" 'BEGIN { exit !(v < l) }'; }
rows() { python3 -c 'import json,sys; print(" ".join(b["name"] for b in json.load(open(sys.argv[1]))["benchmarks"]))' "$1.json"; }

case_determinism() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	run one "$KBENCH_KERNEL_GCC"
	run two "$KBENCH_KERNEL_GCC"
	local r p bad=0
	[ "$(rows one | wc -w)" -ge 30 ] || fail "fewer than 30 rows: $(rows one)"
	"$KBENCH" compare one.json two.json
	for r in $(rows one); do
		p=$(pct one two "$r")
		within 1 "$p" || { echo "row $r: two boots differ by $p %" >&2; bad=1; }
	done
	[ $bad = 0 ] || fail "two boots of one kernel differ by more than 1 %"
}

case_smp() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	# The build row too (group smp), where Debian's tcc is installed
	# ($KBENCH_BUILD_CC: the compiler for another machine's guest, empty: none).
	local cc=${KBENCH_BUILD_CC-$(command -v tcc)}
	run sweep --cpus=1,2 --only=smp,null_call ${KBENCH_SMP_QEMU:+--qemu="$KBENCH_SMP_QEMU"} \
		${cc:+--build-cc="$cc"} "$KBENCH_KERNEL_GCC"
	# The QEMU that ran it, as it says itself; the progress line names it too.
	local qemu
	qemu=$(python3 - sweep.json "${KBENCH_SMP_QEMU:-}" <<'PY'
import json, shutil, subprocess, sys
q = json.load(open(sys.argv[1]))["qemu"]
said = subprocess.run([q["path"], "--version"], capture_output=True, text=True).stdout.split()
assert said[:3] == ["QEMU", "emulator", "version"] and q["version"] == said[3], (q, said)
if sys.argv[2]:
    assert q["path"] == shutil.which(sys.argv[2]), (q, sys.argv[2])
print(q["path"])
PY
	) || fail "the sweep's QEMU is not what it says"
	grep -q ", 2 CPUs) in $qemu (QEMU " sweep.err || { cat sweep.err >&2; fail "no QEMU on the progress line"; }
	echo "the sweep ran in $qemu"
	python3 - sweep.json <<'PY' || fail "the sweep's rows are not every smp row at 1 and 2 CPUs"
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
at = {(r["name"], r["cpus"]): r["median"] for r in rows}
smp = sorted({r["name"] for r in rows if r["group"] == "smp"})
assert len(smp) >= 10, smp
missing = [(n, c) for n in smp + ["null_call"] for c in (1, 2) if (n, c) not in at]
assert not missing, missing
assert all(v > 0 for v in at.values()), at
ratio = at[("par_fork_exit", 2)] / at[("par_fork_exit", 1)]
print("par_fork_exit at 2 CPUs / at 1: %.2f" % ratio)
assert 1.5 < ratio < 2.5, ratio
PY
	"$KBENCH" compare sweep.json sweep.json >cmp.txt || fail "compare of the sweep failed"
	grep -qi "scaling" cmp.txt || { cat cmp.txt >&2; fail "compare shows no scaling for a sweep"; }
	# The same sweep again, its QEMU named: every sample, at 1 and at 2 CPUs, as before.
	run again --cpus=1,2 --only=smp,null_call --qemu="$qemu" ${cc:+--build-cc="$cc"} \
		"$KBENCH_KERNEL_GCC"
	grep -q "\"qemu\": {\"path\": \"$qemu\"" again.json || fail "--qemu=$qemu not in the result"
	python3 - sweep.json again.json <<'PY' || fail "two sweeps of one kernel differ"
import json, sys
a, b = ({(r["name"], r["cpus"]): r["samples"] for r in json.load(open(f))["benchmarks"]}
        for f in sys.argv[1:])
assert a.keys() == b.keys(), (sorted(a), sorted(b))
diff = [(k, a[k], b[k]) for k in sorted(a) if a[k] != b[k]]
for d in diff:
    print("%s at %d CPUs: %s against %s" % (d[0][0], d[0][1], d[1], d[2]), file=sys.stderr)
assert not diff
PY
}

case_sensitivity() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	run plain "$KBENCH_KERNEL_GCC"
	run zeroing --append="init_on_alloc=1 init_on_free=1" "$KBENCH_KERNEL_GCC"
	"$KBENCH" compare plain.json zeroing.json
	local r p
	# Rows that allocate and free slab objects or pipe and socket buffers:
	# at least 5 % slower; fork, whose page tables are zeroed anyway, at
	# least 1 % (6.1 with SLOB: fork_exit -4.2 %, fork_exec -2.2 %).
	for r in stat open_close file_create_0k file_delete_0k pipe_bw unix_bw tcp_bw; do
		p=$(pct plain zeroing "$r")
		below -5 "$p" || fail "row $r: $p % with init_on_alloc/free, expected slower by 5 % or more"
	done
	for r in fork_exit fork_exec; do
		p=$(pct plain zeroing "$r")
		below -1 "$p" || fail "row $r: $p % with init_on_alloc/free, expected slower by 1 % or more"
	done
	# The controls and a system call that allocates nothing stay within 1 %.
	for r in mem_read_bw mem_write_bw mem_load_lat null_call sig_install; do
		p=$(pct plain zeroing "$r")
		within 1 "$p" || fail "row $r moved by $p % with init_on_alloc/free"
	done
}

case_backends() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	need_kernel KBENCH_KERNEL_CLANG "${KBENCH_KERNEL_CLANG:-}"
	run gcc "$KBENCH_KERNEL_GCC"
	run clang "$KBENCH_KERNEL_CLANG"
	"$KBENCH" compare -o chart.svg gcc.json clang.json || fail "compare"
	local r p moved=0
	for r in $(rows gcc); do
		p=$(pct gcc clang "$r")
		case $r in
		mem_*) within 1 "$p" || fail "control $r moved by $p % between compilers" ;;
		*) within 2 "$p" || moved=$((moved + 1)) ;;
		esac
	done
	[ $moved -ge 3 ] || fail "only $moved rows differ by more than 2 % between gcc and clang"
	grep -q clang clang.json || fail "the clang kernel's compiler string does not name clang"
}

case_faults() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	local t0 t1
	# Garbage where the kernel should be.
	head -c 1000000 /dev/urandom >garbage.bzImage
	nice -n 5 "$KBENCH" run --quick -o r.json garbage.bzImage 2>err.txt
	[ $? = 1 ] || { cat err.txt >&2; fail "garbage kernel: exit status not 1"; }
	grep -q "kernel garbage.bzImage" err.txt || { cat err.txt >&2; fail "message does not name the kernel"; }
	[ -e r.json ] && fail "garbage kernel: a result file was left"
	# A kernel that panics (no init to run): the panic line, exit 1, no result.
	nice -n 5 "$KBENCH" run --quick --append="rdinit=/nope init=/nope" -o r.json \
		"$KBENCH_KERNEL_GCC" 2>err.txt
	[ $? = 1 ] || { cat err.txt >&2; fail "panic: exit status not 1"; }
	grep -q "kernel $KBENCH_KERNEL_GCC panicked: Kernel panic - not syncing" err.txt ||
		{ cat err.txt >&2; fail "panic message"; }
	[ -e r.json ] && fail "panic: a result file was left"
	# A kernel that boots but runs out of time: killed, named, no result.
	t0=$(date +%s)
	# (a full table needs 20 s and more)
	nice -n 5 "$KBENCH" run --timeout=2 -o r.json "$KBENCH_KERNEL_GCC" 2>err.txt
	[ $? = 1 ] || { cat err.txt >&2; fail "timeout: exit status not 1"; }
	t1=$(date +%s)
	[ $((t1 - t0)) -le 20 ] || fail "--timeout=2 took $((t1 - t0)) s"
	grep -q "kernel $KBENCH_KERNEL_GCC: no end after 2 s, QEMU killed" err.txt ||
		{ cat err.txt >&2; fail "timeout message"; }
	[ -e r.json ] && fail "timeout: a result file was left"
	ls -A | grep -q '^\.r\.json\.' && fail "a temporary result file was left"
	# A benchmark that cannot run (here: one that does not exist, beside one
	# that does): KBENCH-FAIL, END fail, exit 1 naming it, no result.
	nice -n 5 "$KBENCH" run --quick --only=null_call,no_such_row -o r.json \
		"$KBENCH_KERNEL_GCC" 2>err.txt
	[ $? = 1 ] || { cat err.txt >&2; fail "no rows: exit status not 1"; }
	grep -q "kernel $KBENCH_KERNEL_GCC: 1 benchmark(s) failed:" err.txt &&
		grep -q "  no_such_row: no such benchmark or group" err.txt ||
		{ cat err.txt >&2; fail "failed-benchmark message"; }
	[ -e r.json ] && fail "no rows: a result file was left"
	return 0
}

case_workload() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	printf '#!/bin/sh\necho kbench-test-workload-ran\nexit 3\n' >work
	printf '#!/bin/sh\necho kbench-test-post-ran\n' >post
	chmod +x work post
	run w --only=null_call --workload=work --post=post --console=console.txt \
		"$KBENCH_KERNEL_GCC"
	grep -q "warning: the workload exited with status 3" w.err || { cat w.err >&2; fail "no warning"; }
	grep -q '"null_call"' w.json || fail "no null_call row"
	# In order: the workload, the rows, the post program, the end.
	grep -aE 'kbench-test-workload-ran|KBENCH-WORKLOAD|KBENCH-ROW|kbench-test-post-ran|KBENCH-END' \
		console.txt | sed 's/ .*//; s/\r$//' | tr '\n' ' ' >order.txt
	[ "$(cat order.txt)" = "kbench-test-workload-ran KBENCH-WORKLOAD KBENCH-ROW kbench-test-post-ran KBENCH-END " ] ||
		fail "wrong order: $(cat order.txt)"
	grep -aq 'KBENCH-WORKLOAD exit=3' console.txt || fail "workload status not reported"
}

case_identity() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	need_kernel KBENCH_KERNEL_TWIN "${KBENCH_KERNEL_TWIN:-}"
	# Whole rows, not --quick: a quick sample of some rows lasts less than a
	# tick, and whether one falls in it moves them by 2 %.
	local k
	for k in one:"$KBENCH_KERNEL_GCC" twin:"$KBENCH_KERNEL_TWIN"; do
		nice -n 5 "$KBENCH" run --runs=5 -o "${k%%:*}.json" "${k#*:}" 2>"${k%%:*}.err" ||
			{ cat "${k%%:*}.err" >&2; fail "kbench run ${k#*:} failed"; }
	done
	local v1 v2 r p bad=0
	v1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' one.json)
	v2=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' twin.json)
	[ "$v1" != "$v2" ] || fail "the two kernels have one identity: $v1"
	echo "one:  $v1"
	echo "twin: $v2"
	# The uniprocessor -Os kernel held every row within 1 %; the SMP -O2
	# one moves seven rows further (kbench/noise.json names them), so the
	# test is what a user reads: compare, with the built-in noise table,
	# marks no row significant between kernels of the same code.
	"$KBENCH" compare --json=cmp.json one.json twin.json
	for r in $(rows one); do
		p=$(pct one twin "$r")
		within 1 "$p" || echo "row $r: the twin differs by $p % (beyond 1 %)"
	done
	python3 - cmp.json <<'PY' || bad=1
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
sig = [r["name"] for r in rows if any(k["significant"] for k in r["against"])]
print("significant between the twins:", sig or "none")
sys.exit(1 if sig else 0)
PY
	[ $bad = 0 ] || fail "kernels with the same code differ significantly"
}

case_identity_model() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	need_kernel KBENCH_KERNEL_TWIN "${KBENCH_KERNEL_TWIN:-}"
	[ -n "${KBENCH_MODEL_PROFILE:-}" ] || { echo "SKIP: kbench built without the cost model"; exit $SKIP; }
	local k m bad=0
	for k in one:"$KBENCH_KERNEL_GCC" twin:"$KBENCH_KERNEL_TWIN"; do
		nice -n 5 "$KBENCH" run --model=cycles --runs=5 -o "${k%%:*}.json" "${k#*:}" \
			2>"${k%%:*}.err" || { cat "${k%%:*}.err" >&2; fail "kbench run ${k#*:} failed"; }
	done
	for m in cycles instructions; do
		"$KBENCH" compare --metric=$m --json=$m.json one.json twin.json ||
			fail "compare --metric=$m"
		python3 - $m.json <<'PY' || bad=1
import json, sys
c = json.load(open(sys.argv[1]))
assert c["noise"]["source"] == "built-in", c["noise"]
bad = [f'{r["name"]}: {r["against"][0]["percent"]:+.2f} % (noise {r["noise"]} %)'
       for r in c["rows"] if abs(r["against"][0]["percent"] or 0) > r["noise"]]
for b in bad:
    print(f"{c['metric']}: the twin differs beyond the noise table: {b}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	done
	[ $bad = 0 ] || fail "kernels with the same code differ beyond the noise table (above)"
}

case_model() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	[ -n "${KBENCH_MODEL_PROFILE:-}" ] || { echo "SKIP: kbench built without the cost model"; exit $SKIP; }
	run one --model=cycles "$KBENCH_KERNEL_GCC"
	run two --model=cycles "$KBENCH_KERNEL_GCC"
	python3 - one.json two.json "$KBENCH_MODEL_PROFILE" <<'PY' || fail "the cost model's figures (above)"
import json, re, sys
one, two = (json.load(open(f)) for f in sys.argv[1:3])
prof = {}
for line in open(sys.argv[3]):
    line = line.split('#')[0].strip()
    if '=' in line:
        k, v = (x.strip() for x in line.split('=', 1))
        prof[k] = v
num = lambda k: float(prof[k])
bad = []
assert one["model"] == prof["name"], (one["model"], prof["name"])
assert len(one["benchmarks"]) >= 30, "fewer than 30 rows"
for a, b in zip(one["benchmarks"], two["benchmarks"]):
    n = a["name"]
    # FTQ's figure is time lost, not a time per operation: no modelled figure.
    if n.startswith("ftq_") != ("events" not in a):
        bad.append(f"{n}: {'no' if 'events' not in a else 'a'} modelled figure")
    if "events" not in a:
        continue
    e = a["events"]
    if a["model_samples"] != b["model_samples"]:
        bad.append(f"{n}: two boots differ: {a['cycles']} and {b['cycles']} cycles")
    # The plugin counts what icount's clock counts: one ns per instruction.
    t = {"us": a["median"] * 1000, "ns": a["median"], "MB/s": 1e9 / a["median"]}[a["unit"]]
    if abs(e["instructions"] / t - 1) > 0.01:
        bad.append(f"{n}: {e['instructions']:.6g} instructions per op, icount says {t:.6g}")
    # Each sample's cycles: with the core's timing, no fewer than the
    # width allows; without it, the profile's sum of its events.
    ms = a["model_samples"]
    for i, cyc in enumerate(ms["cycles"]):
        x = {k: v[i] for k, v in ms.items()}
        if x["coherence_misses"]:
            bad.append(f"{n}: sample {i + 1}: coherence misses on one vCPU")
        if "width" in prof:
            if cyc < 0.99 * x["instructions"] / num("width"):
                bad.append(f"{n}: sample {i + 1}: {cyc:.6g} cycles for {x['instructions']:.6g} instructions")
            continue
        c = (x["instructions"] * num("cpi")
             + (x["l1i_misses"] + x["l1d_misses"]) * num("l2_latency")
             + x["l2_misses"] * (num("llc_latency") - num("l2_latency"))
             + x["llc_misses"] * (num("memory_latency") - num("llc_latency"))
             + x["coherence_misses"] * (num("coherence_latency") - num("llc_latency"))
             + x["branch_misses"] * num("branch_penalty"))
        if abs(c / cyc - 1) > 0.001:
            bad.append(f"{n}: sample {i + 1}: {cyc:.6g} cycles, the events make {c:.6g}")
size = lambda k: int(prof[k].split()[0][:-1]) << (10 if prof[k].split()[0][-1] == "K" else 20)
line = int(prof["l1d"].split()[2])
rows = {a["name"]: a["events"] for a in one["benchmarks"] if "events" in a}
# mem_read_bw streams 8 MB: every line of it misses L1d, and L2 when 8 MB
# is more than L2 holds; the LLC holds it.
r = rows["mem_read_bw"]
lines = (1 << 20) / line
if abs(r["l1d_misses"] / lines - 1) > 0.05:
    bad.append(f"mem_read_bw: {r['l1d_misses']:.6g} L1d misses per MB, not {lines:.6g}")
if size("l2") < 8 << 20 and abs(r["l2_misses"] / lines - 1) > 0.05:
    bad.append(f"mem_read_bw: {r['l2_misses']:.6g} L2 misses per MB, not {lines:.6g}")
if size("llc") > 8 << 20 and r["llc_misses"] > 0.01 * lines:
    bad.append(f"mem_read_bw: {r['llc_misses']:.6g} LLC misses per MB in an LLC that holds it")
# null_call: a system call's code and data stay in L1.
if rows["null_call"]["l1i_misses"] + rows["null_call"]["l1d_misses"] > 0.1:
    bad.append(f"null_call misses L1: {rows['null_call']}")
for m in bad:
    print(m)
sys.exit(1 if bad else 0)
PY
	"$KBENCH" compare one.json two.json >/dev/null || fail "compare cannot read model results"
	pass "model: identical twice, instructions as icount's, cycles from the events"
}

case_programs() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	[ -x /usr/bin/hackbench ] && [ -x /usr/bin/stress-ng ] ||
		fail "no hackbench or stress-ng (rt-tests, stress-ng: scripts/install-deps)"
	local progs=(--program='hb=hackbench -g 1 -f 5 -l 100'
		--program='get=stress-ng --get 1 --get-ops 200')
	run p --only=null_call "${progs[@]}" "$KBENCH_KERNEL_GCC"
	local model=
	if [ -n "${KBENCH_MODEL_PROFILE:-}" ]; then
		run m --only=programs --model=cycles "${progs[@]}" "$KBENCH_KERNEL_GCC"
		model=m.json
	fi
	python3 - p.json $model <<'PY' || fail "the program rows (above)"
import json, sys
bad = []
for path in sys.argv[1:]:
    rows = {b["name"]: b for b in json.load(open(path))["benchmarks"]}
    for n in "hb", "get":
        r = rows.get(n)
        if not r:
            bad.append(f"{path}: no row {n}")
            continue
        print(f"{path}: {n}: {r['samples']} us per run" +
              (f", {r['model_samples']['cycles']} cycles" if "cycles" in r else ""))
        # A run is at least a fork, an exec and the loader mapping libc: a
        # million instructions and more.
        if r["group"] != "programs" or r["unit"] != "us" or len(r["samples"]) != 3 or \
           min(r["samples"]) < 1000:
            bad.append(f"{path}: {n}: {r}")
        if path == sys.argv[1]:
            continue
        # Each run's modelled instructions are its icount time but for the
        # guest's idle (a program that sleeps: the clock skips ahead), which
        # costs no instruction: at most the time, and most of it.
        ms = r.get("model_samples", {})
        for i, t in enumerate(r["samples"]):
            ins = ms["instructions"][i] if ms else 0
            if not ms or not ms["cycles"][i] > 0 or not 0.9 <= ins / (t * 1000) <= 1.005:
                bad.append(f"{path}: {n}: sample {i + 1}: {ins} instructions, "
                           f"icount says {t * 1000:.0f}")
for m in bad:
    print(m)
sys.exit(1 if bad else 0)
PY
	"$KBENCH" compare p.json p.json >table.txt || fail "compare cannot read program rows"
	grep -q '^Programs' table.txt && grep -q '^hb ' table.txt || { cat table.txt >&2; fail "no program rows in the table"; }
	# A program that fails: exit 1, the row and its status named, its output after.
	nice -n 5 "$KBENCH" run --quick --runs=1 --only=programs -o r.json \
		--program='bad=stress-ng --no-such-option' "$KBENCH_KERNEL_GCC" 2>err.txt
	[ $? = 1 ] || { cat err.txt >&2; fail "a failing program: exit status not 1"; }
	grep -q "  bad: stress-ng: exit status" err.txt && grep -q '^    | .*no-such-option' err.txt ||
		{ cat err.txt >&2; fail "a failing program: no status or output"; }
	[ -e r.json ] && fail "a failing program: a result file was left"
	pass "programs: hackbench and stress-ng rows${model:+, with cycles}; a failure named with its output"
}

case_branches() {
	need_kernel KBENCH_KERNEL_GCC "${KBENCH_KERNEL_GCC:-}"
	local tree vmlinux id only=null_call,stat,fork_exit,pipe_lat
	tree=${KBENCH_KERNEL_GCC%/arch/*}
	vmlinux=$tree/vmlinux
	[ -f "$vmlinux" ] || { echo "SKIP: no vmlinux beside $KBENCH_KERNEL_GCC"; exit $SKIP; }
	run one --only=$only --record-branches=one.perf "$KBENCH_KERNEL_GCC"
	run two --only=$only --record-branches=two.perf "$KBENCH_KERNEL_GCC"
	cmp one.perf two.perf || fail "two boots of one kernel gave two records"
	id=$(readelf -n "$vmlinux" | awk '/Build ID/ { print $3 }')
	head -1 one.perf | grep -q "build-id=$id " || fail "the record names not $vmlinux's build ID $id"
	[ "$(wc -l <one.perf)" -gt 100 ] || fail "fewer than 100 samples: $(head -1 one.perf)"
	# A rep instruction's iterations and a block QEMU restarted are no branches:
	# no entry goes from an instruction to itself (compared as strings: mawk
	# reads 0x... as a number, and two kernel addresses as doubles are equal).
	[ "$(grep -v '^#' one.perf | tr ' ' '\n' | awk -F/ 'NF > 2 && $1 "" == $2 ""' | wc -l)" = 0 ] ||
		fail "branches from an instruction to itself in the record"
	# Kernel addresses only: no user address in a record of the rows.
	grep -v '^#' one.perf | tr ' /' '\n\n' | grep '^0x' | grep -v '^0x0$' |
		grep -qv '^0xffff' && fail "a user address in the record"
	"$KBENCH" profile --record=one.perf --vmlinux="$vmlinux" --format=order --min-samples=100 \
		-o order.txt ||
		fail "no order from the record"
	nm "$vmlinux" | awk '{ print $3 }' | sort -u >names.txt
	[ -z "$(sort -u order.txt | comm -23 - names.txt)" ] ||
		fail "the order names functions the vmlinux has not"
	nice -n 5 "$KBENCH" run --quick --only=$only --record-branches=a.txt --record-format=autofdo \
		-o a.json "$KBENCH_KERNEL_GCC" 2>err.txt || { cat err.txt >&2; fail "autofdo's record"; }
	[ "$(grep -c '^[0-9]*$' a.txt)" = 3 ] || fail "autofdo's text has not its three counts"
	if ! readelf -S "$vmlinux" | grep -q debug_info; then
		"$KBENCH" profile --record=one.perf --vmlinux="$vmlinux" --format=llvm --min-samples=100 \
			-o p.prof 2>err.txt && fail "a sample profile of a kernel without debug information"
		grep -q "CONFIG_DEBUG_INFO" err.txt || { cat err.txt >&2; fail "the error does not say why"; }
		[ -e p.prof ] && fail "a profile was left"
	fi
	return 0
}

case_$1
finish
