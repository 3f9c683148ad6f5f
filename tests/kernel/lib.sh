# SPDX-License-Identifier: GPL-2.0
# Shared by the 'kernel' suite's tests (sourced, bash).
#
# Builds are shared: need_build NAME builds configuration NAME once into
# $KWORK/NAME (under a lock, with a stamp naming what was built and with
# which ccd/lkd), and every later test that needs it reuses it.  A failed
# build leaves a .failed stamp so that the other tests of the same run fail
# at once instead of building again; the setup test clears them, and so
# does CCD_KTEST_RETRY=1.  A build stopped by SIGINT or SIGTERM is not
# failed: it starts over, or goes on where it stopped (KRESUMABLE).
#
# Environment (set by tests/kernel/meson.build): CCD LKD ASMFIX KTEST_SRC
# KTEST_WORK_DEFAULT.  Overrides: CCD_KTEST_WORK (the shared work dir),
# CCD_KTREE_CACHE (unpacked trees), CCD_KTEST_JOBS, KSOURCE (the 6.1
# tarball or tree), KSOURCE612 (the 6.12 one).

set -u -o pipefail

: "${CCD:?}" "${LKD:?}" "${ASMFIX:?}" "${KTEST_SRC:?}" "${KTEST_WORK_DEFAULT:?}"
KWORK=${CCD_KTEST_WORK:-$KTEST_WORK_DEFAULT}
export CCD_KTREE_CACHE=${CCD_KTREE_CACHE:-$KWORK/ktree}
KJOBS=${CCD_KTEST_JOBS:-2}
KSOURCE=${KSOURCE:-/usr/src/linux-source-6.1.tar.xz}
KSOURCE612=${KSOURCE612:-/usr/src/linux-source-6.12.tar.xz}
BAB=$KTEST_SRC/build-and-boot
SERIES=$KTEST_SRC/../../kernel-patches/linux-6.1/series
SERIES612=$KTEST_SRC/../../kernel-patches/linux-6.12/series
KBENCHDIR=$KTEST_SRC/../../kbench
KBENCHCFG=$KBENCHDIR/kbench.config
KBENCHCFG_ARM64=$KBENCHDIR/kbench-arm64.config
T=${0##*/}

mkdir -p "$KWORK" || exit 1

log() { echo "$T: $*"; }
. "$KTEST_SRC/../lib/check.sh"
CHECK_CONTEXT=$T

# What a configuration is built from: its recipe, the tools, the series.
tool_sum() {
	cat "$CCD" "$LKD" "${KBENCH:-/dev/null}" "$BAB" "$KBENCHDIR"/kbench*.config \
		"$KTEST_SRC"/distro/*.sample "$KTEST_SRC"/distro/gen-sample \
		"$KTEST_SRC"/configs/*.config \
		"$KTEST_SRC/init.c" \
		"$SERIES" "$(dirname "$SERIES")"/*.patch \
		"$SERIES612" "$(dirname "$SERIES612")"/*.patch | md5sum | cut -c1-16
}

# The configurations CI builds (kernel-setup builds them first, two at a
# time, the longest first).  x86_64 is the base, 6.1 on kbench's
# configuration: the oracle pair (whole, vmlinux and bzImage), the kernel
# kbench measures, the modules and the packages all use it.  Every other
# pair takes its turn: CI's 45 minutes hold the base and one more
# (measured in tests/README.md); the others are built only with
# CCD_KTEST_EXTENDED=1.
KCONFIGS_CI="x86_64"
# One more turn per CI run (the number of commits on HEAD picks it;
# CCD_KTEST_ROTATION=NAME picks one, =all takes every one): arm64 (kbench's
# arm64 kernel too), clang's own kernel on amd64, the samples of Debian's
# 6.1, 6.12 and arm64 6.1 configurations, and the pairs of Debian's other
# machines on kbench's configuration of each, one to a turn (each with its
# kernel-kbench-A; a turn may name two, A+B), and clang's ThinLTO kernel.
# In a turn the plain half of a pair makes some directories' objects
# (their -whole twins, extended, make all).  A pair joins once it has
# been run whole (tests/README.md): until then it is extended.
KCONFIGS_ROTATION="arm64 x86_64-clang-ias debian-61 debian-612 debian-61-arm64 armhf s390x armel x86_64-lto-thin"
# Every configuration of the rotation, one per word.
KCONFIGS_ROTATING=${KCONFIGS_ROTATION//+/ }
rotation_pick() {
	local r=${CCD_KTEST_ROTATION:-} n
	[ "$r" = all ] && { echo "$KCONFIGS_ROTATING"; return; }
	[ -n "$r" ] && { echo "${r//+/ }"; return; }
	n=$(git -C "$KTEST_SRC" rev-list --count HEAD 2>/dev/null || echo 0)
	set -- $KCONFIGS_ROTATION
	shift $((n % $#))
	echo "${1//+/ }"
}
KCONFIGS_PICKED=$(rotation_pick)
# With two builds at a time the base and the turn's start together.
KCONFIGS_CI="$KCONFIGS_CI $KCONFIGS_PICKED"
KCONFIGS_EXTENDED="x86_64-whole x86_64-pgo x86_64-612 x86_64-612-clang-keep x86_64-ccache"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED debian-61-clang x86_64-keep x86_64-clang i386"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED arm64-clang x86_64-clang-ias-whole x86_64-clang-gas x86_64-612-clang-ias x86_64-612-clang-gas arm64-clang-ias arm64-clang-gas"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED x86_64-612-identity x86_64-pgo-identity arm64-whole"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED armhf-whole armel-whole s390x-whole"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED riscv64 mipsel ppc64el mips64el"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED ppc32 ppc64 m68k ppc32-clang ppc64-clang"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED x86_64-lto-thin-whole x86_64-lto-full"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED x86_64-612-lto-thin arm64-lto-thin x86_64-612-kcfi"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED debian-61-lto-thin arm64-lto-full x86_64-612-lto-full"
KCONFIGS_EXTENDED="$KCONFIGS_EXTENDED arm64-612-lto-thin arm64-612-lto-full arm64-612-kcfi"
# Hours, not minutes: built only by its own test, with CCD_KTEST_FULL_DISTRO=1
# (and debian-61-shard-K below: a sixteenth of those hours each).
KCONFIGS_HOURS="debian-61-full debian-61-vmlinux debian-612-vmlinux"

# A test that needs an extended configuration skips (exit 77) unless asked for.
extended_only() {	# name
	case " $KCONFIGS_HOURS " in *" $1 "*)
		[ "${CCD_KTEST_FULL_DISTRO:-0}" = 1 ] && return 0
		log "SKIP: configuration $1 takes hours: built only with CCD_KTEST_FULL_DISTRO=1"
		exit 77 ;;
	esac
	case " $KCONFIGS_ROTATING " in *" $1 "*)
		case " $KCONFIGS_PICKED " in *" $1 "*) return 0 ;; esac
		[ "${CCD_KTEST_EXTENDED:-0}" = 1 ] && return 0
		log "SKIP: configuration $1 is in CI's rotation; this run's is $KCONFIGS_PICKED" \
			"(CCD_KTEST_ROTATION=$1 picks it)"
		exit 77 ;;
	esac
	case " $KCONFIGS_EXTENDED " in *" $1 "*) ;; *) return 0 ;; esac
	[ "${CCD_KTEST_EXTENDED:-0}" = 1 ] && return 0
	log "SKIP: configuration $1 is built only with CCD_KTEST_EXTENDED=1 (CI time budget)"
	exit 77
}

# 6.12's oracle compares these directories only: its plain build makes
# their objects and nothing else (no link, no boot), which halves its cost;
# the ccd build is whole (CI time budget; 6.1's oracle is whole).
ORACLE612_DIRS="arch/x86/ kernel/ mm/ init/"

# The recipes.  Each builds into $dir (obj/ is the O= directory).
# oracle_pair SOURCE FRAGMENT [DIRS] [ARCH] [relink|both]: plain gcc into
# gcc/ (only DIRS' objects if given), then ccd+lkd at the same path (ARCH:
# another architecture, built with its Debian cross compiler), its check
# report (ccd(1) CHECK REPORT) in check.txt.  With relink, ccd builds with
# Kbuild's own ld first (its objects and images kept in ld/), then the
# same tree with LD=lkd, which makes the links again and compiles
# nothing: kernel-oracle finds lkd's links byte-identical to ld's.  With
# both, the ccd build too makes DIRS' objects only (CI's turns: no link,
# no boot; partial says so).
oracle_pair() {
	local targets=() d arch=--arch=${4:-x86_64} t
	for d in ${3:-}; do targets+=(--target="$d"); done
	"$BAB" --source="$1" --fragment="$2" --out="$dir/obj" --jobs="$KJOBS" --no-boot \
		"$arch" "${targets[@]}" || return 1
	cp "$dir/obj/.ccd-build-seconds" "$dir/gcc.seconds"
	keep_outputs "$dir/gcc" && rm -rf "$dir/obj" "$dir/check.txt" "$dir/ld" || return 1
	[ -z "${3:-}" ] || echo "$3" >"$dir/gcc.dirs"
	case ${5:-} in
	both)
		ccd_half "$1" "$2" "$arch" "${targets[@]}" -- CC="$CCD" LD="$LKD" &&
			echo "$3" >"$dir/partial" ;;
	relink)
		ccd_half "$1" "$2" "$arch" -- CC="$CCD" || return 1
		t=$(cat "$dir/obj/.ccd-build-seconds")
		keep_outputs "$dir/ld" &&
			ccd_half "$1" "$2" "$arch" --as-configured -- CC="$CCD" LD="$LKD" &&
			cp "$dir/obj/.ccd-build-seconds" "$dir/relink.seconds" &&
			echo $((t + $(cat "$dir/relink.seconds"))) >"$dir/obj/.ccd-build-seconds" ;;
	*)
		ccd_half "$1" "$2" "$arch" -- CC="$CCD" LD="$LKD" ;;
	esac
}
# ccd_half SOURCE FRAGMENT [build-and-boot options] -- MAKE ARGS: the ccd
# build of a pair into obj/, its check report in check.txt, ccd's assembly kept.
ccd_half() {
	local src=$1 frag=$2
	shift 2
	CCD_CHECK_REPORT=$dir/check.txt CCD_ASSEM=both "$BAB" --source="$src" --fragment="$frag" \
		--out="$dir/obj" --jobs="$KJOBS" --no-boot "$@"
}
# A copy of obj/'s objects, images and link commands in DEST.
keep_outputs() {	# dest
	rm -rf "$1" && mkdir -p "$1" &&
		(cd "$dir/obj" && find . -name '*.o' -o -name bzImage -o -name Image -o -name vmlinux \
			-o -name zImage -o -name '*.dtb' -o -name .config -o -name .vmlinux.cmd |
			cpio -pdm --quiet "$1")
}

# The boot image of a configuration's architecture, below a build directory.
KIMAGE_x86_64=arch/x86/boot/bzImage
KIMAGE_arm64=arch/arm64/boot/Image
KIMAGE_riscv64=arch/riscv/boot/Image
KIMAGE_armhf=arch/arm/boot/zImage
KIMAGE_armel=arch/arm/boot/zImage
KIMAGE_ppc64el=vmlinux
KIMAGE_s390x=arch/s390/boot/bzImage
KIMAGE_mips64el=vmlinux
KIMAGE_mipsel=vmlinux
KIMAGE_ppc32=vmlinux
KIMAGE_ppc64=vmlinux
KIMAGE_m68k=vmlinux

# The base pair's plain half makes one of four parts of the tree, the
# parts in turn (the number of commits on HEAD picks one, CCD_KTEST_PART=0
# to 3 names it): each CI run compares about 200 of the 790 objects, four
# runs all of them; the ccd half is whole and relinked (oracle_pair), so
# vmlinux and bzImage are compared as lkd and ld link them.  x86_64-whole
# (extended) compares every object, vmlinux and bzImage with plain make's.
ORACLE_X86_PARTS=("arch/x86/" "init/ kernel/ mm/" "fs/ lib/ security/" "drivers/ net/")
x86_part() {
	local p=${CCD_KTEST_PART:-}
	[ -n "$p" ] || p=$(($(git -C "$KTEST_SRC" rev-list --count HEAD 2>/dev/null || echo 0) % 4))
	echo "${ORACLE_X86_PARTS[$p]}"
}
recipe_x86_64() { oracle_pair "$KSOURCE" "$KBENCHCFG" "$(x86_part)" x86_64 relink; }
recipe_x86_64_whole() { oracle_pair "$KSOURCE" "$KBENCHCFG"; }

# Other architectures, with Debian's cross gcc (CROSS_COMPILE set by build-and-boot).
# In CI's turn both builds of arm64's pair make the objects of
# ORACLE_ARM64_DIRS only (the architecture's own code, init, kernel, mm:
# 250 of 711): two whole -O2 kernels beside the base do not fit CI's
# budget.  arm64-whole (extended) compares every object, vmlinux and
# Image, boots, and is kbench's arm64 kernel (kernel-kbench-arm64).
ORACLE_ARM64_DIRS="arch/arm64/ init/ kernel/ mm/"
recipe_arm64() { oracle_pair "$KSOURCE" "$KBENCHCFG_ARM64" "$ORACLE_ARM64_DIRS" arm64 both; }
recipe_arm64_whole() { oracle_pair "$KSOURCE" "$KBENCHCFG_ARM64" "" arm64; }
# arm64 through ccd with the clang backend (Kbuild's CLANG_FLAGS give it
# --target=aarch64-linux-gnu from CROSS_COMPILE), GNU as and lkd.
recipe_arm64_clang() {
	CCD_CC=clang CCD_ASSEM=both "$BAB" --source="$KSOURCE" --fragment="$KBENCHCFG_ARM64" \
		--out="$dir/obj" --jobs="$KJOBS" --no-boot --arch=arm64 -- CC="$CCD" LD="$LKD"
}
# Debian's other architectures: each pair builds kbench's configuration of
# its machine (kbench config --arch=A: tinyconfig, what boots the static
# guest on the QEMU machine build-and-boot --arch names, and the
# benchmarks' symbols), so one pair is the oracle, the boot and the kernel
# kbench measures (kernel-kbench-A).
# arch_pair A [DIRS]: both builds make DIRS' objects only, if given.
# In CI's turn armhf, armel and s390x compare the architecture's own code,
# init, kernel and mm (255 of armhf's 747 objects); A-whole (extended)
# every object, vmlinux and the image, and boots it (kernel-kbench-A).
arch_pair() { oracle_pair "$KSOURCE" "$KBENCHDIR/kbench-$1.config" "${2:-}" "$1" ${2:+both}; }
recipe_riscv64() { arch_pair riscv64; }
recipe_armhf() { arch_pair armhf "arch/arm/ init/ kernel/ mm/"; }
recipe_armhf_whole() { arch_pair armhf; }
recipe_armel() { arch_pair armel "arch/arm/ init/ kernel/ mm/"; }
recipe_armel_whole() { arch_pair armel; }
recipe_ppc64el() { arch_pair ppc64el; }
recipe_s390x() { arch_pair s390x "arch/s390/ init/ kernel/ mm/"; }
recipe_s390x_whole() { arch_pair s390x; }
recipe_mips64el() { arch_pair mips64el; }
recipe_mipsel() { arch_pair mipsel; }
# Machines ClangBuiltLinux boots that Debian does not release, with
# Debian's cross gcc (extended): a boot configuration of their own
# (configs/A.config), no kbench.
boot_pair() { oracle_pair "$KSOURCE" "$KTEST_SRC/configs/$1.config" "" "$1"; }
recipe_ppc32() { boot_pair ppc32; }
recipe_ppc64() { boot_pair ppc64; }
recipe_m68k() { boot_pair m68k; }

recipe_x86_64_612() { oracle_pair "$KSOURCE612" "$KBENCHCFG" "$ORACLE612_DIRS"; }

# A kbench kernel made again with another build identity (host, user, time,
# build number): the same code, only init/version*.o and the link redone
# (kernel-kbench-identity, a minute).  identity_twin BUILD SUBDIR [make
# arguments]: BUILD's SUBDIR copied into obj/ (cp -a, not links: the link
# rewrites files in place) and made again at BUILD's own path, the copy
# bind-mounted there in a mount namespace of its own: Kbuild's objtool
# names its directory, and elsewhere every object would be built again.
# "from" names the build it was copied from, to tell a stale copy.
IDENTITY_ENV=(KBUILD_BUILD_HOST=elsewhere.example.org KBUILD_BUILD_USER=another-builder
	"KBUILD_BUILD_TIMESTAMP=Tue Mar 14 15:09:26 UTC 2023" KBUILD_BUILD_VERSION=42)
identity_twin() {	# build subdir [make arguments]
	local from=$KWORK/$1/$2
	[ -f "$KWORK/$1.ok" ] || { echo "$1 is not built"; return 1; }
	cp -a "$from" "$dir/obj" && cp "$KWORK/$1.ok" "$dir/from" || return 1
	shift 2
	env "${IDENTITY_ENV[@]}" unshare -m --propagation private bash -c \
		'mount --bind "$1" "$2" && d=$2 && shift 2 && exec make -C "$d" "$@" bzImage' \
		_ "$dir/obj" "$from" -j"$KJOBS" "$@"
}
# Can this machine make a mount namespace (root, or CAP_SYS_ADMIN)?
can_unshare() { unshare -m --propagation private true 2>/dev/null; }
# The base (6.1, kbench's configuration through ccd+lkd: SLUB since
# 2026-11-29; tinyconfig's SLOB, whose first-fit search made prot_fault
# move, before); extended: 6.12 through ccd (x86_64-612), 6.1 at -O2
# through ccd (the plain kernel of x86_64-pgo).
recipe_x86_64_identity() { identity_twin x86_64 obj ARCH=x86_64 CC="$CCD" LD="$LKD"; }
recipe_x86_64_612_identity() { identity_twin x86_64-612 obj CC="$CCD" LD="$LKD"; }
recipe_x86_64_pgo_identity() {
	identity_twin x86_64-pgo pgo/plain ARCH=x86_64 CC="$CCD" LD="$LKD" CCD_CC=gcc
}

# 6.12 through ccd with the clang backend, on the patched tree with the
# keep-alive accessors on: one build proves both (CI time is the budget).
recipe_x86_64_612_clang_keep() {
	CCD_CC=clang CCD_ASSEM=both "$BAB" --source="$KSOURCE612" --series="$SERIES612" \
		--fragment="$KBENCHCFG" --out="$dir/obj" --jobs="$KJOBS" \
		--enable=CCD_KEEP_ACCESSORS --no-boot -- CC="$CCD" LD="$LKD"
}

# 6.1's profile-guided loop, kbench pgo (plain, gcov-instrumented, trained
# in QEMU, rebuilt with the profile, both measured), on a hard-linked copy
# of the tree: the pgo test edits one file of it.
recipe_x86_64_pgo() {
	local tree=$CCD_KTREE_CACHE/$(basename "${KSOURCE%.tar*}")/pristine
	[ -d "$KSOURCE" ] && tree=$KSOURCE
	if [ -d "$tree" ]; then
		cp -al "$tree" "$dir/src" || return 1
	else
		mkdir -p "$dir/unpack" && tar -xf "$KSOURCE" -C "$dir/unpack" &&
			mv "$dir/unpack"/* "$dir/src" && rmdir "$dir/unpack" || return 1
	fi
	"$KBENCH" pgo --source="$dir/src" --out="$dir/pgo" --ccd="$CCD" --lkd="$LKD" \
		--jobs="$KJOBS" --quick
}

# 6.1 through ccache and ccd, ccache set up as doc/ecosystem.md says: a
# cold build into an empty cache, make clean, the same build again.  Each
# build's seconds, ccache's counters and vmlinux are kept for the test.
recipe_x86_64_ccache() {
	local b t0
	export CCACHE_DIR=$dir/cache CCACHE_COMPILERTYPE=gcc \
		CCACHE_COMPILERCHECK="%compiler% --ccd-identity"
	for b in cold warm; do
		ccache -z >/dev/null || return 1
		t0=$(date +%s)
		"$BAB" --source="$KSOURCE" --fragment="$KBENCHCFG" --out="$dir/obj" --jobs="$KJOBS" \
			--no-boot -- CC="ccache $CCD" LD="$LKD" || return 1
		echo $(($(date +%s) - t0)) >"$dir/$b.seconds"
		ccache --print-stats >"$dir/$b.stats" && cp "$dir/obj/vmlinux" "$dir/vmlinux.$b" ||
			return 1
		[ $b = warm ] || make -C "$dir/obj" clean >/dev/null || return 1
	done
}

recipe_x86_64_keep() {	# patched, keep-alive accessors on, through ccd+lkd
	CCD_ASSEM=both "$BAB" --source="$KSOURCE" --series="$SERIES" --fragment="$KBENCHCFG" \
		--out="$dir/obj" --jobs="$KJOBS" --enable=CCD_KEEP_ACCESSORS --no-boot \
		-- CC="$CCD" LD="$LKD"
}

# clang_pair SOURCE FRAGMENT MAKEVAR...: plain "make CC=$KCLANG VARS" into
# gcc/ (the reference's name in every pair), then ccd+lkd with the clang
# backend and the same VARS at the same path: clang's integrated assembler
# (no VARS) or GNU as (LLVM_IAS=0), either way the kernel clang makes.
# KDIRS: only these directories' objects, on both sides (no link, no boot).
clang_pair() {
	local src=$1 frag=$2 arch=--arch=${KARCH:-x86_64} targets=() d
	shift 2
	for d in ${KDIRS:-}; do targets+=(--target="$d"); done
	"$BAB" --source="$src" --fragment="$frag" --out="$dir/obj" --jobs="$KJOBS" --no-boot \
		"$arch" "${targets[@]}" -- CC="$KCLANG" "$@" && keep_plain || return 1
	CCD_CC=$KCLANG "$BAB" --source="$src" --fragment="$frag" --out="$dir/obj" --jobs="$KJOBS" \
		--no-boot "$arch" "${targets[@]}" -- CC="$CCD" LD="$LKD" "$@" || return 1
	[ -z "${KDIRS:-}" ] || echo "$KDIRS" >"$dir/partial"
}
# The plain build's objects and images moved to gcc/ (the reference's name in every pair).
keep_plain() {
	cp "$dir/obj/.ccd-build-seconds" "$dir/gcc.seconds" && keep_outputs "$dir/gcc" &&
		rm -rf "$dir/obj"
}
# lto_pair SOURCE FRAGMENT SYMBOL: clang's LTO kernels, as Android and
# ChromeOS build them: plain make LLVM=1 with CONFIG_SYMBOL (LTO_CLANG_THIN,
# LTO_CLANG_FULL) against make LLVM=1 CC=ccd LD=lkd at the same path.
# Nobody names clang or ld.lld twice: ccd and lkd take them from LLVM=, as
# Kbuild does (KARCH: another architecture; --target= from CROSS_COMPILE).
# KDIRS: both builds make only these directories' objects (bitcode: no
# LTO link, no boot; CI's budget); without it the ccd build's LTO links
# go through lkd, and it boots.  KLLVM: LLVM='s value (1; -16: clang-16
# and ld.lld-16).
lto_pair() {
	local bab=("$BAB" --source="$1" --fragment="$2" --enable="$3" --out="$dir/obj"
		--jobs="$KJOBS" --no-boot --arch="${KARCH:-x86_64}") targets=() d
	local llvm=LLVM=${KLLVM:-1}
	for d in ${KDIRS:-}; do targets+=(--target="$d"); done
	"${bab[@]}" "${targets[@]}" -- "$llvm" && keep_plain || return 1
	"${bab[@]}" "${targets[@]}" -- "$llvm" CC="$CCD" LD="$LKD" || return 1
	grep -qx "CONFIG_$3=y" "$dir/obj/.config" || { echo "CONFIG_$3 is not on"; return 1; }
	[ -z "${KDIRS:-}" ] || echo "$KDIRS" >"$dir/partial"
}
# CI's (in turn): both builds of arch/x86, init, kernel and mm only.
recipe_x86_64_lto_thin() {
	KDIRS="arch/x86/ init/ kernel/ mm/" lto_pair "$KSOURCE" "$KBENCHCFG" LTO_CLANG_THIN
}
recipe_x86_64_lto_thin_whole() { lto_pair "$KSOURCE" "$KBENCHCFG" LTO_CLANG_THIN; }
recipe_x86_64_lto_full() { lto_pair "$KSOURCE" "$KBENCHCFG" LTO_CLANG_FULL; }
recipe_arm64_lto_thin() { KARCH=arm64 lto_pair "$KSOURCE" "$KBENCHCFG_ARM64" LTO_CLANG_THIN; }
recipe_x86_64_612_lto_thin() { lto_pair "$KSOURCE612" "$KBENCHCFG" LTO_CLANG_THIN; }
recipe_x86_64_612_lto_full() { lto_pair "$KSOURCE612" "$KBENCHCFG" LTO_CLANG_FULL; }
recipe_arm64_lto_full() { KARCH=arm64 lto_pair "$KSOURCE" "$KBENCHCFG_ARM64" LTO_CLANG_FULL; }
recipe_arm64_612_lto_thin() { KARCH=arm64 lto_pair "$KSOURCE612" "$KBENCHCFG_ARM64" LTO_CLANG_THIN; }
recipe_arm64_612_lto_full() { KARCH=arm64 lto_pair "$KSOURCE612" "$KBENCHCFG_ARM64" LTO_CLANG_FULL; }
# Clang's kernel control-flow integrity (kCFI, as Android's kernels have it):
# 6.12 with clang 16, the first Debian 12 has that takes -fsanitize=kcfi.
recipe_x86_64_612_kcfi() { KLLVM=-16 lto_pair "$KSOURCE612" "$KBENCHCFG" CFI_CLANG; }
recipe_arm64_612_kcfi() { KARCH=arm64 KLLVM=-16 lto_pair "$KSOURCE612" "$KBENCHCFG_ARM64" CFI_CLANG; }
# Debian 12's clang (14) on 6.1; clang 16 on 6.12.  CI's is a third of the
# objects (arch/x86 with its boot, realmode and entry code, init, mm: 261
# of 788): a whole pair costs two clang builds, a quarter of CI's time.
recipe_x86_64_clang_ias() { KCLANG=clang KDIRS="arch/x86/ init/ mm/" clang_pair "$KSOURCE" "$KBENCHCFG"; }
recipe_x86_64_clang_ias_whole() { KCLANG=clang clang_pair "$KSOURCE" "$KBENCHCFG"; }
recipe_x86_64_clang_gas() { KCLANG=clang clang_pair "$KSOURCE" "$KBENCHCFG" LLVM_IAS=0; }
recipe_x86_64_612_clang_ias() { KCLANG=clang-16 clang_pair "$KSOURCE612" "$KBENCHCFG"; }
recipe_x86_64_612_clang_gas() { KCLANG=clang-16 clang_pair "$KSOURCE612" "$KBENCHCFG" LLVM_IAS=0; }
recipe_arm64_clang_ias() { KCLANG=clang KARCH=arm64 clang_pair "$KSOURCE" "$KBENCHCFG_ARM64"; }
recipe_arm64_clang_gas() { KCLANG=clang KARCH=arm64 clang_pair "$KSOURCE" "$KBENCHCFG_ARM64" LLVM_IAS=0; }
# The machines beyond Debian's list that Linux builds with clang (m68k it
# does not): their boot configurations, plain clang against clang behind ccd.
recipe_ppc32_clang() { KCLANG=clang KARCH=ppc32 clang_pair "$KSOURCE" "$KTEST_SRC/configs/ppc32.config"; }
recipe_ppc64_clang() { KCLANG=clang KARCH=ppc64 clang_pair "$KSOURCE" "$KTEST_SRC/configs/ppc64.config"; }

recipe_x86_64_clang() {	# clang backend behind ccd
	CCD_CC=clang CCD_ASSEM=both "$BAB" --source="$KSOURCE" --fragment="$KBENCHCFG" \
		--out="$dir/obj" --jobs="$KJOBS" --no-boot -- CC="$CCD" LD="$LKD"
}

recipe_i386() {
	CCD_ASSEM=both "$BAB" --source="$KSOURCE" --fragment="$KBENCHCFG" --arch=i386 \
		--out="$dir/obj" --jobs="$KJOBS" --no-boot -- CC="$CCD" LD="$LKD"
}

# Debian's configurations, as a packager builds them outside Debian's own
# packaging: no signing keys, no module signing, no BTF (no pahole).
DISTRO_FIXES=(--set-str=SYSTEM_TRUSTED_KEYS= --set-str=SYSTEM_REVOCATION_KEYS=
	--disable=MODULE_SIG_ALL --disable=DEBUG_INFO_BTF)
DEBIAN61=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
DEBIAN612=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
# Debian's arm64 configuration (scripts/install-deps unpacks it from the
# arm64 package of linux-config-6.1).
DEBIAN61_ARM64=/usr/local/src/linux-config-6.1/config.arm64_none_arm64.xz
SAMPLES=$KTEST_SRC/distro

# The make targets of a sample file (objects and directories), as --target=.
sample_targets() {	# sample
	local t
	while read -r t _; do
		case $t in ''|'#'*) continue ;; esac
		echo "--target=$t"
	done <"$1"
}

# The objects a sample made in an O= directory: a directory target gives
# every .o in it, vmlinux or modules every .o of the tree (host tools aside).
sample_objects() {	# sample objdir
	local t
	while read -r t _; do
		case $t in
		''|'#'*) continue ;;
		vmlinux|modules) (cd "$2" && find . -path ./scripts -prune -o -path ./tools -prune \
			-o -name '*.o' -printf '%P\n') ;;
		*/) (cd "$2" && find "$t" -name '*.o' 2>/dev/null) ;;
		*) [ -f "$2/$t" ] && echo "$t" ;;
		esac
	done <"$1" | sort -u
}

