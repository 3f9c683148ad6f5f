#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-clang [CONFIG]: CCD_CC=clang, make CC=ccd LD=lkd: the kernel builds
# and boots (default x86_64-clang, 6.1; x86_64-612-clang-keep for 6.12;
# arm64-clang: 6.1 for arm64, clang cross-compiling).
. "$(dirname "$0")/lib.sh"
cfg=${1:-x86_64-clang}
case $cfg in arm64-*) arch=arm64 ;; *) arch=x86_64 ;; esac
image=KIMAGE_$arch
image=${!image}

need_build "$cfg" || fail "the $cfg build failed"
log "build time: $(cat "$dir/obj/.ccd-build-seconds") s"
status=0
# The backend really was clang: its assembly says so.
grep -q 'clang version' "$dir/obj/init/main.c.raw.S" ||
	{ echo "$T: FAIL: init/main.c was not compiled by clang"; status=1; }
[ "$arch" = x86_64 ] || readelf -h "$dir/obj/init/main.o" | grep -q 'Machine: *AArch64' ||
	{ echo "$T: FAIL: init/main.o is not an AArch64 object"; status=1; }
boot_kernel "$dir/obj/$image" "$arch" "$cfg" || { echo "$T: FAIL: no boot"; status=1; }
verify_objects "$dir/obj" || status=1
# lockfix is x86's: what icc did to x86 lock prefixes.
[ "$arch" != x86_64 ] || lockfix_clean "$dir/obj" || status=1
exit $status
