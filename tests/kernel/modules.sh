#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-modules: out-of-tree modules for the ccd-built x86_64 kernel.
# ccdtest_common (uninitialized globals, -fcommon, standing in for icc's
# .comm): built with plain gcc the loader refuses it ("please compile with
# -fno-common"); built through ccd and lkd it loads and prints its marker.
# ccdtest_alt: alternative() in a module is patched by the loader and runs.
. "$(dirname "$0")/lib.sh"

need_build x86_64 || fail "the x86_64 build failed"
kobj=$dir/obj
mw=$KWORK/modules
rm -rf "$mw" && mkdir -p "$mw/gcc" "$mw/ccd" || exit 1
cp -r "$KTEST_SRC/modules/ccdtest_common" "$mw/gcc/" &&
	cp -r "$KTEST_SRC/modules/ccdtest_common" "$KTEST_SRC/modules/ccdtest_alt" "$mw/ccd/" || exit 1

kmod() {	# moddir [make args]
	local m=$1
	shift
	make -C "$kobj" M="$m" "$@" modules >"$m.log" 2>&1 ||
		{ tail -n 20 "$m.log" | sed 's/^/  | /'; fail "module build failed: $m"; }
}
kmod "$mw/gcc/ccdtest_common"
CCD_ASSEM=both kmod "$mw/ccd/ccdtest_common" CC="$CCD" LD="$LKD"
CCD_ASSEM=both kmod "$mw/ccd/ccdtest_alt" CC="$CCD" LD="$LKD"

status=0
# The plain build really has common symbols; the ccd one has none.
nm "$mw/gcc/ccdtest_common/ccdtest_common.ko" | grep -q ' C ccdtest_common_counter' ||
	{ echo "$T: FAIL: the gcc module has no common symbol: the test proves nothing"; status=1; }
if nm "$mw/ccd/ccdtest_common/ccdtest_common.ko" | grep -q ' C '; then
	echo "$T: FAIL: the ccd module still has common symbols"; status=1
fi
cp "$mw/gcc/ccdtest_common/ccdtest_common.ko" "$mw/ccdtest_common-gcc.ko"
cp "$mw/ccd/ccdtest_common/ccdtest_common.ko" "$mw/ccdtest_common-ccd.ko"

boot_kernel "$kobj/arch/x86/boot/bzImage" x86_64 modules \
	--module="$mw/ccdtest_common-gcc.ko" --module="$mw/ccdtest_common-ccd.ko" \
	--module="$mw/ccd/ccdtest_alt/ccdtest_alt.ko" \
	--expect="insmod ccdtest_common-gcc.ko: failed: Exec format error" \
	--expect="ccdtest_common: please compile with -fno-common" \
	--expect="insmod ccdtest_common-ccd.ko: ok" \
	--expect="ccdtest_common: loaded, counter=41 table[7]=42" \
	--expect="insmod ccdtest_alt.ko: ok" \
	--expect="ccdtest_alt: alternative ran, value=2 (patched)" ||
	{ echo "$T: FAIL: the modules did not behave"; status=1; }
verify_objects "$mw/ccd" || status=1
lockfix_clean "$mw/ccd" || status=1
exit $status
