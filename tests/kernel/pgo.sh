#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-pgo: Linux 6.1's profile-guided loop through ccd (kbench pgo; the
# x86_64-pgo build): at least 80 % of the objects built with their
# profile, at most 5 % mismatched, the profile-guided kernel booted and
# measured.  Then one source file changes after training: its object gets
# a warning and a build, nothing else is rebuilt, and the kernel boots.
. "$(dirname "$0")/lib.sh"
: "${KBENCH:?KBENCH must name the kbench binary}"

need_build x86_64-pgo || fail "the x86_64-pgo loop failed (log $KWORK/x86_64-pgo.log)"
out=$dir/pgo
for f in summary.json plain.json pgo.json train.json compare.txt chart.svg profile-report.txt; do
	[ -s "$out/$f" ] || fail "no $out/$f"
done
python3 - "$out" <<'PY' || fail "summary.json (above)"
import json, sys
out = sys.argv[1]
s = json.load(open(out + "/summary.json"))
n, used, bad, match = s["objects"], s["with_profile"], s["mismatched"], s["matching"]
print(f"kernel-pgo: {n} objects, {used} with a profile ({100 * used / n:.1f} %), "
      f"{bad} mismatched ({100 * bad / n:.1f} %), {s['without_profile']} without")
# A matching profile: given, and gcc took all of it.
ok = n >= 300 and match == used - bad and match >= 0.8 * n and bad <= 0.05 * n and s["failed_with_profile"] == 0
rows = len(json.load(open(s["pgo"]))["benchmarks"])
print(f"kernel-pgo: the profile-guided kernel gave {rows} rows")
# The default split: half of the 28 rows but the controls trained, half held out.
t, h = s["trained"], s["held_out"]
print(f"kernel-pgo: trained {t['rows']} rows {t['mean_pct']:+.1f} %, "
      f"held out {h['rows']} rows {h['mean_pct']:+.1f} %")
ok = ok and len(s["train"]["rows"]) == 14 and t["rows"] == 14 and h["rows"] == 14
sys.exit(0 if ok and rows >= 30 else 1)
PY
grep -q "^average" "$out/compare.txt" || fail "no comparison in $out/compare.txt"
grep -q "^held out" "$out/compare.txt" || fail "no held-out gains in $out/compare.txt"
# gcc took the counts, not only the options: the kernel's gcda lack the
# summary gcc needs ("Profile info is missing; giving up"), kbench adds it,
# and with real counts gcc moves never-executed blocks out of line.
# (gcov-dump into a file: grep -q would end the pipe early, and pipefail is on)
gcov-dump -l "$out/profile/kernel#fork.gcda" >"$dir/fork-gcda.txt" 2>&1 ||
	fail "gcov-dump cannot read kernel#fork.gcda: $(head -3 "$dir/fork-gcda.txt")"
grep -q "OBJECT_SUMMARY runs=1, sum_max=[1-9]" "$dir/fork-gcda.txt" ||
	fail "kernel#fork.gcda has no object summary"
cold_plain=$(nm "$out/plain/vmlinux" | grep -c '\.cold')
cold_pgo=$(nm "$out/pgo/vmlinux" | grep -c '\.cold')
log "out-of-line cold parts: $cold_plain plain, $cold_pgo profile-guided"
# (2026-11-26: 543 plain, 2,079 with the profile, 808 with the profile and
# -fprofile-partial-training, which no longer takes all untrained code as cold.)
[ "$((4 * cold_pgo))" -ge $((5 * cold_plain)) ] ||
	fail "the profile moved too few cold blocks: was it used?"
sed -n '/^average/p' "$out/compare.txt" | sed 's/^/kernel-pgo: plain -> pgo: /'

# One source changed after training: kernel/sys.c's getppid gets a branch.
src=$dir/src file=kernel/sys.c report=$dir/changed-report.txt
restore() { ln -f "$CCD_KTREE_CACHE/linux-source-6.1/pristine/$file" "$src/$file" 2>/dev/null ||
	sed -i '/ccd-suite pgo test/,+1d' "$src/$file"; }
trap restore EXIT
sed -i 's|^\tpid = task_tgid_vnr(rcu_dereference(current->real_parent));$|&\n\tif (unlikely(pid < 0))\t/* ccd-suite pgo test */\n\t\tpid = 0;|' \
	"$src/$file"
grep -q "ccd-suite pgo test" "$src/$file" || fail "could not edit $file"
rm -f "$report"
CCD_PROFILE_USE=$out/profile CCD_PROFILE_REPORT=$report CCD_CC=gcc \
	make -C "$src" O="$out/pgo" ARCH=x86_64 -j"$KJOBS" CC="$CCD" LD="$LKD" bzImage \
	>"$dir/changed.log" 2>&1 || { tail -20 "$dir/changed.log"; fail "the rebuild after the change failed"; }
# kernel/sys.o and what Kbuild rebuilds on every link (the version
# objects, the decompressor that embeds vmlinux); only sys.o mismatches.
grep -qx "mismatch kernel/sys.o" "$report" && [ "$(grep -c '^mismatch' "$report")" = 1 ] ||
	fail "after changing $file the report says: $(tr '\n' ';' <"$report")"
others=$(awk '$2 != "kernel/sys.o" { print $2 }' "$report" |
	grep -vxE 'init/version(-timestamp)?\.o|arch/x86/boot/(version|compressed/misc)\.o')
[ -z "$others" ] || fail "changing $file also rebuilt: $others"
grep -q "^ccd: warning: kernel/sys.o: the profile .*/kernel#sys.gcda does not fit the source" \
	"$dir/changed.log" || fail "no warning naming kernel/sys.o in $dir/changed.log"
grep -q "__do_sys_getppid.*\[-Wcoverage-mismatch\]" "$dir/changed.log" ||
	fail "gcc's mismatch warning for getppid is not in $dir/changed.log"
nice -n 5 "$KBENCH" run --quick --only=proc -o "$dir/changed.json" "$out/pgo/arch/x86/boot/bzImage" \
	2>"$dir/changed-run.err" || { cat "$dir/changed-run.err"; fail "the rebuilt kernel did not run"; }
log "changed $file: kernel/sys.o rebuilt (and the link's version objects), mismatch warned, the kernel boots and runs"
