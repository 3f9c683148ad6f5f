#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-kbench-recipe: kbench(1)'s recipe as written (make O=out tinyconfig,
# kbench config >>out/.config, make O=out olddefconfig) configures the 64-bit
# kernel kbench runs on an x86_64 host, whatever ARCH the user spells (none,
# x86, x86_64): Linux 6.1's tree of the base build, configured only (seconds).
# And `kbench backends --config` on Debian's 6.1 amd64 configuration: the
# distribution's choices stay, kbench's boot symbols are on, no keys, no
# debug info (configured by kbench itself, through ccd with clang: Kconfig
# sees the compiler that builds, so the build asks nothing new; its build
# stops at its first object, a ccd that fails every object's compile).
. "$(dirname "$0")/lib.sh"
: "${KBENCH:?KBENCH must name the kbench binary}"

need_build x86_64 || fail "the x86_64 build failed"
tree=$(readlink -f "$dir/obj/source") && [ -f "$tree/Makefile" ] || fail "no kernel tree at $dir/obj/source"
for a in "" x86 x86_64; do
	out=$KWORK/kbench-recipe${a:+-$a}
	rm -rf "$out" && mkdir -p "$out" || fail "cannot make $out"
	make -C "$tree" O="$out" ${a:+ARCH=$a} -s tinyconfig >/dev/null || fail "tinyconfig (ARCH=$a)"
	"$KBENCH" config >>"$out/.config" || fail "kbench config"
	make -C "$tree" O="$out" ${a:+ARCH=$a} -s olddefconfig >/dev/null || fail "olddefconfig (ARCH=$a)"
	for sym in 64BIT X86_64 INET BLK_DEV_INITRD; do
		grep -qx "CONFIG_$sym=y" "$out/.config" ||
			bad "ARCH=${a:-unset}: CONFIG_$sym is not on ($(grep -E "CONFIG_$sym[ =]" "$out/.config"))"
	done
	rm -rf "$out"
done
deb=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
out=$KWORK/kbench-recipe-config
rm -rf "$out" && mkdir -p "$out" || fail "cannot make $out"
xz -dc "$deb" >"$out/debian.config" || fail "cannot read $deb"
# ccd itself for Kconfig's probes (their output /dev/null or .tmp_PID/), a failure for an object.
cat >"$out/ccd-fails" <<EOT || fail "cannot write $out/ccd-fails"
#!/bin/sh
for a; do case \$a in .tmp_* | */.tmp_*) ;; *.o) exit 1;; esac; done
exec "$CCD" "\$@"
EOT
chmod +x "$out/ccd-fails" || fail "cannot make $out/ccd-fails executable"
"$KBENCH" backends --source="$tree" --config="$out/debian.config" --cc=clang --cc=gcc-11 \
	--out="$out/kb" --ccd="$out/ccd-fails" --lkd="$LKD" >"$out/log" 2>&1
st=$?
[ "$st" = 3 ] && grep -q "the clang kernel did not build" "$out/log" ||
	bad "backends --config with a failing ccd: exit $st, not 3: $(tail -3 "$out/log")"
# Configured for another compiler, the build would configure it again and
# ask about what clang has and gcc has not (KMSAN...).
grep "(NEW)" "$out/log" && bad "backends --config: Kconfig asked at build time"
c=$out/kb/clang/.config
grep -qx CONFIG_CC_IS_CLANG=y "$c" || bad "backends --config: not configured for clang"

for want in CONFIG_SMP=y CONFIG_NR_CPUS=8192 CONFIG_IPV6=y CONFIG_SLUB=y CONFIG_MODULES=y \
	CONFIG_SERIAL_8250_CONSOLE=y CONFIG_BLK_DEV_INITRD=y CONFIG_X86_IOPL_IOPERM=y \
	CONFIG_DEBUG_INFO_NONE=y 'CONFIG_SYSTEM_TRUSTED_KEYS=""'; do
	grep -qxF "$want" "$c" || bad "backends --config: no $want ($(grep -E "${want%%=*}[ =]" "$c"))"
done
grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$c" && bad "backends --config: BTF still on"
[ -e "$out/kb/gcc-11" ] && bad "backends --config: went on after the first kernel failed"
[ "$failed" = 0 ] && rm -rf "$out"
[ "$failed" = 0 ] && pass "the recipe configures a 64-bit kernel with every ARCH spelling;" \
	"--config keeps Debian's choices"
finish
