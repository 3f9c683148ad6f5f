#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbench's sweeps of CPU counts without QEMU (suite 'kbench'): --cpus's
# usage errors, `kbench run --cpus=1,2,4` against a stand-in QEMU (its
# -smp, a boot per count, the merged result, a guest that saw fewer CPUs),
# compare's table, JSON and chart on sweep fixtures, and the QEMU run
# chooses for a CPU count (stand-ins; the real ones where installed, which
# get no further with the stand-in image than their loader).
#   sweep-test.sh CASE   (KBENCH=path/to/kbench, FIXTURES=tests/kbench/fixtures)
set -u
. "$(dirname "$0")/lib.sh"
# line PATTERN: the one table line matching the extended regex
line() { grep -E "$1" out.txt || { cat out.txt >&2; fail "no line /$1/ in the table"; }; }

# fakeqemu SEEN: a QEMU that logs its arguments (a line per boot in
# boots.txt) and plays a guest that saw SEEN CPUs ("asked": -smp's, 1
# without it; "none": an older guest that does not say).  null_call's
# samples are the CPUs asked, so the rows tell the boots apart.
fakeqemu() {
	cat >fakeqemu <<EOF
#!/bin/sh
# --version: FAKE_QEMU_VERSION's, or none (it fails, as not every QEMU-like says one)
if [ "\$1" = --version ]; then
	[ -n "\${FAKE_QEMU_VERSION:-}" ] || exit 1
	echo "QEMU emulator version \$FAKE_QEMU_VERSION (Debian)"
	exit 0
fi
n=1 prev=
for a; do [ "\$prev" = -smp ] && n=\${a%%,*}; prev=\$a; done
echo "\$*" >>$W/boots.txt
sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status >>$W/allowed.txt
awk '{ print \$41 }' /proc/\$\$/stat >>$W/policy.txt
case $1 in asked) cpus=" cpus=\$n" ;; none) cpus= ;; *) cpus=" cpus=$1" ;; esac
printf '%s\n' "KBENCH-BEGIN v=1 runs=3 ns_per_insn=1\$cpus" \\
	"KBENCH-KERNEL Linux version 6.1.0 (kb@ccd-suite) (gcc (GCC) 12.2.0, GNU ld 2.40) #1 SMP" \\
	"KBENCH-ROW null_call us proc \$n,\$n,\$n" "KBENCH-ROW pipe_bw MB/s ipc-bw 100,100,100" \\
	"KBENCH-END ok rows=2"
exit 33
EOF
	chmod +x fakeqemu
	rm -f boots.txt allowed.txt policy.txt
}

# Whether this host lets kbench run QEMU SCHED_FIFO (root or RLIMIT_RTPRIO,
# real-time tasks bounded): then boots of several CPUs run so.
fifo_host() {
	[ "$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null)" != -1 ] && chrt -f 1 true 2>/dev/null
}

case_usage() {
	bzimage bz
	local v
	for v in 0 65 x 1,,2 2, ,2 1,2x -1 +2 " 2" 2,2; do
		expect 2 "$KBENCH" run --cpus="$v" -o r.json bz
		case $v in
		2,2) has err.txt "--cpus names 2 twice in '2,2'" ;;
		*) has err.txt "--cpus takes CPU counts from 1 to 64 (N or N,M,...), not '$v'" ;;
		esac
		has err.txt "Try 'kbench --help'"
	done
	expect 2 "$KBENCH" run --cpus=1,2 --gcov-out=prof -o r.json bz
	has err.txt "--gcov-out takes the profiles of one boot"
	# Boards that boot one CPU: a usage error naming the machine, QEMU never started.
	{ head -c 36 /dev/zero; printf '\x18\x28\x6f\x01'; head -c 64 /dev/zero; } >zImage
	mkdir dts && : >dts/versatile-pb.dtb
	fakeqemu asked
	expect 2 "$KBENCH" run --arch=armel --qemu="$W/fakeqemu" --busybox=nobox --cpus=1,2 -o r.json zImage
	has err.txt "--cpus=2: armel kernels boot on one CPU only (the Versatile/PB board has one ARM926 and no SMP)"
	expect 2 "$KBENCH" run --arch=mipsel --qemu="$W/fakeqemu" --busybox=nobox --cpus=4 -o r.json bz
	has err.txt "--cpus=4: mipsel kernels boot on one CPU only"
	[ -e boots.txt ] && fail "QEMU started for a board without SMP"
	[ -e r.json ] && fail "a result file was left"
	expect 0 "$KBENCH" --help
	has out.txt "--cpus=N[,N...]"
	return 0
}

