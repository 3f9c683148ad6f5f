#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-and-boot's usage errors: a number option given empty or not a
# number is refused with exit 2 and a message, before any work (no output
# directory made), whatever the other number options say; so is a module
# for the static init's initramfs beside another initramfs.
. "$(dirname "$0")/../lib/check.sh"
bab=$(cd "$(dirname "$0")" && pwd)/build-and-boot
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || fail "cd $tmp"
for args in "--jobs= --timeout=5 --memory=5" "--jobs=2 --timeout= --memory=5" \
	"--jobs=2 --timeout=5 --memory=" "--jobs=x --timeout=5 --memory=5" \
	"--jobs=2 --timeout=5 --memory=1G"; do
	# shellcheck disable=SC2086
	"$bab" --out=out --no-build --no-boot $args >out.txt 2>err.txt
	rc=$?
	if [ $rc != 2 ]; then bad "$args: exit $rc, expected 2 (a usage error)"
	elif ! grep -q 'error: --jobs, --timeout and --memory take numbers' err.txt; then
		bad "$args: no message saying what is wrong"; cat err.txt
	elif [ -e out ]; then bad "$args: the output directory was made before the error"
	else pass "$args: usage error"; fi
	rm -rf out
done
# --module puts a module into the static init's initramfs: with another
# initramfs (--initrd) it would be dropped without a word.
: >initrd.cpio
"$bab" --out=out --no-build --initrd=initrd.cpio --module=m.ko >out.txt 2>err.txt
rc=$?
if [ $rc != 2 ]; then bad "--initrd with --module: exit $rc, expected 2"
elif ! grep -q "error: --module goes into the static init's initramfs" err.txt; then
	bad "--initrd with --module: no message saying what is wrong"; cat err.txt
elif [ -e out ]; then bad "--initrd with --module: the output directory was made"
else pass "--initrd with --module: usage error"; fi
finish
