#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-keep-accessors: the patched tree with CONFIG_CCD_KEEP_ACCESSORS=y
# through ccd (gcc backend): the backend's assembly has __ccd_keep_
# functions for exports, initcalls, __setup and module_param; asmfix removed
# them all (repaired assembly, objects, vmlinux); vmlinux has as many
# __ksymtab_, initcall, __setup_ and __param_ entries as the unpatched build;
# the kernel boots.
. "$(dirname "$0")/lib.sh"

need_build x86_64 || fail "the unpatched x86_64 build failed"
plain=$dir
need_build x86_64-keep || fail "the patched x86_64 build failed"
keep=$dir
log "build time: $(cat "$keep/obj/.ccd-build-seconds") s"
status=0
grep -qx CONFIG_CCD_KEEP_ACCESSORS=y "$keep/obj/.config" || fail "CONFIG_CCD_KEEP_ACCESSORS is not set"
grep -qx CONFIG_CC_IS_CCD=y "$keep/obj/.config" || { echo "$T: FAIL: CC_IS_CCD not detected"; status=1; }

raw=$(find "$keep/obj" -name '*.raw.S' -exec grep -h '^__ccd_keep_[A-Za-z0-9_.]*:' {} + | sort)
for kind in __ksymtab_ __initcall_ __setup_ __param_; do
	c=$(echo "$raw" | grep -c "^__ccd_keep_$kind")
	log "backend assembly: $c __ccd_keep_$kind* accessors"
	[ "$c" -gt 0 ] || { echo "$T: FAIL: no accessors for $kind"; status=1; }
done
left=$(find "$keep/obj" -name '*.S' ! -name '*.raw.S' -exec grep -l '__ccd_keep_' {} + | head)
[ -z "$left" ] || { echo "$left" | sed 's/^/  | still has __ccd_keep_: /'; echo "$T: FAIL: repaired assembly keeps accessors"; status=1; }
n=$(find "$keep/obj" -name '*.o' ! -path '*/scripts/*' -exec nm {} + 2>/dev/null | grep -c '__ccd_keep_')
[ "$n" = 0 ] || { echo "$T: FAIL: $n __ccd_keep_ symbols in objects"; status=1; }
n=$(nm "$keep/obj/vmlinux" | grep -c '__ccd_keep_')
log "vmlinux: $n __ccd_keep_ symbols"
[ "$n" = 0 ] || { echo "$T: FAIL: vmlinux has __ccd_keep_ symbols"; status=1; }

for pat in ' __ksymtab_' ' __initcall__' ' __setup_' ' __param_'; do
	a=$(nm "$plain/obj/vmlinux" | grep -c -- "$pat")
	b=$(nm "$keep/obj/vmlinux" | grep -c -- "$pat")
	log "vmlinux '${pat# }*' symbols: unpatched $a, keep-accessors $b"
	[ "$a" -gt 0 ] && [ "$a" = "$b" ] || { echo "$T: FAIL: '${pat# }' count differs"; status=1; }
done

boot_kernel "$keep/obj/arch/x86/boot/bzImage" x86_64 keep || { echo "$T: FAIL: no boot"; status=1; }
verify_objects "$keep/obj" || status=1
lockfix_clean "$keep/obj" || status=1
exit $status
