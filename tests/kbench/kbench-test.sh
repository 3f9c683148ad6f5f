#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbench tests that need no QEMU (suite 'kbench'): usage and exit statuses,
# the configuration fragment, the initramfs writer read back by GNU cpio,
# and compare on result fixtures (table figures, signs, errors, the chart).
#   kbench-test.sh CASE   (KBENCH=path/to/kbench, FIXTURES=tests/kbench/fixtures,
#                          KBENCH_CONFIG=kbench/kbench.config)
set -u
. "$(dirname "$0")/lib.sh"
# arm64image FILE: the same with arm64's Image magic
arm64image() { { head -c 56 /dev/zero; printf 'ARM\x64'; head -c 64 /dev/zero; } >"$1"; }
# row NAME: the table line of benchmark NAME
row() { grep -E "^$1 " out.txt || fail "no row $1 in the table"; }

case_usage() {
	expect 2 "$KBENCH"
	has err.txt "kbench: error: no command"
	expect 2 "$KBENCH" frobnicate
	has err.txt "unknown command 'frobnicate'"
	# --help of a command kbench has not: the same error, not the help page.
	expect 2 "$KBENCH" frobnicate --help
	has err.txt "unknown command 'frobnicate'"
	expect 0 "$KBENCH" profile --help
	has out.txt "kbench profile --record=REC"
	expect 0 "$KBENCH" --help
	has out.txt "usage: kbench run"
	has out.txt "exit status"
	expect 0 "$KBENCH" backends --help
	has out.txt "usage: kbench run"
	expect 0 "$KBENCH" compare -h
	has out.txt "'*' marks a significant difference"
	expect 0 "$KBENCH" --version
	has out.txt "kbench (ccd-suite)"
	expect 2 "$KBENCH" run
	has err.txt "no kernel image"
	expect 2 "$KBENCH" run --clock=tsc bzImage
	has err.txt "--clock is icount or kvm"
	expect 2 "$KBENCH" run --runs=0 bzImage
	expect 2 "$KBENCH" run --runs=100 bzImage
	expect 2 "$KBENCH" run --timeout=x bzImage
	expect 2 "$KBENCH" run --only='a;b' bzImage
	expect 2 "$KBENCH" run --frob bzImage
	expect 2 "$KBENCH" run a b
	expect 2 "$KBENCH" run -o
	has err.txt "-o needs a value"
	expect 2 "$KBENCH" compare "$FIXTURES/a.json"
	has err.txt "two result files"
	expect 2 "$KBENCH" config extra
	expect 2 "$KBENCH" initramfs
	# A kernel that is not there is kbench's trouble (3), named.
	expect 3 "$KBENCH" run -o r.json "$W/no-such-bzImage"
	has err.txt "no-such-bzImage"
	[ -e r.json ] && fail "a result file was left"
	# QEMU that cannot run: 3, and no result file.
	bzimage bz
	mkdir tmp
	TMPDIR=$W/tmp expect 3 "$KBENCH" run --qemu="$W/no-qemu" -o r.json bz
	has err.txt "cannot run '$W/no-qemu'"
	[ -e r.json ] && fail "a result file was left"
	ls -A | grep -q '^\.r\.json\.' && fail "a temporary result file was left"
	if [ ! -w /dev/kvm ]; then
		expect 3 "$KBENCH" run --clock=kvm -o r.json bz
		has err.txt "--clock=kvm needs /dev/kvm"
	fi
	[ -z "$(ls -A tmp)" ] || fail "a temporary initramfs was left: $(ls -A tmp)"
	return 0
}

