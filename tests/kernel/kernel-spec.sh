#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-spec: doc/packaging/kernel-ccd.spec, a Fedora-style spec whose
# %build calls make with CC=ccd LD=lkd, built by rpmbuild on the suite's
# ccd 6.1 build directory (the same ccd, lkd and KBUILD_BUILD_* as the
# build, so nothing is compiled again): its rpm's kernel boots.
. "$(dirname "$0")/lib.sh"

spec=$KTEST_SRC/../../doc/packaging/kernel-ccd.spec
need_build x86_64 || fail "the x86_64 build failed"
tree=$CCD_KTREE_CACHE/$(basename "${KSOURCE%.tar*}")/pristine
[ -d "$KSOURCE" ] && tree=$KSOURCE
[ -d "$tree" ] || fail "no 6.1 tree at $tree"
top=$dir/specbuild
rm -rf "$top"
touch "$KWORK/kernel-spec.start"
# build-and-boot's fixed values: otherwise version.h changes and vmlinux is relinked.
export KBUILD_BUILD_TIMESTAMP="Sat Jan  1 00:00:00 UTC 2000" KBUILD_BUILD_USER=ccd \
	KBUILD_BUILD_HOST=ccd-suite KBUILD_BUILD_VERSION=1
(
	flock 9 || exit 1
	rpmbuild -bb "$spec" --define "_topdir $top" --define "ksrc $tree" \
		--define "kobj $dir/obj" --define "ccd $CCD" --define "lkd $LKD" \
		--define "_smp_mflags -j$KJOBS"
) 9>"$KWORK/x86_64.lock" >"$KWORK/kernel-spec.log" 2>&1 ||
	{ tail -n 30 "$KWORK/kernel-spec.log" | sed 's/^/  | /'; fail "rpmbuild of kernel-ccd.spec failed"; }
grep -q "CC=$CCD LD=$LKD" "$KWORK/kernel-spec.log" || fail "make did not get CC=ccd LD=lkd"
rpm=
for f in "$top"/RPMS/x86_64/kernel-ccd-*.rpm; do
	[ -f "$f" ] && rpm=$f
done
[ -n "$rpm" ] || fail "no kernel-ccd rpm under $top/RPMS"
rebuilt=$(cd "$dir/obj" && find . -name '*.o' -newer "$KWORK/kernel-spec.start" | sort)
[ -z "$rebuilt" ] || fail "the spec build compiled again: $(echo $rebuilt | cut -c1-200)"
root=$KWORK/spec-root
rm -rf "$root" && mkdir -p "$root" &&
	(cd "$root" && rpm2cpio "$rpm" | cpio -idm --quiet) || fail "cannot unpack $rpm"
image=$(ls "$root"/boot/vmlinuz-* 2>/dev/null | head -1)
[ -n "$image" ] || fail "the package has no /boot/vmlinuz-*"
log "package: ${rpm##*/}"
boot_kernel "$image" x86_64 kernel-spec || fail "the spec-built kernel did not boot"
