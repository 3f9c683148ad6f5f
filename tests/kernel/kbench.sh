#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-kbench CASE: kbench on the suite's own 6.12 kernels (kbench's
# configuration): the ccd-built gcc kernel of x86_64-612 and the clang one of
# x86_64-612-clang-keep.  CASE is a case of tests/kbench/boot.sh
# (determinism, sensitivity, backends, faults).
. "$(dirname "$0")/lib.sh"
: "${KBENCH:?KBENCH must name the kbench binary}"
case=${1:?case}

need_build x86_64-612 || fail "the x86_64-612 build failed"
gcc_kernel=$dir/obj/arch/x86/boot/bzImage
clang_kernel=
if [ "$case" = backends ]; then
	need_build x86_64-612-clang-keep || fail "the x86_64-612-clang-keep build failed"
	clang_kernel=$dir/obj/arch/x86/boot/bzImage
fi
KBENCH_KERNEL_GCC=$gcc_kernel KBENCH_KERNEL_CLANG=$clang_kernel \
	"$KTEST_SRC/../kbench/boot.sh" "$case"
