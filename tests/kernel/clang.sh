#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-clang: CCD_CC=clang, make CC=ccd LD=lkd: the kernel builds and boots.
. "$(dirname "$0")/lib.sh"

need_build x86_64-clang || fail "the clang build failed"
log "build time: $(cat "$dir/obj/.ccd-build-seconds") s"
status=0
# The backend really was clang: its assembly says so.
grep -q 'clang version' "$dir/obj/init/main.c.raw.S" ||
	{ echo "$T: FAIL: init/main.c was not compiled by clang"; status=1; }
boot_kernel "$dir/obj/arch/x86/boot/bzImage" x86_64 clang || { echo "$T: FAIL: no boot"; status=1; }
verify_objects "$dir/obj" || status=1
lockfix_clean "$dir/obj" || status=1
exit $status
