#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-oracle [CONFIG [ARCH]]: a kernel (CONFIG x86_64: 6.1, the default;
# x86_64-612: 6.12; arm64, riscv64, armhf, armel, ppc64el, s390x, mips64el,
# mipsel: 6.1 on kbench's configuration of ARCH with Debian's cross gcc;
# ppc32, ppc64, m68k: 6.1 on the boot configuration of ARCH, configs/ARCH.config;
# x86_64-clang-ias, -gas, x86_64-612-clang-ias, -gas, arm64-clang-ias, -gas,
# ppc32-, ppc64-clang(-ias): plain make
# CC=clang, its integrated assembler or LLVM_IAS=0, against ccd with the
# clang backend; x86_64-lto-thin, -lto-full, x86_64-612-lto-thin, -lto-full,
# arm64-lto-thin, -lto-full, arm64-612-lto-thin, -lto-full: plain make LLVM=1 with clang's ThinLTO or full LTO
# against make LLVM=1 CC=ccd LD=lkd; x86_64-612-kcfi, arm64-612-kcfi: the same with
# LLVM=-16 and CONFIG_CFI_CLANG) built with plain make (gcc) and with make CC=ccd LD=lkd
# (gcc backend, unpatched tree), at the same path with the same
# KBUILD_BUILD_*: every .o byte-identical, vmlinux and bzImage too, and both
# kernels boot.  Where the plain build made only some directories'
# objects (the base's quarter of the tree in turn, 6.12: see lib.sh) those
# are compared, and the ccd kernel boots; where the ccd tree was linked by
# ld and then relinked by lkd (the base), every object and image of the two.
. "$(dirname "$0")/lib.sh"
cfg=${1:-x86_64}
arch=${2:-x86_64}
image=KIMAGE_$arch
image=${!image}

# Objects allowed to differ, each with the reason (none known so far).
declare -A exceptions=()

need_build "$cfg" || fail "the $cfg builds failed"
log "build time: gcc $(cat "$dir/gcc.seconds") s, ccd+lkd $(cat "$dir/obj/.ccd-build-seconds") s"

# debian/: what kernel-bindeb-pkg (which reuses this build) packaged.
objects() { (cd "$1" && find . -path ./debian -prune -o -name '*.o' -print | sort); }
objects "$dir/gcc" >"$KWORK/oracle-$cfg.gcc.list"
objects "$dir/obj" >"$KWORK/oracle-$cfg.ccd.list"
whole=1
[ -f "$dir/gcc/vmlinux" ] || whole=0
dirs=$(cat "$dir/gcc.dirs" 2>/dev/null)
if [ $whole = 1 ]; then
	only=$(comm -3 "$KWORK/oracle-$cfg.gcc.list" "$KWORK/oracle-$cfg.ccd.list")
else	# every object of the partial plain build, and the ccd build made it too
	only=$(comm -23 "$KWORK/oracle-$cfg.gcc.list" "$KWORK/oracle-$cfg.ccd.list")
	log "plain build of some directories${dirs:+ ($dirs)}:" \
		"$(wc -l <"$KWORK/oracle-$cfg.gcc.list") of $(wc -l <"$KWORK/oracle-$cfg.ccd.list") objects compared"
fi
[ -z "$only" ] || { echo "$only" | head -20 | sed 's/^/  | only in one build: /'; fail "the builds made different sets of objects"; }