case_run() {
	bzimage bz
	mkdir tmp
	fakeqemu asked
	TMPDIR=$W/tmp expect 0 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox --cpus=1,2,4 \
		--console=con.txt -o r.json bz
	has err.txt "(clock icount, 9 runs, 1 CPU)"
	has err.txt "(clock icount, 9 runs, 4 CPUs)"
	[ "$(wc -l <boots.txt)" = 3 ] || fail "not three boots: $(cat boots.txt)"
	sed -n 1p boots.txt | grep -q -- '-smp' && fail "-smp on the 1-CPU boot: $(sed -n 1p boots.txt)"
	# x86: a CPU per socket, or the MP table lists only the first.
	sed -n 2p boots.txt | grep -q -- ' -smp 2,sockets=2 ' || fail "no -smp 2: $(sed -n 2p boots.txt)"
	sed -n 3p boots.txt | grep -q -- ' -smp 4,sockets=4 .* -icount shift=0,sleep=off ' ||
		fail "no -smp 4 under icount: $(sed -n 3p boots.txt)"
	# Several x86 CPUs under icount: the TSC trusted, or the clock is jiffies'.
	sed -n 1p boots.txt | grep -q 'tsc=reliable' && fail "tsc=reliable on one CPU: $(sed -n 1p boots.txt)"
	sed -n 3p boots.txt | grep -q ' nolapic_timer tsc=reliable ' ||
		fail "no tsc=reliable with 4 CPUs: $(sed -n 3p boots.txt)"
	# Under icount the same random bytes on every boot, and QEMU on one
	# host CPU (its main loop beside the CPUs' thread moves the guest's
	# round-robin): two boots of one image with several CPUs agree.
	[ "$(grep -c -- ' -icount shift=0,sleep=off .* -seed 1' boots.txt)" = 3 ] ||
		fail "a boot without -seed under icount: $(cat boots.txt)"
	[ "$(grep -c -E '^[0-9]+$' allowed.txt)" = 3 ] ||
		fail "QEMU not kept on one host CPU: $(cat allowed.txt)"
	# With several CPUs, SCHED_FIFO (1) where the host allows it: QEMU's
	# main loop then cannot preempt the CPUs' thread mid-slice.  Never for
	# one CPU, nor with KBENCH_NO_FIFO.
	if fifo_host; then
		[ "$(tr '\n' ' ' <policy.txt)" = "0 1 1 " ] ||
			fail "QEMU's policies for 1, 2, 4 CPUs: $(tr '\n' ' ' <policy.txt), not 0 1 1"
	else
		[ "$(tr '\n' ' ' <policy.txt)" = "0 0 0 " ] || fail "SCHED_FIFO where the host refuses it"
	fi
	rm -f policy.txt
	KBENCH_NO_FIFO=1 TMPDIR=$W/tmp expect 0 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox \
		--cpus=2 -o r2.json bz
	[ "$(cat policy.txt)" = 0 ] || fail "KBENCH_NO_FIFO: QEMU ran SCHED_FIFO"
	rm -f r2.json
	# QEMU 7.2's icount never runs an x86 guest's second CPU: said before any boot.
	rm -f boots.txt
	FAKE_QEMU_VERSION=7.2.19 TMPDIR=$W/tmp expect 3 "$KBENCH" run --qemu="$W/fakeqemu" \
		--busybox=nobox --cpus=1,2 -o q.json bz
	has err.txt "--cpus=2: x86_64 guests of more than 1 CPU do not boot under the icount clock of QEMU 7"
	[ ! -e boots.txt ] && [ ! -e q.json ] || fail "QEMU 7 booted, or a result was written"
	# Nor a riscv64 guest's init, with several CPUs.
	FAKE_QEMU_VERSION=7.2.19 TMPDIR=$W/tmp expect 3 "$KBENCH" run --arch=riscv64 \
		--qemu="$W/fakeqemu" --busybox=nobox --cpus=4 -o q.json bz
	has err.txt "--cpus=4: riscv64 guests of more than 1 CPU stop at their init under the icount clock of QEMU 7"
	[ ! -e boots.txt ] && [ ! -e q.json ] || fail "QEMU 7 booted riscv64, or a result was written"
	FAKE_QEMU_VERSION=7.2.19 TMPDIR=$W/tmp expect 0 "$KBENCH" run --qemu="$W/fakeqemu" \
		--busybox=nobox -o q.json bz
	# armhf's 2 CPUs run under QEMU 7.2, its 4 print nothing.
	FAKE_QEMU_VERSION=7.2.19 TMPDIR=$W/tmp expect 3 "$KBENCH" run --arch=armhf \
		--qemu="$W/fakeqemu" --busybox=nobox --cpus=2,4 -o q.json bz
	has err.txt "--cpus=4: armhf guests of more than 2 CPUs print nothing under the icount clock of QEMU 7"
	FAKE_QEMU_VERSION=7.2.19 TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=armhf \
		--qemu="$W/fakeqemu" --busybox=nobox --cpus=2 -o q.json bz
	# ppc64el's and riscv64's boots repeat above 2 CPUs only under SCHED_FIFO: said, and run.
	KBENCH_NO_FIFO=1 FAKE_QEMU_VERSION=10.0.2 TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=ppc64el \
		--qemu="$W/fakeqemu" --busybox=nobox --cpus=1,4 -o q.json bz
	has err.txt "warning: --cpus=4: two boots of one ppc64el image can differ above 2 CPUs under icount unless QEMU runs SCHED_FIFO"
	if fifo_host; then
		FAKE_QEMU_VERSION=10.0.2 TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=ppc64el \
			--qemu="$W/fakeqemu" --busybox=nobox --cpus=1,4 -o q.json bz
		grep -q "differ above" err.txt && fail "warned of ppc64el under SCHED_FIFO: $(cat err.txt)"
	fi
	FAKE_QEMU_VERSION=10.0.2 TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=riscv64 \
		--qemu="$W/fakeqemu" --busybox=nobox --cpus=2 -o q.json bz
	grep -q "differ above" err.txt && fail "warned of 2 CPUs: $(cat err.txt)"
	# s390x's repeat at several CPUs under QEMU 10, not 7.2.
	FAKE_QEMU_VERSION=7.2.19 TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=s390x \
		--qemu="$W/fakeqemu" --busybox=nobox --cpus=2 -o q.json bz
	has err.txt "warning: --cpus=2: two boots of one s390x image differ above 1 CPU under QEMU 7's icount"
	FAKE_QEMU_VERSION=10.0.2 TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=s390x \
		--qemu="$W/fakeqemu" --busybox=nobox --cpus=2 -o q.json bz
	grep -q "differ above" err.txt && fail "warned of s390x under QEMU 10: $(cat err.txt)"
	FAKE_QEMU_VERSION=10.0.2 TMPDIR=$W/tmp expect 0 "$KBENCH" run --qemu="$W/fakeqemu" \
		--busybox=nobox --cpus=2 -o q.json bz
	# A QEMU that is not there: said once, by the boot.
	TMPDIR=$W/tmp expect 3 "$KBENCH" run --qemu="$W/no-qemu" --busybox=nobox --cpus=2 -o q.json bz
	[ "$(grep -c "cannot run" err.txt)" = 1 ] || fail "a missing QEMU not said once: $(cat err.txt)"
	[ "$(grep -c KBENCH-BEGIN con.txt)" = 3 ] || fail "--console lacks a boot: $(cat con.txt)"
	python3 - r.json <<'PY' || fail "the sweep's result: $(cat r.json)"
import json, sys
r = json.load(open(sys.argv[1]))
rows = [(b["name"], b["cpus"], b["median"]) for b in r["benchmarks"]]
assert rows == [("null_call", 1, 1), ("pipe_bw", 1, 100), ("null_call", 2, 2), ("pipe_bw", 2, 100),
                ("null_call", 4, 4), ("pipe_bw", 4, 100)], rows
assert r["compiler"] == "gcc (GCC) 12.2.0", r
PY
	# The result reads back: compare sees the sweep.
	expect 0 "$KBENCH" compare r.json r.json
	has out.txt ", cpus 1,2,4"
	# One count without -smp is the old command line, the old result but for "cpus".
	fakeqemu asked
	TMPDIR=$W/tmp expect 0 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox -o one.json bz
	grep -q -- -smp boots.txt && fail "-smp without --cpus: $(cat boots.txt)"
	has one.json '"cpus": 1, "samples": [1, 1, 1]'
	# A guest that saw fewer CPUs than asked: the kernel's failure, no result.
	fakeqemu 1
	TMPDIR=$W/tmp expect 1 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox --cpus=1,2 -o f.json bz
	has err.txt "kernel bz: the guest saw 1 CPU of the 2 QEMU booted it with: the kernel has CONFIG_SMP off or NR_CPUS < 2"
	[ "$(wc -l <boots.txt)" = 2 ] || fail "not two boots: $(cat boots.txt)"
	[ -e f.json ] && fail "a result from a guest that saw fewer CPUs"
	# Seeing more is fine (a board with CPUs of its own); not saying is not, above 1.
	fakeqemu 8
	TMPDIR=$W/tmp expect 0 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox --cpus=2 -o m.json bz
	has m.json '"cpus": 2'
	fakeqemu none
	TMPDIR=$W/tmp expect 1 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox --cpus=2 -o n.json bz
	has err.txt "the guest did not say how many CPUs it saw, 2 asked (a stale --guest?)"
	TMPDIR=$W/tmp expect 0 "$KBENCH" run --qemu="$W/fakeqemu" --busybox=nobox -o n.json bz
	[ -z "$(ls -A tmp)" ] || fail "temporary files were left: $(ls -A tmp)"
	return 0
}