# distro_pair SOURCE CONFIG SAMPLE [ARCH]: the sample built with plain gcc
# (make -k: what gcc cannot build is left out), its objects kept in gcc/,
# then through ccd+lkd in the same O= directory: Kconfig and prepare are
# shared, every compile runs again (Kbuild sees a new command line), ccd's
# check report in check.txt.  ARCH: another architecture, with its Debian
# cross gcc.  KDISTRO_MAKE: make arguments of both builds (LLVM=1: clang's
# instead of gcc); KDISTRO_ENABLE: a symbol turned on in the configuration.
distro_pair() {
	local targets arch=--arch=${4:-x86_64} mk en=()
	read -ra mk <<<"${KDISTRO_MAKE:-}"
	[ -z "${KDISTRO_ENABLE:-}" ] || en=(--enable="$KDISTRO_ENABLE")
	mapfile -t targets < <(sample_targets "$3")
	"$BAB" --source="$1" --config="$2" "${DISTRO_FIXES[@]}" "${en[@]}" --out="$dir/obj" \
		--jobs="$KJOBS" --no-boot "$arch" "${targets[@]}" -- -k "${mk[@]}"
	echo $? >"$dir/gcc.status"
	sample_objects "$3" "$dir/obj" >"$dir/gcc.list"
	[ -s "$dir/gcc.list" ] && keep_gcc || return 1
	CCD_CHECK_REPORT=$dir/check.txt "$BAB" --source="$1" --config="$2" "${DISTRO_FIXES[@]}" \
		"${en[@]}" --out="$dir/obj" --jobs="$KJOBS" --no-boot "$arch" "${targets[@]}" -- -k \
		"${mk[@]}" CC="$CCD" LD="$LKD"
	echo $? >"$dir/ccd.status"
	sample_objects "$3" "$dir/obj" >"$dir/ccd.list"
}

