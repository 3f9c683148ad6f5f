#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-bindeb-pkg: make CC=ccd LD=lkd bindeb-pkg in the ccd x86_64 build
# directory produces a linux-image .deb whose kernel boots.
. "$(dirname "$0")/lib.sh"

need_build x86_64 || fail "the x86_64 build failed"
rm -f "$dir"/*.deb "$dir"/*.buildinfo "$dir"/*.changes
touch "$KWORK/bindeb-pkg.start"
# A fixed package revision: otherwise mkdebian bumps .version and the
# relink rebuilds the version objects (#2), which then differ from the
# oracle's plain build.
release=$(cat "$dir/obj/include/config/kernel.release") || fail "no kernel.release"
export KDEB_PKGVERSION=$release-1
# gzip, not dpkg's default xz: how the package is compressed is dpkg's
# business, and xz spent half a minute of CI's budget on it.
export KDEB_COMPRESS=gzip
(
	flock 9 || exit 1
	"$BAB" --source="$KSOURCE" --out="$dir/obj" --jobs="$KJOBS" --no-boot \
		--target=bindeb-pkg -- CC="$CCD" LD="$LKD"
) 9>"$KWORK/x86_64.lock" >"$KWORK/bindeb-pkg.log" 2>&1 ||
	{ tail -n 30 "$KWORK/bindeb-pkg.log" | sed 's/^/  | /'; fail "make bindeb-pkg failed"; }
log "bindeb-pkg took $(cat "$dir/obj/.ccd-build-seconds") s"
deb=
for f in "$dir"/linux-image-*.deb; do
	case $f in *-dbg_*) ;; *) [ -f "$f" ] && deb=$f ;; esac
done
[ -n "$deb" ] || fail "no linux-image .deb in $dir"
log "package: ${deb##*/}"
# bindeb-pkg reuses the build: say what, if anything, it compiled again.
rebuilt=$(cd "$dir/obj" && find . -name '*.o' -newer "$KWORK/bindeb-pkg.start" | sort)
log "objects rebuilt by bindeb-pkg: $(echo "$rebuilt" | grep -c .) $(echo $rebuilt | cut -c1-200)"
root=$KWORK/deb-root
rm -rf "$root" && dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x $deb failed"
image=$(ls "$root"/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$image" ] || fail "the package has no /boot/vmlinuz-*"
status=0
boot_kernel "$image" x86_64 bindeb-pkg || { echo "$T: FAIL: the packaged kernel did not boot"; status=1; }
verify_objects "$dir/obj" || status=1
exit $status
