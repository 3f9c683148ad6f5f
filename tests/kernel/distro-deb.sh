#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-distro-debian-61-deb (extended, CCD_KTEST_FULL_DISTRO=1, hours):
# `make bindeb-pkg` of Debian's whole 6.1 amd64 configuration through
# ccd+lkd (distro_deb in lib.sh).  Every C object of vmlinux and of the
# modules is built and vouched for by ccd's check report, lkd --lkd-verify
# is clean over all of them, the linux-image .deb holds the build's bzImage
# and every module; installed with dpkg into a minimal Debian 12 root file
# system (its postinst makes the initramfs with initramfs-tools), that
# system boots under QEMU with module.sig_enforce=1: the initramfs loads
# the package's virtio and ext4 modules to mount the root, modprobe loads
# more (with their dependencies), an unsigned module is refused.
. "$(dirname "$0")/lib.sh"
cfg=debian-61-deb
extended_only "$cfg"
[ "$(id -u)" = 0 ] || skip "installing the package into a root file system needs root (chroot)"
command -v debootstrap >/dev/null || skip "no debootstrap (scripts/install-deps installs it)"

need_build "$cfg" || fail "the $cfg build failed"
log "$(awk '{ w += $1; u += $2; s += $3 } END { printf "make bindeb-pkg: %d s wall, %d s user, %d s system (%d timed part%s)", w, u, s, NR, (NR > 1 ? "s" : "") }' "$dir/ccd.time")"
# A part stopped by SIGTERM has no time line (GNU time ignores only SIGINT):
# the harness's own count of the build covers every part.
log "the whole build, every part: $(cat "$dir.seconds") s of wall time"
account "$dir/all.list"
log "$n C objects of the configuration: $built built, $same same, $repaired repaired"
# The other way round: every compile the report saw is on the list (a list
# made after part of the build misses what was built before it), but those
# of targets make -n vmlinux modules does not reach: the modules' .mod.o
# (modpost writes the .mod.c), the two objects compiled as vmlinux is
# linked, bzImage's boot code.
beyond='\.mod\.o$|^\.vmlinux\.export\.o$|^init/version-timestamp\.o$|^arch/x86/boot/'
unlisted=$(comm -23 <(awk -v b="$beyond" '$2 !~ b { print $2 }' "$dir/check.txt" | sort -u) \
	<(sort -u "$dir/all.list"))
log "beyond the list, $(awk -v b="$beyond" '$2 ~ b' "$dir/check.txt" | sort -u | wc -l) compiles of the modules' .mod.o, the link and bzImage's boot code"
[ -z "$unlisted" ] && pass "every compile in the check report is on the list" ||
	bad "$(echo "$unlisted" | wc -l) compiles in the check report are not on the list, e.g. $(echo "$unlisted" | head -3 | tr '\n' ' ')"
verify_objects "$dir/obj" || bad "lkd --lkd-verify"

release=$(cat "$dir/obj/include/config/kernel.release") || fail "no kernel.release"
deb=$dir/linux-image-${release}_$release-1_amd64.deb
[ -f "$deb" ] || fail "no ${deb##*/} (the packages: $(cd "$dir" && echo *.deb))"
pkg=$dir/pkg
rm -rf "$pkg" && mkdir "$pkg" && dpkg-deb -x "$deb" "$pkg" || fail "dpkg-deb -x ${deb##*/} failed"
cmp -s "$pkg/boot/vmlinuz-$release" "$dir/obj/arch/x86/boot/bzImage" &&
	pass "the package's vmlinuz-$release is the build's bzImage" ||
	bad "the package's vmlinuz-$release is not the build's bzImage"
want=$(wc -l <"$dir/obj/modules.order")
got=$(find "$pkg/lib/modules/$release" -name '*.ko' | wc -l)
[ "$got" = "$want" ] && pass "the package holds all $want modules of modules.order" ||
	bad "the package holds $got modules, modules.order lists $want"
rm -rf "$pkg"

root=$dir/root
debian_rootfs "$root" || fail "no Debian 12 root file system (see above)"
cp "$deb" "$root/tmp/" &&
	chroot "$root" dpkg -i "/tmp/${deb##*/}" >"$dir/dpkg.log" 2>&1 ||
	{ tail -n 20 "$dir/dpkg.log" | sed 's/^/  | /'; fail "dpkg -i ${deb##*/} failed in the root file system"; }
rm -f "$root/tmp/${deb##*/}"
[ -s "$root/boot/initrd.img-$release" ] && pass "dpkg -i installed it and made initrd.img-$release" ||
	fail "installing the package made no initramfs (see $dir/dpkg.log)"
# The init below loads these (vfat needs fat, which nothing loads before);
# the unsigned crc7 is the build tree's (the package's are signed).
install -m 755 "$KTEST_SRC/pkg-init" "$root/sbin/ccd-pkg-check" &&
	printf '%s\n' vfat minix crc7 >"$root/etc/ccd-modules" &&
	cp "$dir/obj/lib/crc7.ko" "$root/root/unsigned-crc7.ko" || fail "cannot set up the root file system"
rm -f "$dir/disk.img"
mkfs.ext4 -q -F -L root -d "$root" "$dir/disk.img" "$(($(du -sm "$root" | cut -f1) + 256))M" ||
	fail "mkfs.ext4 -d failed"
expects=()
for e in "by the initramfs, e.g. ext4 virtio_blk virtio_pci" "modprobe vfat: ok" \
	"modprobe minix: ok" "modprobe crc7: ok" "insmod unsigned-crc7.ko: failed:" \
	"Key was rejected by service" "CCD-PKG: vfat uses: fat "; do
	expects+=(--expect="$e")
done
boot_kernel "$root/boot/vmlinuz-$release" x86_64 debian-61-deb --memory=1024 --timeout=900 \
	--initrd="$root/boot/initrd.img-$release" --disk="$dir/disk.img" \
	--append="root=/dev/vda ro init=/sbin/ccd-pkg-check module.sig_enforce=1" "${expects[@]}" ||
	bad "the installed package did not boot as expected (console: $KWORK/boot-debian-61-deb.log)"
rm -f "$dir/disk.img"
finish