# What plain gcc built (gcc.list) moved to gcc/: the ccd build makes each
# again, and a file it fails to make is missing, not gcc's left over.
keep_gcc() {
	rm -f "$dir/check.txt"
	rm -rf "$dir/gcc" && mkdir "$dir/gcc" &&
		(cd "$dir/obj" && cpio -pdm --quiet "$dir/gcc" <"$dir/gcc.list" &&
			xargs rm -f <"$dir/gcc.list")
}

# Debian's configuration as Debian builds it, BTF on (pahole, from
# dwarves): only what keeps two builds from being compared is changed, the
# signing keys and the build salt emptied and module signing off.  The
# modules' signing key is the build's own: Kbuild makes one
# (certs/signing_key.pem) in the first build, and the second keeps it.
DISTRO_FIXES_BTF=(--set-str=SYSTEM_TRUSTED_KEYS= --set-str=SYSTEM_REVOCATION_KEYS=
	--set-str=BUILD_SALT= --disable=MODULE_SIG_ALL)
# A few of the configuration's modules, built beside the image, compared
# and then signed and loaded by the booted ccd kernel.  Each needs no other
# module: modpost of a single module knows only vmlinux's symbols (isofs
# needs cdrom, a module in Debian's configurations).
DISTRO_MODULES="lib/crc7.ko fs/minix/minix.ko fs/qnx4/qnx4.ko"
DISTRO_IMAGES="vmlinux arch/x86/boot/bzImage $DISTRO_MODULES"