case_compare() {
	local f=$FIXTURES
	expect 0 "$KBENCH" compare --json=c.json "$f/sweep-a.json" "$f/sweep-b.json"
	has out.txt "/k/gcc/bzImage (gcc (Debian 12.2.0-14) 12.2.0), cpus 1,2,4"
	has out.txt "/k/clang/bzImage (Debian clang version 14.0.6), cpus 1,2,4"
	[ "$(grep -c 'The noise table was measured on 1 CPU: rows at other counts take its figures.' out.txt)" = 1 ] ||
		fail "the noise table's CPUs not said once"
	line '^benchmark +unit +cpus '
	# Per name and CPUs, together: us a/b - 1, MB/s b/a - 1.
	line '^null_call +us +1 +1 +0\.8 +1\.0% +\+25\.0%\*$'
	line '^null_call +us +2 +1\.25 +1 +1\.0% +\+25\.0%\*$'
	line '^null_call +us +4 +2 +2\.5 +1\.0% +-20\.0%\*$'
	line '^pipe_bw +MB/s +1 +100 +120 +1\.0% +\+20\.0%\*$'
	line '^pipe_bw +MB/s +2 +150 +150 +1\.0% +\+0\.0%~$'
	line '^pipe_bw +MB/s +4 +200 +- +1\.0% +-$'
	grep -A2 '^null_call' out.txt | sed -n 2p | grep -qE '^null_call +us +2' ||
		fail "a name's rows are not together: $(cat out.txt)"
	line '^fork_exit +\(only in sweep-b at 2 CPUs: not compared\)$'
	# Scaling: times 1/N, bandwidths N/1; efficiency speedup/N.
	line '^Scaling of sweep-a from 1 CPU'
	[ "$(grep -c '^Scaling of' out.txt)" = 2 ] || fail "not one scaling per kernel"
	sed -n '/^Scaling of sweep-a/,/^$/p' out.txt >a.txt
	grep -qE '^null_call +us +0\.800 \( 40%\) +0\.500 \( 12%\)$' a.txt || fail "a's null_call scaling: $(cat a.txt)"
	grep -qE '^pipe_bw +MB/s +1\.500 \( 75%\) +2\.000 \( 50%\)$' a.txt || fail "a's pipe_bw scaling: $(cat a.txt)"
	sed -n '/^Scaling of sweep-b/,$p' out.txt >b.txt
	grep -qE '^pipe_bw +MB/s +1\.250 \( 62%\) +-$' b.txt || fail "b's pipe_bw scaling: $(cat b.txt)"
	grep -q fork_exit b.txt && fail "fork_exit has no 1-CPU row to scale from"
	python3 - c.json <<'PY' || fail "compare --json of a sweep: $(cat c.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert [k["cpus"] for k in d["kernels"]] == [[1, 2, 4], [1, 2, 4]], d["kernels"]
assert d["noise"]["cpus"] == 1 and d["noise"]["other_cpus"] is True, d["noise"]
rows = [(r["name"], r["cpus"], r["medians"]) for r in d["rows"]]
assert rows[:3] == [("null_call", 1, [1, 0.8]), ("null_call", 2, [1.25, 1]), ("null_call", 4, [2, 2.5])], rows
assert d["rows"][5]["against"] == [] and d["rows"][5]["medians"] == [200, None], d["rows"][5]
assert d["rows"][2]["against"][0]["percent"] == -20 and d["rows"][2]["against"][0]["significant"], d["rows"][2]
s = {k["label"]: k for k in d["scaling"]}
assert s["sweep-a"]["cpus"] == [1, 2, 4], s
a = {r["name"]: r["at"] for r in s["sweep-a"]["rows"]}
assert a["null_call"] == [{"cpus": 2, "speedup": 0.8, "efficiency": 0.4},
                          {"cpus": 4, "speedup": 0.5, "efficiency": 0.125}], a
assert a["pipe_bw"][1] == {"cpus": 4, "speedup": 2, "efficiency": 0.5}, a
b = {r["name"]: r["at"] for r in s["sweep-b"]["rows"]}
assert b["pipe_bw"] == [{"cpus": 2, "speedup": 1.25, "efficiency": 0.625}], b
assert "fork_exit" not in b, b
PY
	# A noise table measured at 2 CPUs: the rows at 1 and 4 take its figures, said once.
	sed 's/"clock": "icount",/"clock": "icount", "cpus": 2,/' "$f/noise.json" >noise2.json
	expect 0 "$KBENCH" compare --noise=noise2.json "$f/sweep-a.json" "$f/sweep-b.json"
	[ "$(grep -c 'measured on 2 CPUs: rows at other counts' out.txt)" = 1 ] || fail "noise at 2 CPUs"
	sed 's/"clock": "icount",/"clock": "icount", "cpus": 0,/' "$f/noise.json" >noise0.json
	expect 3 "$KBENCH" compare --noise=noise0.json "$f/sweep-a.json" "$f/sweep-b.json"
	has err.txt "noise0.json: the noise table's \"cpus\" is not a number from 1 to 64"
	# Files without "cpus" are of 1 CPU: against a sweep, their rows meet its 1-CPU rows.
	expect 0 "$KBENCH" compare "$f/a.json" "$f/sweep-b.json"
	line '^null_call +us +1 +1 +0\.8 +1\.0% +\+25\.0%\*$'
	line '^null_call +\(only in sweep-b at 2 CPUs: not compared\)$'
	# Single-CPU results show no CPUs at all.
	expect 0 "$KBENCH" compare "$f/a.json" "$f/b.json"
	grep -qiE 'cpus|scaling' out.txt && fail "a single-CPU comparison talks of CPUs: $(cat out.txt)"
	# A profile's gains on a sweep: by CPU count, not pooled over counts.
	expect 0 "$KBENCH" compare --trained=null_call --json=g.json "$f/sweep-a.json" "$f/sweep-b.json"
	sed -n '/^at 1 CPU:$/,/^Scaling/p' out.txt >gains.txt
	grep -qxE 'trained on +1 row: mean \+25\.0 %, significant 1 faster / 0 slower' gains.txt &&
	grep -qxE 'held out +1 row: mean \+20\.0 %, significant 1 faster / 0 slower' gains.txt &&
	sed -n '/^at 4 CPUs:$/,/^$/p' gains.txt | grep -qxE 'trained on +1 row: mean -20\.0 %, significant 0 faster / 1 slower' ||
		fail "gains by CPU count: $(cat out.txt)"
	grep -q '^trained on +3 rows' out.txt && fail "a sweep's gains pooled over its counts"
	python3 - g.json <<'PY' || fail "compare --json of a sweep's gains: $(cat g.json)"
import json, sys
d = json.load(open(sys.argv[1]))
by = {g["cpus"]: g for g in d["by_cpus"]}
assert sorted(by) == [1, 2, 4], by
assert by[1]["trained"] == {"rows": 1, "mean_pct": 25, "faster": 1, "slower": 0}, by[1]
assert by[1]["held_out"] == {"rows": 1, "mean_pct": 20, "faster": 1, "slower": 0}, by[1]
assert by[2]["held_out"] == {"rows": 1, "mean_pct": 0, "faster": 0, "slower": 0}, by[2]
assert by[4]["trained"]["mean_pct"] == -20 and by[4]["held_out"]["rows"] == 0, by[4]
assert d["trained"]["rows"] == 3 and d["held_out"]["rows"] == 2, d
PY
	# A bad "cpus" in a result: named.
	sed '0,/"cpus": 1/s//"cpus": 1.5/' "$f/sweep-a.json" >bad.json
	expect 3 "$KBENCH" compare bad.json "$f/sweep-b.json"
	has err.txt "bad.json: benchmark null_call: \"cpus\" is not a number from 1 to 64"
	return 0
}

