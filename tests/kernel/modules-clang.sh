#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-modules-clang: out-of-tree modules built later against a kernel
# that ccd built with the clang backend (the 6.12 build
# x86_64-612-clang-keep).  With the kernel's CC=ccd and CCD_CC=clang they
# build and load (the -fcommon one too: ccd repairs it); with CCD_CC=gcc
# Kbuild itself says that the compiler differs, naming both, and the build
# stops (gcc rejects the clang options the kernel's configuration chose).
. "$(dirname "$0")/lib.sh"

need_build x86_64-612-clang-keep || fail "the x86_64-612-clang-keep build failed"
kobj=$dir/obj
mw=$KWORK/modules-clang
rm -rf "$mw" && mkdir -p "$mw/clang" "$mw/gcc" || exit 1
cp -r "$KTEST_SRC/modules/ccdtest_common" "$KTEST_SRC/modules/ccdtest_alt" "$mw/clang/" &&
	cp -r "$KTEST_SRC/modules/ccdtest_common" "$mw/gcc/" || exit 1

kmod() {	# moddir backend
	CCD_CC=$2 make -C "$kobj" M="$1" CC="$CCD" LD="$LKD" modules >"$1.log" 2>&1 ||
		{ tail -n 20 "$1.log" | sed 's/^/  | /'; fail "module build failed: $1"; }
}
kmod "$mw/clang/ccdtest_common" clang
kmod "$mw/clang/ccdtest_alt" clang
grep -q "compiler differs" "$mw/clang/ccdtest_common.log" &&
	fail "Kbuild says the compiler differs although it is the kernel's: $mw/clang/ccdtest_common.log"
# (outputs into files: grep -q would end a pipe early, and pipefail is on)
readelf -p .comment "$mw/clang/ccdtest_common/ccdtest_common.o" >"$mw/comment.txt" 2>&1
grep -q clang "$mw/comment.txt" || fail "the module was not compiled by clang: $(cat "$mw/comment.txt")"
nm "$mw/clang/ccdtest_common/ccdtest_common.ko" >"$mw/nm.txt" || fail "nm failed"
grep -q ' C ' "$mw/nm.txt" && fail "the clang module through ccd still has common symbols"

# The kernel's compiler is clang; a module built with CCD_CC=gcc is told
# so by Kbuild, and gcc refuses the clang flags the kernel's build chose:
# a failed build with the reason, never a module built half one way.
CCD_CC=gcc make -C "$kobj" M="$mw/gcc/ccdtest_common" CC="$CCD" LD="$LKD" modules \
	>"$mw/gcc/ccdtest_common.log" 2>&1 && fail "a gcc module built against the clang kernel"
grep -q "warning: the compiler differs from the one used to build the kernel" \
	"$mw/gcc/ccdtest_common.log" || fail "no Kbuild warning for a gcc module on a clang kernel"
grep -q "The kernel was built by: .*clang" "$mw/gcc/ccdtest_common.log" &&
	grep -q "You are using: .*gcc" "$mw/gcc/ccdtest_common.log" ||
	fail "Kbuild's warning does not name both compilers"
[ -e "$mw/gcc/ccdtest_common/ccdtest_common.ko" ] && fail "a module was left by the failed build"

boot_kernel "$kobj/arch/x86/boot/bzImage" x86_64 modules-clang \
	--module="$mw/clang/ccdtest_common/ccdtest_common.ko" \
	--module="$mw/clang/ccdtest_alt/ccdtest_alt.ko" \
	--expect="insmod ccdtest_common.ko: ok" \
	--expect="ccdtest_common: loaded, counter=41 table[7]=42" \
	--expect="insmod ccdtest_alt.ko: ok" \
	--expect="ccdtest_alt: alternative ran, value=2 (patched)" ||
	fail "the clang modules did not load and run"
verify_objects "$mw/clang" || exit 1
log "clang modules through ccd load in the clang kernel; a gcc module gets Kbuild's warning"
