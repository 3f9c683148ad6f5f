#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-kbench CASE: kbench on the suite's own kernels (kbench's
# configuration): the ccd-built gcc kernel of the base build x86_64 and, for
# 'backends', the ccd-built clang kernel of x86_64-clang (extended; clang's
# own assembler, as plain make CC=clang).  CASE is
# a case of tests/kbench/boot.sh (determinism, sensitivity, backends,
# faults, workload, model, programs, smp: at 1 and 2 CPUs under the QEMU
# kbench chooses, 8 or later, or $KBENCH_SMP_QEMU), or arm64: determinism and a sweep at
# 1 and 2 CPUs (smp) on the ccd-built kernel of the arm64-whole build, its
# machine read from the Image; or another machine's Debian
# name (armhf, armel, ppc64el, s390x, mips64el, mipsel, riscv64): determinism
# on the ccd-built kernel of its whole oracle pair (kbench's configuration of
# it; armhf-whole, armel-whole, s390x-whole: extended), and smp's sweep where
# the board boots several CPUs (not armel's, not Malta's).
. "$(dirname "$0")/lib.sh"
: "${KBENCH:?KBENCH must name the kbench binary}"
case=${1:?case}

# arm64 also boots 2 CPUs (the smp case): x86_64 guests of several CPUs
# do not boot under QEMU 7.2's icount (kbench(1), BUGS).
# CI's turns build only some directories of a machine's pair: kbench runs
# on the whole pair's kernel, arm64-whole, armhf-whole, ... (extended).
whole=$case
case $case in arm64|armhf|armel|s390x) whole=$case-whole ;; esac
if [ "$case" = arm64 ]; then
	need_build "$whole" || fail "the $whole build failed"
	export KBENCH_KERNEL_GCC=$dir/obj/arch/arm64/boot/Image
	"$KTEST_SRC/../kbench/boot.sh" determinism || exit
	# Debian has no tcc for arm64 to carry into its guest: no build row.
	KBENCH_BUILD_CC= exec "$KTEST_SRC/../kbench/boot.sh" smp
fi
# Another machine's pair (in CI's rotation or extended): determinism on its
# ccd kernel, and where the board boots several CPUs the sweep at 1 and 2
# CPUs twice, every sample alike (no build row: Debian's tcc is x86's).
case $case in armhf|armel|ppc64el|s390x|mips64el|mipsel|riscv64)
	need_build "$whole" || fail "the $whole build failed"
	image=KIMAGE_$case
	export KBENCH_ARCH=$case KBENCH_KERNEL_GCC=$dir/obj/${!image}
	case $case in armel|mips*) exec "$KTEST_SRC/../kbench/boot.sh" determinism ;; esac
	"$KTEST_SRC/../kbench/boot.sh" determinism || exit
	# riscv64's and armhf's guests of several CPUs need QEMU 8 or later
	# under icount, and s390x's boots repeat there (install-deps unpacks
	# backports').
	case $case in
	riscv64|s390x)
		export KBENCH_SMP_QEMU=${KBENCH_SMP_QEMU:-/opt/ccd-suite/qemu-backports/usr/bin/qemu-system-$case} ;;
	armhf)
		export KBENCH_SMP_QEMU=${KBENCH_SMP_QEMU:-/opt/ccd-suite/qemu-backports/usr/bin/qemu-system-arm} ;;
	esac
	KBENCH_BUILD_CC= exec "$KTEST_SRC/../kbench/boot.sh" smp ;;
esac
clang_kernel=
if [ "$case" = backends ]; then
	need_build x86_64-clang || fail "the x86_64-clang build failed"
	clang_kernel=$dir/obj/arch/x86/boot/bzImage
fi
# The base kernel at 1 and 2 CPUs: x86_64 guests of several CPUs boot
# under icount with QEMU 8 or later, which kbench finds itself beside
# Debian 12's 7.2 where install-deps unpacks backports' (kbench(1), --qemu).
bpo=/opt/ccd-suite/qemu-backports/usr/bin/qemu-system-x86_64
if [ "$case" = smp ] && [ -z "${KBENCH_SMP_QEMU:-}${KBENCH_QEMU_DIRS:-}" ] && [ ! -x "$bpo" ] &&
	qemu-system-x86_64 --version 2>/dev/null | grep -q 'version [1-7]\.'; then
	skip "no QEMU 8 or later: only Debian 12's 7.2, not $bpo (scripts/install-deps fetches it)"
fi
need_build x86_64 || fail "the x86_64 build failed"
gcc_kernel=$dir/obj/arch/x86/boot/bzImage
KBENCH_KERNEL_GCC=$gcc_kernel KBENCH_KERNEL_CLANG=$clang_kernel \
	"$KTEST_SRC/../kbench/boot.sh" "$case"
