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
# usage_error NAME MESSAGE ARGS...: build-and-boot ARGS exits 2 with MESSAGE
# and makes no output directory.
usage_error() {
	local name=$1 msg=$2 rc
	shift 2
	"$bab" --out=out --no-build "$@" >out.txt 2>err.txt
	rc=$?
	if [ $rc != 2 ]; then bad "$name: exit $rc, expected 2 (a usage error)"
	elif ! grep -qF -- "error: $msg" err.txt; then
		bad "$name: no message saying what is wrong"; cat err.txt
	elif [ -e out ]; then bad "$name: the output directory was made before the error"
	else pass "$name: usage error"; fi
	rm -rf out
}
for args in "--jobs= --timeout=5 --memory=5" "--jobs=2 --timeout= --memory=5" \
	"--jobs=2 --timeout=5 --memory=" "--jobs=x --timeout=5 --memory=5" \
	"--jobs=2 --timeout=5 --memory=1G"; do
	# shellcheck disable=SC2086
	usage_error "$args" "--jobs, --timeout and --memory take numbers" --no-boot $args
done
# --module puts a module into the static init's initramfs: with another
# initramfs (--initrd) it would be dropped without a word.
: >initrd.cpio
usage_error "--initrd with --module" "--module goes into the static init's initramfs" \
	--initrd=initrd.cpio --module=m.ko
finish