case_chart() {
	local f=$FIXTURES
	expect 0 "$KBENCH" compare -o chart.svg "$f/sweep-a.json" "$f/sweep-b.json"
	python3 - chart.svg <<'PY' || fail "the sweep's chart: $(cat chart.svg)"
import sys, xml.dom.minidom
svg = xml.dom.minidom.parse(sys.argv[1]).documentElement
titles = [t.firstChild.data for t in svg.getElementsByTagName("title")]
assert "null_call at 4 CPUs: -20.00% (-20.00..-20.00), significant (noise 1.0%)" in titles, titles
texts = " ".join(t.firstChild.data for t in svg.getElementsByTagName("text") if t.firstChild)
assert "clock icount, cpus 1,2,4" in texts, texts
assert texts.count("Scaling of ") == 2, texts
lines = [p for p in svg.getElementsByTagName("polyline") if p.getAttribute("class") == "scaling"]
# a: null_call, pipe_bw, mem_load_lat; b the same (pipe_bw only to 2 CPUs)
assert len(lines) == 6, len(lines)
curves = {p.getElementsByTagName("title")[0].firstChild.data: p.getAttribute("points") for p in lines}
assert "null_call; 2 CPUs: 0.800 (40%); 4 CPUs: 0.500 (12%)" in curves, curves
assert len(curves["pipe_bw; 2 CPUs: 1.250 (62%)"].split()) == 2, curves
h = float(svg.getAttribute("height"))
for p in lines:
    for pt in p.getAttribute("points").split():
        x, y = map(float, pt.split(","))
        assert 0 < x < 960 and 0 < y < h, (pt, h)
PY
	# Single-CPU charts draw no curves.
	expect 0 "$KBENCH" compare -o one.svg "$f/a.json" "$f/b.json"
	grep -q 'polyline' one.svg && fail "curves in a single-CPU chart"
	return 0
}

