#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-kbench-identity: kbench measures kernels with the same code alike
# (issue 24: two 6.1 builds that differed only in KBUILD_BUILD_HOST, _USER
# and _TIMESTAMP measured prot_fault 34 % apart).  For the base build (x86_64: 6.1,
# kbench's configuration through ccd+lkd: SMP, -O2, SLUB) and, extended, 6.1 at
# -O2 (the plain kernel of x86_64-pgo) and 6.12 (x86_64-612), the build made
# again with another identity (lib.sh identity_twin): every object but
# init/version*.o byte-identical, vmlinux's sections of one size; then
# tests/kbench/boot.sh identity: every row within 1 %; extended, the base
# pair under the cost model too (identity_model: within the noise table's
# cycles and instructions).
. "$(dirname "$0")/lib.sh"
: "${KBENCH:?KBENCH must name the kbench binary}"
can_unshare || skip "no mount namespace here (identity_twin needs root or CAP_SYS_ADMIN)"

# twin BUILD SUBDIR: build BUILD and its twin; sets one and twin (build dirs).
twin() {
	need_build "$1" || fail "the $1 build failed"
	one=$dir/$2
	need_build "$1-identity" || fail "the $1-identity build failed"
	if ! cmp -s "$KWORK/$1.ok" "$dir/from"; then	# $1 was built again since
		rm -f "$dir.ok"
		need_build "$1-identity" || fail "the $1-identity build failed"
	fi
	twin=$dir/obj
}

# The same code: the objects, and the sizes of vmlinux's sections.
same_code() {
	local n=0 o differ=()
	while IFS= read -r o; do
		n=$((n + 1))
		cmp -s "$one/$o" "$twin/$o" || differ+=("$o")
	done < <(cd "$one" && find . -name '*.o' ! -path './scripts/*' ! -path './tools/*' \
		! -path './arch/x86/boot/*' ! -name vmlinux.o ! -path './usr/*' -printf '%P\n' | sort)
	log "$n objects; differing: ${differ[*]}"
	for o in "${differ[@]}"; do
		case $o in init/version*.o) ;; *) bad "object $o differs between the two builds" ;; esac
	done
	[ "$(sections "$one/vmlinux")" = "$(sections "$twin/vmlinux")" ] ||
		bad "vmlinux's sections differ in size"
	[ ${#differ[@]} -gt 0 ] || bad "nothing differs: the twin has the same identity"
	[ "$failed" = 0 ] || finish
}
sections() { size -A "$1" | awk '$1 ~ /^\./ { print $1, $2 }'; }

pairs=("x86_64 obj")
[ "${CCD_KTEST_EXTENDED:-0}" = 1 ] && pairs+=("x86_64-pgo pgo/plain" "x86_64-612 obj")
for b in "${pairs[@]}"; do
	set -- $b
	CHECK_CONTEXT="$T $1"
	twin "$1" "$2"
	same_code
	KBENCH_KERNEL_GCC=$one/arch/x86/boot/bzImage \
		KBENCH_KERNEL_TWIN=$twin/arch/x86/boot/bzImage \
		"$KTEST_SRC/../kbench/boot.sh" identity || bad "$1: the twins measure apart (above)"
	# Extended: the base pair under the cost model, against the noise
	# table's cycles (two model runs: ten minutes of CPU).
	[ "$1" = x86_64 ] && [ "${CCD_KTEST_EXTENDED:-0}" = 1 ] || continue
	KBENCH_KERNEL_GCC=$one/arch/x86/boot/bzImage \
		KBENCH_KERNEL_TWIN=$twin/arch/x86/boot/bzImage \
		"$KTEST_SRC/../kbench/boot.sh" identity_model
	case $? in 0|77) ;; *) bad "$1: the twins measure apart in cycles (above)" ;; esac
done
finish