case_config() {
	: "${KBENCH_CONFIG:?KBENCH_CONFIG must name kbench/kbench.config}"
	# x86_64's fragment ends with the CONFIG_64BIT=y kbench's own builds add:
	# tinyconfig on an x86 host is 32-bit (kernel-kbench-recipe follows kbench(1)).
	{ cat "$KBENCH_CONFIG"; echo CONFIG_64BIT=y; } >x86.config
	expect 0 "$KBENCH" config
	cmp -s out.txt x86.config || fail "kbench config is not $KBENCH_CONFIG and CONFIG_64BIT=y"
	has out.txt "CONFIG_INET=y"
	local arm=${KBENCH_CONFIG%/*}/kbench-arm64.config
	expect 0 "$KBENCH" config --arch=arm64
	cmp -s out.txt "$arm" || fail "kbench config --arch=arm64 differs from $arm"
	expect 0 "$KBENCH" config --arch=x86_64
	cmp -s out.txt x86.config || fail "kbench config --arch=x86_64 differs"
	expect 0 "$KBENCH" config --arch=amd64
	cmp -s out.txt x86.config || fail "kbench config --arch=amd64 differs"
	# Kbuild's name where it is one machine; arm and mips are two.
	expect 0 "$KBENCH" config --arch=powerpc
	cmp -s out.txt "${KBENCH_CONFIG%/*}/kbench-ppc64el.config" || fail "--arch=powerpc is not ppc64el"
	expect 2 "$KBENCH" config --arch=mips
	has err.txt "--arch=mips is more than one machine: say mips64el or mipsel"
	expect 2 "$KBENCH" config --arch=arm
	has err.txt "say armhf or armel"
	expect 2 "$KBENCH" config --arch=sparc
	has err.txt "--arch is one of amd64 (x86_64), arm64, armhf, armel, ppc64el, s390x, mips64el, mipsel, riscv64, not 'sparc'"
	# Every machine measures the same kernel: only console, board and exit differ.
	syms() { grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set$)' "$1" | grep -vE "$2" | sort; }
	syms "$KBENCH_CONFIG" 'SERIAL_8250|EARLY_PRINTK|X86_IOPL_IOPERM' >x86.syms
	syms "$arm" 'ARM_AMBA|SERIAL_AMBA_PL011' >arm.syms
	diff x86.syms arm.syms >&2 || fail "the arm64 fragment's benchmark symbols differ from x86_64's"
	# Every machine's kernel is at -O2 with SLUB, SMP wherever the board
	# boots several CPUs (s390's kernel is always SMP); armel's and
	# Malta's boards boot one.
	has x86.syms "CONFIG_SMP=y"
	has x86.syms "CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y"
	has x86.syms "CONFIG_SLUB=y"
	has x86.syms "# CONFIG_SLOB is not set"
	for a in arm64 armhf ppc64el riscv64 s390x armel mips64el mipsel; do
		f=${KBENCH_CONFIG%/*}/kbench-$a.config
		grep -qx "CONFIG_SLUB=y" "$f" && grep -qx "# CONFIG_SLOB is not set" "$f" ||
			fail "$a's fragment keeps tinyconfig's allocator"
		grep -qx "CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y" "$f" || fail "$a's fragment is not -O2"
		case $a in
		armel|mips*)
			grep -qE '^CONFIG_(SMP|NR_CPUS)=' "$f" && fail "$a's one-CPU board has an SMP kernel" ;;
		s390x)
			grep -qx "CONFIG_NR_CPUS=8" "$f" || fail "$a's fragment has no NR_CPUS=8" ;;
		*)
			grep -qx "CONFIG_SMP=y" "$f" && grep -qx "CONFIG_NR_CPUS=8" "$f" ||
				fail "$a's fragment is not SMP with NR_CPUS=8" ;;
		esac
	done
	syms "$KBENCH_CONFIG" 'SERIAL_8250|EARLY_PRINTK|X86_IOPL_IOPERM|SMP=|NR_CPUS=|CC_OPTIMIZE|SLUB|SLOB' >x86.syms
	local a f
	for a in armhf armel ppc64el s390x mips64el mipsel riscv64; do
		f=${KBENCH_CONFIG%/*}/kbench-$a.config
		expect 0 "$KBENCH" config --arch=$a
		cmp -s out.txt "$f" || fail "kbench config --arch=$a differs from $f"
		syms "$f" '^$' >a.syms
		comm -23 x86.syms a.syms >missing.syms
		[ ! -s missing.syms ] || fail "$f lacks x86_64's benchmark symbols: $(cat missing.syms)"
	done
	# --tiny: the same benchmark symbols, tinyconfig's uniprocessor -Os kernel.
	expect 0 "$KBENCH" config --tiny --arch=x86_64
	syms out.txt 'SERIAL_8250|EARLY_PRINTK|X86_IOPL_IOPERM|SMP |CC_OPTIMIZE|64BIT' >tiny.syms
	diff x86.syms tiny.syms >&2 || fail "--tiny changes the benchmark symbols"
	has out.txt "# CONFIG_SMP is not set"
	has out.txt "CONFIG_CC_OPTIMIZE_FOR_SIZE=y"
	has out.txt "CONFIG_64BIT=y"
	grep -qE '^CONFIG_(SMP|NR_CPUS|CC_OPTIMIZE_FOR_PERFORMANCE|SLUB)=' out.txt && fail "--tiny keeps SMP, -O2 or SLUB"
	# arm64's and s390's SMP is not a choice: -Os only.
	for a in arm64 s390x; do
		expect 0 "$KBENCH" config --arch=$a --tiny
		has out.txt "CONFIG_CC_OPTIMIZE_FOR_SIZE=y"
		grep -qE '^(# )?CONFIG_(SMP|NR_CPUS)' out.txt && fail "$a's --tiny names SMP"
		grep -q uniprocessor out.txt && fail "$a's --tiny says uniprocessor"
	done
	# A one-CPU board's --tiny: its fragment up to the block, -Os, SLOB.
	expect 0 "$KBENCH" config --arch=armel --tiny
	has out.txt "# CONFIG_SMP is not set"
	grep -qE '^CONFIG_(CC_OPTIMIZE_FOR_PERFORMANCE|SLUB)=' out.txt && fail "armel's --tiny keeps -O2 or SLUB"
}

# The machine of an image: x86's bzImage or arm64's Image, read from the
# header or given; QEMU's board, console and guest follow it, and a
# program for another machine is refused before QEMU starts.
case_machine() {
	local guest_dir
	guest_dir=$(dirname "$KBENCH")/guest
	[ -x "$guest_dir/kbench-guest-aarch64" ] ||
		fail "no $guest_dir/kbench-guest-aarch64 (aarch64-linux-gnu-gcc not installed?)"
	file -b "$guest_dir/kbench-guest-aarch64" | grep -q 'ARM aarch64.*statically linked' ||
		fail "kbench-guest-aarch64 is not a static aarch64 program"
	mkdir bin tmp
	printf '#!/bin/sh\nprintf "%%s\\n" "$0" "$@" >%s/args.txt\nexit 1\n' "$W" >bin/qemu-system-aarch64
	cp bin/qemu-system-aarch64 bin/qemu-system-x86_64
	chmod +x bin/*
	arm64image Image
	bzimage bz
	# arm64 from the header: the virt board, PL011, the aarch64 guest, no isa-debug-exit.
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --busybox=nobox -o r.json Image
	has err.txt "did not boot"
	has args.txt "$W/bin/qemu-system-aarch64"
	tr '\n' ' ' <args.txt | grep -q -- '-M virt .*-append console=ttyAMA0 panic=-1 norandmaps kbench_runs=9 .*-cpu cortex-a57 -icount shift=0,sleep=off ' ||
		{ cat args.txt >&2; fail "not the arm64 virt command line"; }
	grep -q isa-debug-exit args.txt && fail "isa-debug-exit on arm64"
	grep -q kbench_ns_per_insn args.txt && fail "arm64 counts one ns an instruction: no kbench_ns_per_insn"
	# x86 from its header: as before.
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run -o r.json bz
	tr '\n' ' ' <args.txt | grep -q -- "qemu-system-x86_64 .*isa-debug-exit.*-append console=ttyS0 panic=-1 norandmaps nolapic_timer kbench_runs=9 " ||
		{ cat args.txt >&2; fail "not the x86_64 command line"; }
	# A 32-bit bzImage (boot protocol 2.15, no XLF_KERNEL_64): refused, QEMU never started.
	bzimage32() { { head -c 514 /dev/zero; printf 'HdrS\x0f\x02'; head -c 56 /dev/zero; } >"$1"; }
	bzimage32 bz32 && [ "$(od -An -tx1 -j566 -N1 bz32 | tr -d ' ')" = 00 ] || fail "bz32"
	rm -f args.txt
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run -o r.json bz32
	has err.txt "kernel bz32 is a 32-bit x86 kernel"
	has err.txt "CONFIG_64BIT=y"
	[ -e args.txt ] && fail "QEMU started for a 32-bit bzImage"
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --arch=x86_64 -o r.json bz32
	has err.txt "is a 32-bit x86 kernel"
	# The same header with XLF_KERNEL_64 (0x236) is a 64-bit kernel: booted.
	{ head -c 566 bz32; printf '\x01'; tail -c +568 bz32; } >bz64
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run -o r.json bz64
	has err.txt "did not boot"
	[ -e args.txt ] || fail "QEMU did not start for a 64-bit bzImage"
	# --arch overrides the header.
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --arch=arm64 --busybox=nobox -o r.json bz
	has args.txt "$W/bin/qemu-system-aarch64"
	# A guest or shell of another machine: 3, named, QEMU never started.
	rm -f args.txt
	expect 3 "$KBENCH" run --guest="$guest_dir/kbench-guest" -o r.json Image
	has err.txt "the guest $guest_dir/kbench-guest is not an aarch64 program"
	has err.txt "give --guest=FILE"
	expect 3 "$KBENCH" run --busybox="$guest_dir/kbench-guest" -o r.json Image
	has err.txt "is not an aarch64 program"
	has err.txt "give --busybox=FILE"
	expect 3 "$KBENCH" run --guest="$guest_dir/kbench-guest-aarch64" -o r.json bz
	has err.txt "is not an x86_64 program"
	printf 'guest' >notelf
	expect 3 "$KBENCH" run --guest=notelf -o r.json bz
	has err.txt "the guest notelf is not an ELF program"
	# Neither header: a kernel that cannot boot (1, as QEMU's refusal was),
	# --arch named for a kernel kbench does not recognise.
	head -c 4096 /dev/zero >zeros
	expect 1 "$KBENCH" run -o r.json zeros
	has err.txt "kernel zeros is not an image kbench can tell (an x86 bzImage, an arm64 or riscv Image, an arm zImage, a ppc64el or mips vmlinux); --arch boots it anyway: amd64"
	expect 2 "$KBENCH" run --arch=mips bz
	[ -e args.txt ] && fail "QEMU started for a refused guest"
	[ -e r.json ] && fail "a result file was left"
	[ -z "$(ls -A tmp)" ] || fail "a temporary initramfs was left: $(ls -A tmp)"
	return 0
}

# The machines beyond amd64 and arm64, each with Debian's cross gcc's
# guest: an arm zImage is armhf's (virt) unless --arch=armel (Versatile/PB,
# its device tree beside the image); an ELF vmlinux names its machine.
case_machines() {
	local guest_dir a
	guest_dir=$(dirname "$KBENCH")/guest
	for a in armhf:'ARM, EABI5.*statically' armel:'ARM, EABI5.*statically' \
		ppc64el:'64-bit LSB.*PowerPC.*statically' s390x:'64-bit MSB.*S/390.*statically' \
		mips64el:'64-bit LSB.*MIPS.*statically' mipsel:'32-bit LSB.*MIPS.*statically' \
		riscv64:'64-bit LSB.*RISC-V.*statically'; do
		[ -x "$guest_dir/kbench-guest-${a%%:*}" ] || fail "no kbench-guest-${a%%:*}"
		file -b "$guest_dir/kbench-guest-${a%%:*}" | grep -qE "${a#*:}" ||
			fail "kbench-guest-${a%%:*} is not what it should be: $(file -b "$guest_dir/kbench-guest-${a%%:*}")"
	done
	mkdir bin tmp
	for q in arm ppc64 mipsel mips64el s390x riscv64; do
		printf '#!/bin/sh\nprintf "%%s\\n" "$0" "$@" >%s/args.txt\nexit 1\n' "$W" >bin/qemu-system-$q
	done
	chmod +x bin/*
	# An arm zImage (its magic at 0x24): armhf, the virt board.
	{ head -c 36 /dev/zero; printf '\x18\x28\x6f\x01'; head -c 64 /dev/zero; } >zImage
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --busybox=nobox -o r.json zImage
	tr '\n' ' ' <args.txt | grep -q -- "qemu-system-arm .*-M virt .*console=ttyAMA0 .*-cpu cortex-a15 -icount" ||
		{ cat args.txt >&2; fail "not the armhf virt command line"; }
	# armel: the Versatile/PB and its device tree; none there is an error naming it.
	rm -f args.txt
	expect 3 "$KBENCH" run --arch=armel --busybox=nobox -o r.json zImage
	has err.txt "cannot read dts/versatile-pb.dtb"
	[ -e args.txt ] && fail "QEMU started without the device tree"
	mkdir dts && : >dts/versatile-pb.dtb
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --arch=armel --busybox=nobox -o r.json zImage
	tr '\n' ' ' <args.txt | grep -q -- "-M versatilepb -dtb dts/versatile-pb.dtb -kernel zImage .*-cpu arm926" ||
		{ cat args.txt >&2; fail "not the armel Versatile/PB command line"; }
	# The float ABI tells the two arm guests apart.
	expect 3 "$KBENCH" run --arch=armel --guest="$guest_dir/kbench-guest-armhf" -o r.json zImage
	has err.txt "is not an armel program (ELF machine 40, 32-bit, little-endian, hard-float)"
	# An ELF vmlinux: its header names ppc64el, mips64el, mipsel.
	cp "$guest_dir/kbench-guest-ppc64el" vmlinux
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --busybox=nobox -o r.json vmlinux
	tr '\n' ' ' <args.txt | grep -q -- "qemu-system-ppc64 .*-m 256 -M pseries .*console=hvc0 " ||
		{ cat args.txt >&2; fail "not the ppc64el pseries command line (256 MB: whole blocks of 256)"; }
	cp "$guest_dir/kbench-guest-mipsel" vmlinux
	PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --busybox=nobox -o r.json vmlinux
	tr '\n' ' ' <args.txt | grep -q -- "qemu-system-mipsel .*-M malta .*console=ttyS0 panic=-1 norandmaps nowait kbench_runs=9 kbench_ns_per_insn=8 -icount shift=3,sleep=off " ||
		{ cat args.txt >&2; fail "not the mipsel Malta command line (8 ns an instruction, no WAIT)"; }
	# The guest says what it divided its clock by; one that did not divide by 8
	# (older than kbench_ns_per_insn) fails the run: its figures are not instructions.
	for begin in "v=1 runs=1 ns_per_insn=8" "v=1 runs=1"; do
		printf '#!/bin/sh\nprintf "%%s\\n" "KBENCH-BEGIN %s" "KBENCH-KERNEL Linux version 6.1.0 (gcc 12) #1" "KBENCH-ROW null_call us proc 0.25" "KBENCH-END ok rows=1"\n' \
			"$begin" >bin/qemu-system-mipsel
		if [ "$begin" = "v=1 runs=1" ]; then
			PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 1 "$KBENCH" run --busybox=nobox -o r.json vmlinux
			has err.txt "the guest divided its clock by 1, not 8"
			[ -e r.json ] && fail "a result from a guest that did not divide its clock"
		else
			PATH=$W/bin:$PATH TMPDIR=$W/tmp expect 0 "$KBENCH" run --busybox=nobox -o r.json vmlinux
			has r.json '"null_call"'
			rm r.json
		fi
	done
	printf '#!/bin/sh\nprintf "%%s\\n" "$0" "$@" >%s/args.txt\nexit 1\n' "$W" >bin/qemu-system-mipsel
	cp "$guest_dir/kbench-guest-mips64el" vmlinux
	expect 3 "$KBENCH" run --guest="$guest_dir/kbench-guest-mipsel" -o r.json vmlinux
	has err.txt "is not an mips64el program (ELF machine 8, 32-bit, little-endian)"
	# No cost model where the guest has no sample markers.
	expect 3 "$KBENCH" run --model=cycles --busybox=nobox -o r.json vmlinux
	has err.txt "no cost model for mips64el kernels"
	[ -e r.json ] && fail "a result file was left"
	[ -z "$(ls -A tmp)" ] || fail "a temporary initramfs was left: $(ls -A tmp)"
	return 0
}

case_cpio() {
	cp "$(dirname "$KBENCH")/guest/kbench-guest" guest
	printf '#!/bin/sh\necho workload\n' >work
	printf 'post' >post
	printf 'box' >box
	chmod +x box
	expect 0 "$KBENCH" initramfs -o init.cpio --guest=guest --busybox=box \
		--workload=work --post=post
	cpio -it <init.cpio >list.txt 2>cpio-err.txt || fail "cpio -t cannot read it: $(cat cpio-err.txt)"
	for f in bin dev proc tmp dev/console dev/null dev/zero init bin/busybox bin/sh \
		kbench-workload kbench-post; do
		grep -qx "$f" list.txt || { cat list.txt >&2; fail "no $f in the archive"; }
	done
	cpio -itv <init.cpio >long.txt 2>/dev/null
	grep -E '^c.* 1, +3 .* dev/null$' long.txt >/dev/null || { cat long.txt >&2; fail "dev/null is not char 1,3"; }
	grep -E '^l.* bin/sh -> busybox$' long.txt >/dev/null || fail "bin/sh is not a link to busybox"
	grep -E '^-rwxr-xr-x .* init$' long.txt >/dev/null || fail "init is not mode 755"
	mkdir x && (cd x && cpio -id --no-absolute-filenames --quiet \
		'init' 'kbench-workload' 'kbench-post' 'bin/busybox' <../init.cpio) ||
		fail "cpio -i failed"
	cmp -s x/init guest && cmp -s x/kbench-workload work && cmp -s x/kbench-post post &&
		cmp -s x/bin/busybox box || fail "contents differ after a round trip"
	# The same inputs give the same bytes.
	expect 0 "$KBENCH" initramfs -o again.cpio --guest=guest --busybox=box \
		--workload=work --post=post
	cmp -s init.cpio again.cpio || fail "the archive is not reproducible"
	# A missing input: error naming it, no archive left.
	expect 3 "$KBENCH" initramfs -o bad.cpio --guest=guest --busybox=box --workload=nope
	has err.txt "nope"
	[ -e bad.cpio ] && fail "a partial archive was left"
	ls -A | grep -q '^\.bad\.cpio\.' && fail "a temporary archive was left"
	return 0
}

# --program: a Debian program (rt-tests' hackbench, stress-ng) goes into the
# initramfs with its ELF interpreter and every library it needs, at their
# paths, found from the ELF files (ldd, which runs the loader, is only the
# oracle here); what the guest's loader could not run is refused, named,
# before QEMU starts.
case_programs() {
	local hb=/usr/bin/hackbench sng=/usr/bin/stress-ng interp f
	[ -x $hb ] && [ -x $sng ] || fail "no $hb or $sng (rt-tests, stress-ng: scripts/install-deps)"
	cp "$(dirname "$KBENCH")/guest/kbench-guest" guest
	printf 'box' >box
	chmod +x box
	# By name through PATH, the arguments as given.
	PATH=/usr/bin:/bin expect 0 "$KBENCH" initramfs -o p.cpio --guest=guest --busybox=box \
		--program='hb=hackbench -g 1  -l 5' --program="sys=$sng --syscall 1 --syscall-ops 20"
	cpio -it <p.cpio >list.txt 2>/dev/null || fail "cpio -t cannot read it"
	interp=$(readelf -lW $hb | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -n "$interp" ] || fail "readelf finds no interpreter in $hb"
	for f in usr usr/bin usr/bin/hackbench usr/bin/stress-ng "${interp#/}" kbench-programs; do
		grep -qx "$f" list.txt || { cat list.txt >&2; fail "no $f in the archive"; }
	done
	# Every library the loader maps for them (ldd's list), by name, once.
	for f in $(ldd $hb $sng | awk '$2 == "=>" && $3 ~ /^\// { n = $3; sub(/.*\//, "", n); print n }' | sort -u); do
		[ "$(grep -c "/$f\$" list.txt)" = 1 ] ||
			{ cat list.txt >&2; fail "library $f is not in the archive once"; }
	done
	[ "$(grep -c "ld-linux" list.txt)" = 1 ] || fail "the interpreter is in the archive twice"
	mkdir x && (cd x && cpio -id --no-absolute-filenames --quiet <../p.cpio) || fail "cpio -i failed"
	cmp -s x/usr/bin/hackbench $hb && cmp -s "x$interp" "$interp" ||
		fail "the program or its interpreter differ from the host's"
	printf 'hb /usr/bin/hackbench hackbench -g 1 -l 5\nsys %s %s --syscall 1 --syscall-ops 20\n' \
		$sng $sng >want.txt
	cmp -s want.txt x/kbench-programs || { cat x/kbench-programs >&2; fail "the guest's list differs"; }
	PATH=/usr/bin:/bin expect 0 "$KBENCH" initramfs -o again.cpio --guest=guest --busybox=box \
		--program='hb=hackbench -g 1  -l 5' --program="sys=$sng --syscall 1 --syscall-ops 20"
	cmp -s p.cpio again.cpio || fail "the archive is not reproducible"
	# $ORIGIN in a RUNPATH: a library beside the program, at its own path.
	mkdir -p app/bin app/lib
	printf 'int kbt(void) { return 0; }\n' >kbt.c
	printf 'int kbt(void);\nint main(void) { return kbt(); }\n' >main.c
	cc -shared -fPIC -o app/lib/libkbt.so kbt.c && cc -o app/bin/prog main.c -Lapp/lib -lkbt \
		-Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib' || fail "cannot build the RUNPATH program"
	expect 0 "$KBENCH" initramfs -o o.cpio --guest=guest --busybox=box --program=o=app/bin/prog
	cpio -it <o.cpio 2>/dev/null | grep -qx "${W#/}/app/lib/libkbt.so" ||
		fail "the \$ORIGIN library is not at its path"
	# A library that is nowhere: named, with who needs it.
	rm app/lib/libkbt.so
	expect 3 "$KBENCH" initramfs -o bad.cpio --guest=guest --busybox=box --program=o=app/bin/prog
	has err.txt "$W/app/bin/prog needs the library libkbt.so, which is in none of the directories"
	# Not an ELF program, another machine's (aarch64, 183), not there.
	printf '#!/bin/sh\nexit 0\n' >script
	chmod +x script
	expect 3 "$KBENCH" initramfs -o bad.cpio --guest=guest --busybox=box --program=s=./script
	has err.txt "--program s: ./script is not an ELF program"
	cp $hb arm
	printf '\267\000' | dd of=arm bs=1 seek=18 conv=notrunc status=none
	expect 3 "$KBENCH" initramfs -o bad.cpio --guest=guest --busybox=box --program='a=./arm -l 1'
	has err.txt "--program a: ./arm is not an x86_64 program (ELF machine 183, 64-bit, little-endian)"
	expect 3 "$KBENCH" initramfs -o bad.cpio --guest=guest --busybox=box --program=n=no-such-cmd
	has err.txt "--program n: no command 'no-such-cmd' in PATH"
	[ -e bad.cpio ] && fail "a refused program left an archive"
	# Names: a row's, a group's, twice, none, not lower-case; no command.
	for f in null_call=hackbench programs=hackbench proc=hackbench Hb=hackbench =hackbench \
		hb hb=; do
		expect 2 "$KBENCH" initramfs -o bad.cpio --program="$f"
	done
	expect 2 "$KBENCH" run --program=hb=hackbench --program='hb=hackbench -l 1' bz
	has err.txt "'hb' is already a row, a group or another program's name"
	# run: refused before QEMU starts; the guest's memory grows by the files.
	mkdir bin tmp
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" >%s/args.txt\nexit 1\n' "$W" >bin/qemu
	chmod +x bin/qemu
	bzimage bz
	TMPDIR=$W/tmp expect 3 "$KBENCH" run --qemu="$W/bin/qemu" --program=s=./script -o r.json bz
	[ -e args.txt ] && fail "QEMU started for a refused program"
	TMPDIR=$W/tmp expect 1 "$KBENCH" run --qemu="$W/bin/qemu" -o r.json bz
	[ "$(grep -A1 -x -- -m args.txt | tail -n 1)" = 128 ] || fail "-m without programs: not 128"
	TMPDIR=$W/tmp expect 1 "$KBENCH" run --qemu="$W/bin/qemu" --program="sys=$sng" -o r.json bz
	[ "$(grep -A1 -x -- -m args.txt | tail -n 1)" -ge $((128 + 2 * $(stat -Lc %s $sng) / 1048576)) ] ||
		fail "-m with stress-ng: $(grep -A1 -x -- -m args.txt | tail -n 1), not room for it twice"
	[ -z "$(ls -A tmp)" ] || fail "a temporary initramfs was left: $(ls -A tmp)"
	return 0
}

case_compare() {
	expect 0 "$KBENCH" compare "$FIXTURES/a.json" "$FIXTURES/b.json"
	has out.txt "clock icount"
	has out.txt "/k/clang/bzImage (Debian clang version 14.0.6)"
	# us: a/b - 1 (1.0 vs 0.8 is 25 % faster; 100 vs 125 is 20 % slower)
	row null_call | grep -q '+25.0%' || fail "null_call: expected +25.0%"
	row fork_exit | grep -q -- '-20.0%' || fail "fork_exit: expected -20.0%"
	# MB/s: b/a - 1 (more is faster)
	row pipe_bw | grep -q '+20.0%' || fail "pipe_bw: expected +20.0%"
	row mem_load_lat | grep -q -- '-20.0%' || fail "mem_load_lat: expected -20.0%"
	# a's null_call samples span 0.9..1.1: b's 0.8 is outside, so no '~'
	row null_call | grep -q '%~' && fail "null_call marked within the spread"
	# The average leaves the controls out: (25 - 20 + 20) / 3
	grep -E '^average.* \+8\.3%' out.txt >/dev/null || { cat out.txt >&2; fail "average"; }
	# Three kernels, one missing rows: '-' in its columns.
	expect 0 "$KBENCH" compare "$FIXTURES/a.json" "$FIXTURES/b.json" "$FIXTURES/c.json"
	row fork_exit | grep -qE ' 125 +- +1\.0% +-20\.0%\* +-$' || { row fork_exit >&2; fail "missing row not '-'"; }
	row pipe_bw | grep -q -- '-50.0%' || fail "pipe_bw vs c: expected -50.0%"
	# A row the first kernel lacks is named, not silently dropped.
	expect 0 "$KBENCH" compare "$FIXTURES/c.json" "$FIXTURES/a.json"
	row fork_exit | grep -q 'only in a: not compared' || fail "row only in a not named"
	# Same file twice: all zero, all within the spread.
	expect 0 "$KBENCH" compare "$FIXTURES/a.json" "$FIXTURES/a.json"
	row null_call | grep -q '+0.0%~' || fail "identical results not +0.0%~"
}

# Significance: a difference counts ('*') only beyond the spread of the
# samples and beyond the noise table's threshold for its row.
sig() {	# ROW MARK: the row's last percentage carries MARK
	row "$1" | grep -qE "%[$2]\$" || { row "$1" >&2; fail "row $1: expected '$2'"; }
}
case_noise() {
	local f=$FIXTURES
	# Built-in table (floor 1 %): +0.5 % is noise, +3.1 % and -25.5 % are not.
	expect 0 "$KBENCH" compare "$f/same1.json" "$f/same2.json" --json=cmp.json -o chart.svg
	has out.txt "noise table: built-in"
	sig null_call '~'
	sig fork_exit '*'
	sig prot_fault '*'
	sig mem_load_lat '*'
	# The controls are not counted: fork_exit faster, prot_fault slower.
	grep -qE '^significant, faster/slower.* 1/1 $' out.txt || { cat out.txt >&2; fail "count"; }
	python3 - cmp.json chart.svg <<'PY' || fail "compare --json or the chart lacks the marks"
import json, sys, xml.dom.minidom
c = json.load(open(sys.argv[1]))
assert c["kbench_compare"] == 1 and c["reference"] == "same1", c
assert c["noise"]["source"] == "built-in", c["noise"]
rows = {r["name"]: r for r in c["rows"]}
sig = {n: r["against"][0]["significant"] for n, r in rows.items()}
assert sig == {"null_call": False, "fork_exit": True, "prot_fault": True,
               "mem_load_lat": True}, sig
assert abs(rows["null_call"]["against"][0]["percent"] - 100 / 99.5 * 100 + 100) < 1e-5
assert rows["null_call"]["noise"] >= 1, rows["null_call"]
assert c["significant"] == [{"label": "same2", "faster": 1, "slower": 1}], c["significant"]
svg = xml.dom.minidom.parse(sys.argv[2]).documentElement
titles = [t.firstChild.data for t in svg.getElementsByTagName("title")]
assert any(t.startswith("null_call: +0.50%") and "not significant" in t for t in titles), titles
assert any(t.startswith("fork_exit: +3.09%") and ", significant" in t for t in titles), titles
pale = [r for r in svg.getElementsByTagName("rect") if r.getAttribute("fill-opacity") == "0.3"]
assert len(pale) == 1, len(pale)
bands = [r for r in svg.getElementsByTagName("rect") if r.getAttribute("class") == "noise"]
assert len(bands) == 4, len(bands)
PY
	# A table of one's own: prot_fault and fork_exit move that much anyway.
	expect 0 "$KBENCH" compare --noise="$f/noise.json" "$f/same1.json" "$f/same2.json"
	has out.txt "noise table: $f/noise.json"
	sig null_call '*'
	sig fork_exit '~'
	sig prot_fault '~'
	row prot_fault | grep -qE ' 40\.0% ' || fail "prot_fault's noise column"
	row null_call | grep -qE ' 0\.2% ' || fail "the floor for a row the table lacks"
	# No table: the spread of the samples alone.
	expect 0 "$KBENCH" compare --noise=none "$f/same1.json" "$f/same2.json"
	sig null_call '*'
	sig fork_exit '*'
	# A table of another clock is set aside, said.
	expect 0 "$KBENCH" compare --noise="$f/noise-kvm.json" "$f/same1.json" "$f/same2.json"
	has err.txt "measured with the kvm clock"
	sig null_call '*'
	# Tables that are not: exit 3, the file named, no table printed.
	expect 3 "$KBENCH" compare --noise="$f/noise-bad.json" "$f/same1.json" "$f/same2.json"
	has err.txt "noise-bad.json: the noise table's \"floor\""
	expect 3 "$KBENCH" compare --noise="$f/a.json" "$f/same1.json" "$f/same2.json"
	has err.txt "a.json: not a kbench noise table"
	expect 3 "$KBENCH" compare --noise="$W/none.json" "$f/same1.json" "$f/same2.json"
	has err.txt "cannot open $W/none.json"
	[ -s out.txt ] && fail "a table was printed with a broken noise table"
	printf '{"kbench_noise": 1, "clock": "icount", "floor": 1, "rows": {"x": 101}}' >big.json
	expect 3 "$KBENCH" compare --noise=big.json "$f/same1.json" "$f/same2.json"
	has err.txt "big.json: row x: not a percentage"
	return 0
}

# compare --trained: the rows a profile was trained on and the held-out
# rows apart (fixtures/gains: the default split's trained null_call, stat,
# unix_lat, ctx_2p_0k and held-out null_io, pipe_lat, pipe_bw,
# file_create_0k; fork_exec only in plain; a control that moves 100 %).
case_gains() {
	local g=$FIXTURES/gains
	expect 0 "$KBENCH" compare --trained=null_call,stat,unix_lat,ctx_2p_0k --json=g.json \
		"$g/plain.json" "$g/pgo.json"
	# (25 - 20 + 0 + 25) / 4; (1/0.99*100 - 100 - 9.09 + 10 + 0) / 4
	has out.txt "trained on  4 rows: mean +7.5 %, significant 2 faster / 1 slower"
	has out.txt "held out    4 rows: mean +0.5 %, significant 1 faster / 1 slower"
	tail -n 3 out.txt | head -n 1 | grep -qx '' || fail "no blank line before the gains"
	python3 - g.json <<'PY' || fail "compare --json lacks the gains"
import json, sys
c = json.load(open(sys.argv[1]))
t, h = c["trained"], c["held_out"]
assert (t["rows"], t["faster"], t["slower"]) == (4, 2, 1), t
assert abs(t["mean_pct"] - 7.5) < 1e-4, t
assert (h["rows"], h["faster"], h["slower"]) == (4, 1, 1), h
assert abs(h["mean_pct"] - (100 / 0.99 - 100 - 100 / 11 + 10) / 4) < 1e-4, h
PY
	# Groups name their rows: proc is null_call, null_io and stat here.
	expect 0 "$KBENCH" compare --trained=proc "$g/plain.json" "$g/pgo.json"
	has out.txt "trained on  3 rows: mean +2.0 %, significant 1 faster / 1 slower"
	has out.txt "held out    5 rows: mean +5.2 %, significant 2 faster / 1 slower"
	# Every row trained: none held out, and no division by zero.
	expect 0 "$KBENCH" compare --trained=all --json=all.json "$g/plain.json" "$g/pgo.json"
	has out.txt "trained on  8 rows: mean +4.0 %, significant 3 faster / 2 slower"
	has out.txt "held out    0 rows: the training ran every row compared"
	python3 -c 'import json, sys; h = json.load(open(sys.argv[1]))["held_out"]
assert h == {"rows": 0, "mean_pct": 0, "faster": 0, "slower": 0}, h' all.json ||
		fail "held_out of --trained=all"
	expect 0 "$KBENCH" compare --trained=none "$g/plain.json" "$g/pgo.json"
	has out.txt "trained on  0 rows: the training ran none of the rows compared"
	has out.txt "held out    8 rows: mean +4.0 %, significant 3 faster / 2 slower"
	# Without --trained: no such lines.
	expect 0 "$KBENCH" compare "$g/plain.json" "$g/pgo.json"
	grep -q '^trained on\|^held out' out.txt && fail "gains without --trained"
	# Program rows (run --program) are a group of their own, whatever the
	# training's list says: 10 % and 20 % faster, one within the noise.
	python3 - "$g" <<'PY' || fail "cannot write the program fixtures"
import json, sys
for name, v in ("plain", (100, 1000)), ("pgo", (99.5, 800)):
    r = json.load(open(f"{sys.argv[1]}/{name}.json"))
    r["benchmarks"] += [{"name": "hb", "unit": "us", "group": "programs",
                         "samples": [v[0]] * 3, "median": v[0]},
                        {"name": "sys", "unit": "us", "group": "programs",
                         "samples": [v[1]] * 3, "median": v[1]}]
    json.dump(r, open(f"p-{name}.json", "w"))
PY
	expect 0 "$KBENCH" compare --trained=all --json=p.json p-plain.json p-pgo.json
	has out.txt "trained on  8 rows: mean +4.0 %, significant 3 faster / 2 slower"
	has out.txt "held out    0 rows: the training ran every row compared"
	has out.txt "programs    2 rows: mean +12.8 %, significant 1 faster / 0 slower"
	has out.txt "Programs (us per run)"
	python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))
p = c["programs"]
assert (p["rows"], p["faster"], p["slower"]) == (2, 1, 0), p
assert abs(p["mean_pct"] - (100 / 99.5 * 100 - 100 + 25) / 2) < 1e-4, p
assert c["held_out"]["rows"] == 0 and c["trained"]["rows"] == 8, c' p.json ||
		fail "compare --json: the programs group"
	expect 0 "$KBENCH" compare --trained=proc p-plain.json p-pgo.json
	has out.txt "held out    5 rows: mean +5.2 %, significant 2 faster / 1 slower"
	has out.txt "programs    2 rows: mean +12.8 %"
	grep -q "ran different programs" err.txt && fail "a warning for the same programs: $(cat err.txt)"
	expect 0 "$KBENCH" compare --trained=proc --json=n.json "$g/plain.json" "$g/pgo.json"
	grep -q '^programs' out.txt && fail "a programs line without program rows"
	# Programs in one guest and not the other: the initramfs differ, a warning.
	expect 0 "$KBENCH" compare "$g/plain.json" p-pgo.json
	has err.txt "the guests ran different programs ($g/plain.json: none; p-pgo.json: hb, sys)"
	python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["programs"]
assert p == {"rows": 0, "mean_pct": 0, "faster": 0, "slower": 0}, p' n.json ||
		fail "compare --json: programs without program rows"
	expect 2 "$KBENCH" compare --trained=null_call,frob "$g/plain.json" "$g/pgo.json"
	has err.txt "--trained: no row or group 'frob'"
	expect 2 "$KBENCH" compare --trained=proc "$g/plain.json" "$g/pgo.json" "$g/pgo.json"
	has err.txt "--trained takes two result files"
	return 0
}

case_compare_errors() {
	expect 3 "$KBENCH" compare "$FIXTURES/a.json" "$FIXTURES/kvm.json" -o chart.svg
	has err.txt "a.json was measured with the icount clock and $FIXTURES/kvm.json with kvm"
	[ -e chart.svg ] && fail "a chart was written for mixed clocks"
	[ -s out.txt ] && fail "a table was printed for mixed clocks"
	expect 3 "$KBENCH" compare "$FIXTURES/a.json" "$FIXTURES/other.json"
	has err.txt "$FIXTURES/other.json: not a kbench result"
	expect 3 "$KBENCH" compare "$FIXTURES/broken.json" "$FIXTURES/a.json"
	has err.txt "$FIXTURES/broken.json: not a kbench result (not JSON: line 3:"
	expect 3 "$KBENCH" compare "$FIXTURES/a.json" "$W/missing.json"
	has err.txt "cannot open $W/missing.json"
	printf '\x7fELF\x02\x01' >elf.json
	expect 3 "$KBENCH" compare elf.json "$FIXTURES/a.json"
	has err.txt "elf.json: not a kbench result"
	: >empty.json
	expect 3 "$KBENCH" compare empty.json "$FIXTURES/a.json"
	has err.txt "empty.json: not a kbench result"
}

# The views of one comparison byte for byte as fixtures/views holds them
# (written by kbench before its comparison was computed once for all
# views): the table, the SVG chart and the JSON of three kernels with a
# missing row, of the noise table's marks, of the gains of --trained, and
# of the cost model's figures with events one kernel never had.
case_views() {
	local v=$FIXTURES/views f=$FIXTURES x
	view() {	# NAME ARGS...: compare ARGS; its table, chart and JSON against views/NAME.*
		local name=$1
		shift
		# The noise table the views were made with, the built-in one of
		# then (today's moves with new measurements), named as it was.
		# (--metric's view: the built-in table has no row of that metric.)
		local noise=--noise=$v/noise.json
		[ "$name" != metric ] || noise=
		expect 0 "$KBENCH" compare ${noise:+"$noise"} --json="$name.json" -o "$name.svg" "$@"
		mv out.txt "$name.txt"
		for x in txt json svg; do
			sed -i "s#$v/noise.json#built-in#g" "$name.$x"
		done
		for x in txt json svg; do
			cmp -s "$v/$name.$x" "$name.$x" ||
				{ diff -u "$v/$name.$x" "$name.$x" >&2; bad "$name.$x differs"; }
		done
	}
	view abc "$f/a.json" "$f/b.json" "$f/c.json"
	view same "$f/same1.json" "$f/same2.json"
	view gains --trained=null_call,stat,unix_lat,ctx_2p_0k "$f/gains/plain.json" "$f/gains/pgo.json"
	model_result a.json 200 100 0
	model_result b.json 160 125 2
	view metric --metric=l1i_misses b.json a.json
	return 0
}

case_chart() {
	expect 0 "$KBENCH" compare -o chart.svg "$FIXTURES/a.json" "$FIXTURES/b.json" "$FIXTURES/c.json"
	has err.txt "chart in chart.svg"
	python3 - chart.svg <<'PY' || fail "the chart is not well-formed SVG with the bars"
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
svg = doc.documentElement
assert svg.tagName == "svg", svg.tagName
titles = [t.firstChild.data for t in svg.getElementsByTagName("title")]
# a has 4 rows; b has all 4, c 2: one bar (with a title) per pair
assert len(titles) == 6, titles
assert "null_call: +25.00% (+12.50..+37.50), significant (noise 1.0%)" in titles, titles
assert "pipe_bw: -50.00% (-50.00..-50.00), significant (noise 1.0%)" in titles, titles
texts = " ".join(t.firstChild.data for t in svg.getElementsByTagName("text") if t.firstChild)
assert "clock icount" in texts and "c" in texts
PY
	ls -A | grep -q '^\.chart\.svg\.' && fail "a temporary chart was left"
	# Unwritable: exit 3, the table was still printed.
	expect 3 "$KBENCH" compare -o "$W/no/dir/chart.svg" "$FIXTURES/a.json" "$FIXTURES/b.json"
	has err.txt "$W/no/dir/chart.svg"
	return 0
}

case_backends() {
	expect 0 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang-16 --quick \
		--runs=5 --append=quiet -o chart.svg --out=kb --jobs=3 --dry-run
	cat >want.txt <<EOT
CCD_CC=gcc
make -C /src/linux O=$W/kb/gcc ARCH=x86_64 CC=ccd LD=lkd tinyconfig
kbench config >>$W/kb/gcc/.config
make -C /src/linux O=$W/kb/gcc ARCH=x86_64 CC=ccd LD=lkd olddefconfig
make -C /src/linux O=$W/kb/gcc ARCH=x86_64 -j3 CC=ccd LD=lkd bzImage
kbench run -o $W/kb/gcc.json --quick --runs=5 --append=quiet $W/kb/gcc/arch/x86/boot/bzImage
CCD_CC=clang-16
make -C /src/linux O=$W/kb/clang-16 ARCH=x86_64 CC=ccd LD=lkd tinyconfig
kbench config >>$W/kb/clang-16/.config
make -C /src/linux O=$W/kb/clang-16 ARCH=x86_64 CC=ccd LD=lkd olddefconfig
make -C /src/linux O=$W/kb/clang-16 ARCH=x86_64 -j3 CC=ccd LD=lkd bzImage
kbench run -o $W/kb/clang-16.json --quick --runs=5 --append=quiet $W/kb/clang-16/arch/x86/boot/bzImage
kbench compare $W/kb/gcc.json $W/kb/clang-16.json -o chart.svg
EOT
	diff -u want.txt out.txt >&2 || fail "backends --dry-run commands differ"
	[ -e kb ] && fail "--dry-run created the output directory"
	# Another machine: Debian's cross gcc for gcc, Kbuild's --target for
	# clang, its image and make targets, and kbench run told the machine.
	expect 0 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --out=kb --arch=armel \
		--dry-run
	cat >want.txt <<EOT
CCD_CC=arm-linux-gnueabi-gcc
make -C /src/linux O=$W/kb/gcc ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- CC=ccd LD=lkd tinyconfig
kbench config --arch=armel >>$W/kb/gcc/.config
make -C /src/linux O=$W/kb/gcc ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- CC=ccd LD=lkd olddefconfig
make -C /src/linux O=$W/kb/gcc ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- -j2 CC=ccd LD=lkd zImage dtbs
kbench run -o $W/kb/gcc.json --arch=armel $W/kb/gcc/arch/arm/boot/zImage
CCD_CC=clang
make -C /src/linux O=$W/kb/clang ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- CC=ccd LD=lkd tinyconfig
kbench config --arch=armel >>$W/kb/clang/.config
make -C /src/linux O=$W/kb/clang ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- CC=ccd LD=lkd olddefconfig
make -C /src/linux O=$W/kb/clang ARCH=arm CROSS_COMPILE=arm-linux-gnueabi- -j2 CC=ccd LD=lkd zImage dtbs
kbench run -o $W/kb/clang.json --arch=armel $W/kb/clang/arch/arm/boot/zImage
kbench compare $W/kb/gcc.json $W/kb/clang.json
EOT
	diff -u want.txt out.txt >&2 || fail "backends --arch=armel --dry-run commands differ"
	expect 0 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --out=kb --arch=ppc64el \
		--dry-run
	grep -q "^make .* ARCH=powerpc CROSS_COMPILE=powerpc64le-linux-gnu- -j2 CC=ccd LD=lkd vmlinux\$" out.txt ||
		fail "backends --arch=ppc64el: not a vmlinux: $(grep -- -j2 out.txt)"
	expect 2 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --arch=mips --dry-run
	has err.txt "say mips64el or mipsel"
	expect 3 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --arch=s390x --model=cycles \
		--dry-run
	has err.txt "no cost model for s390x kernels"
	if [ -n "${KBENCH_MODEL_DIR:-}" ]; then
		# Under the cost model: every run with it, the comparison in cycles.
		expect 0 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang-16 --quick \
			--out=kb --model=cycles=arm64 --dry-run
		[ "$(grep -c '^kbench run .* --model=cycles=arm64 ' out.txt)" = 2 ] ||
			fail "backends --model: not every run under the model: $(grep '^kbench run' out.txt)"
		grep -q "^kbench compare --metric=cycles $W/kb/gcc.json $W/kb/clang-16.json\$" out.txt ||
			fail "backends --model: no compare --metric=cycles: $(grep '^kbench compare' out.txt)"
	fi
	expect 0 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang-16 --out=kb --dry-run \
		--program=hb=/usr/bin/hackbench
	[ "$(grep -c '^kbench run .* --program=hb=/usr/bin/hackbench ' out.txt)" = 2 ] ||
		fail "backends --program: not every run with it"
	# A distribution's configuration: it is the base (no tinyconfig), and
	# on it only the fragment's boot and benchmark symbols (not its SMP,
	# -O2, SLUB or IPv6 block), no keys, no debug info.
	printf 'CONFIG_SMP=y\nCONFIG_NR_CPUS=8192\n' >distro.config
	expect 0 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --out=kb \
		--config=distro.config --dry-run
	grep tinyconfig out.txt && fail "backends --config: tinyconfig still the base"
	has out.txt "cp distro.config $W/kb/gcc/.config"
	has out.txt "cp distro.config $W/kb/clang/.config"
	sed -n "/^printf '%s' 'CONFIG_PRINTK=y\$/,/^' >>/p" out.txt | sed '1s/.*/CONFIG_PRINTK=y/; $d' |
		sort -u >added.txt
	for sym in SERIAL_8250_CONSOLE BLK_DEV_INITRD TMPFS UNIX FUTEX X86_IOPL_IOPERM 64BIT DEBUG_INFO_NONE; do
		grep -qx "CONFIG_$sym=y" added.txt || fail "backends --config: CONFIG_$sym=y not added"
	done
	grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS=""' added.txt || fail "backends --config: the keys stay"
	grep -E 'SMP|NR_CPUS|OPTIMIZE|SLUB|SLOB|IPV6|ETHTOOL' added.txt &&
		fail "backends --config: the distribution's own choices overridden"
	# A file kbench cannot take: named, exit 3, before anything is made.
	xz -k distro.config
	expect 3 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --out=kb \
		--config=distro.config.xz
	has err.txt "distro.config.xz is compressed"
	expect 3 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --out=kb --config=no.config
	has err.txt "cannot read no.config"
	echo '# CONFIG_X is not set' >empty.config
	expect 3 "$KBENCH" pgo --source=/src/linux --out=kb --config=empty.config
	has err.txt "empty.config has no CONFIG_ line"
	[ -e kb ] && fail "a refused --config made the output directory"
	expect 2 "$KBENCH" backends --source=/src/linux --cc=gcc
	has err.txt "two backends or more"
	expect 2 "$KBENCH" backends --cc=gcc --cc=clang
	has err.txt "--source=TREE"
	expect 2 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=../clang
	expect 2 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --jobs=0
	# A tree that is not there: the first make fails, exit 3, named.
	expect 3 "$KBENCH" backends --source="$W/no-tree" --cc=gcc --cc=clang --out=kb
	has err.txt "the gcc kernel did not build"
	[ -e kb/gcc.json ] && fail "a result was written"
	return 0
}

case_pgo() {
	# The default split: every other row of the table, no memory control.
	local split=null_call,stat,sig_install,fork_exit,fork_sh,unix_lat,tcp_connect,unix_bw
	split=$split,ctx_2p_0k,ctx_16p_8k,file_delete_0k,file_delete_10k,prot_fault,page_fault_anon
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --jobs=3 --quick --dry-run
	cat >want.txt <<EOT
CCD_CC=gcc
make -C /src/linux O=$W/pg/plain ARCH=x86_64 CC=ccd LD=lkd tinyconfig
kbench config >>$W/pg/plain/.config
printf '%s' 'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y
' >>$W/pg/plain/.config
make -C /src/linux O=$W/pg/plain ARCH=x86_64 CC=ccd LD=lkd olddefconfig
make -C /src/linux O=$W/pg/plain ARCH=x86_64 -j3 CC=ccd LD=lkd bzImage
CCD_CC=gcc
make -C /src/linux O=$W/pg/instr ARCH=x86_64 CC=ccd LD=lkd tinyconfig
kbench config >>$W/pg/instr/.config
printf '%s' 'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y
CONFIG_DEBUG_FS=y
CONFIG_GCOV_KERNEL=y
CONFIG_GCOV_PROFILE_ALL=y
' >>$W/pg/instr/.config
make -C /src/linux O=$W/pg/instr ARCH=x86_64 CC=ccd LD=lkd olddefconfig
make -C /src/linux O=$W/pg/instr ARCH=x86_64 -j3 CC=ccd LD=lkd bzImage
rm -rf -- $W/pg/profile
kbench run -o $W/pg/train.json --quick --gcov-out=$W/pg/profile --only=$split $W/pg/instr/arch/x86/boot/bzImage
rm -rf -- $W/pg/pgo
CCD_PROFILE_USE=$W/pg/profile CCD_PROFILE_REPORT=$W/pg/profile-report.txt
CCD_CC=gcc
make -C /src/linux O=$W/pg/pgo ARCH=x86_64 CC=ccd LD=lkd tinyconfig
kbench config >>$W/pg/pgo/.config
printf '%s' 'CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y
' >>$W/pg/pgo/.config
make -C /src/linux O=$W/pg/pgo ARCH=x86_64 CC=ccd LD=lkd olddefconfig
make -C /src/linux O=$W/pg/pgo ARCH=x86_64 -j3 CC=ccd LD=lkd bzImage
kbench run -o $W/pg/plain.json --quick $W/pg/plain/arch/x86/boot/bzImage
kbench run -o $W/pg/pgo.json --quick $W/pg/pgo/arch/x86/boot/bzImage
kbench compare --trained=$split -o $W/pg/chart.svg $W/pg/plain.json $W/pg/pgo.json >$W/pg/compare.txt
EOT
	diff -u want.txt out.txt >&2 || fail "pgo --dry-run commands differ"
	grep -- '--only=[^ ]*mem' out.txt && fail "the default split trains a memory control"
	# AutoFDO with clang and the order: a debug-information plain kernel
	# trained with the branch record, kbench profile twice, the profile and
	# the order in the profile-guided build; no instrumented kernel.
	expect 0 "$KBENCH" pgo --source=/src/linux --out=af --method=autofdo --order --cc=clang-19 --dry-run
	has out.txt "CONFIG_DEBUG_INFO_DWARF5=y"
	has out.txt "KCFLAGS=-fdebug-info-for-profiling bzImage"
	has out.txt "kbench run -o $W/af/train.json --record-branches=$W/af/branches.perf --only=$split $W/af/plain/arch/x86/boot/bzImage"
	has out.txt "kbench profile --record=$W/af/branches.perf --vmlinux=$W/af/plain/vmlinux --format=llvm -o $W/af/profile.prof"
	has out.txt "kbench profile --record=$W/af/branches.perf --vmlinux=$W/af/plain/vmlinux --format=order -o $W/af/order.txt"
	has out.txt "'LD=lkd --lkd-order=$W/af/order.txt' 'KCFLAGS=-fdebug-info-for-profiling -fprofile-sample-use=$W/af/profile.prof -ffunction-sections' bzImage"
	grep -q "/af/instr" out.txt && fail "autofdo built an instrumented kernel"
	# gcc's: its AFDO file, -fauto-profile; instrument with --order records the plain kernel.
	expect 0 "$KBENCH" pgo --source=/src/linux --out=af --method=autofdo --dry-run
	has out.txt "--format=afdo -o $W/af/profile.afdo"
	has out.txt "KCFLAGS=-fauto-profile=$W/af/profile.afdo bzImage"
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --order --dry-run
	has out.txt "kbench run -o $W/pg/record.json --record-branches=$W/pg/branches.perf"
	has out.txt "CCD_PROFILE_USE=$W/pg/profile"
	expect 2 "$KBENCH" pgo --source=/src/linux --method=lbr --dry-run
	has err.txt "--method is instrument or autofdo"
	[ -e pg ] && fail "--dry-run created the output directory"
	# The workload and the default split in the same training boot.
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --train-workload=/bin/w --dry-run
	has out.txt "kbench run -o $W/pg/train.json --gcov-out=$W/pg/profile --workload=/bin/w --only=$split $W/pg/instr/arch/x86/boot/bzImage"
	# The workload alone: one sample of a control keeps run's contract.
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --train-workload=/bin/w \
		--train-rows=none --dry-run
	has out.txt "kbench run -o $W/pg/train.json --gcov-out=$W/pg/profile --workload=/bin/w --only=mem_write_bw --runs=1 $W/pg/instr/arch/x86/boot/bzImage"
	has out.txt "kbench compare --trained=none -o"
	# Rows and groups of one's own (after run's own --only, which the
	# measurements keep); all is every group.
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --only=proc --train-rows=ctx,null_io \
		--dry-run
	has out.txt "--only=proc --gcov-out=$W/pg/profile --only=null_io,ctx_2p_0k,ctx_8p_4k,ctx_16p_8k $W/pg/instr"
	has out.txt "kbench run -o $W/pg/plain.json --only=proc $W/pg/plain"
	has out.txt "kbench compare --trained=null_io,ctx_2p_0k,ctx_8p_4k,ctx_16p_8k -o"
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --train-rows=all --dry-run
	has out.txt "--gcov-out=$W/pg/profile --only=proc,ipc-lat,ipc-bw,ctx,fs-vm,smp,mem $W/pg/instr"
	has out.txt "kbench compare --trained=all -o"
	# --program: the measurements run it, the training never does.
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --dry-run \
		--program='hb=/usr/bin/hackbench -g 1 -l 5'
	has out.txt "kbench run -o $W/pg/plain.json '--program=hb=/usr/bin/hackbench -g 1 -l 5' $W/pg/plain"
	has out.txt "kbench run -o $W/pg/pgo.json '--program=hb=/usr/bin/hackbench -g 1 -l 5' $W/pg/pgo"
	grep '^kbench run -o [^ ]*/train.json.*--program' out.txt && fail "the training runs the program"
	# --cpus: the measurements are sweeps, the training one boot at one CPU,
	# or at --train-cpus; counts the board or QEMU cannot boot stop pgo first.
	printf '#!/bin/sh\necho "QEMU emulator version 10.0.2"\n' >q10 && chmod +x q10
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --cpus=1,2,4 --qemu="$W/q10" --dry-run
	has out.txt "kbench run -o $W/pg/train.json --cpus=1,2,4 --qemu=$W/q10 --gcov-out=$W/pg/profile --cpus=1 --only="
	has out.txt "kbench run -o $W/pg/plain.json --cpus=1,2,4 --qemu=$W/q10 $W/pg/plain"
	has out.txt "kbench run -o $W/pg/pgo.json --cpus=1,2,4 --qemu=$W/q10 $W/pg/pgo"
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --cpus=4 --train-cpus=4 --qemu="$W/q10" --dry-run
	has out.txt "--gcov-out=$W/pg/profile --cpus=4 --only="
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --train-cpus=2 --qemu="$W/q10" --dry-run
	has out.txt "kbench run -o $W/pg/plain.json --qemu=$W/q10 $W/pg/plain"
	expect 2 "$KBENCH" pgo --source=/src/linux --train-cpus=0 --dry-run
	has err.txt "--train-cpus takes a CPU count from 1 to 64, not '0'"
	printf '#!/bin/sh\necho "QEMU emulator version 7.2.22"\n' >q7 && chmod +x q7
	expect 3 "$KBENCH" pgo --source=/src/linux --out=pg --train-cpus=2 --qemu="$W/q7"
	has err.txt "--cpus=2: x86_64 guests of more than 1 CPU do not boot under the icount clock of QEMU 7"
	expect 3 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --out=pg --cpus=1,4 \
		--qemu="$W/q7"
	has err.txt "--cpus=4: x86_64 guests of more than 1 CPU do not boot"
	expect 2 "$KBENCH" backends --source=/src/linux --cc=gcc --cc=clang --out=pg --cpus=2 \
		--arch=armel
	has err.txt "--cpus=2: armel kernels boot on one CPU only"
	[ -e pg ] && fail "a refused --cpus made the output directory"
	expect 2 "$KBENCH" pgo --source=/src/linux --train-rows=none --dry-run
	has err.txt "--train-workload=FILE is required"
	expect 2 "$KBENCH" pgo --source=/src/linux --train-rows=null_call,frob,stat --dry-run
	has err.txt "--train-rows: no row or group 'frob'"
	expect 2 "$KBENCH" pgo --source=/src/linux --train-rows= --dry-run
	expect 2 "$KBENCH" pgo --out=pg
	has err.txt "--source=TREE"
	expect 2 "$KBENCH" pgo --source=/src/linux --cc=../gcc
	expect 2 "$KBENCH" pgo --source=/src/linux --frob
	# A tree that is not there: the first make fails, exit 3, named.
	expect 3 "$KBENCH" pgo --source="$W/no-tree" --out=pg
	has err.txt "the plain kernel did not build"
	[ -e pg/summary.json ] && fail "a summary was written"
	return 0
}

# The whole pgo loop with stand-ins for make (a bzImage file; ccd's report
# under profile use) and for QEMU (the results of fixtures/gains, by the
# kernel's tree): the training's rows, the gains after the table and in
# summary.json.
case_pgo_gains() {
	mkdir bin
	cat >bin/make <<'EOT'
#!/bin/sh
for a; do case $a in O=*) o=${a#O=};; esac; t=$a; done
case $t in
tinyconfig) mkdir -p "$o" && : >"$o/.config";;
bzImage) mkdir -p "$o/arch/x86/boot" && { head -c 514 /dev/zero; printf HdrS; } >"$o/arch/x86/boot/bzImage"
	[ -z "${CCD_PROFILE_REPORT:-}" ] || echo "used kernel/fork.o" >>"$CCD_PROFILE_REPORT";;
