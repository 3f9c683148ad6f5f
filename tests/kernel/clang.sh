#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-clang [CONFIG]: CCD_CC=clang, make CC=ccd LD=lkd: the kernel builds
# and boots (default x86_64-clang, 6.1; x86_64-612-clang-keep for 6.12).
. "$(dirname "$0")/lib.sh"
cfg=${1:-x86_64-clang}

need_build "$cfg" || fail "the $cfg build failed"
log "build time: $(cat "$dir/obj/.ccd-build-seconds") s"
status=0
# The backend really was clang: its assembly says so.
grep -q 'clang version' "$dir/obj/init/main.c.raw.S" ||
	{ echo "$T: FAIL: init/main.c was not compiled by clang"; status=1; }
boot_kernel "$dir/obj/arch/x86/boot/bzImage" x86_64 "$cfg" || { echo "$T: FAIL: no boot"; status=1; }
verify_objects "$dir/obj" || status=1
lockfix_clean "$dir/obj" || status=1
exit $status