# distro_image SOURCE CONFIG: a distribution's whole bzImage and
# DISTRO_MODULES, plain gcc and then ccd+lkd at the same path: every
# object, vmlinux (.BTF in it), bzImage and the modules kept from the
# plain build (gcc.list), the ccd build's objects in ccd.list, then
# boot_signed (boot.status, boot.log).
distro_image() {
	local i targets=(--target=bzImage) bab flags
	bab=("$BAB" --source="$1" --config="$2" "${DISTRO_FIXES_BTF[@]}" --out="$dir/obj"
		--jobs="$KJOBS" --no-boot)
	for i in $DISTRO_MODULES; do targets+=(--target="$i"); done
	# Configured and prepared first, so that the two timed builds each
	# compile every C object and link (gcc.time, ccd.time: wall, user, system).
	"${bab[@]}" --target=prepare || return 1
	mapfile -t flags < <(reproducible_btf "$dir/obj/source")
	/usr/bin/time -q -f '%e %U %S' -o "$dir/gcc.time" "${bab[@]}" "${targets[@]}" -- "${flags[@]}"
	echo $? >"$dir/gcc.status"
	{ image_objects; for i in $DISTRO_IMAGES; do [ -f "$dir/obj/$i" ] && echo "$i"; done; } \
		>"$dir/gcc.list"
	[ -s "$dir/gcc.list" ] && keep_gcc || return 1
	CCD_CHECK_REPORT=$dir/check.txt /usr/bin/time -q -f '%e %U %S' -o "$dir/ccd.time" \
		"${bab[@]}" "${targets[@]}" -- CC="$CCD" LD="$LKD" "${flags[@]}"
	echo $? >"$dir/ccd.status"
	image_objects >"$dir/ccd.list"
	boot_signed "$1" >"$dir/boot.log" 2>&1
	echo $? >"$dir/boot.status"
}
image_objects() { sample_objects <(echo vmlinux) "$dir/obj"; }