esac
EOT
	python3 - "$FIXTURES/gains" <<'PY' || fail "cannot write the transcripts"
import json, sys
head = ["KBENCH-BEGIN v=1 runs=3", "KBENCH-KERNEL Linux version 6.1.0 (kbench@ccd-suite) "
        "(gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) #1"]
for name in "plain", "pgo":
    rows = json.load(open(f"{sys.argv[1]}/{name}.json"))["benchmarks"]
    lines = head + ["KBENCH-ROW %s %s %s %s" % (r["name"], r["unit"], r["group"],
                    ",".join(map(str, r["samples"]))) for r in rows]
    open(f"{name}.txt", "w").write("\n".join(lines + ["KBENCH-END ok rows=%d" % len(rows), ""]))
open("instr.txt", "w").write("\n".join(head + ["KBENCH-ROW null_call us proc 1,1,1",
    "KBENCH-GCOV files=0", "KBENCH-END ok rows=1", ""]))
PY
	cat >qemu <<EOT
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in -kernel) k=\$2;; -append) a=\$2;; esac
	shift
done
case \$k in
*/instr/*) echo "\$a" >$W/train-append.txt; cat $W/instr.txt;;
*/plain/*) cat $W/plain.txt;;
*/pgo/*) cat $W/pgo.txt;;
esac
EOT
	chmod +x bin/make qemu
	: >work
	PATH=$W/bin:$PATH expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --qemu="$W/qemu"
	has train-append.txt "kbench_only=null_call,stat,sig_install,fork_exit,fork_sh,unix_lat,"
	has out.txt "trained on  4 rows: mean +7.5 %, significant 2 faster / 1 slower"
	has out.txt "held out    4 rows: mean +0.5 %, significant 1 faster / 1 slower"
	has pg/compare.txt "held out    4 rows: mean +0.5 %"
	# Both streams into one file: the summary's note comes after the table.
	PATH=$W/bin:$PATH "$KBENCH" pgo --source=/src/linux --out=pg --qemu="$W/qemu" >both.txt 2>&1 ||
		fail "pgo into one file: $(tail -3 both.txt)"
	[ "$(grep -n 'with a profile' both.txt | cut -d: -f1)" -gt "$(grep -n '^held out' both.txt | cut -d: -f1)" ] ||
		fail "the summary's note is inside the table: $(cat both.txt)"
	python3 - pg/summary.json <<'PY' || fail "summary.json lacks the gains"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["objects"] == 1 and s["with_profile"] == 1, s
assert s["train"]["workload"] is None, s["train"]
assert len(s["train"]["rows"]) == 14 and "null_call" in s["train"]["rows"], s["train"]
assert not [r for r in s["train"]["rows"] if r.startswith("mem_")], s["train"]
t, h = s["trained"], s["held_out"]
assert (t["rows"], t["faster"], t["slower"]) == (4, 2, 1) and abs(t["mean_pct"] - 7.5) < 1e-4, t
assert (h["rows"], h["faster"], h["slower"]) == (4, 1, 1), h
assert abs(h["mean_pct"] - (100 / 0.99 - 100 - 100 / 11 + 10) / 4) < 1e-4, h
assert s["plain"].endswith("/pg/plain.json") and s["pgo"].endswith("/pg/pgo.json"), s
PY
	# A workload alone: every row held out, the workload's path in the summary.
	PATH=$W/bin:$PATH expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --qemu="$W/qemu" \
		--train-rows=none --train-workload=work
	has train-append.txt "kbench_only=mem_write_bw"
	has out.txt "held out    8 rows: mean +4.0 %, significant 3 faster / 2 slower"
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
assert s["train"] == {"rows": [], "workload": sys.argv[2]}, s["train"]
assert s["trained"]["rows"] == 0 and s["held_out"]["rows"] == 8, s' pg/summary.json "$W/work" ||
		fail "summary.json of --train-rows=none"
	# Every row trained: none held out.
	PATH=$W/bin:$PATH expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --qemu="$W/qemu" \
		--train-rows=all
	has train-append.txt "kbench_only=proc,ipc-lat,ipc-bw,ctx,fs-vm,smp,mem"
	has out.txt "held out    0 rows: the training ran every row compared"
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
assert len(s["train"]["rows"]) == 44, s["train"]
assert s["trained"]["rows"] == 8 and s["held_out"] == {"rows": 0, "mean_pct": 0,
    "faster": 0, "slower": 0}, s' pg/summary.json || fail "summary.json of --train-rows=all"
	# --program: plain's and pgo's boots carry the program (their initramfs
	# lists it), the training's does not; its row is summary.json's
	# "programs", 10 % faster, and the held-out rows stay as they were.
	for f in plain pgo; do
		sed "s/^KBENCH-END ok rows=\([0-9]*\)/KBENCH-ROW hb us programs $([ $f = plain ] &&
			echo 110,110,110 || echo 100,100,100)\nKBENCH-END ok rows=99/" $f.txt >$f-p.txt
	done
	cat >qemu <<EOT
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in -kernel) k=\$2;; -initrd) i=\$2;; esac
	shift
done
p=
cpio -it <"\$i" 2>/dev/null | grep -qx kbench-programs && p=-p
case \$k in
*/instr/*) echo "programs\$p" >$W/train-programs.txt; cat $W/instr.txt;;
*/plain/*) cat $W/plain\$p.txt;;
*/pgo/*) cat $W/pgo\$p.txt;;
esac
EOT
	PATH=$W/bin:$PATH expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --qemu="$W/qemu" \
		--program='hb=/usr/bin/hackbench -g 1 -l 5'
	[ "$(cat train-programs.txt)" = programs ] || fail "the training boot carried the programs"
	has out.txt "held out    4 rows: mean +0.5 %, significant 1 faster / 1 slower"
	has out.txt "programs    1 row: mean +10.0 %, significant 1 faster / 0 slower"
	has pg/compare.txt "programs    1 row: mean +10.0 %"
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))
assert s["programs"] == {"rows": 1, "mean_pct": 10, "faster": 1, "slower": 0}, s["programs"]
assert s["held_out"]["rows"] == 4 and s["trained"]["rows"] == 4, s' pg/summary.json ||
		fail "summary.json lacks the programs group"
	# A program kbench cannot carry stops pgo before any build.
	PATH=$W/bin:$PATH expect 3 "$KBENCH" pgo --source=/src/linux --out=pg2 --qemu="$W/qemu" \
		--program=s=/etc/hostname
	[ -e pg2 ] && fail "pgo went on with a refused program"
	return 0
}

# pgo --model=cycles with the same stand-ins, and a QEMU that writes the
# cost model's records too: the gains, the table and summary.json are of
# cycles (profile-guided: 10 % fewer on the trained rows, 10 % more on the
# held-out ones), not of the rows' own figures; the training runs without
# the model.
case_pgo_model() {
	[ -n "${KBENCH_MODEL_DIR:-}" ] || skip "kbench was built without the cost model (no qemu-plugin.h)"
	mkdir bin
	cat >bin/make <<'EOT'
#!/bin/sh
for a; do case $a in O=*) o=${a#O=};; esac; t=$a; done
case $t in
tinyconfig) mkdir -p "$o" && : >"$o/.config";;
bzImage) mkdir -p "$o/arch/x86/boot" && { head -c 514 /dev/zero; printf HdrS; } >"$o/arch/x86/boot/bzImage"
	[ -z "${CCD_PROFILE_REPORT:-}" ] || echo "used kernel/fork.o" >>"$CCD_PROFILE_REPORT";;
esac
EOT
	python3 - "$FIXTURES/gains" <<'PY' || fail "cannot write the transcripts"
import json, sys
head = ["KBENCH-BEGIN v=1 runs=3", "KBENCH-KERNEL Linux version 6.1.0 (kbench@ccd-suite) "
        "(gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) #1"]
trained = {"null_call", "stat", "sig_install", "fork_exit", "fork_sh", "unix_lat", "tcp_connect",
           "unix_bw", "ctx_2p_0k", "ctx_16p_8k", "file_delete_0k", "file_delete_10k",
           "prot_fault", "page_fault_anon"}
events = ["instructions", "loads", "stores", "l1i_misses", "l1d_misses", "l2_misses",
          "llc_misses", "coherence_misses", "branches", "branch_misses"]
for name in "plain", "pgo":
    rows = json.load(open(f"{sys.argv[1]}/{name}.json"))["benchmarks"]
    lines, recs = list(head), ["model profile=stand-in"]
    for r in rows:
        lines.append("KBENCH-OPS %s 2,2,2" % r["name"])
        lines.append("KBENCH-ROW %s %s %s %s" % (r["name"], r["unit"], r["group"],
                     ",".join(map(str, r["samples"]))))
        c = 2000 if name == "plain" else 1800 if r["name"] in trained else 2200
        recs.append("row")
        recs += ["sample cycles=%d " % c + " ".join("%s=10" % e for e in events)] * 3
    open(f"{name}.txt", "w").write("\n".join(lines + ["KBENCH-END ok rows=%d" % len(rows), ""]))
    open(f"{name}.rec", "w").write("\n".join(recs + [""]))
open("instr.txt", "w").write("\n".join(head + ["KBENCH-OPS null_call 1,1,1", "KBENCH-ROW null_call us proc 1,1,1",
    "KBENCH-GCOV files=0", "KBENCH-END ok rows=1", ""]))
PY
	cat >qemu <<EOT
#!/bin/sh
out=
while [ \$# -gt 0 ]; do
	case \$1 in -kernel) k=\$2;; -plugin) out=\${2##*,out=};; esac
	shift
done
case \$k in
*/instr/*) [ -z "\$out" ] || echo "the training ran under the model" >$W/trained-with-model
	cat $W/instr.txt;;
*/plain/*) cp $W/plain.rec "\$out"; cat $W/plain.txt;;
*/pgo/*) cp $W/pgo.rec "\$out"; cat $W/pgo.txt;;
esac
EOT
	chmod +x bin/make qemu
	PATH=$W/bin:$PATH expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --qemu="$W/qemu" --model=cycles
	[ -e trained-with-model ] && fail "the training ran under the model"
	has out.txt "cycles per operation, modelled (cost model: stand-in)"
	has out.txt "trained on  4 rows: mean +11.1 %, significant 4 faster / 0 slower"
	has out.txt "held out    4 rows: mean -9.1 %, significant 0 faster / 4 slower"
	python3 - pg/summary.json <<'PY' || fail "summary.json is not of cycles"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["metric"] == "cycles", s
t, h = s["trained"], s["held_out"]
assert (t["rows"], t["faster"], t["slower"]) == (4, 4, 0) and abs(t["mean_pct"] - 100 / 9) < 1e-3, t
assert (h["rows"], h["faster"], h["slower"]) == (4, 0, 4) and abs(h["mean_pct"] + 100 / 11) < 1e-3, h
PY
	python3 -c 'import json; d = json.load(open("pg/plain.json")); b = d["benchmarks"][0]
assert d["model"] == "stand-in" and b["cycles"] == 1000 and b["events"]["instructions"] == 5, b' ||
		fail "plain.json: the model's figures per operation (2000 cycles over 2 ops)"
	# Without --model: the rows' own figures, "metric": "time".
	PATH=$W/bin:$PATH expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --qemu="$W/qemu"
	python3 -c 'import json; assert json.load(open("pg/summary.json"))["metric"] == "time"' ||
		fail "summary.json without --model: metric is not time"
	# --model with KVM's clock, or without the plugin: before any build.
	expect 2 "$KBENCH" pgo --source=/src/linux --out=pk --model=cycles --clock=kvm
	has err.txt "--model needs --clock=icount"
	KBENCH_MODEL_PLUGIN=$W/none.so expect 3 "$KBENCH" backends --source=/src/linux --cc=gcc \
		--cc=clang --out=pk --model=cycles
	has err.txt "the cost model's plugin $W/none.so is missing"
	[ -e pk ] && fail "a build started"
	return 0
}

# The profile files of kbench_gcov=1 as a guest sends them (protocol.h),
# replayed by a stand-in for QEMU: whole files land laid out for ccd, a
# damaged one and one from outside the build tree are dropped and said.
case_gcov() {
	mkdir -p tree/arch/x86/boot && bzimage tree/arch/x86/boot/bzImage
	# A real gcda, without the object summary, as the kernel writes them.
	printf 'int f(int n){int s=0;for(int i=0;i<n;i++)if(i%%3)s+=i;return s;}\nint main(void){return f(1000)&1;}\n' >p.c
	gcc -O2 -fprofile-arcs -o p p.c && ./p; gcov-dump -l p.gcda | grep -q OBJECT_SUMMARY ||
		fail "gcc's own gcda has no summary: this test proves nothing"
	python3 - "$(cd tree && pwd -P)" <<'PY' >transcript.txt
import base64, struct, sys
root = sys.argv[1].lstrip('/')
def fnv(b):
    h = 2166136261
    for c in b:
        h = ((h ^ c) * 16777619) & 0xffffffff
    return h
def send(path, data, damage=False):
    print(f"KBENCH-FILE {len(data)} {path}")
    for i in range(0, len(data), 57):
        line = base64.b64encode(data[i:i + 57]).decode()
        if damage and i == 57:
            line = line.replace(line[0], '*', 1)
        print(f"KBENCH-DATA {line}")
    print(f"KBENCH-FILE-END {fnv(data):08x}")
print("KBENCH-BEGIN v=1 runs=1")
print("KBENCH-KERNEL Linux version 6.1.0 (kbench@ccd-suite) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) #1")
print("KBENCH-ROW null_call us proc 0.25")
gcda = open("p.gcda", "rb").read()
out, i = gcda[:16], 16
while i < len(gcda):
    tag, ln = struct.unpack("<II", gcda[i:i + 8])
    if tag != 0xa1000000:
        out += gcda[i:i + 8 + ln]
    i += 8 + ln
open("nosum.gcda", "wb").write(out)
send(f"{root}/kernel/fork.gcda", out)
send(f"{root}/init/main.gcda", b"adcg\0\x01")
send(f"{root}/mm/bad.gcda", bytes(200), damage=True)
send("elsewhere/x.gcda", b"xyz")
print("KBENCH-GCOV files=4")
print("KBENCH-END ok rows=1")
PY
	printf '#!/bin/sh\ncat %s/transcript.txt\n' "$W" >fakeqemu && chmod +x fakeqemu
	expect 0 "$KBENCH" run --qemu="$W/fakeqemu" --gcov-out=prof -o r.json tree/arch/x86/boot/bzImage
	has err.txt "1 profile file(s) arrived damaged and were dropped"
	has err.txt "2 profile file(s) are no gcda kbench can read; written as they came"
	has err.txt "1 profile(s) from outside the build tree"
	has err.txt "2 profiles in prof"
	[ "$(ls prof | tr '\n' ' ')" = "init#main.gcda kernel#fork.gcda " ] || fail "profiles: $(ls -A prof)"
	# The summary gcc needs is added (one run, the largest arc counter);
	# gcc's own reader reads the rest as it was sent.
	gcov-dump -l 'prof/kernel#fork.gcda' >dump.txt 2>&1 || fail "gcov-dump cannot read it: $(cat dump.txt)"
	max=$(gcov-dump -l p.gcda | sed -n 's/.*OBJECT_SUMMARY runs=1, sum_max=\([0-9]*\).*/\1/p')
	grep -q "OBJECT_SUMMARY runs=1, sum_max=$max\$" dump.txt || fail "no summary with sum_max=$max: $(head -5 dump.txt)"
	diff <(gcov-dump -l nosum.gcda | grep -v 'magic\|stamp\|checksum' | sed 's/^[^:]*://') \
		<(gcov-dump -l 'prof/kernel#fork.gcda' | grep -v 'magic\|stamp\|checksum\|SUMMARY' |
		sed 's/^[^:]*://') >&2 || fail "the records differ from what was sent"
	printf 'adcg\0\001' | cmp -s - 'prof/init#main.gcda' || fail "init#main.gcda is not what was sent"
	[ -s r.json ] || fail "no result"
	# A kernel that sends no profiles: its failure, named; no result.
	grep -v GCOV transcript.txt >t2.txt && mv t2.txt transcript.txt
	rm -rf prof r.json
	expect 1 "$KBENCH" run --qemu="$W/fakeqemu" --gcov-out=prof -o r.json tree/arch/x86/boot/bzImage
	has err.txt "sent no profiles (built without CONFIG_GCOV_KERNEL?)"
	[ -e r.json ] && fail "a result was written"
	# No build tree to take paths from.
	bzimage lone-bzImage
	expect 3 "$KBENCH" run --qemu="$W/fakeqemu" --gcov-out=prof -o r.json lone-bzImage
	has err.txt "no build tree to take profile paths from (--gcov-objtree)"
	return 0
}

