#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-keep-accessors [PLAIN KEEP EXPORT-KIND]: the patched tree with
# CONFIG_CCD_KEEP_ACCESSORS=y through ccd: the backend's assembly has
# __ccd_keep_ functions for exports, initcalls, __setup and module_param;
# asmfix removed them all (repaired assembly, objects, vmlinux); vmlinux has
# as many __ksymtab_, initcall, __setup_ and __param entries as the
# unpatched build (which may be another backend's); the kernel boots.  Defaults: 6.1 (x86_64, x86_64-keep,
# accessors __ccd_keep___ksymtab_*); 6.12 exports through asm, so its
# accessors keep the exported symbol itself (__ccd_keep___export_*).
. "$(dirname "$0")/lib.sh"
plain_cfg=${1:-x86_64} keep_cfg=${2:-x86_64-keep} export_kind=${3:-__ksymtab_}

need_build "$plain_cfg" || fail "the unpatched $plain_cfg build failed"
plain=$dir
need_build "$keep_cfg" || fail "the patched $keep_cfg build failed"
keep=$dir
log "build time: $(cat "$keep/obj/.ccd-build-seconds") s"
status=0
grep -qx CONFIG_CCD_KEEP_ACCESSORS=y "$keep/obj/.config" || fail "CONFIG_CCD_KEEP_ACCESSORS is not set"
grep -qx CONFIG_CC_IS_CCD=y "$keep/obj/.config" || { echo "$T: FAIL: CC_IS_CCD not detected"; status=1; }

raw=$(find "$keep/obj" -name '*.raw.S' -exec grep -h '^__ccd_keep_[A-Za-z0-9_.]*:' {} + | sort)
for kind in "$export_kind" __initcall_ __setup_ __param_; do
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

for pat in ' __ksymtab_' ' __initcall__' ' __setup_'; do
	a=$(nm "$plain/obj/vmlinux" | grep -c -- "$pat")
	b=$(nm "$keep/obj/vmlinux" | grep -c -- "$pat")
	log "vmlinux '${pat# }*' symbols: unpatched $a, keep-accessors $b"
	[ "$a" -gt 0 ] && [ "$a" = "$b" ] || { echo "$T: FAIL: '${pat# }' count differs"; status=1; }
done
# Parameters by their section: a function-scope __param_ symbol is named
# by the compiler (gcc __param_x.5, clang f.__param_x), the entries are not.
secsize() {	# file section: its size in bytes, nothing if absent
	local hex
	hex=$(objdump -h "$1" | awk -v s="$2" '$2 == s { print $3 }')
	[ -n "$hex" ] && echo $((16#$hex))
}
a=$(secsize "$plain/obj/vmlinux" __param) b=$(secsize "$keep/obj/vmlinux" __param)
log "vmlinux __param section: unpatched ${a:-none} bytes, keep-accessors ${b:-none} bytes"
[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" = "$b" ] || { echo "$T: FAIL: __param sizes differ"; status=1; }

boot_kernel "$keep/obj/arch/x86/boot/bzImage" x86_64 "$keep_cfg" || { echo "$T: FAIL: no boot"; status=1; }
verify_objects "$keep/obj" || status=1
lockfix_clean "$keep/obj" || status=1
exit $status