# standin DIR NAME VERSION [PLUGIN]: a QEMU NAME in DIR that says VERSION,
# logs its path (which.txt) and plays fakeqemu's guest; the boot's command
# line tried without a kernel (-S: probes.txt) sets up, or with PLUGIN=no
# refuses the plugin as QEMU 10 does.
standin() {
	mkdir -p "$1"
	cat >"$1/$2" <<EOT
#!/bin/sh
[ "\$1" = --version ] && { echo "QEMU emulator version $3 (stand-in)"; exit 0; }
case " \$* " in *" -S "*)
	echo "\$0 \$*" >>$W/probes.txt
	[ "${4:-}" = no ] || exit 0
	echo "$2: Could not load plugin x.so: plugin requires API version 1, but this QEMU supports only a minimum version of 2" >&2
	exit 1 ;;
esac
echo "\$0" >>$W/which.txt
exec $W/fakeqemu "\$@"
EOT
	chmod +x "$1/$2"
}

# The QEMU run picks when --qemu names none: PATH's, then KBENCH_QEMU_DIRS's
# (by default bookworm-backports', as scripts/install-deps unpacks it), the
# first that can run the request; which one is said on the progress line
# and in the result; none that can is a refusal naming each and why.
case_qemu() {
	bzimage bz
	mkdir tmp
	fakeqemu asked
	standin q7 qemu-system-x86_64 7.2.22
	standin q10 qemu-system-x86_64 10.0.2 no
	standin q7b qemu-system-x86_64 7.2.19
	local q7=$W/q7/qemu-system-x86_64 q10=$W/q10/qemu-system-x86_64
	# x86_64 at 2 CPUs: QEMU 7.2 in PATH cannot, the directory's 10 runs
	# the whole sweep; at 1 CPU PATH's runs it.
	PATH=$W/q7:$PATH KBENCH_QEMU_DIRS=$W/q10 TMPDIR=$W/tmp expect 0 "$KBENCH" run \
		--busybox=nobox --cpus=1,2 -o r.json bz
	[ "$(cat which.txt)" = "$q10
$q10" ] || fail "the sweep's boots did not both run $q10: $(cat which.txt)"
	has err.txt "(clock icount, 9 runs, 2 CPUs) in $q10 (QEMU 10.0.2)"
	python3 - r.json "$q10" <<'PY' || fail "the result does not name its QEMU: $(head -9 r.json)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["qemu"] == {"path": sys.argv[2], "version": "10.0.2"}, r.get("qemu")
PY
	rm which.txt
	PATH=$W/q7:$PATH KBENCH_QEMU_DIRS=$W/q10 TMPDIR=$W/tmp expect 0 "$KBENCH" run \
		--busybox=nobox -o one.json bz
	[ "$(cat which.txt)" = "$q7" ] || fail "one CPU did not run PATH's QEMU: $(cat which.txt)"
	has one.json "\"qemu\": {\"path\": \"$q7\", \"version\": \"7.2.22\"}"
	# Old results, without "qemu", and new ones compare alike.
	expect 0 "$KBENCH" compare "$FIXTURES/a.json" one.json
	rm which.txt
	# --qemu decides: no search, today's refusal for QEMU 7 at 2 CPUs; another taken as named.
	PATH=$W/q7:$PATH KBENCH_QEMU_DIRS=$W/q10 TMPDIR=$W/tmp expect 3 "$KBENCH" run \
		--qemu="$q7" --busybox=nobox --cpus=2 -o q.json bz
	has err.txt "--cpus=2: x86_64 guests of more than 1 CPU do not boot under the icount clock of QEMU 7 ($q7; kbench(1), BUGS)"
	PATH=$W/q10:$PATH KBENCH_QEMU_DIRS=$W/q7 TMPDIR=$W/tmp expect 0 "$KBENCH" run \
		--qemu="$q7" --busybox=nobox -o q.json bz
	[ "$(cat which.txt)" = "$q7" ] || fail "--qemu did not run its QEMU: $(cat which.txt)"
	has q.json "\"qemu\": {\"path\": \"$q7\", \"version\": \"7.2.22\"}"
	rm which.txt q.json
	# None can: exit 3 before any boot, each candidate named with its reason.
	PATH=$W/q7:$PATH KBENCH_QEMU_DIRS=$W/q7b:$W/none TMPDIR=$W/tmp expect 3 "$KBENCH" run \
		--busybox=nobox --cpus=1,2 -o q.json bz
	has err.txt "error: no QEMU here runs this x86_64 kernel with 2 CPUs under icount:"
	has err.txt "  $q7 (QEMU 7.2.22): x86_64 guests of more than 1 CPU do not boot under its icount clock"
	has err.txt "  $W/q7b/qemu-system-x86_64 (QEMU 7.2.19): x86_64 guests of more than 1 CPU do not boot"
	has err.txt "  $W/none/qemu-system-x86_64: no such executable"
	has err.txt "KBENCH_QEMU_DIRS ($W/q7b:$W/none)"
	[ ! -e which.txt ] && [ ! -e q.json ] || fail "a boot began, or a result was written"
	# An empty KBENCH_QEMU_DIRS: PATH's alone.
	PATH=$W/q7:$PATH KBENCH_QEMU_DIRS= TMPDIR=$W/tmp expect 3 "$KBENCH" run \
		--busybox=nobox --cpus=2 -o q.json bz
	[ "$(grep -c "^  /" err.txt)" = 1 ] || fail "not PATH's QEMU alone: $(cat err.txt)"
	# s390x repeats at 2 CPUs in QEMU 10 only: taken first; 7.2 alone runs, with the warning.
	standin q7 qemu-system-s390x 7.2.22
	standin q10 qemu-system-s390x 10.0.2
	PATH=$W/q7:$PATH KBENCH_QEMU_DIRS=$W/q10 TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=s390x \
		--busybox=nobox --cpus=2 -o q.json bz
	[ "$(cat which.txt)" = "$W/q10/qemu-system-s390x" ] || fail "s390x did not take QEMU 10: $(cat which.txt)"
	grep -q "differ above" err.txt && fail "warned of s390x under QEMU 10: $(cat err.txt)"
	PATH=$W/q7:$PATH KBENCH_QEMU_DIRS= TMPDIR=$W/tmp expect 0 "$KBENCH" run --arch=s390x \
		--busybox=nobox --cpus=2 -o q.json bz
	has err.txt "warning: --cpus=2: two boots of one s390x image differ above 1 CPU under QEMU 7's icount"
	rm which.txt
	# The cost model: each QEMU with nothing else against it is tried with
	# the plugin, without a kernel; one that refuses the plugin is passed
	# over.  (The stand-in writes no model records: the run ends there, 3.)
	if [ -n "${KBENCH_MODEL_DIR:-}" ]; then
		echo "a plugin" >v1.so
		PATH=$W/q10:$PATH KBENCH_QEMU_DIRS=$W/q7 KBENCH_MODEL_PLUGIN=$W/v1.so TMPDIR=$W/tmp \
			expect 3 "$KBENCH" run --model=cycles --busybox=nobox -o m.json bz
		[ "$(cat which.txt)" = "$q7" ] || fail "the model did not run in 7.2: $(cat which.txt)"
		has err.txt "1 CPU) in $q7 (QEMU 7.2.22)"
		[ "$(wc -l <probes.txt)" = 2 ] && grep -q "^$q10 .* -S -qmp stdio .*-plugin $W/v1.so," probes.txt &&
			grep -q "^$q7 " probes.txt || fail "not both QEMUs tried with the plugin: $(cat probes.txt)"
		grep -q -- "-kernel" probes.txt && fail "a kernel in the probe: $(cat probes.txt)"
		rm which.txt
		PATH=$W/q10:$PATH KBENCH_QEMU_DIRS=$W/q7 KBENCH_MODEL_PLUGIN=$W/v1.so TMPDIR=$W/tmp \
			expect 3 "$KBENCH" run --model=cycles --busybox=nobox --cpus=2 -o m2.json bz
		has err.txt "no QEMU here runs this x86_64 kernel with 2 CPUs under icount with the cost model:"
		has err.txt "  $q10 (QEMU 10.0.2): QEMU could not load the cost model's plugin: Could not load plugin x.so: plugin requires API version 1"
		has err.txt "  $q7 (QEMU 7.2.22): x86_64 guests of more than 1 CPU do not boot"
		[ ! -e which.txt ] && [ ! -e m2.json ] || fail "a boot began, or a result was written"
	fi
	# The real QEMUs, where this machine has them (scripts/install-deps):
	# Debian 12's 7.2 in PATH, bookworm-backports' 10 in /opt.  The stand-in
	# image only gets as far as QEMU's loader, after the progress line.
	local deb=/usr/bin/qemu-system-x86_64 bpo=/opt/ccd-suite/qemu-backports/usr/bin/qemu-system-x86_64
	if [ -x "$deb" ] && [ -x "$bpo" ] && "$deb" --version | grep -q "version 7\."; then
		PATH=/usr/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --busybox=nobox --cpus=2 -o q.json bz
		has err.txt "(clock icount, 9 runs, 2 CPUs) in $bpo (QEMU 10."
		printf '#!/bin/sh\nexec %s "$@"\n' "$deb" >q7b/qemu-system-x86_64
		PATH=/usr/bin:$PATH KBENCH_QEMU_DIRS=$W/q7b TMPDIR=$W/tmp expect 3 "$KBENCH" run \
			--busybox=nobox --cpus=2 -o q.json bz
		has err.txt "  $deb (QEMU 7."
		has err.txt "  $W/q7b/qemu-system-x86_64 (QEMU 7."
		# QEMU 10 does not load the plugin built for 7.2's API: 7.2 runs the
		# model, and the model at 2 x86_64 CPUs is refused, QEMU's words said.
		if [ -n "${KBENCH_MODEL_DIR:-}" ]; then
			PATH=${bpo%/*}:$PATH KBENCH_QEMU_DIRS=/usr/bin TMPDIR=$W/tmp expect 1 "$KBENCH" run \
				--model=cycles --busybox=nobox -o q.json bz
			has err.txt ", 1 CPU) in $deb (QEMU 7."
			TMPDIR=$W/tmp expect 3 "$KBENCH" run --model=cycles --busybox=nobox --cpus=2 -o q.json bz
			has err.txt "  $bpo (QEMU 10."
			has err.txt "): QEMU could not load the cost model's plugin: Could not load plugin $KBENCH_MODEL_DIR/kbench-model.so"
		fi
	else
		echo "(no QEMU 7.2 in /usr/bin and QEMU 10 in ${bpo%/*}: the real QEMUs not tried)"
	fi
	[ -z "$(ls -A tmp)" ] || fail "temporary files were left: $(ls -A tmp)"
	return 0
}

case_$1
finish