# The cost model: its options and what a profile may not say.
case_model_usage() {
	bzimage bz
	expect 2 "$KBENCH" run --model=frob bz
	has err.txt "--model is cycles or cycles=PROFILE, not 'frob'"
	expect 2 "$KBENCH" run --model=cycles --clock=kvm bz
	has err.txt "--model needs --clock=icount"
	expect 2 "$KBENCH" calibrate --frob
	# Without the plugin: what to install, before QEMU starts.
	mkdir tmp
	KBENCH_MODEL_PLUGIN=$W/none.so TMPDIR=$W/tmp expect 3 "$KBENCH" run --model=cycles \
		--qemu="$W/no-qemu" -o r.json bz
	has err.txt "the cost model's plugin $W/none.so is missing"
	has err.txt "scripts/install-deps"
	[ -e r.json ] && fail "a result file was left"
	[ -z "$(ls -A tmp)" ] || fail "a temporary file was left: $(ls -A tmp)"
	# QEMU 9 and later refuse the plugin of QEMU 7.2's API: said, and what to run.
	echo "a plugin" >v1.so
	cat >newqemu <<'EOT'
#!/bin/sh
echo "qemu-system-x86_64: Could not load plugin $KBENCH_MODEL_PLUGIN: plugin requires API version 1, but this QEMU supports only a minimum version of 2" >&2
exit 1
EOT
	chmod +x newqemu
	KBENCH_MODEL_PLUGIN=$W/v1.so TMPDIR=$W/tmp expect 3 "$KBENCH" run --model=cycles \
		--qemu="$W/newqemu" -o r.json bz
	has err.txt "QEMU could not load the cost model's plugin $W/v1.so"
	has err.txt "the plugin is built for QEMU 7.2's plugin API (Debian 12's QEMU); later QEMUs refuse it"
	[ -e r.json ] && fail "a result file was left"
	# An x86_64 guest of several CPUs needs a QEMU the plugin does not load in.
	KBENCH_MODEL_PLUGIN=$W/v1.so TMPDIR=$W/tmp expect 3 "$KBENCH" run --model=cycles \
		--qemu="$W/newqemu" --cpus=1,2 -o r.json bz
	has err.txt "--cpus=2 --model=cycles: the cost model runs under QEMU 7.2 only, where x86_64 guests of more than 1 CPU do not boot"
	grep -q "Could not load" err.txt && fail "QEMU ran: $(cat err.txt)"
	[ -e r.json ] && fail "a result file was left"
	[ -z "$(ls -A tmp)" ] || fail "a temporary file was left: $(ls -A tmp)"
	# A plugin QEMU cannot load is kbench's trouble, not the kernel's: said
	# by --qemu's boot, or before any boot when kbench chooses the QEMU.
	if [ -n "${KBENCH_MODEL_DIR:-}" ] && command -v qemu-system-x86_64 >/dev/null; then
		echo "not a plugin" >bad.so
		KBENCH_MODEL_PLUGIN=$W/bad.so TMPDIR=$W/tmp expect 3 "$KBENCH" run --model=cycles \
			--qemu=qemu-system-x86_64 -o r.json bz
		has err.txt "QEMU could not load the cost model's plugin $W/bad.so"
		KBENCH_MODEL_PLUGIN=$W/bad.so TMPDIR=$W/tmp expect 3 "$KBENCH" run --model=cycles \
			-o r.json bz
		has err.txt "no QEMU here runs this x86_64 kernel with 1 CPU under icount with the cost model:"
		has err.txt "$(command -v qemu-system-x86_64) (QEMU "
		has err.txt "QEMU could not load the cost model's plugin: Could not load plugin $W/bad.so"
		grep -q booting err.txt && fail "a boot began: $(cat err.txt)"
		[ -e r.json ] && fail "a result file was left"
		[ -z "$(ls -A tmp)" ] || fail "a temporary file was left: $(ls -A tmp)"
	fi
	return 0
}

