#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-binrpm-pkg: make CC=ccd LD=lkd binrpm-pkg in the ccd x86_64 build
# directory (rpmbuild, as Fedora and RHEL package kernels) produces a
# kernel rpm whose kernel boots.
. "$(dirname "$0")/lib.sh"

need_build x86_64 || fail "the x86_64 build failed"
top=$dir/rpmbuild
rm -rf "$top"
touch "$KWORK/binrpm-pkg.start"
# rpmbuild's tree inside the work directory, not in $HOME.  From the
# environment: as a make argument it would change the build's configuration key.
export RPMOPTS="--define '_topdir $top'"
(
	flock 9 || exit 1
	"$BAB" --source="$KSOURCE" --out="$dir/obj" --jobs="$KJOBS" --no-boot \
		--target=binrpm-pkg -- CC="$CCD" LD="$LKD"
) 9>"$KWORK/x86_64.lock" >"$KWORK/binrpm-pkg.log" 2>&1 ||
	{ tail -n 30 "$KWORK/binrpm-pkg.log" | sed 's/^/  | /'; fail "make binrpm-pkg failed"; }
rpm=
for f in "$top"/RPMS/*/kernel-[0-9]*.rpm; do
	[ -f "$f" ] && rpm=$f
done
[ -n "$rpm" ] || fail "no kernel rpm under $top/RPMS ($(ls -R "$top/RPMS" 2>&1 | tr '\n' ' '))"
log "package: ${rpm##*/}"
rebuilt=$(cd "$dir/obj" && find . -name '*.o' -newer "$KWORK/binrpm-pkg.start" | sort)
log "objects rebuilt by binrpm-pkg: $(echo "$rebuilt" | grep -c .) $(echo $rebuilt | cut -c1-200)"
root=$KWORK/rpm-root
rm -rf "$root" && mkdir -p "$root" &&
	(cd "$root" && rpm2cpio "$rpm" | cpio -idm --quiet) || fail "cannot unpack $rpm"
image=$(ls "$root"/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$image" ] || fail "the package has no /boot/vmlinuz-*"
boot_kernel "$image" x86_64 binrpm-pkg || fail "the packaged kernel did not boot"
