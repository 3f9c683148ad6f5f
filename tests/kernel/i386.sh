#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-i386: ARCH=i386 through ccd and lkd; boots in qemu-system-i386 with a
# -m32 static init.
. "$(dirname "$0")/lib.sh"

need_build i386 || fail "the i386 build failed"
log "build time: $(cat "$dir/obj/.ccd-build-seconds") s"
status=0
file -b "$dir/obj/vmlinux" | grep -q 'ELF 32-bit' || { echo "$T: FAIL: vmlinux is not 32-bit"; status=1; }
boot_kernel "$dir/obj/arch/x86/boot/bzImage" i386 i386 || { echo "$T: FAIL: no boot"; status=1; }
verify_objects "$dir/obj" || status=1
lockfix_clean "$dir/obj" || status=1
exit $status