# model_result FILE INSTR CYCLES L1I [COHERENCE]: a result under the cost
# model, two rows (null_call, pipe_bw), three samples each of the row's
# time = INSTR instructions per op (icount) and CYCLES cycles, L1I L1i
# misses; COHERENCE coherence misses, or none (a result from before the
# model had them).
model_result() {
	python3 - "$@" <<'PY'
import json, sys
path, ins, cyc, l1i = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
metrics = ["cycles", "instructions", "loads", "stores", "l1i_misses", "l1d_misses",
           "l2_misses", "llc_misses", "branches", "branch_misses"]
if len(sys.argv) > 5:
    metrics.append("coherence_misses")
def row(name, unit, group, t, k):
    ms = {m: [k * 1.0] * 3 for m in metrics}
    ms["cycles"] = [k * cyc * f for f in (0.99, 1.0, 1.01)]
    ms["instructions"] = [k * ins] * 3
    ms["l1i_misses"] = [k * l1i] * 3
    if len(sys.argv) > 5:
        ms["coherence_misses"] = [k * float(sys.argv[5])] * 3
    return {"name": name, "unit": unit, "group": group, "samples": [t * f for f in (0.99, 1.0, 1.01)],
            "median": t, "cycles": k * cyc, "events": {m: ms[m][1] for m in metrics[1:]},
            "model_samples": ms}
json.dump({"clock": "icount", "kernel": path, "compiler": "gcc", "version": "v", "append": "",
           "model": "x86-64 (AMD Zen 4)", "runs": 3, "quick": True,
           "benchmarks": [row("null_call", "us", "proc", ins / 1000, 1),
                          row("pipe_bw", "MB/s", "ipc-bw", 1e9 / (1000 * ins), 1000)]},
          open(path, "w"))
PY
}

# compare --metric: the modelled figures instead of the rows' own.
case_compare_metric() {
	# b runs fewer instructions than a but misses L1i more: faster in
	# instructions, slower in cycles (the trade the model is there to see).
	model_result a.json 200 100 0
	model_result b.json 160 125 2
	expect 0 "$KBENCH" compare a.json b.json
	row null_call | grep -q '+25.0%\*' || fail "null_call by time: expected +25.0%*"
	expect 0 "$KBENCH" compare --metric=cycles --json=c.json -o c.svg a.json b.json
	has out.txt "cycles per operation, modelled (cost model: x86-64 (AMD Zen 4))"
	has out.txt "noise table: built-in"
	row null_call | grep -qE '^null_call +cyc +100 +125 .* -20\.0%\*$' || fail "null_call in cycles: expected -20.0%*"
	row pipe_bw | grep -q -- '-20.0%\*' || fail "pipe_bw in cycles per MB: expected -20.0%*"
	python3 -c 'import json; d = json.load(open("c.json")); assert d["metric"] == "cycles", d["metric"]; assert d["rows"][0]["unit"] == "cyc"' ||
		fail "compare --json: no metric cycles"
	grep -q "cycles per operation, modelled" c.svg || fail "the chart does not say its metric"
	expect 0 "$KBENCH" compare --metric=instructions a.json b.json
	row null_call | grep -q '+25.0%' || fail "null_call in instructions: expected +25.0%"
	# An event one kernel never had: no ratio ("n/a", JSON null), not nan
	# or inf, and no part of the average; one both never had: +0.0%.
	expect 0 "$KBENCH" compare --metric=l1i_misses --json=m.json -o m.svg b.json a.json
	row null_call | grep -qE '^null_call +/op +2 +0 .* n/a$' || fail "null_call's L1i misses: expected 2, 0 and n/a"
	grep -qiwE -- '-?(nan|inf)' out.txt m.json m.svg && fail "nan or inf in the comparison: $(grep -iwE -- '-?(nan|inf)' out.txt m.json m.svg)"
	python3 -c 'import json; r = json.load(open("m.json"))["rows"][0]; assert r["against"][0]["percent"] is None, r' ||
		fail "compare --json: a percentage for an event one kernel never had"
	has out.txt "noise table: none"
	model_result z.json 160 125 0
	expect 0 "$KBENCH" compare --metric=l1i_misses a.json z.json
	row null_call | grep -qE '^null_call +/op +0 +0 .* \+0\.0%~$' || fail "null_call's L1i misses, 0 and 0: expected +0.0%~"
	expect 0 "$KBENCH" compare --json=t.json a.json b.json
	python3 -c 'import json; assert json.load(open("t.json"))["metric"] == "time"' || fail "the default metric is not time"
	# Coherence misses: a result without them (from before the model had
	# several CPUs) counted none; one with them compares as any event.
	model_result c1.json 200 100 0 4
	model_result c2.json 200 100 0 6
	expect 0 "$KBENCH" compare --metric=coherence_misses c1.json c2.json a.json
	row null_call | grep -qE '^null_call +/op +4 +6 +0 .* -33\.3%\* +n/a$' ||
		fail "null_call's coherence misses: expected 4, 6 (-33.3%*) and 0 (n/a)"
	# A table's own for the metric; a named table without one: its rows.
	printf '%s' '{"kbench_noise": 1, "clock": "icount", "floor": 1, "rows": {"null_call": 2},
		"metrics": {"cycles": {"floor": 0.5, "rows": {"null_call": 30}}}}' >n.json
	expect 0 "$KBENCH" compare --noise=n.json --metric=cycles a.json b.json
	row null_call | grep -qE ' 30\.0% +-20\.0%~$' || fail "null_call in cycles against its metric's noise (30 %)"
	row pipe_bw | grep -qE ' 0\.5% +-20\.0%\*$' || fail "pipe_bw in cycles against the metric's floor (0.5 %)"
	expect 0 "$KBENCH" compare --noise=n.json --metric=instructions a.json b.json
	row null_call | grep -qE ' 2\.0% +\+25\.0%\*$' || fail "null_call in instructions: the named table's rows (2 %)"
	expect 0 "$KBENCH" compare --noise=n.json a.json b.json
	row null_call | grep -qE ' 2\.0% +\+25\.0%\*$' || fail "null_call by time: the table's rows (2 %)"
	printf '%s' '{"kbench_noise": 1, "clock": "icount", "floor": 1, "rows": {},
		"metrics": {"watts": {"floor": 1, "rows": {}}}}' >n.json
	expect 3 "$KBENCH" compare --noise=n.json a.json b.json
	has err.txt "n.json: the noise table has a table for watts, not a metric"
	printf '%s' '{"kbench_noise": 1, "clock": "icount", "floor": 1, "rows": {},
		"metrics": {"cycles": {"floor": 101, "rows": {}}}}' >n.json
	expect 3 "$KBENCH" compare --noise=n.json --metric=cycles a.json b.json
	has err.txt "n.json: the noise table's cycles \"floor\" is not a percentage"
	# A row the model ran but has no figure for (FTQ's time lost is not a
	# time per operation): left out of a modelled metric, kept by time.
	for f in a b; do
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"].append({"name": "ftq_noise", "unit": "us", "group": "smp", "samples": [1.0, 2.0, 3.0], "median": 2.0})
json.dump(d, open(sys.argv[2], "w"))' $f.json ftq-$f.json || fail "writing ftq-$f.json"
	done
	expect 0 "$KBENCH" compare --metric=cycles ftq-a.json ftq-b.json
	row null_call | grep -q -- '-20.0%\*' || fail "null_call in cycles beside an unmodelled row"
	grep -q '^ftq_noise' out.txt && fail "ftq_noise has no modelled figure, yet it is in the cycles table"
	expect 0 "$KBENCH" compare ftq-a.json ftq-b.json
	row ftq_noise >/dev/null || fail "ftq_noise missing from the table by time"
	# What cannot be: no model in a file, a metric that is none, a damaged model.
	expect 3 "$KBENCH" compare --metric=cycles a.json "$FIXTURES/b.json"
	has err.txt "$FIXTURES/b.json: benchmark null_call has no cost model figures"
	expect 2 "$KBENCH" compare --metric=watts a.json b.json
	has err.txt "--metric is cycles, instructions or an event"
	sed 's/"l2_misses": \[1.0, 1.0, 1.0\]/"l2_misses": [1.0, -1]/' b.json >d.json
	expect 3 "$KBENCH" compare --metric=cycles a.json d.json
	has err.txt "d.json: benchmark null_call: \"model_samples\" lacks l2_misses (3 numbers)"
	return 0
}

# profile_error TEXT MESSAGE: a profile with TEXT is refused, naming file and line.
profile_error() {
	printf '%s\n' "$1" >bad.profile
	expect 3 "$KBENCH" run --model=cycles="$W/bad.profile" --qemu="$W/no-qemu" bz
	has err.txt "$2"
}

case_model_profile() {
	[ -n "${KBENCH_MODEL_DIR:-}" ] || skip "kbench was built without the cost model (no qemu-plugin.h)"
	local good=$KBENCH_MODEL_DIR/x86-64.profile end
	ln() { grep -n "^$1 =" "$good" | cut -d: -f1; }
	end=$(($(wc -l <"$good") + 1))
	bzimage bz
	# Every profile loads (a QEMU that is not there is the first trouble).
	for p in x86-64 x86-64-zen5 arm64; do
		expect 3 "$KBENCH" run --model=cycles="$p" --qemu="$W/no-qemu" bz
		has err.txt "cannot run '$W/no-qemu'"
	done
	profile_error "$(sed 's/^l2 = .*/l2 = 1M 7 64/' "$good")" \
		"bad.profile:$(ln l2): l2: SIZE / (WAYS x LINE) must be a power of two"
	profile_error "$(sed 's/^cpi = .*/cpi = fast/' "$good")" \
		"bad.profile:$(ln cpi): cpi takes a number of cycles"
	profile_error "$(cat "$good"; echo 'l3 = 1M 8 64')" "bad.profile:$end: unknown key 'l3'"
	profile_error "$(cat "$good"; echo 'cpi = 1')" "bad.profile:$end: 'cpi' given twice (first on line $(ln cpi))"
	profile_error "$(grep -v '^llc_latency' "$good")" "bad.profile: no 'llc_latency' line"
	profile_error "$(sed 's/^memory_latency = .*/memory_latency = 20/' "$good")" \
		"bad.profile: the latencies must grow outwards"
	profile_error "$(sed 's/^l1i = .*/l1i = 32K 8 60/' "$good")" \
		"bad.profile:$(ln l1i): l1i: the line size must be a power of two"
	profile_error "just words" "bad.profile:1: expected 'key = value'"
	profile_error "$(sed 's/^coherence_latency = .*/coherence_latency = far/' "$good")" \
		"bad.profile:$(ln coherence_latency): coherence_latency takes a number of cycles"
	# A profile from before coherence_latency loads (another core's line
	# then costs an LLC hit): QEMU is the first trouble, as for a good one.
	profile_error "$(grep -v '^coherence_latency' "$good")" "cannot run '$W/no-qemu'"
	profile_error "$(sed 's/^coherence_latency = .*/coherence_latency = 5/' "$good")" \
		"bad.profile:$(ln coherence_latency): coherence_latency (5) must be at least l2_latency (14)"
	# The core's timing is three keys or none; a profile without them loads.
	profile_error "$(grep -v '^rob =' "$good")" \
		"bad.profile: width, rob and l1_latency go together"
	profile_error "$(grep -Ev '^(width|rob|l1_latency) =' "$good")" "cannot run '$W/no-qemu'"
	profile_error "$(sed 's/^rob = .*/rob = 2/' "$good")" \
		"bad.profile:$(ln rob): the core's timing needs width from 1 to 16 and rob at least width, not 6 and 2"
	profile_error "$(sed 's/^l1_latency = .*/l1_latency = 20/' "$good")" \
		"bad.profile:$(ln l1_latency): the latencies must grow outwards (l1 <= l2"
	profile_error "$(cat "$good"; echo 'coherence_latency = 90')" \
		"bad.profile:$end: 'coherence_latency' given twice (first on line $(ln coherence_latency))"
	# The front end's keys: each part's keys together, with the core's timing.
	local fe
	fe=$(grep -Ev "^($FRONT_KEYS) =" "$good")
	end=$(($(printf '%s\n' "$fe" | wc -l) + 1))
	profile_error "$fe"$'\nfetch_bytes = 8' "bad.profile:$end: fetch_bytes must be a power of two from 16 to l1i's line (64), not 8"
	profile_error "$fe"$'\nbtb1 = 1024 4 0' "bad.profile: btb1 and btb_redirect go together"
	profile_error "$fe"$'\nbtb1 = 1024 3 0\nbtb_redirect = 5' "bad.profile:$end: btb1: ENTRIES / WAYS must be a power of two"
	profile_error "$fe"$'\nbtb1 = 1024 4\nbtb_redirect = 5' "bad.profile:$end: btb1 takes ENTRIES WAYS BUBBLE (e.g. 1536 6 0), not '1024 4'"
	profile_error "$fe"$'\nfetch_windows = 2' "bad.profile:$end: fetch_windows needs fetch_bytes"
	profile_error "$fe"$'\nfetch_misses = 4' "bad.profile:$end: fetch_misses needs prefetch"
	profile_error "$fe"$'\nopcache = 64 4 2' "bad.profile:$end: opcache needs fetch_bytes"
	profile_error "$fe"$'\nfetch_bytes = 32\nopcache = 48 4 2' "bad.profile:$((end + 1)): opcache: ENTRIES / WAYS must be a power of two"
	profile_error "$fe"$'\nfetch_bytes = 32\nopcache = 64 4 9' "bad.profile:$((end + 1)): opcache needs fetch_bytes, and takes 1 to 8 windows a cycle"
	profile_error "$fe"$'\nfetch_bytes = 32\nopcache = 64 4' "bad.profile:$((end + 1)): opcache takes WINDOWS WAYS PER_CYCLE (e.g. 512 8 2), not '64 4'"
	profile_error "$fe"$'\nitlb = 64 64 512 8' "bad.profile: itlb or dtlb and tlb_latency go together"
	# Without the core's timing they change nothing, and the profile loads.
	profile_error "$(printf '%s\n' "$fe" | grep -Ev '^(width|rob|l1_latency) =')"$'\nprefetch = 8' \
		"cannot run '$W/no-qemu'"
	# A profile with every part loads.
	profile_error "$fe"$'\nfetch_bytes = 32\nfetch_windows = 2\nbtb1 = 1536 6 0\nbtb2 = 7168 7 1\nbtb_redirect = 5\nprefetch = 24\nfetch_misses = 4\nitlb = 64 64 512 8\ndtlb = 72 72 3072 12\ntlb_latency = 7' \
		"cannot run '$W/no-qemu'"
	# TAGE instead of gshare: optional (without it, gshare), four numbers in range.
	local gs
	gs=$(grep -v '^tage =' "$good")
	end=$(($(printf '%s\n' "$gs" | wc -l) + 1))
	profile_error "$gs" "cannot run '$W/no-qemu'"
	profile_error "$gs"$'\ntage = 8 11 4' \
		"bad.profile:$end: tage takes TABLES BITS MIN MAX (e.g. 8 11 4 640), not '8 11 4'"
	profile_error "$gs"$'\ntage = 17 11 4 640' \
		"bad.profile:$end: tage takes 1 to 16 tables of 6 to 15 index bits, not 17 of 11"
	# The folded histories are 16-bit lanes: an index of 16 bits would not fit.
	profile_error "$gs"$'\ntage = 8 16 4 640' \
		"bad.profile:$end: tage takes 1 to 16 tables of 6 to 15 index bits, not 8 of 16"
	profile_error "$gs"$'\ntage = 8 11 40 20' \
		"bad.profile:$end: tage's histories run from MIN to a longer MAX, 2 to 2048 outcomes, not 40 to 20"
	expect 3 "$KBENCH" run --model=cycles="$W/none.profile" --qemu="$W/no-qemu" bz
	has err.txt "none.profile: cannot read the profile"
	return 0
}