n=0 same=0 bad=0
declare -A differs=()
while IFS= read -r o; do
	n=$((n + 1))
	if cmp -s "$dir/gcc/$o" "$dir/obj/$o"; then
		same=$((same + 1))
		continue
	fi
	differs[${o#./}]=1
	if [ -n "${exceptions[$o]:-}" ]; then
		log "exception: $o differs: ${exceptions[$o]}"
	else
		bad=$((bad + 1))
		[ $bad -le 20 ] && echo "  | differs: $o ($(cmp "$dir/gcc/$o" "$dir/obj/$o" 2>&1 | head -1))"
	fi
done <"$KWORK/oracle-$cfg.gcc.list"
for f in vmlinux "$image"; do
	[ $whole = 1 ] || continue
	if cmp -s "$dir/gcc/$f" "$dir/obj/$f"; then
		log "$f byte-identical"
	else
		bad=$((bad + 1))
		echo "  | differs: $f"
	fi
done
log "$n objects: $same byte-identical, $bad differ, ${#exceptions[@]} known exceptions"
[ "$n" -gt 150 ] || fail "only $n objects: not a kernel build?"
status=0
[ $bad = 0 ] || { echo "$T: FAIL: $bad objects differ"; status=1; }

# ld/: the ccd tree as Kbuild's own ld linked it, before lkd linked it
# again (lib.sh oracle_pair): lkd made the links (vmlinux's command names
# it, ld's did not), and nothing differs.
if [ -d "$dir/ld" ]; then
	grep -qF "$LKD" "$dir/obj/.vmlinux.cmd" && ! grep -qF "$LKD" "$dir/ld/.vmlinux.cmd" ||
		{ echo "$T: FAIL: vmlinux was not linked by ld and then by lkd (.vmlinux.cmd)"; status=1; }
	ln=0 lbad=0
	while IFS= read -r o; do
		ln=$((ln + 1))
		cmp -s "$dir/ld/$o" "$dir/obj/$o" && continue
		lbad=$((lbad + 1))
		[ $lbad -le 20 ] && echo "  | differs as lkd linked it: $o ($(cmp "$dir/ld/$o" "$dir/obj/$o" 2>&1 | head -1))"
	done < <(cd "$dir/ld" && find . -name '*.o' -o -name vmlinux -o -path "./$image" | sort)
	log "relinked by lkd in $(cat "$dir/relink.seconds") s: $ln objects and images as ld linked" \
		"them, $lbad differ (vmlinux, $image among them)"
	[ -f "$dir/ld/vmlinux" ] && [ -f "$dir/ld/$image" ] && [ "$ln" -gt 200 ] ||
		{ echo "$T: FAIL: ld's tree lacks vmlinux or $image, or has $ln objects"; status=1; }
	[ $lbad = 0 ] || { echo "$T: FAIL: $lbad files differ between ld's links and lkd's"; status=1; }
fi

# The ccd build's check report against the comparison: no object it calls
# the backend's own (same, own) differs, none "differs", and it names
# every C object of the build (a partial build may have fewer than 200).
if [ -f "$dir/check.txt" ]; then
	summary=$("$CCD" --ccd-check-summary="$dir/check.txt") ||
		{ echo "$T: FAIL: the check report: $summary"; status=1; }
	log "check report: $summary"
	wrong=0
	while read -r word o _; do
		case $word in same|own) ;; *) continue ;; esac
		[ -z "${differs[$o]:-}" ] && continue
		wrong=$((wrong + 1))
		echo "  | the check report says '$word' of $o, which differs"
	done <"$dir/check.txt"
	[ $wrong = 0 ] || { echo "$T: FAIL: $wrong objects the check report vouches for differ"; status=1; }
	# Kbuild's .cmd files name each object's source: every kernel C
	# object of the ccd tree (host programs have no -D__KERNEL__).
	missing=$(comm -23 <(find "$dir/obj" -name '.*.o.cmd' -exec awk '
		FNR == 1 { k = 0 }
		/^cmd_/ { k = index($0, " -D__KERNEL__ ") > 0 }
		k && /^source_.*\.c$/ { sub(/^source_/, ""); sub(/ :=.*/, ""); print }' {} + | sort -u) \
		<(awk '{ print $2 }' "$dir/check.txt" | sort -u))
	[ -z "$missing" ] || {
		echo "$missing" | head -20 | sed 's/^/  | not in the check report: /'
		echo "$T: FAIL: $(echo "$missing" | wc -l) C objects are not in the check report"; status=1; }
fi

if [ $whole = 1 ]; then
	boot_kernel "$dir/gcc/$image" "$arch" "oracle-$cfg-gcc" ||
		{ echo "$T: FAIL: gcc kernel did not boot"; status=1; }
fi
if [ -f "$dir/partial" ]; then	# both sides made only some directories' objects
	log "objects of $(cat "$dir/partial") only: no kernel to boot"
else
	boot_kernel "$dir/obj/$image" "$arch" "oracle-$cfg-ccd" || { echo "$T: FAIL: ccd kernel did not boot"; status=1; }
fi
verify_objects "$dir/obj" || status=1
# The clang pairs (LTO and kCFI too) keep no assembly (clang's own objects: nothing to read).
case $cfg in *clang*|*lto*|*kcfi*) ;; *) [ "$arch" != x86_64 ] || lockfix_clean "$dir/obj" || status=1 ;; esac
exit $status