# reproducible_btf TREE: the make argument that makes BTF reproducible.
# pahole 1.22 to 1.26 with -j encode types in the order their threads
# finish (three runs on one vmlinux, three sizes of .BTF); 6.12's Kbuild
# leaves -j out when KBUILD_BUILD_TIMESTAMP is set, 6.1's
# (scripts/pahole-flags.sh) passes it always: its flags without -j.
reproducible_btf() {
	[ -f "$1/scripts/pahole-flags.sh" ] || return 0
	echo "PAHOLE_FLAGS=$(PAHOLE=pahole sh "$1/scripts/pahole-flags.sh" | sed -E 's/(^| )-j( |$)/\1/')"
}

# boot_signed SOURCE: the ccd kernel boots with module.sig_enforce=1 (a
# distribution kernel under TCG takes minutes): the ccd modules, signed
# with the build's key, load; an unsigned copy of the first is refused.
boot_signed() {
	local m b hash mods=() expects=() obj=$dir/obj sd=$dir/signed
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$obj/.config")
	[ -n "$hash" ] && [ -f "$obj/certs/signing_key.pem" ] || { echo "no module signing key"; return 1; }
	rm -rf "$sd" && mkdir "$sd" || return 1
	for m in $DISTRO_MODULES; do
		b=${m##*/}
		cp "$obj/$m" "$sd/$b" && "$obj/scripts/sign-file" "$hash" "$obj/certs/signing_key.pem" \
			"$obj/certs/signing_key.x509" "$sd/$b" || return 1
		[ ${#mods[@]} = 0 ] && { cp "$obj/$m" "$sd/unsigned-$b" || return 1
			mods+=(--module="$sd/unsigned-$b")
			expects+=(--expect="insmod unsigned-$b: failed: Key was rejected by service"); }
		mods+=(--module="$sd/$b")
		expects+=(--expect="insmod $b: ok")
	done
	"$BAB" --source="$1" --out="$obj" --no-build --memory=1024 --timeout=900 \
		--append=module.sig_enforce=1 "${mods[@]}" "${expects[@]}"
}

# distro_clang SOURCE CONFIG SAMPLE: the sample through ccd with the clang
# backend; then plain clang on what ccd did not build, to tell ccd's
# failures from clang's own.
distro_clang() {
	local targets retry=() t
	mapfile -t targets < <(sample_targets "$3")
	CCD_CC=clang "$BAB" --source="$1" --config="$2" "${DISTRO_FIXES[@]}" --out="$dir/obj" \
		--jobs="$KJOBS" --no-boot "${targets[@]}" -- -k CC="$CCD" LD="$LKD"
	echo $? >"$dir/ccd.status"
	sample_objects "$3" "$dir/obj" >"$dir/ccd.list"
	[ -s "$dir/ccd.list" ] || return 1
	for t in "${targets[@]}"; do
		t=${t#--target=}
		case $t in */) continue ;; esac
		grep -qxF "$t" "$dir/ccd.list" || retry+=(--target="$t")
	done
	: >"$dir/clang-only.list"
	[ ${#retry[@]} = 0 ] && return 0
	"$BAB" --source="$1" --config="$2" "${DISTRO_FIXES[@]}" --out="$dir/obj" \
		--jobs="$KJOBS" --no-boot "${retry[@]}" -- -k CC=clang
	sample_objects "$3" "$dir/obj" | comm -23 - "$dir/ccd.list" >"$dir/clang-only.list"
}

recipe_debian_61() { distro_pair "$KSOURCE" "$DEBIAN61" "$SAMPLES/debian-6.1.sample"; }
recipe_debian_612() { distro_pair "$KSOURCE612" "$DEBIAN612" "$SAMPLES/debian-6.12.sample"; }
recipe_debian_61_arm64() {
	distro_pair "$KSOURCE" "$DEBIAN61_ARM64" "$SAMPLES/debian-6.1-arm64.sample" arm64
}
# The whole of Debian's 6.1 configuration, vmlinux and every module (hours).
recipe_debian_61_full() { distro_pair "$KSOURCE" "$DEBIAN61" "$SAMPLES/debian-6.1-full.sample"; }
# Debian's whole bzImage with BTF, 6.1 and 6.12 (hours).
recipe_debian_61_vmlinux() { distro_image "$KSOURCE" "$DEBIAN61"; }
recipe_debian_612_vmlinux() { distro_image "$KSOURCE612" "$DEBIAN612"; }
# The 6.1 sample as Android and ChromeOS build kernels: LLVM=1 with ThinLTO
# (every object bitcode), plain against ccd+lkd.
recipe_debian_61_lto_thin() {
	KDISTRO_MAKE=LLVM=1 KDISTRO_ENABLE=LTO_CLANG_THIN \
		distro_pair "$KSOURCE" "$DEBIAN61" "$SAMPLES/debian-6.1.sample"
}
recipe_debian_61_clang() { distro_clang "$KSOURCE" "$DEBIAN61" "$SAMPLES/debian-6.1.sample"; }

# distro_shard SOURCE CONFIG K: shard K of DISTRO_SHARDS of a distribution
# configuration (every C object `make -n` lists for vmlinux and the
# modules, sorted, every DISTRO_SHARDS-th from the K-th) built through
# ccd+lkd alone, with ccd's check report: the whole configuration
# accounted for in parts, without a second, plain build (the samples
# compare with plain gcc).  all.list: every object; shard.list: this one's.
DISTRO_SHARDS=16
distro_shard() {
	local targets
	"$BAB" --source="$1" --config="$2" "${DISTRO_FIXES[@]}" --out="$dir/obj" \
		--jobs="$KJOBS" --no-boot --target=prepare -- -k CC="$CCD" LD="$LKD" || return 1
	"$SAMPLES/gen-sample" "$dir/obj/source" "$dir/obj" all CC="$CCD" LD="$LKD" \
		>"$dir/all.list" || return 1
	awk -v k="$3" -v n="$DISTRO_SHARDS" 'NR % n == k % n' "$dir/all.list" >"$dir/shard.list"
	mapfile -t targets < <(sed 's/^/--target=/' "$dir/shard.list")
	rm -f "$dir/check.txt"
	CCD_CHECK_REPORT=$dir/check.txt "$BAB" --source="$1" --config="$2" "${DISTRO_FIXES[@]}" \
		--out="$dir/obj" --jobs="$KJOBS" --no-boot "${targets[@]}" -- -k CC="$CCD" LD="$LKD"
	echo $? >"$dir/ccd.status"
	# A few objects cannot be made alone, not even by plain make (the
	# real-mode trampoline's: its Makefile sets their flags when Kbuild
	# enters it from the directory above): made with that directory.
	mapfile -t targets < <(while IFS= read -r o; do
		[ -f "$dir/obj/$o" ] || echo "--target=$(dirname "$(dirname "$o")")/"
	done <"$dir/shard.list" | sort -u)
	[ ${#targets[@]} = 0 ] && return 0
	printf '%s\n' "${targets[@]#--target=}" >"$dir/by-directory.list"
	CCD_CHECK_REPORT=$dir/check.txt "$BAB" --source="$1" --config="$2" "${DISTRO_FIXES[@]}" \
		--out="$dir/obj" --jobs="$KJOBS" --no-boot "${targets[@]}" -- -k CC="$CCD" LD="$LKD"
}
# Debian's whole 6.1 configuration packaged by `make bindeb-pkg` through
# ccd+lkd alone (hours): vmlinux, every module, the .debs.  Nothing to
# compare it with (the vmlinux test and the shards compare): ccd's check
# report vouches for every compile (all.list: every C object, listed after
# prepare, before the first part).  The modules are signed, with the
# build's own key, as Debian signs what it ships; the debs are not
# compressed (time, not a test).
DISTRO_FIXES_DEB=(--set-str=SYSTEM_TRUSTED_KEYS= --set-str=SYSTEM_REVOCATION_KEYS=
	--enable=MODULE_SIG_ALL)
distro_deb() {
	local bab release
	bab=("$BAB" --source="$1" --config="$2" "${DISTRO_FIXES_DEB[@]}" --out="$dir/obj"
		--jobs="$KJOBS" --no-boot)
	"${bab[@]}" --target=prepare -- CC="$CCD" LD="$LKD" || return 1
	# Listed once, before the first compile: in a resumed build, make -n
	# lists only what is left.
	[ -s "$dir/all.list" ] ||
		{ "$SAMPLES/gen-sample" "$dir/obj/source" "$dir/obj" all CC="$CCD" LD="$LKD" \
			>"$dir/all.list.new" && mv "$dir/all.list.new" "$dir/all.list"; } ||
		{ rm -f "$dir/all.list.new"; return 1; }
	release=$(cat "$dir/obj/include/config/kernel.release") || return 1
	CCD_CHECK_REPORT=$dir/check.txt KDEB_PKGVERSION=$release-1 KDEB_COMPRESS=none \
		/usr/bin/time -q -a -f '%e %U %S' -o "$dir/ccd.time" \
		"${bab[@]}" --target=bindeb-pkg -- CC="$CCD" LD="$LKD"
}
recipe_debian_61_deb() { distro_deb "$KSOURCE" "$DEBIAN61"; }
KCONFIGS_HOURS="$KCONFIGS_HOURS debian-61-deb"
# Longer than a session: ccd.time has a line for each part (time writes
# its line when make stops on SIGINT).
KRESUMABLE="debian-61-deb"

# debian_rootfs DIR: a minimal Debian 12 system in DIR (debootstrap's
# minbase, with kmod and initramfs-tools so that a kernel package's
# postinst makes its initramfs), made once from CCD_DEBIAN_MIRROR and kept
# as a tarball beside the kernel trees.
debian_rootfs() {
	local tar=$CCD_KTREE_CACHE/bookworm-minbase.tar
	(
		flock 9 || exit 1
		[ -f "$tar" ] && exit 0
		log "making a Debian 12 root file system (debootstrap, log $tar.log)"
		rm -rf "$tar.d" &&
			debootstrap --variant=minbase --include=kmod,initramfs-tools,zstd bookworm \
				"$tar.d" "${CCD_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$tar.log" 2>&1 &&
			tar -C "$tar.d" -cf "$tar.new" . && mv "$tar.new" "$tar" ||
			{ tail -n 5 "$tar.log" | sed 's/^/  | /'; rm -rf "$tar.d" "$tar.new"; exit 1; }
		rm -rf "$tar.d"
	) 9>"$tar.lock" || return 1
	rm -rf "$1" && mkdir -p "$1" && tar -C "$1" -xf "$tar"
}

# account LIST: every object of LIST (paths below $dir/obj) was built, and
# ccd's check report ($dir/check.txt) says of each that it is the backend's
# own (same) or that a named pass repaired it; the safety net caught
# nothing.  Sets n, built, same, repaired, other (built, neither).
account() {
	local o w unbuilt=0 unsaid=0 summary
	local -A said=()
	while read -r w o _; do said[$o]=$w; done <"$dir/check.txt"
	n=0 built=0 same=0 repaired=0
	while IFS= read -r o; do
		n=$((n + 1))
		if [ ! -f "$dir/obj/$o" ]; then
			unbuilt=$((unbuilt + 1))
			[ $unbuilt -le 20 ] && echo "  | not built through ccd+lkd: $o"
			continue
		fi
		built=$((built + 1))
		w=${said[$o]:-}
		case $w in
		same) same=$((same + 1)) ;;
		repaired) repaired=$((repaired + 1)) ;;
		'') unsaid=$((unsaid + 1)); echo "  | no check line: $o" ;;
		esac
	done <"$1"
	other=$((built - same - repaired))
	summary=$("$CCD" --ccd-check-summary="$dir/check.txt") || bad "the check report: $summary"
	log "check report: $summary"
	[ $unbuilt = 0 ] || { grep -E 'error:|Error ' "$dir.log" | head -20 | sed 's/^/  | /'
		bad "$unbuilt of $n objects did not build through ccd+lkd"; }
	[ $unsaid = 0 ] || bad "$unsaid objects have no check line"
	[ $other = 0 ] || bad "$other objects are neither the backend's own nor repaired by a pass"
	grep -F 'GNU as rejected the assembly' "$dir.log" | head -5 | sed 's/^/  | safety net: /'
	! grep -qF 'GNU as rejected the assembly' "$dir.log" || bad "the safety net caught a pass's rewrite"
}

for k in $(seq 1 $DISTRO_SHARDS); do
	eval "recipe_debian_61_shard_$k() { distro_shard \"\$KSOURCE\" \"\$DEBIAN61\" $k; }"
	KCONFIGS_HOURS="$KCONFIGS_HOURS debian-61-shard-$k"
done

# build_locked NAME: build configuration NAME with its recipe (log
# $dir.log), or reuse the build made with the same tools and sources.  A
# build of KRESUMABLE stopped part way (SIGINT to its process group at a
# session's end: $dir.partial left, no .ok, no .failed) goes on in the same
# tree the next time: its recipe is make, which is incremental.
build_locked() {	# name
	local name=$1 key t0 spent=0
	dir=$KWORK/$name
	key="$name $(tool_sum) $KSOURCE $KSOURCE612"
	if [ -f "$dir.ok" ] && [ "$(cat "$dir.ok")" = "$key" ]; then
		log "reusing build $name ($dir)"
		return 0
	fi
	if [ -f "$dir.failed" ] && [ "$(cat "$dir.failed")" = "$key" ] &&
	   [ "${CCD_KTEST_RETRY:-0}" != 1 ]; then
		log "build $name failed earlier in this run; its log: $dir.log"
		log "(set CCD_KTEST_RETRY=1 or run the kernel-setup test to retry)"
		tail -n 25 "$dir.log" | sed 's/^/  | /'
		return 1
	fi
	if [[ " $KRESUMABLE " = *" $name "* ]] && [ -f "$dir.log" ] &&
	   [ "$(sed -n 1p "$dir.partial" 2>/dev/null)" = "$key" ]; then
		# Interrupted (a session's end): make goes on where it stopped.
		# The earlier runs' time: up to the last write to the log.
		spent=$(($(sed -n 2p "$dir.partial") + $(stat -c %Y "$dir.log") - $(sed -n 3p "$dir.partial")))
		log "resuming build $name, interrupted after $spent s (log $dir.log)"
		echo "=== resumed $(date -u)" >>"$dir.log"
	else
		rm -rf "$dir" "$dir.ok" "$dir.failed" && mkdir -p "$dir" && : >"$dir.log" || return 1
		log "building $name (log $dir.log)"
	fi
	t0=$(date +%s)
	printf '%s\n%s\n%s\n' "$key" "$spent" "$t0" >"$dir.partial"
	# Stopped, not failed: make may exit 2 on SIGINT, so die of the signal
	# once the command it reached returns, before the verdict below.
	trap 'trap - INT; kill -INT $BASHPID' INT
	trap 'trap - TERM; kill -TERM $BASHPID' TERM
	if "recipe_${name//-/_}" >>"$dir.log" 2>&1; then
		trap - INT TERM
		echo $((spent + $(date +%s) - t0)) >"$dir.seconds"
		echo "$key" >"$dir.ok"
		rm -f "$dir.partial"
		log "built $name in $(cat "$dir.seconds") s"
		return 0
	fi
	trap - INT TERM
	echo "$key" >"$dir.failed"
	rm -f "$dir.partial"
	log "build $name FAILED after $((spent + $(date +%s) - t0)) s; end of $dir.log:"
	grep -E 'error|Error|FAIL' "$dir.log" | head -n 20 | sed 's/^/  | /'
	tail -n 25 "$dir.log" | sed 's/^/  | /'
	return 1
}

# need_build NAME: build (or reuse) configuration NAME; sets $dir.
need_build() {
	local rc
	extended_only "$1"
	dir=$KWORK/$1
	(
		flock 9 || exit 1
		build_locked "$1"
	) 9>"$KWORK/$1.lock"
	rc=$?
	dir=$KWORK/$1
	return $rc
}

# Every object below DIR (archives are thin: their members are these) passes lkd --lkd-verify.
# The boot decompressors' objects (arch/*/boot/compressed) go into a
# standalone image by a final link, never into a module: they skip the
# common check (mips' head.S declares its heap and stack with .comm).
verify_objects() {	# dir
	local list=$KWORK/verify.$$.list rc boot=$KWORK/verify.$$.boot
	(cd "$1" && find "$PWD" -name '*.o' -o -name '*.ko') | sort >"$list.all"
	grep -v '/boot/compressed/' "$list.all" >"$list"
	grep '/boot/compressed/' "$list.all" >"$boot"
	rm -f "$list.all"
	log "lkd --lkd-verify over $(wc -l <"$list") objects of $1" \
		"(and $(wc -l <"$boot") of boot/compressed without the common check)"
	"$LKD" --lkd-verify @"$list" >"$list.out" 2>&1
	rc=$?
	if [ $rc = 0 ] && [ -s "$boot" ]; then
		"$LKD" --lkd-verify --lkd-checks=altinstr @"$boot" >"$list.out" 2>&1
		rc=$?
	fi
	rm -f "$boot"
	if [ $rc != 0 ]; then
		head -n 40 "$list.out" | sed 's/^/  | /'
		rm -f "$list" "$list.out"
		echo "$T: FAIL: lkd --lkd-verify exit $rc (above)"
		return 1
	fi
	rm -f "$list" "$list.out"
}

# asmfix's lockfix pass rewrites nothing in the backend's assembly that ccd
# kept (CCD_ASSEM=both: <source>.raw.S next to each object).
lockfix_clean() {	# dir
	local n=0 bad=0 f out rc
	while IFS= read -r f; do
		n=$((n + 1))
		out=$("$ASMFIX" --check --stats --passes=lockfix "$f" 2>&1 >/dev/null)
		rc=$?
		if [ $rc != 0 ]; then	# 2: it would rewrite; else an error
			[ $bad -lt 10 ] && echo "  | $f: exit $rc: $out"
			bad=$((bad + 1))
		fi
	done < <(find "$1" -name '*.raw.S')
	[ $n -gt 0 ] || { echo "$T: FAIL: no .raw.S files under $1 (CCD_ASSEM=both?)"; return 1; }
	log "asmfix --check --passes=lockfix: $n files, $bad with rewrites or errors"
	[ $bad = 0 ] || { echo "$T: FAIL: lockfix would rewrite (or failed on) $bad files"; return 1; }
}

# boot_kernel IMAGE ARCH LOGNAME [build-and-boot options]
boot_kernel() {
	local image=$1 arch=$2 name=$3
	shift 3
	"$BAB" --no-build --arch="$arch" --kernel="$image" --out="$KWORK/boot-$name" \
		--log="$KWORK/boot-$name.log" "$@"
}