# coherence_run MODE [PROFILE]: pp (below) under the model in qemu-user
# (x86-64's profile by default), its whole run's record in MODE.rec, as
# "event value" lines in MODE.ev.
coherence_run() {
	qemu-x86_64 -plugin "$KBENCH_MODEL_DIR/kbench-model.so,profile=${2:-$KBENCH_MODEL_DIR/x86-64.profile},out=$W/$1.rec,whole=on" \
		./pp "$1" >"$1.out" || fail "pp $1 under the model: $(cat "$1.out")"
	grep '^sample ' "$1.rec" | tr ' ' '\n' | grep = | tr = ' ' >"$1.ev"
}
# ev MODE EVENT: that event's count in MODE's whole run.
ev() { awk -v e="$2" '$1 == e { print $2 }' "$1.ev"; }

# The model's cases that build x86-64 programs with gcc and run them under
# the plugin in qemu-x86_64: skipped where any of it is missing.
need_model_programs() {
	[ -n "${KBENCH_MODEL_DIR:-}" ] || skip "kbench was built without the cost model (no qemu-plugin.h)"
	command -v qemu-x86_64 >/dev/null || skip "no qemu-x86_64 (qemu-user)"
	command -v gcc >/dev/null || skip "no gcc"
	[ "$(uname -m)" = x86_64 ] || skip "the test programs are built for x86-64"
}

# Several vCPUs: a line two threads hand back and forth is a coherence
# miss at each handoff and costs more than the same work on lines of
# their own; one thread never has one.
case_model_coherence() {
	need_model_programs
	local rounds=20000 shared private one
	sed "s/ROUNDS/$rounds/" >pp.c <<'EOF'
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
/* Each counter on a line of its own. */
static struct { volatile long n; char pad[56]; } ball[2] __attribute__((aligned(64)));
static int shared;
/* shared: each waits for its turn (the count's parity), then counts. */
static void *player(void *arg)
{
	long me = (long)arg;
	volatile long *n = &ball[shared ? 0 : me].n;

	for (long i = 0; i < ROUNDS; i++) {
		while (shared && *n % 2 != me)
			sched_yield();
		++*n;
	}
	return NULL;
}
int main(int argc, char **argv)
{
	pthread_t t;
	int two = argc > 1 && strcmp(argv[1], "one");

	shared = argc > 1 && !strcmp(argv[1], "shared");
	if (two && pthread_create(&t, NULL, player, (void *)1L))
		return 1;
	player((void *)0L);
	if (two)
		pthread_join(t, NULL);
	printf("%ld %ld\n", ball[0].n, ball[1].n);
	return 0;
}
EOF
	gcc -O2 -pthread -o pp pp.c || fail "gcc"
	coherence_run shared
	coherence_run private
	coherence_run one
	[ "$(cat shared.out)" = "$((2 * rounds)) 0" ] || fail "the shared count: $(cat shared.out)"
	shared=$(ev shared coherence_misses) private=$(ev private coherence_misses) one=$(ev one coherence_misses)
	[ -n "$shared" ] || fail "no coherence_misses in the record: $(cat shared.rec)"
	# A miss per handoff (2 x rounds of them), give or take what evicts
	# the line in between; the private lines meet only in libc.
	[ "$shared" -ge "$rounds" ] || fail "$shared coherence misses for $((2 * rounds)) handoffs"
	[ "$private" -lt $((rounds / 100)) ] || fail "$private coherence misses on private lines"
	[ "$one" = 0 ] || fail "$one coherence misses in one thread"
	awk -v s="$(ev shared cycles)" -v p="$(ev private cycles)" 'BEGIN { exit !(s > 2 * p) }' ||
		fail "shared $(ev shared cycles) cycles, private $(ev private cycles): not twice"
	# Without the core's timing they cost what the profile says: the
	# record's cycles are the additive formula's, coherence_latency in it.
	grep -Ev '^(width|rob|l1_latency) =' "$KBENCH_MODEL_DIR/x86-64.profile" >additive.profile
	coherence_run shared "$W/additive.profile"
	python3 - additive.profile shared.ev <<'PY' || fail "cycles are not the profile's: $(cat shared.rec)"
import sys
p = {}
for l in open(sys.argv[1]):
    k, _, v = l.split("#")[0].partition("=")
    p[k.strip()] = v.strip()
n = lambda k: float(p[k])
e = {k: float(v) for k, v in (l.split() for l in open(sys.argv[2]))}
want = (e["instructions"] * n("cpi") + (e["l1i_misses"] + e["l1d_misses"]) * n("l2_latency")
        + e["l2_misses"] * (n("llc_latency") - n("l2_latency"))
        + e["llc_misses"] * (n("memory_latency") - n("llc_latency"))
        + e["coherence_misses"] * (n("coherence_latency") - n("llc_latency"))
        + e["branch_misses"] * n("branch_penalty"))
sys.exit(abs(want - e["cycles"]) > 1)
PY
	return 0
}

# The core's timing under qemu-user: the same instruction count runs
# several times faster when the multiplies do not wait for each other,
# which the additive formula (one cpi for all code) cannot tell; one run
# twice is the same record.
case_model_timing() {
	need_model_programs
	cat >mul.c <<'EOF'
#include <string.h>
int main(int argc, char **argv)
{
	long a = 3, b = 5, c = 7, d = 9, x = 11;
	int chain = argc > 1 && !strcmp(argv[1], "chain");

	for (long i = 0; i < 2000000; i++)
		if (chain)
			__asm__ volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0"
					 : "+r"(a));
		else
			__asm__ volatile("imul %4, %0\n\timul %4, %1\n\timul %4, %2\n\timul %4, %3"
					 : "+r"(a), "+r"(b), "+r"(c), "+r"(d) : "r"(x));
	return (int)(a + b + c + d) & 1;
}
EOF
	gcc -O1 -static -o mul mul.c || fail "gcc"
	grep -Ev '^(width|rob|l1_latency) =' "$KBENCH_MODEL_DIR/x86-64.profile" >additive.profile
	local mode prof
	for prof in "$KBENCH_MODEL_DIR/x86-64.profile" "$W/additive.profile"; do
		for mode in chain apart; do
			qemu-x86_64 -plugin "$KBENCH_MODEL_DIR/kbench-model.so,profile=$prof,out=$W/$mode.rec,whole=on" \
				./mul $mode
			grep '^sample ' "$mode.rec" | tr ' ' '\n' | grep = | tr = ' ' >"$(basename "$prof" .profile)-$mode.ev"
		done
	done
	# An iteration: a chain of 4 multiplies of 3 cycles each (12) against
	# 4 chains of one (3, as on hardware).
	awk -v c="$(ev x86-64-chain cycles)" -v a="$(ev x86-64-apart cycles)" \
		'BEGIN { exit !(c > 3.5 * a && c >= 2e6 * 12 && a >= 2e6 * 3) }' ||
		fail "chained multiplies $(ev x86-64-chain cycles) cycles, apart $(ev x86-64-apart cycles)"
	awk -v c="$(ev additive-chain cycles)" -v a="$(ev additive-apart cycles)" \
		-v ci="$(ev additive-chain instructions)" -v ai="$(ev additive-apart instructions)" \
		'BEGIN { c /= ci; a /= ai; exit !(c < 1.05 * a && a < 1.05 * c) }' ||
		fail "the additive formula told them apart: $(ev additive-chain cycles) and $(ev additive-apart cycles)"
	qemu-x86_64 -plugin "$KBENCH_MODEL_DIR/kbench-model.so,profile=$KBENCH_MODEL_DIR/x86-64.profile,out=$W/one.rec,whole=on" ./mul apart
	qemu-x86_64 -plugin "$KBENCH_MODEL_DIR/kbench-model.so,profile=$KBENCH_MODEL_DIR/x86-64.profile,out=$W/two.rec,whole=on" ./mul apart
	cmp -s one.rec two.rec || fail "one run twice: $(cat one.rec two.rec)"
	return 0
}

# The front end's parts, each on its own: a profile of the model's keys
# with none of them, and one with all, the figures the test's own.
FRONT_KEYS='fetch_bytes|fetch_windows|btb1|btb2|btb_redirect|prefetch|fetch_misses|itlb|dtlb|tlb_latency'
front_profiles() {
	grep -Ev "^($FRONT_KEYS) =" "$KBENCH_MODEL_DIR/x86-64.profile" >none.profile
	{ cat none.profile
	  printf '%s\n' 'fetch_bytes = 32' 'btb1 = 1024 4 0' 'btb2 = 8192 8 1' 'btb_redirect = 5' \
		'prefetch = 24' 'fetch_misses = 4' 'itlb = 64 64 512 8' 'dtlb = 64 64 2048 8' \
		'tlb_latency = 7'; } >all.profile
}

# model_ev PROFILE PROGRAM ARG NAME: PROGRAM ARG's whole run under PROFILE into NAME.ev.
model_ev() {
	qemu-x86_64 -plugin "$KBENCH_MODEL_DIR/kbench-model.so,profile=$W/$1,out=$W/$4.rec,whole=on" \
		"./$2" "$3" || fail "$2 $3 under $1"
	grep '^sample ' "$4.rec" | tr ' ' '\n' | grep = | tr = ' ' >"$4.ev"
}

# ipc NAME: instructions a cycle of NAME.ev.
ipc() { awk -v i="$(ev "$1" instructions)" -v c="$(ev "$1" cycles)" 'BEGIN { printf "%.2f", i / c }'; }

# at_most A B, at_least A B: the numbers compared.
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

case_model_frontend() {
	need_model_programs
	# taken: 16 jumps a pass, each after 3 nops, to the next 16-byte slot;
	# straight: the same instructions with no jump; big: 64 KiB of
	# independent adds (twice the L1i) run through again and again;
	# pages: a load from each of 16384 pages in turn, near: as many from one.
	cat >fe.c <<'EOF'
#include <string.h>
/* A ten-byte no-op (nopw %cs:0(%rax,%rax,1)). */
#define NOP10 ".byte 0x66,0x2e,0x0f,0x1f,0x84,0x00,0x00,0x00,0x00,0x00\n"
static char mem[16384 * 4096];
int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "";
	long s = 0;

	if (!strcmp(w, "taken"))
		for (long i = 0; i < 100000; i++)
			__asm__ volatile(".p2align 4\n.rept 16\nnop\nnop\nnop\njmp 1f\n.p2align 4\n1:\n.endr");
	else if (!strcmp(w, "straight"))
		for (long i = 0; i < 100000; i++)
			__asm__ volatile(".p2align 4\n.rept 16\nnop\nnop\nnop\nnop\n.endr");
	else if (!strcmp(w, "long"))
		for (long i = 0; i < 100000; i++)
			__asm__ volatile(".rept 16\n" NOP10 ".endr");
	else if (!strcmp(w, "longbig"))
		for (long i = 0; i < 2000; i++)
			__asm__ volatile(".rept 1024\n" NOP10 ".endr");
	else if (!strcmp(w, "big"))
		for (long i = 0; i < 400; i++)
			__asm__ volatile(".rept 2048\nadd $1, %%r8\nadd $1, %%r9\nadd $1, %%r10\n"
					 "add $1, %%r11\nadd $1, %%r12\nadd $1, %%r13\nadd $1, %%r14\n"
					 "add $1, %%r15\n.endr" ::: "r8", "r9", "r10", "r11", "r12", "r13",
					 "r14", "r15");
	else
		for (long r = 0; r < 20; r++)
			for (long p = 0; p < 16384; p++)
				s += ((volatile char *)mem)[strcmp(w, "pages") ? 64 * (p & 63) : 4096 * p];
	return (int)s;
}
EOF
	gcc -O1 -static -o fe fe.c || fail "gcc"
	front_profiles
	local p w e
	for p in none all; do
		for w in taken straight big pages near; do model_ev $p.profile fe $w $p-$w; done
	done
	# Without the front end none of its events is counted.
	for e in fetch_windows taken_branches btb_misses itlb_misses dtlb_misses page_walks; do
		[ "$(ev none-taken "$e")" = 0 ] || fail "$e counted without the front end: $(ev none-taken "$e")"
	done
	# A taken branch ends the cycle's fetch: four instructions a cycle at
	# most, where a straight run fills the width (6).
	at_least "$(ev all-taken taken_branches)" 1600000 ||
		fail "taken branches: $(ev all-taken taken_branches)"
	at_most "$(ipc all-taken)" 4.05 || fail "taken jumps at $(ipc all-taken) a cycle"
	at_least "$(ipc none-taken)" 5 || fail "taken jumps without the front end at $(ipc none-taken)"
	at_least "$(ipc all-straight)" 5 || fail "straight code at $(ipc all-straight) a cycle"
	# Two windows a cycle: two taken branches.
	{ cat all.profile; echo 'fetch_windows = 2'; } >two.profile
	model_ev two.profile fe taken two-taken
	at_least "$(ipc two-taken)" 5 || fail "two windows a cycle: taken jumps at $(ipc two-taken)"
	# Code twice the L1i: fetched line by line it waits for each (under one
	# instruction a cycle); run ahead, four misses in flight overlap.
	grep -Ev '^(prefetch|fetch_misses) =' all.profile >noprefetch.profile
	model_ev noprefetch.profile fe big noprefetch-big
	at_most "$(ipc none-big)" 1.5 || fail "big code without the front end at $(ipc none-big)"
	at_most "$(ipc noprefetch-big)" 1.5 || fail "big code without run-ahead at $(ipc noprefetch-big)"
	at_least "$(ipc all-big)" 3 || fail "big code run ahead at $(ipc all-big)"
	grep -v '^fetch_misses =' all.profile >unbounded.profile
	model_ev unbounded.profile fe big unbounded-big
	at_least "$(ipc unbounded-big)" "$(awk -v a="$(ipc all-big)" 'BEGIN { print a + 0.5 }')" ||
		fail "misses in flight unbounded: $(ipc unbounded-big), four: $(ipc all-big)"
	# 16 jumps in 16 slots a pass: 1024 entries hold them; 16 do not, and
	# every one is a redirect.
	sed 's/^btb1 = .*/btb1 = 16 4 0/; /^btb2 =/d' all.profile >smallbtb.profile
	model_ev smallbtb.profile fe taken smallbtb-taken
	at_most "$(ev all-taken btb_misses)" 2000 || fail "BTB misses: $(ev all-taken btb_misses)"
	at_least "$(ev smallbtb-taken btb_misses)" 1500000 ||
		fail "a 16-entry BTB: $(ev smallbtb-taken btb_misses) misses"
	at_least "$(ev smallbtb-taken cycles)" "$(awk -v c="$(ev all-taken cycles)" 'BEGIN { print 1.5 * c }')" ||
		fail "BTB misses cost nothing: $(ev smallbtb-taken cycles) against $(ev all-taken cycles)"
	# A page a load: every load misses the 64-entry dTLB and the 2048-entry
	# L2 TLB and walks; loads within one page do neither.
	at_least "$(ev all-pages dtlb_misses)" 300000 || fail "dTLB misses: $(ev all-pages dtlb_misses)"
	at_least "$(ev all-pages page_walks)" 300000 || fail "page walks: $(ev all-pages page_walks)"
	at_most "$(ev all-near dtlb_misses)" 1000 || fail "dTLB misses in one page: $(ev all-near dtlb_misses)"
	at_least "$(ev all-pages cycles)" "$(awk -v c="$(ev none-pages cycles)" 'BEGIN { print 1.1 * c }')" ||
		fail "page walks cost nothing: $(ev all-pages cycles) against $(ev none-pages cycles)"
	# Ten-byte no-ops: three a 32-byte window, so decoded they come three a
	# cycle at most; an op cache of 64 windows holds a loop of 16 (160
	# bytes) and gives two windows a cycle, not one of 1024 (10 KiB): that
	# runs decoded.
	{ cat all.profile; echo 'opcache = 64 4 2'; } >op.profile
	for w in long longbig; do
		model_ev all.profile fe $w all-$w
		model_ev op.profile fe $w op-$w
	done
	[ "$(ev all-long opcache_misses)" = 0 ] || fail "op cache misses without one"
	at_most "$(ipc all-long)" 2.5 || fail "long instructions decoded at $(ipc all-long) a cycle"
	at_least "$(ipc op-long)" "$(awk -v a="$(ipc all-long)" 'BEGIN { print 1.3 * a }')" ||
		fail "long instructions from the op cache at $(ipc op-long), decoded $(ipc all-long)"
	at_most "$(ev op-long opcache_misses)" 1000 || fail "a small loop's op cache misses: $(ev op-long opcache_misses)"
	at_least "$(ev op-longbig opcache_misses)" "$(awk -v w="$(ev op-longbig fetch_windows)" 'BEGIN { print 0.9 * w }')" ||
		fail "a loop larger than the op cache: $(ev op-longbig opcache_misses) misses of $(ev op-longbig fetch_windows) windows"
	at_most "$(ipc op-longbig)" "$(awk -v a="$(ipc all-longbig)" 'BEGIN { print 1.05 * a }')" ||
		fail "a loop larger than the op cache at $(ipc op-longbig), decoded $(ipc all-longbig)"
	# Deterministic: the same run twice, the same records.
	model_ev all.profile fe big again-big
	cmp -s all-big.rec again-big.rec || fail "one run twice: $(cat all-big.rec again-big.rec)"
	return 0
}

