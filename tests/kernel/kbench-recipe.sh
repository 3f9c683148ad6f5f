#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-kbench-recipe: kbench(1)'s recipe as written (make O=out tinyconfig,
# kbench config >>out/.config, make O=out olddefconfig) configures the 64-bit
# kernel kbench runs on an x86_64 host, whatever ARCH the user spells (none,
# x86, x86_64): Linux 6.1's tree of the base build, configured only (seconds).
. "$(dirname "$0")/lib.sh"
: "${KBENCH:?KBENCH must name the kbench binary}"

need_build x86_64 || fail "the x86_64 build failed"
tree=$(readlink -f "$dir/obj/source") && [ -f "$tree/Makefile" ] || fail "no kernel tree at $dir/obj/source"
for a in "" x86 x86_64; do
	out=$KWORK/kbench-recipe${a:+-$a}
	rm -rf "$out" && mkdir -p "$out" || fail "cannot make $out"
	make -C "$tree" O="$out" ${a:+ARCH=$a} -s tinyconfig >/dev/null || fail "tinyconfig (ARCH=$a)"
	"$KBENCH" config >>"$out/.config" || fail "kbench config"
	make -C "$tree" O="$out" ${a:+ARCH=$a} -s olddefconfig >/dev/null || fail "olddefconfig (ARCH=$a)"
	for sym in 64BIT X86_64 INET BLK_DEV_INITRD; do
		grep -qx "CONFIG_$sym=y" "$out/.config" ||
			bad "ARCH=${a:-unset}: CONFIG_$sym is not on ($(grep -E "CONFIG_$sym[ =]" "$out/.config"))"
	done
	rm -rf "$out"
done
[ "$failed" = 0 ] && pass "the recipe configures a 64-bit kernel with every ARCH spelling"
finish