# A branch whose outcomes repeat every 61 passes, with (filler) 20 loop
# branches between two of its instances: 16 bits of history never reach
# its last instance, so gshare guesses; TAGE's longer tables learn it,
# and the inner loop's exit too.
case_model_tage() {
	need_model_programs
	cat >bp.c <<'EOF'
#include <string.h>
static const unsigned char pat[61] = {
	1,0,0,1,1,0,1,0,1,1,1,0,0,0,1,0,1,1,0,0,1,0,0,1,1,1,0,1,0,0,0,
	1,1,0,1,1,0,0,1,0,1,0,0,0,1,1,1,1,0,1,0,0,1,0,1,1,0,1,0,0,1 };
volatile int sink;
int main(int argc, char **argv)
{
	int filler = argc > 1 && !strcmp(argv[1], "filler");
	long s = 0;

	for (long i = 0; i < 200000; i++) {
		if (pat[i % 61])
			s += i;
		else
			s ^= i;
		if (filler)
			for (int j = 0; j < 20; j++)
				sink = j;
	}
	return (int)(s & 1);
}
EOF
	gcc -O1 -static -o bp bp.c || fail "gcc"
	grep -v '^tage =' "$KBENCH_MODEL_DIR/x86-64.profile" >gshare.profile
	{ cat gshare.profile; echo 'tage = 8 11 4 640'; } >tage.profile
	local p
	for p in gshare tage; do model_ev $p.profile bp filler $p-filler; done
	at_least "$(ev gshare-filler branch_misses)" 200000 ||
		fail "gshare learnt a period of 61: $(ev gshare-filler branch_misses) misses"
	at_most "$(ev tage-filler branch_misses)" 5000 ||
		fail "TAGE: $(ev tage-filler branch_misses) misses"
	at_most "$(ev tage-filler cycles)" "$(awk -v c="$(ev gshare-filler cycles)" 'BEGIN { print 0.7 * c }')" ||
		fail "TAGE's right guesses cost as much: $(ev tage-filler cycles) against $(ev gshare-filler cycles)"
	[ "$(ev tage-filler instructions)" = "$(ev gshare-filler instructions)" ] || fail "other instructions"
	model_ev tage.profile bp filler again
	cmp -s tage-filler.rec again.rec || fail "one run twice: $(cat tage-filler.rec again.rec)"
	return 0
}

# cpl SIZE: the cycles per load of the chase over SIZE bytes in cal.json.
cpl() {
	python3 -c 'import json,sys; print({r["bytes"]: r["cycles_per_load"] for r in json.load(open("cal.json"))["chase"]}[int(sys.argv[1])])' "$1"
}
# steps PROFILE: each cache level of PROFILE is a step in cal.json: the
# chase over the level's size costs less than over twice it.
steps() {
	local key size lo hi
	for key in l1d l2 llc; do
		size=$(sed -n "s/^$key = \([0-9]*\)\([KM]\).*/\1 \2/p" "$1" |
			awk '{ print $1 * ($2 == "K" ? 1024 : 1048576) }')
		lo=$(cpl "$size") hi=$(cpl $((size * 2)))
		awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(hi > lo + 1) }' ||
			bad "$1: no step at $key ($size bytes): $lo then $hi cycles per load"
	done
}

case_calibrate() {
	[ -n "${KBENCH_MODEL_DIR:-}" ] || skip "kbench was built without the cost model (no qemu-plugin.h)"
	command -v qemu-x86_64 >/dev/null || skip "no qemu-x86_64 (qemu-user)"
	expect 0 "$KBENCH" calibrate --json
	mv out.txt cal.json
	[ "$(python3 -c 'import json; d=json.load(open("cal.json")); print(len(d["chase"]), sorted(d["chase"][0]), d["cross_core"])')" = \
		"15 ['bytes', 'cycles_per_load'] {'cycles': 82}" ] ||
		fail "not 15 {bytes, cycles_per_load} and the profile's cross-core transfer: $(cat cal.json)"
	steps "$KBENCH_MODEL_DIR/x86-64.profile"
	# Never cheaper with a larger working set (the first chase pays for its
	# marker's code too: a fraction of a per cent).
	python3 -c 'import json; v=[r["cycles_per_load"] for r in json.load(open("cal.json"))["chase"]]; exit(any(b < a * 0.99 for a, b in zip(v, v[1:])))' ||
		bad "cycles per load fall somewhere: $(cat cal.json)"
	# The machine is the profile: an 8 KiB L1d moves the first step (the
	# table's figures, as cal.json).
	sed 's/^l1d = .*/l1d = 8K 8 64/' "$KBENCH_MODEL_DIR/x86-64.profile" >small.profile
	expect 0 "$KBENCH" calibrate --model=cycles="$W/small.profile"
	has out.txt "cost model: x86-64 (AMD Zen 4)"
	awk '/^[0-9]+ [KM]iB/ { printf "%s{\"bytes\": %d, \"cycles_per_load\": %s}", n++ ? ", " : "{\"chase\": [",
		$1 * ($2 == "KiB" ? 1024 : 1048576), $3 } END { print "]}" }' out.txt >cal.json
	steps small.profile
	# A dependent chain: each load costs its level's load to use, l1_latency
	# inside 8 KiB and l2_latency past it, no more (the core's timing).
	[ "$(cpl 8192)" = 4.0 ] && [ "$(cpl 16384)" = 14.0 ] || fail "no step at 8 KiB: $(cat out.txt)"
	# The random branch mispredicts about half the time, the regular one never.
	grep -Eq '^random .* (4[5-9]|5[0-5])\.[0-9]%$' out.txt || fail "random branch: $(cat out.txt)"
	grep -Eq '^regular .* 0\.[0-9]%$' out.txt || fail "regular branch: $(cat out.txt)"
	if [ -x "$KBENCH_MODEL_DIR/kbench-probe-aarch64" ] && command -v qemu-aarch64 >/dev/null; then
		expect 0 "$KBENCH" calibrate --json --arch=arm64
		mv out.txt cal.json
		steps "$KBENCH_MODEL_DIR/arm64.profile"
		pass "arm64"
	fi
	return 0
}

# The host's curve beside the model's (no timed assertion: only shapes).
case_calibrate_native() {
	[ -n "${KBENCH_MODEL_DIR:-}" ] || skip "kbench was built without the cost model (no qemu-plugin.h)"
	command -v qemu-x86_64 >/dev/null || skip "no qemu-x86_64 (qemu-user)"
	[ "$(uname -m)" = x86_64 ] || skip "--native measures x86-64 hosts only"
	export KBENCH_NATIVE_RUNS=1
	expect 0 "$KBENCH" calibrate --native --json --profile-out="$W/host.profile"
	mv out.txt cal.json
	python3 -c 'import json
d = json.load(open("cal.json"))
assert len(d["chase"]) == 15, len(d["chase"])
for p in d["chase"]:
    assert list(p) == ["bytes", "cycles_per_load", "native_cycles_per_load"], p
    assert p["native_cycles_per_load"] > 0, p' || fail "not 15 points with native_cycles_per_load > 0: $(cat cal.json)"
	# The line bounced between two cores beside the profile's figure.
	if [ "$(nproc)" -gt 1 ]; then
		python3 -c 'import json
t = json.load(open("cal.json"))["cross_core"]
assert list(t) == ["cycles", "native_cycles"] and t["cycles"] == 82 and t["native_cycles"] > 0, t' ||
			fail "no native cross-core transfer: $(cat cal.json)"
		grep -q '^coherence_latency = .*# measured on this host.*a line bounced between two cores' host.profile ||
			fail "coherence_latency unexplained: $(cat host.profile)"
	fi
	# The table; on one CPU (taskset) when it can, which has no second
	# core to bounce a line with: said so, and the profile keeps its figure.
	if command -v taskset >/dev/null; then
		expect 0 taskset -c 0 "$KBENCH" calibrate --native --profile-out="$W/one.profile"
		has err.txt "only one CPU available: no cross-core transfer to measure"
		has out.txt "a cross-core transfer: 82 cycles modelled, not measured natively (only one CPU available)"
		# (82, or raised to what this host's L2 measured)
		grep -Eq "^coherence_latency = [0-9.]+  # .*x86-64.profile's(, raised to l2_latency)?: not measured, only one CPU available" one.profile ||
			fail "one CPU's profile: $(grep coherence one.profile)"
	else
		expect 0 "$KBENCH" calibrate --native
		if [ "$(nproc)" -gt 1 ]; then
			grep -Eq '^a cross-core transfer: 82 cycles modelled, [0-9]+\.[0-9] measured natively' out.txt ||
				fail "no native cross-core transfer in the table: $(cat out.txt)"
		fi
	fi
	grep -Eq '^native: this host, core clock [0-9]+\.[0-9]+ GHz' out.txt || fail "no core clock: $(cat out.txt)"
	# A clock no core runs at: adds counted that the core did not wait for
	# (a core that folds immediate adds at rename made one 20 GHz).
	awk '/^native: this host, core clock/ { exit !($6 >= 0.5 && $6 <= 7) }' out.txt ||
		fail "a core clock no core runs at: $(grep 'core clock' out.txt)"
	grep -Eq '^random .* [0-9]+\.[0-9]+$' out.txt || fail "no native branch column: $(cat out.txt)"
	has out.txt "measured natively ((random - regular) / 0.5)"
	for key in name cpi width rob l1_latency l1i l1d l2 llc l2_latency llc_latency memory_latency \
		coherence_latency branch_penalty; do
		grep -q "^$key = " host.profile || fail "no $key in the profile: $(cat host.profile)"
	done
	grep -q '^l2_latency = .*# measured on this host' host.profile || fail "l2_latency unexplained"
	# The core's timing: a load's whole latency (no L1 hit taken off), the
	# penalty less what the core's timing counts itself.
	grep -Eq '^l1_latency = [0-9.]+  # measured on this host.*the chase at 16 KiB' host.profile ||
		fail "l1_latency unexplained: $(grep l1_latency host.profile)"
	grep -q '^l2_latency = .*minus' host.profile && fail "l2_latency less an L1 hit: $(grep l2_latency host.profile)"
	grep -q '^branch_penalty = .*less the .* cycles its branch waits' host.profile ||
		fail "branch_penalty: $(grep branch_penalty host.profile)"
	expect 0 "$KBENCH" calibrate --model=cycles="$W/host.profile"
	has out.txt "(${W}/host.profile)"
	# A write that fails says so and leaves nothing, not even its temp file.
	mkdir d
	expect 3 "$KBENCH" calibrate --native --profile-out="$W/d"
	has err.txt "$W/d"
	[ -z "$(ls -A d)" ] && [ "$(ls -A | grep -c '^\.d\.')" = 0 ] || fail "leftovers: $(ls -A)"
	expect 2 "$KBENCH" calibrate --native --arch=arm64
	has err.txt "--native measures the host only"
	expect 2 "$KBENCH" calibrate --profile-out="$W/p.profile"
	has err.txt "--profile-out needs --native"
	[ ! -e p.profile ] || fail "p.profile written without --native"
	return 0
}

# rounds.py REPORT ROUNDS RUNS ESTIMATOR: validate --json's rounds have
# their shapes, each round's figure is the estimator over its raw runs,
# each pair's round speedups and mean follow from them.
validate_rounds_py() {
	cat >"$W/rounds.py" <<'EOF'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
R, N, est = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
f = {"median": statistics.median, "min": min}[est]
assert (d["rounds"], d["runs_per_round"], d["estimator"]) == (R, N, est), d
assert d["native"] is True and d["core_ghz"] > 0, d
progs = {p["name"]: p for p in d["programs"]}
for p in d["programs"]:
    rr = p["native_round_runs"]
    assert len(rr) == R and all(len(r) == N for r in rr), p
    assert p["native_runs"] == [x for r in rr for x in r], p
    assert all(x >= 0 and x == int(x) for r in rr for x in r), p
    assert p["native_rounds"] == [f(r) for r in rr], p
    assert abs(p["native_cycles"] - statistics.median(p["native_rounds"])) <= 0.5, p
for q in d["pairs"]:
    p, b = progs[q["name"]]["native_rounds"], progs[q["baseline"]]["native_rounds"]
    assert len(q["native_rounds_pct"]) == R and len(q["native_rounds_noise_points"]) == R, q
    for x, want in zip(q["native_rounds_pct"], [100 * (y / x - 1) for x, y in zip(p, b)]):
        assert abs(x - want) <= 1e-5 * max(1, abs(want)), (q, want)
    m = statistics.mean(q["native_rounds_pct"])
    assert abs(q["native_speedup_pct"] - m) <= 1e-4 * max(1, abs(m)), q
    assert q["measured"] in (True, False), q
for k in ["rounds_spearman", "rounds_mean_abs_diff_points", "measured_pairs",
          "measured_signs_agree", "measured_slope", "measured_pearson",
          "measured_median_rel_error_pct"]:
    assert k in d["summary"], k
assert d["summary"]["measured_pairs"] == sum(q["measured"] for q in d["pairs"]), d
EOF
}

# validate's rounds, estimators, measured pairs and --native-from: a loop
# whose -O0 build is several times slower natively (its sum and counter
# through memory), and the -O2 build again under another name.
validate_rounds() {
	local f
	printf '%s\n' '#include <stdio.h>' 'int main(void) { unsigned long s = 0; int c;' \
		'while ((c = getchar()) != EOF) for (unsigned long i = 0; i < 2000000; i++) s += i ^ (unsigned long)c;' \
		'printf("%lu\n", s); return 0; }' >spin.c
	gcc -O0 -o s0 spin.c && gcc -O2 -o s2 spin.c || fail "gcc"
	printf 'a' >a.txt
	printf '[{"name": "S2", "argv": ["%s"], "stdin": "a.txt"},
 {"name": "S0", "argv": ["%s"], "stdin": "a.txt", "baseline": "S2"},
 {"name": "S2again", "argv": ["%s"], "stdin": "a.txt", "baseline": "S2"}]\n' \
		"$W/s2" "$W/s0" "$W/s2" >m3.json
	expect 0 "$KBENCH" validate --rounds=3 --runs=3 --estimator=min --json -o "$W/r3.json" m3.json
	has err.txt "native round 3/3 done"
	python3 "$W/rounds.py" r3.json 3 3 min || fail "validate --rounds=3 --estimator=min: $(cat r3.json)"
	# Slower in every round by far more than 5 % and its noise (a
	# slowdown is at most -100 %, its noise shrinking with it): measured.
	# The same program under two names is not, whatever the host does.
	python3 -c 'import json
q = {q["name"]: q for q in json.load(open("r3.json"))["pairs"]}
assert q["S0"]["measured"] is True and all(x < -5 for x in q["S0"]["native_rounds_pct"]), q
assert q["S2again"]["measured"] is False, q' || fail "measured pairs: $(cat r3.json)"
	# --native-from: the report's runs, no native run; the estimator
	# applies to them again.
	expect 0 "$KBENCH" validate --native-from="$W/r3.json" --estimator=min --json -o "$W/nf.json" m3.json
	grep -q "native round" err.txt && fail "native runs with --native-from: $(cat err.txt)"
	python3 "$W/rounds.py" nf.json 3 3 min || fail "--native-from's rounds: $(cat nf.json)"
	python3 -c 'import json
a, b = (json.load(open(f)) for f in ("r3.json", "nf.json"))
assert b["native_from"].endswith("/r3.json") and b["core_ghz"] == a["core_ghz"], b
for p, q in zip(a["programs"], b["programs"]):
    for k in ["name", "native_runs", "native_round_runs", "native_rounds", "native_cycles",
              "model_cycles"]:
        assert p[k] == q[k], (k, p, q)
assert [q["native_rounds_pct"] for q in a["pairs"]] == [q["native_rounds_pct"] for q in b["pairs"]]' ||
		fail "--native-from's figures differ from its report's: $(cat nf.json)"
	expect 0 "$KBENCH" validate --native-from="$W/r3.json" --json -o "$W/nf2.json" m3.json
	python3 "$W/rounds.py" nf2.json 3 3 median || fail "--native-from, median: $(cat nf2.json)"
	expect 0 "$KBENCH" validate --native-from="$W/r3.json" m3.json
	has out.txt "native: from $W/r3.json"
	has out.txt "measured pairs"
	has out.txt "the rounds against each other"
	# Reports it cannot take: exit 3, naming the file (and the program).
	printf 'nope' >bad1.json
	printf '[1, 2]' >bad2.json
	printf '{"machine": "amd64", "native": false, "programs": []}' >bad3.json
	python3 -c 'import json
d = json.load(open("r3.json"))
d["programs"] = [p for p in d["programs"] if p["name"] != "S0"]
json.dump(d, open("bad4.json", "w"))
d = json.load(open("r3.json"))
d["programs"][1]["native_round_runs"][2] = [1]
json.dump(d, open("bad5.json", "w"))
d = json.load(open("r3.json"))
del d["programs"][0]["native_round_runs"]
json.dump(d, open("bad6.json", "w"))'
	for f in none bad1 bad2 bad3 bad4 bad5 bad6; do
		expect 3 "$KBENCH" validate --native-from="$W/$f.json" m3.json
		has err.txt "$W/$f.json"
	done
	expect 3 "$KBENCH" validate --native-from="$W/bad1.json" m3.json
	has err.txt "not JSON"
	expect 3 "$KBENCH" validate --native-from="$W/bad3.json" m3.json
	has err.txt "no native figures"
	expect 3 "$KBENCH" validate --native-from="$W/bad4.json" m3.json
	has err.txt "no program 'S0'"
	expect 3 "$KBENCH" validate --native-from="$W/bad5.json" m3.json
	has err.txt "program 'S0'"
	expect 3 "$KBENCH" validate --native-from="$W/bad6.json" m3.json
	has err.txt "program 'S2' has no \"native_round_runs\""
	for f in --rounds=0 --rounds=100 --rounds=x --estimator=mean --estimator=; do
		expect 2 "$KBENCH" validate $f m3.json
	done
	has err.txt "--estimator is min or median"
	expect 2 "$KBENCH" validate --native-from="$W/r3.json" --rounds=2 m3.json
	has err.txt "--native-from takes its report's rounds and runs"
}

# The model against the host on two builds of one loop: shapes only.
case_validate() {
	[ -n "${KBENCH_MODEL_DIR:-}" ] || skip "kbench was built without the cost model (no qemu-plugin.h)"
	command -v qemu-x86_64 >/dev/null || skip "no qemu-x86_64 (qemu-user)"
	command -v gcc >/dev/null || skip "no gcc"
	[ "$(uname -m)" = x86_64 ] || skip "validate runs programs natively: x86-64 hosts only"
	validate_rounds_py
	printf '%s\n' '#include <stdio.h>' 'int main(void) { long s = 0; int c;' \
		'while ((c = getchar()) != EOF) for (long i = 0; i < 200000; i++) s += i % (c + 3);' \
		'printf("%ld\n", s); return 0; }' >loop.c
	gcc -O0 -o o0 loop.c && gcc -O2 -o o2 loop.c || fail "gcc"
	printf 'abcdefgh' >in.txt
	printf '[{"name": "O0", "argv": ["%s"], "stdin": "in.txt"},\n {"name": "O2", "argv": ["%s"], "stdin": "in.txt", "baseline": "O0"}]\n' \
		"$W/o0" "$W/o2" >m.json
	expect 0 "$KBENCH" validate --runs=2 --json -o "$W/v.json" m.json
	python3 -c 'import json
d = json.load(open("v.json"))
assert [p["name"] for p in d["programs"]] == ["O0", "O2"], d
for p in d["programs"]:
    assert p["native_cycles"] > 0 and p["model_cycles"] > 0, p
    assert p["events"]["instructions"] > 0 and "native_spread_pct" in p, p
    assert p["events"]["coherence_misses"] == 0, p	# one thread
assert [(q["name"], q["baseline"]) for q in d["pairs"]] == [("O2", "O0")], d
for k in ["native_speedup_pct", "model_speedup_pct", "beyond_noise"]:
    assert k in d["pairs"][0], k
for k in ["spearman", "mean_abs_speedup_error_points", "signs_agree", "median_abs_cycle_error_pct"]:
    assert k in d["summary"], k' || fail "validate's JSON: $(cat v.json)"
	# Rounds (2 by default) of --runs runs each, every raw run kept.
	python3 "$W/rounds.py" v.json 2 2 median || fail "validate's rounds: $(cat v.json)"
	has err.txt "model 2/2: O"
	# Runs of a few ms: too few ticks to split user from system time (one
	# tick in exec made a program all system time, 0 cycles): said, the
	# whole CPU time counted.
	has err.txt "O0: "
	has err.txt "too few clock ticks to split its user time from its system time"
	# The model's figures do not depend on what runs beside them.
	expect 0 "$KBENCH" validate --runs=1 --jobs=1 --json -o "$W/v1.json" m.json
	python3 -c 'import json
a, b = (json.load(open(f))["programs"] for f in ("v.json", "v1.json"))
assert [(p["name"], p["model_cycles"], p["events"]) for p in a] == \
	[(p["name"], p["model_cycles"], p["events"]) for p in b], (a, b)' ||
		fail "the model's figures differ with --jobs=1"
	expect 0 "$KBENCH" validate --runs=1 m.json
	has out.txt "O2 over O0"
	has out.txt "rank correlation"
	printf '[{"name": "O0", "argv": ["%s"]}, {"name": "bad", "argv": []}]\n' "$W/o0" >bad.json
	expect 3 "$KBENCH" validate bad.json
	has err.txt "entry 2 (bad)"
	printf '[{"name": "O0", "argv": ["%s"], "baseline": "none"}]\n' "$W/o0" >bad.json
	expect 3 "$KBENCH" validate bad.json
	has err.txt "entry 1 (O0): the baseline 'none'"
	printf '[{"name": "fails", "argv": ["sh", "-c", "echo broken >&2; exit 7"]}]\n' >f.json
	expect 1 "$KBENCH" validate f.json
	has err.txt "fails: exit status 7"
	has err.txt "broken"
	expect 2 "$KBENCH" validate --runs=0 m.json
	expect 2 "$KBENCH" validate --jobs=0 m.json
	has err.txt "--jobs takes a number"
	expect 2 "$KBENCH" validate --arch=vax m.json
	printf '[{"name": "gone", "argv": ["%s/none"]}]\n' "$W" >gone.json
	expect 3 "$KBENCH" validate gone.json
	has err.txt "gone.json: entry 1 (gone): the program $W/none: No such file"
	validate_rounds
	# Another machine's programs: the model's side alone, through its QEMU
	# user mode; the host's validate names the program that is not its own.
	command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null ||
		{ echo "validate --arch=arm64 not tried: no aarch64-linux-gnu-gcc or qemu-aarch64"; return 0; }
	aarch64-linux-gnu-gcc -static -O0 -o a0 loop.c && aarch64-linux-gnu-gcc -static -O2 -o a2 loop.c ||
		fail "aarch64-linux-gnu-gcc"
	sed "s|$W/o0|$W/a0|; s|$W/o2|$W/a2|" m.json >a.json
	expect 3 "$KBENCH" validate a.json
	has err.txt "a.json: entry 1 (O0): the program $W/a0 is not an x86_64 program (ELF machine 183"
	expect 3 "$KBENCH" validate --arch=arm64 m.json
	has err.txt "the program $W/o0 is not an aarch64 program"
	expect 0 "$KBENCH" validate --arch=arm64 --json -o "$W/a.out.json" a.json
	expect 0 "$KBENCH" validate --arch=arm64 --json -o "$W/a.again.json" a.json
	cmp -s a.out.json a.again.json || fail "validate --arch=arm64 twice: different figures"
	python3 -c 'import json
d = json.load(open("a.out.json"))
assert d["machine"] == "arm64" and d["native"] is False, d
for p in d["programs"]:
    assert p["native_cycles"] is None and p["native_runs"] == [] and p["model_cycles"] > 0, p
    assert p["events"]["instructions"] > 0, p
q = d["pairs"][0]
assert q["native_speedup_pct"] is None and q["model_speedup_pct"] > 50 and not q["beyond_noise"], q
assert d["summary"]["spearman"] is None, d' || fail "validate --arch=arm64's JSON: $(cat a.out.json)"
	expect 0 "$KBENCH" validate --arch=arm64 a.json
	has out.txt "modelled only: arm64 programs in qemu-aarch64"
	has out.txt "O2 over O0"
	grep -q "rank correlation" out.txt && fail "a rank correlation without native runs"
	return 0
}

# The build row: kbench initramfs --build-cc=tcc carries Debian's tcc (with
# its loader and libraries) and 16 sources; the guest, run natively on them, compiles
# them in one job per CPU; without a compiler the row is left out, or
# fails, named, when asked for by name; --build-cc's errors.
case_build() {
	local tcc=/usr/bin/tcc guest interp n
	[ -x $tcc ] || fail "no $tcc (tcc: scripts/install-deps)"
	guest=$(dirname "$KBENCH")/guest/kbench-guest
	printf 'box' >box && chmod +x box
	# Without --build-cc, the initramfs runs always booted.
	expect 0 "$KBENCH" initramfs -o none.cpio --guest="$guest" --busybox=box
	cpio -it <none.cpio 2>/dev/null | grep -q kbench-build && fail "a build row without --build-cc"
	PATH=/usr/bin:/bin expect 0 "$KBENCH" initramfs -o b.cpio --guest="$guest" --busybox=box \
		--build-cc=tcc
	mkdir x && (cd x && cpio -id --no-absolute-filenames --quiet <../b.cpio) || fail "cpio -i failed"
	printf '%s\n' $tcc >want.txt
	cmp -s want.txt x/kbench-build/cc || fail "kbench-build/cc is not '$tcc': $(cat x/kbench-build/cc)"
	interp=$(readelf -lW $tcc | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	cmp -s x$tcc $tcc && cmp -s "x$interp" "$interp" || fail "tcc or its loader differ from the host's"
	n=$(ls x/kbench-build/*.c | wc -l)
	[ "$n" = 16 ] || fail "$n sources, not 16"
	# Valid C that needs no header, for tcc and for gcc's warnings alike.
	for f in x/kbench-build/*.c; do
		grep -q '#include' "$f" && fail "$f includes a header"
		gcc -std=gnu11 -Wall -Wextra -Werror -c -o gcc.o "$f" 2>gcc.err ||
			fail "gcc rejects $f: $(head -5 gcc.err)"
	done
	PATH=/usr/bin:/bin expect 0 "$KBENCH" initramfs -o again.cpio --guest="$guest" --busybox=box \
		--build-cc=tcc
	cmp -s b.cpio again.cpio || fail "the archive is not reproducible"
	# The guest, natively, on one CPU and on two: a whole build's time, its objects removed.
	KBENCH_BUILD_DIR=$W/x/kbench-build expect 0 taskset -c 0 "$guest" --kbench-rows=build
	has out.txt "KBENCH-END ok rows=1"
	grep -Eq '^KBENCH-ROW build us smp [0-9.e+]+,[0-9.e+]+$' out.txt || fail "no build row: $(cat out.txt)"
	if [ "$(nproc)" -ge 2 ]; then
		KBENCH_BUILD_DIR=$W/x/kbench-build expect 0 taskset -c 0,1 "$guest" --kbench-rows=build
		has out.txt "cpus=2"
		has out.txt "KBENCH-END ok rows=1"
	fi
	[ -z "$(ls -A | grep kbench-build)" ] || fail "objects left: $(ls -A)"
	# A compiler that fails fails the row, named.
	mkdir bad && printf '/bin/false\n' >bad/cc && cp x/kbench-build/*.c bad/
	KBENCH_BUILD_DIR=$W/bad expect 1 "$guest" --kbench-rows=build
	has out.txt "KBENCH-FAIL build copy 0: /bin/false: exit status 1"
	# No compiler: left out, of its group and by name (pgo's row lists name it).
	KBENCH_BUILD_DIR=$W/none expect 0 "$guest" --kbench-rows=smp
	grep -q "^KBENCH-ROW build" out.txt && fail "the build row ran without a compiler"
	KBENCH_BUILD_DIR=$W/none expect 0 "$guest" --kbench-rows=build,null_call
	grep -q "^KBENCH-ROW build" out.txt && fail "the build row ran without a compiler"
	has out.txt "KBENCH-END ok rows=1"
	# --build-cc: a command that is nowhere, one for another machine.
	expect 3 "$KBENCH" initramfs -o n.cpio --guest="$guest" --busybox=box --build-cc=no-such-cc
	has err.txt "--build-cc: no command 'no-such-cc' in PATH"
	[ ! -e n.cpio ] || fail "an archive was left after the error"
	if [ -x "$guest-aarch64" ]; then
		expect 3 "$KBENCH" initramfs -o n.cpio --arch=arm64 --guest="$guest-aarch64" \
			--busybox=box --build-cc=$tcc
		has err.txt "--build-cc:"
	fi
	return 0
}

SMP_ROWS="par_null_call par_fork_exit par_open_close par_page_fault par_file_create_0k
xcpu_pipe_lat xcpu_unix_lat futex_ring shared_dir shared_mm_fault ftq_noise ftq_worst"
# The rows of group smp the host knows: the guest runs the build row only with a compiler.
SMP_GROUP="$SMP_ROWS build"

# smp_run CPUS GUEST...: the guest's smp rows run natively on CPUS
# (taskset's list): each row an OPS line, then its ROW line in group smp
# with two figures, positive (the noise rows: not negative, at most the
# quantum).
smp_run() {
	local r
	# A guest without the option would run as init (mounts, and a reboot
	# at the end when root): never start one.
	grep -qa -- --kbench-rows= "${@: -1}" ||
		fail "the guest ${*: -1} cannot run rows natively (--kbench-rows=)"
	expect 0 taskset -c "$@" --kbench-rows=smp
	has out.txt "KBENCH-BEGIN v=1 runs=2 ns_per_insn=1 cpus=$(echo "$1" | tr , '\n' | wc -l)"
	has out.txt "KBENCH-END ok rows=12"
	for r in $SMP_ROWS; do
		grep -A1 "^KBENCH-OPS $r [0-9.e+]*,[0-9.e+]*\$" out.txt |
			grep -Eq "^KBENCH-ROW $r us smp [0-9.e+-]+,[0-9.e+-]+\$" ||
			fail "no OPS and ROW lines of $r on CPUs $1: $(cat out.txt)"
	done
	awk '$1 == "KBENCH-ROW" { split($5, v, ","); for (i in v)
		if ($2 ~ /^ftq_/ ? v[i] < 0 || v[i] > 1000 : v[i] <= 0) { print; bad = 1 } }
		END { exit bad }' out.txt || fail "figures out of range on CPUs $1: $(cat out.txt)"
	[ -z "$(ls -A | grep kbench-smp)" ] || fail "files left: $(ls -A)"
}

# The rows of group smp: run natively on one CPU and on two (the guest's
# --kbench-rows), and known to the host as the group smp.
case_smp() {
	GUEST=$(dirname "$KBENCH")/guest/kbench-guest
	local two=0
	command -v taskset >/dev/null || skip "no taskset (util-linux)"
	[ "$(nproc)" -ge 2 ] && two=0,1
	smp_run 0 "$GUEST"
	[ $two = 0 ] || smp_run $two "$GUEST"
	# The arm64 guest too, under qemu-user where it is installed.
	if [ -x "$GUEST-aarch64" ] && command -v qemu-aarch64 >/dev/null; then
		smp_run $two qemu-aarch64 "$GUEST-aarch64"
		pass "arm64 guest under qemu-aarch64"
	fi
	# One row by name; a name of no row fails, named.
	expect 0 "$GUEST" --kbench-rows=ftq_worst
	has out.txt "KBENCH-END ok rows=1"
	grep -q "^KBENCH-ROW ftq_noise" out.txt && fail "ftq_noise ran, not asked for"
	expect 1 "$GUEST" --kbench-rows=par_frob
	has out.txt "KBENCH-FAIL par_frob no such benchmark or group"
	# The host: smp is a group of rows.h, in the table's order.
	expect 0 "$KBENCH" pgo --source=/src/linux --out=pg --train-rows=smp --dry-run
	has out.txt "--only=$(echo $SMP_GROUP | tr ' ' ,) $W/pg/instr"
	return 0
}

# The branch record (model/lbr.c) of a real program under qemu-x86_64, made
# into the profiles the tools read: llvm-profgen's for clang-19, autofdo's
# text for create_gcov and create_llvm_prof, a link order; and the record's
# bad inputs.  The plugin's whole=on stands in for the kernel's rows.
need_record_tools() {
	need_model_programs
	local t
	for t in clang-19 llvm-profgen-19 create_gcov create_llvm_prof readelf; do
		command -v $t >/dev/null || skip "no $t (scripts/install-deps installs it)"
	done
}

# record PROG NAME: PROG's branches under the plugin into NAME.perf, with
# the header kbench run writes (PROG's build ID, period, samples).
record() {
	local id
	qemu-x86_64 -plugin "$KBENCH_MODEL_DIR/kbench-model.so,branches=$2.raw,kernel=0,period=997,whole=on" \
		"./$1" || fail "$1 failed under the plugin"
	id=$(readelf -n "$1" | awk '/Build ID/ { print $3 }')
	[ -n "$id" ] || fail "$1 has no build ID"
	{ echo "# kbench branch record: build-id=$id period=997 samples=$(wc -l <"$2.raw") kernel=$1"
	  cat "$2.raw"; } >"$2.perf"
}

case_branches() {
	need_record_tools
	cat >prog.c <<'EOF'
#include <stdlib.h>
__attribute__((noinline)) static unsigned mix(unsigned x)
{
	if (x % 7 == 0)
		return x * 3 + 1;
	return x ^ (x >> 3);
}
__attribute__((noinline)) unsigned hot_loop(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s += mix(i);
	return s;
}
int main(int argc, char **argv)
{
	return (int)(hot_loop(argc > 1 ? (unsigned)atoi(argv[1]) : 2000000u) & 1);
}
EOF
	clang-19 -O2 -g -fdebug-info-for-profiling -static -Wl,--build-id -o pc prog.c ||
		fail "clang-19 cannot build the program"
	# autofdo 0.19 reads DWARF 4 with .debug_ranges, which gcc writes.
	gcc -O2 -gdwarf-4 -static -Wl,--build-id -o pg prog.c || fail "gcc cannot build the program"
	record pc c
	record pc c2
	cmp c.perf c2.perf || fail "the same run gave two records"
	grep -q '^ [0-9a-f]* 0x[0-9a-f]*/0x[0-9a-f]*/P/-/-/0' c.perf || fail "no perf brstack lines"
	# A sample holds the last 32 branches at most.
	awk 'NR > 1 && NF > 33 { exit 1 }' c.perf || fail "a sample of more than 32 branches"
	# clang-19 takes llvm-profgen's profile and counts mix's entries by it.
	expect 0 "$KBENCH" profile --record=c.perf --vmlinux=pc --format=llvm -o c.prof
	has c.prof "hot_loop:"
	has c.prof "mix:"
	expect 0 "$KBENCH" profile --record=c2.perf --vmlinux=pc --format=llvm -o c2.prof
	cmp c.prof c2.prof || fail "the same record gave two profiles"
	clang-19 -O2 -g -fdebug-info-for-profiling -fprofile-sample-use=c.prof -S -emit-llvm \
		-o c.ll prog.c 2>cc.txt || fail "clang-19 refused the profile: $(cat cc.txt)"
	[ -s cc.txt ] && fail "clang-19 warned on the profile: $(cat cc.txt)"
	awk '/function_entry_count/ { n = $NF + 0; if (n > 10000) found = 1 } END { exit !found }' \
		c.ll || fail "no function of the IR has the profile's entry count"
	# autofdo's text: create_gcov and create_llvm_prof symbolize it (gcc's DWARF).
	record pg g
	expect 0 "$KBENCH" profile --record=g.perf --vmlinux=pg --format=autofdo-text -o g.txt
	[ "$(grep -c '^[0-9]*$' g.txt)" = 3 ] || fail "autofdo's text has not its three counts"
	create_gcov --binary=pg --profile=g.txt --profiler=text --gcov=g.gcov >/dev/null 2>&1 ||
		fail "create_gcov refused the text profile"
	grep -q hot_loop g.gcov || fail "create_gcov's profile names no hot_loop"
	create_llvm_prof --binary=pg --profile=g.txt --profiler=text --format=text \
		--out=g.llvm >/dev/null 2>&1 || fail "create_llvm_prof refused the text profile"
	has g.llvm "hot_loop:"
	# gcc 12 reads kbench's AFDO file and annotates the blocks with its counts.
	expect 0 "$KBENCH" profile --record=g.perf --vmlinux=pg --format=afdo -o g.afdo
	has err.txt "functions"
	gcc-12 -O2 -g -fauto-profile=g.afdo -fdump-ipa-afdo=afdo.dump -c -o g.o prog.c 2>cc.txt ||
		fail "gcc-12 refused the AFDO profile: $(cat cc.txt)"
	[ -s cc.txt ] && fail "gcc-12 warned on the AFDO profile: $(cat cc.txt)"
	grep -qE '\[count: [0-9]{4,}\]' afdo.dump || fail "gcc-12 put none of the profile's counts"
	# The order: mix, hot_loop's hottest callee, right after it.
	expect 0 "$KBENCH" profile --record=g.perf --vmlinux=pg --format=order -o g.order
	grep -A1 -x hot_loop g.order | grep -qx mix || fail "mix does not follow hot_loop: $(head g.order)"
	# Another build's record: refused, both build IDs named; no output, not
	# even an older one.
	echo stale >x.order
	expect 2 "$KBENCH" profile --record=c.perf --vmlinux=pg --format=order -o x.order
	has err.txt "$(readelf -n pc | awk '/Build ID/ { print $3 }')"
	has err.txt "$(readelf -n pg | awk '/Build ID/ { print $3 }')"
	[ -e x.order ] && fail "a profile of another build was written"
	# Too few samples: how many it has, how many it needs.
	expect 2 "$KBENCH" profile --record=g.perf --vmlinux=pg --format=order --min-samples=99999999 -o x.order
	has err.txt "has $(($(wc -l <g.perf) - 1)) branch samples; a profile needs at least 99999999"
	# A record naming no function of the binary: an error, not an empty profile.
	{ head -1 g.perf; sed -n '2,$p' g.perf | sed -E 's/0x[0-9a-f]+\/0x[0-9a-f]+/0x10\/0x20/g; s/^ [0-9a-f]+/ 30/'; } >far.perf
	expect 2 "$KBENCH" profile --record=far.perf --vmlinux=pg --format=order -o x.order
	has err.txt "none of its branches is in a function of pg"
	expect 3 "$KBENCH" profile --record=far.perf --vmlinux=pg --format=llvm -o x.prof
	has err.txt "names no function of pg"
	{ [ -e x.order ] || [ -e x.prof ]; } && fail "a profile of nothing was written"
	# Not a record; a damaged line, named.
	expect 2 "$KBENCH" profile --record=prog.c --vmlinux=pg --format=order -o x.order
	has err.txt "prog.c:1: not a branch record of kbench's"
	{ head -3 g.perf; echo " 401000 0x12/zz"; } >bad.perf
	sed -i '1s/samples=[0-9]*/samples=3/' bad.perf
	expect 2 "$KBENCH" profile --record=bad.perf --vmlinux=pg --format=order -o x.order
	has err.txt "bad.perf:4: not a branch sample"
	expect 2 "$KBENCH" profile --record=g.perf --vmlinux=pg --format=gcov -o x
	has err.txt "--format is llvm, afdo, order or autofdo-text"
	expect 2 "$KBENCH" profile --record=g.perf --format=order -o x
	expect 2 "$KBENCH" run --record-period=0 --record-branches=r bz
	expect 2 "$KBENCH" run --record-format=lbr --record-branches=r bz
	expect 2 "$KBENCH" run --record-period=101 bz
	has err.txt "go with --record-branches"
	expect 2 "$KBENCH" run --clock=kvm --record-branches=r bz
	return 0
}

case_$1
finish
