#!/bin/bash
# ccd with Debian's cross gccs (and clang --target= for each triple): every
# object is byte-identical to "CROSS-gcc -c" at the same path (a generated
# Kbuild-shaped corpus plus the ccd corpus, plain -O2 and with each arch's
# Kbuild flags, -g for a few); the as words ccd derives equal what the
# driver's -### gives as, for Kbuild's flags and for flags ccd asks the
# driver about; -fcommon objects have no COM symbol and link with
# CROSS-ld -r (mips: no SCOM either, and -G 8's small objects in .sbss as
# gcc -fno-common puts them; 32-bit ppc: gcc's own -G 8 puts small public
# objects in .sbss, -fcommon's too); CROSS_COMPILE names the compiler and
# the as; a backend whose
# target ccd cannot tell gets a message naming CCD_TARGET and no object.
# Usage: cross.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

declare -A kflags=(
	[aarch64-linux-gnu]="-mlittle-endian -mgeneral-regs-only -mabi=lp64 -fno-PIE"
	[arm-linux-gnueabihf]="-mlittle-endian -mabi=aapcs-linux -mfpu=vfp -marm -march=armv7-a -msoft-float -fno-PIE"
	[riscv64-linux-gnu]="-march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -mno-relax -fno-PIE"
	[powerpc64le-linux-gnu]="-m64 -mlittle-endian -mabi=elfv2 -mcmodel=medium -mcpu=power8 -mno-altivec -mno-vsx -msoft-float -fno-PIE"
	[s390x-linux-gnu]="-m64 -march=z10 -mpacked-stack -mbackchain -msoft-float -fno-PIE"
	# armel: Debian's ARMv5 (Marvell) kernel.
	[arm-linux-gnueabi]="-mlittle-endian -mabi=aapcs-linux -mfpu=vfp -marm -march=armv5te -mtune=arm9tdmi -msoft-float -Uarm -fno-PIE"
	# mips: Linux 6.1's arch/mips/Makefile (make V=1) for malta (o32) and
	# generic 64r2 (n64); Kbuild gives -EL or -EB whatever the compiler's default.
	[mipsel-linux-gnu]="-mno-check-zero-division -mabi=32 -G 0 -mno-abicalls -fno-pic -pipe -msoft-float -Wa,-msoft-float -ffreestanding -EL -Wa,-mno-fix-loongson3-llsc -march=mips32r2 -Wa,--trap -fno-asynchronous-unwind-tables -fno-PIE"
	[mips-linux-gnu]="-mno-check-zero-division -mabi=32 -G 0 -mno-abicalls -fno-pic -pipe -msoft-float -Wa,-msoft-float -ffreestanding -EB -Wa,-mno-fix-loongson3-llsc -march=mips32r2 -Wa,--trap -fno-asynchronous-unwind-tables -fno-PIE"
	[mips64el-linux-gnuabi64]="-mno-check-zero-division -mabi=64 -G 0 -mno-abicalls -fno-pic -pipe -msoft-float -Wa,-msoft-float -ffreestanding -EL -Wa,-mno-fix-loongson3-llsc -march=mips64r2 -Wa,--trap -msym32 -fno-asynchronous-unwind-tables -fno-PIE"
	[mips64-linux-gnuabi64]="-mno-check-zero-division -mabi=64 -G 0 -mno-abicalls -fno-pic -pipe -msoft-float -Wa,-msoft-float -ffreestanding -EB -Wa,-mno-fix-loongson3-llsc -march=mips64r2 -Wa,--trap -msym32 -fno-asynchronous-unwind-tables -fno-PIE"
	# powerpc: Linux 6.1's arch/powerpc/Makefile, in its order: 32-bit
	# Book3S (generic cpu, AltiVec) and 64-bit big-endian Book3S (ELFv1,
	# POWERPC64_CPU); cc-option drops -mno-spe and -mspe=no, which gcc 12
	# rejects; -mbig-endian comes twice.  No -G or -msdata: gcc's -G 8.
	[powerpc-linux-gnu]="-mbig-endian -m32 -msoft-float -pipe -ffixed-r2 -mmultiple -mno-readonly-in-sdata -mcpu=powerpc -mno-prefixed -mno-pcrel -mno-altivec -mno-vsx -mno-mma -fno-asynchronous-unwind-tables -mno-string -Wa,-maltivec -mbig-endian -fno-PIE"
	[powerpc64-linux-gnu]="-mbig-endian -m64 -msoft-float -pipe -mtraceback=no -mabi=elfv1 -mcall-aixdesc -mcmodel=medium -mno-pointers-to-nested-functions -mcpu=power4 -mtune=power10 -mno-prefixed -mno-pcrel -mno-altivec -mno-vsx -mno-mma -fno-asynchronous-unwind-tables -mno-string -Wa,-mpower4 -Wa,-many -mabi=elfv1 -mcall-aixdesc -mbig-endian -fno-PIE"
	# m68k: arch/m68k/Makefile for multi_defconfig (68020 to 68060: no cpu
	# flag, gcc's configured -mcpu=68020); 68040-only and ColdFire ones
	# are among the as-line sets.
	[m68k-linux-gnu]="-pipe -ffreestanding -ffixed-a2 -fno-PIE"
)
# Flag sets for the as-line check: Kbuild's, the defaults, and what ccd
# must ask the driver about (-mcpu= tables, repeats, -mfpu with hard float).
declare -A combos=(
	[aarch64-linux-gnu]="|-mbig-endian|-march=armv8.2-a|-mabi=ilp32|-mcpu=cortex-a57|-march=armv8-a -march=armv8.2-a|-g"
	[arm-linux-gnueabihf]="|-mbig-endian|-marm -march=armv6k -msoft-float|-mabi=apcs-gnu -msoft-float|-mthumb-interwork -mapcs-frame|-march=armv4 -msoft-float|-mfpu=neon -march=armv7-a|-mcpu=cortex-a9|-mfloat-abi=softfp|-g"
	[riscv64-linux-gnu]="|-fno-pie|-march=rv64imafdc|-march=rv64gc|-mabi=lp64 -mno-relax|-mrelax -mno-relax|-misa-spec=2.2 -march=rv64imac -mabi=lp64|-mbig-endian|-g"
	[powerpc64le-linux-gnu]="|-mcpu=power9|-mcpu=power7|-mvsx|-maltivec|-mpower8-vector|-mbig-endian|-mcpu=power8 -mpower9-vector|-mcpu=power6|-g"
	[s390x-linux-gnu]="|-m31|-m31 -mzarch|-march=z13|-march=arch11|-m31 -m64|-march=arch12|-g"
	[arm-linux-gnueabi]="|-mbig-endian|-march=armv7-a|-mfloat-abi=softfp -mfpu=vfp|-mfloat-abi=hard -mfpu=vfp|-mcpu=arm926ej-s|-march=armv4t|-g"
	# mips: -O and -g words, the PIC defaults, modules' -mlong-calls, what
	# ccd asks (another ABI, CPU names, -mips16, ASEs, -mfix-, -mplt,
	# non-PIC abicalls, repeats).
	[mipsel-linux-gnu]="|-O0|-O2 -g|-ggdb3|-g -g2|-G 8 -mno-abicalls -fno-pic|-EB|-EL|-fno-pic|-fpic -fno-pic|-mno-shared|-mxgot|-msoft-float|-mfp64|-mtune=24kc|-mnan=2008|-mplt|-mips16|-march=24kc|-mabi=64|-mlong-calls|-mno-mips16 -mdspr2|-mno-micromips|-mfix-24k|-g"
	[mips-linux-gnu]="|-O0|-O2 -g|-ggdb3|-g -g2|-G 8 -mno-abicalls -fno-pic|-EB|-EL|-fno-pic|-fpic -fno-pic|-mno-shared|-mxgot|-msoft-float|-mfp64|-mtune=24kc|-mnan=2008|-mplt|-mips16|-march=24kc|-mabi=64|-mlong-calls|-mno-mips16 -mdspr2|-mno-micromips|-mfix-24k|-g"
	[mips64el-linux-gnuabi64]="|-O0|-O2 -g|-ggdb3|-g -g2|-G 8 -mno-abicalls -fno-pic|-EB|-EL|-fno-pic|-fpic -fno-pic|-mno-shared|-mxgot|-msoft-float|-msym32|-mtune=5kc|-mnan=2008|-mplt|-march=octeon|-mabi=32|-mlong-calls|-mno-mips16|-mno-micromips|-mcrc|-g"
	[mips64-linux-gnuabi64]="|-O0|-O2 -g|-ggdb3|-g -g2|-G 8 -mno-abicalls -fno-pic|-EB|-EL|-fno-pic|-fpic -fno-pic|-mno-shared|-mxgot|-msoft-float|-msym32|-mtune=5kc|-mnan=2008|-mplt|-march=octeon|-mabi=32|-mlong-calls|-mno-mips16|-mno-micromips|-mcrc|-g"
	# powerpc: Kbuild's -mcpu= choices (and more of the table), asm_spec32's
	# words, what ccd asks (the other word size, repeats, mixed endianness).
	[powerpc-linux-gnu]="|-m32|-mcpu=G4|-mcpu=405|-mcpu=440|-mcpu=464|-mcpu=476|-mcpu=860|-mcpu=e300c3|-mcpu=8540|-mcpu=e500mc|-mcpu=e5500|-mcpu=970|-mcpu=7450 -mno-altivec|-mcpu=G4 -mvsx|-fno-pic|-fpic -fno-pic|-mrelocatable|-mrelocatable-lib|-mlittle-endian|-m64|-mcpu=power4 -mcpu=e500mc|-mbig -mlittle|-mcall-i960-old|-G 4|-g"
	[powerpc64-linux-gnu]="|-m64|-mcpu=power5|-mcpu=power6|-mcpu=970|-mcpu=cell|-mcpu=e5500|-mcpu=e6500|-mcpu=power7|-mcpu=power8|-mcpu=power9|-mcpu=power10|-mabi=elfv2 -mcpu=power8|-mvsx|-maltivec|-mpower8-vector|-mcpu=power8 -mpower9-vector|-mlittle-endian|-m32|-m32 -mcpu=powerpc|-mcpu=power9 -mcpu=power8|-mcmodel=large|-g"
	# m68k: the -mcpu= aliases, Kbuild's 68040 and ColdFire flags, --pcrel,
	# what ccd asks (repeats, -msoft-float with -mhard-float, -mfidoa).
	[m68k-linux-gnu]="|-m68040|-m68060|-m68000|-m68030|-mcpu=54455|-mcfv4e|-mcpu=5475|-m5200|-m5307|-mcpu32|-march=68020|-msoft-float|-m68881|-m68851|-mno-68851|-m68020-40|-m68020-60|-fpic|-mpcrel|-msep-data|-mid-shared-library|-msep-data -fpic|-m68040 -mcpu=68060|-fpic -fno-pic|-msoft-float -mhard-float|-m68881 -m68881|-mfidoa|-g|-m68040 -pipe -ffreestanding -ffixed-a2 -fno-PIE|-mcpu=5475 -pipe -ffreestanding -D__uClinux__ -fno-PIE"
)
triples="aarch64-linux-gnu arm-linux-gnueabihf arm-linux-gnueabi riscv64-linux-gnu powerpc64le-linux-gnu
	s390x-linux-gnu mipsel-linux-gnu mips-linux-gnu mips64el-linux-gnuabi64 mips64-linux-gnuabi64
	powerpc-linux-gnu powerpc64-linux-gnu m68k-linux-gnu"

cd "$work" || exit 1
# The ecosystem suite's Kbuild-shaped corpus, its x86 inline asm made portable:
# one unit of each of its eight templates (units 8 and on repeat them with
# other numbers in the names).
sh "$SRC/../ecosystem/gen-corpus.sh" gen 8 > /dev/null || bad "gen-corpus.sh"
sed -i 's/"rep; nop"/""/; s/"pushf; pop %0"/""/' gen/*/f*.c
mkdir -p src
cp "$SRC"/corpus/*.[ch] src/ && rm src/atomic.c	# atomic.c is x86 asm
files=$(cd gen && ls */f*.c)
printf 'int counter;\nint table[64];\nchar flag;\nint bump(void) { return ++counter + table[flag]; }\n' > com.c
n=0 asked=0 start=$SECONDS

# symsec OBJ SYM: the name of the section SYM is defined in.
symsec() {
	local ndx
	ndx=$(readelf -sW "$1" | awk -v s="$2" '$8 == s {print $7}')
	readelf -SW "$1" | sed -n "s/^ *\\[ *$ndx\\] \\([^ ]*\\) .*/\\1/p"
}

# ccd_vs_gcc CC DIR FILE FLAGS...: ccd's object and CC's at the same path.
ccd_vs_gcc() {
	local cc=$1 dir=$2 f=$3
	shift 3
	(cd "$dir" && "$cc" "$@" -c -o ref.o "$f") || { bad "$cc $* $f failed"; return; }
	(cd "$dir" && CCD_PASSES=all "$CCD" "$cc" "$@" -c -o got.o "$f") ||
		{ bad "ccd $cc $* $f failed"; return; }
	cmp -s "$dir/ref.o" "$dir/got.o" || bad "$cc $* $f: object differs from gcc's"
	n=$((n + 1))
}

for t in $triples; do
	cc=$t-gcc n0=$n
	command -v "$cc" > /dev/null || { bad "no $cc (scripts/install-deps installs it)"; continue; }
	for f in $files; do
		ccd_vs_gcc "$cc" gen "$f" -O2 ${kflags[$t]} -Iinclude -include include/config.h \
			-DKBUILD_BASENAME='"f"'
	done
	for f in $(cd src && ls *.c); do
		ccd_vs_gcc "$cc" src "$f" -O2
	done
	for f in hello.c loops.c; do
		ccd_vs_gcc "$cc" src "$f" -O2 -g ${kflags[$t]}
	done

	# The as line: ccd's (verbose) against the driver's -###.
	IFS='|' read -r -a sets <<< "${combos[$t]}|${kflags[$t]}"
	for set in "${sets[@]}"; do
		# (one sed each, not a pipeline: some 240 sets)
		want=$("$cc" $set -### -c -o x.o src/hello.c 2>&1 |
			sed -n '/\/as"\? /{s/^ *[^ ]* //; s/ -o x.o.*//; s/"//g; p}')
		CCD_VERBOSE=1 "$CCD" "$cc" $set -c -o x.o src/hello.c 2> v.txt || bad "$t [$set]: ccd failed"
		got=$(sed -n 's/^ccd: run: [^ ]*[-/]as //; T; s/ -o x.o.*//; p' v.txt)
		grep -q "asking the driver" v.txt && asked=$((asked + 1))
		[ -n "$want" ] && [ "$want" = "$got" ] || bad "$t [$set]: driver gives as: $want | ccd: $got"
	done

	# -fcommon: no SHN_COMMON in ccd's objects, and they link -r.
	for f in com.c gen/kernel/f0.c; do
		"$CCD" "$cc" -O2 -fcommon -Igen/include -c -o "$f.o" "$f" || bad "$t -fcommon $f"
		readelf -sW "$f.o" | grep -Eq ' S?COM ' && bad "$t -fcommon $f: COM symbol left"
	done
	"$t-ld" -r -o linked.o com.c.o gen/kernel/f0.c.o || bad "$t-ld -r"
	readelf -sW linked.o | grep -Eq ' S?COM ' && bad "$t: COM symbol after ld -r"
	case $t in mips*)
		# -G 8 without abicalls: gcc reaches small objects through $gp.
		g8="-O2 -G 8 -mno-abicalls -fno-pic"
		"$CCD" "$cc" $g8 -fcommon -c -o g8.o com.c && "$cc" $g8 -fno-common -c -o g8n.o com.c ||
			bad "$t -G 8 compiles"
		[ "$(symsec g8.o counter)" = .sbss ] && [ "$(symsec g8.o table)" = .bss ] &&
			[ "$(symsec g8n.o counter)" = .sbss ] || bad "$t -G 8: counter in $(symsec g8.o counter)"
		"$t-ld" -r -o linked.o g8.o || bad "$t-ld -r -G 8"
		readelf -sW linked.o | grep -Eq ' S?COM ' && bad "$t -G 8: COM symbol after ld -r" ;;
	powerpc-*)
		# 32-bit ppc gcc's own -G 8: public objects of 1 to 8 bytes in
		# .sbss under -fno-common, so there for -fcommon too; -G 0 and
		# -msdata=none: .bss.
		for sd in "" "-G 0" "-msdata=none" "-G 4" "-fdata-sections"; do
			"$CCD" "$cc" -O2 -fno-PIE $sd -fcommon -c -o sd.o com.c &&
				"$cc" -O2 -fno-PIE $sd -fno-common -c -o sdn.o com.c || bad "$t [$sd] compiles"
			for v in counter flag table; do
				[ "$(symsec sd.o $v)" = "$(symsec sdn.o $v)" ] ||
					bad "$t [$sd]: $v in $(symsec sd.o $v), gcc -fno-common: $(symsec sdn.o $v)"
			done
			readelf -sW sd.o | grep -q ' COM ' && bad "$t [$sd]: COM symbol left"
		done
		[ "$(symsec sdn.o counter)" = .sbss.counter ] || bad "$t: no .sbss to test" ;;
	esac
	rm -f src/*.o gen/*/*.o ./*.o
	check_tmp "$t"
	echo "$t: $((n - n0)) objects"
done
echo "$n objects byte-identical to the cross gccs' ($asked as lines asked of the driver), $((SECONDS - start)) s"

# The answer cache: "no target", from a ccd whose table lacked the row, is
# asked again by one that has it.  Control: the same answer under this
# ccd's own first line is taken as it stands.
c=$(grep -lx mips64el "$XDG_CACHE_HOME"/ccd/family-* | head -1)
if [ -n "$c" ]; then
	sed -i '3s/.*/-/; 4s/.*//' "$c"
	"$CCD" mips64el-linux-gnuabi64-gcc -O2 -c -o stale.o com.c 2> err.txt &&
		bad "cache: a 'no target' answer was not read from $c"
	grep -q "cannot tell the target" err.txt || bad "cache control: $(cat err.txt)"
	sed -i '1s/, mipsel, mips, mips64el, mips64//' "$c"
	"$CCD" mips64el-linux-gnuabi64-gcc -O2 -c -o stale.o com.c ||
		bad "cache: an answer from another target table was trusted"
	mips64el-linux-gnuabi64-gcc -O2 -c -o ref.o com.c && cmp -s ref.o stale.o ||
		bad "cache: object after asking again differs"
	grep -qx mips64el "$c" || bad "cache: not rewritten with the target"
else
	bad "no cache file for mips64el-linux-gnuabi64-gcc in $XDG_CACHE_HOME/ccd"
fi

# CROSS_COMPILE: no backend named, so ${CROSS_COMPILE}gcc and its as.
printf 'int counter;\nint get(void) { return counter; }\n' > x.c
CROSS_COMPILE=aarch64-linux-gnu- CCD_VERBOSE=1 "$CCD" -O2 -c -o x.o x.c 2> v.txt || bad "CROSS_COMPILE compile"
readelf -h x.o | grep -q 'Machine: *AArch64' || bad "CROSS_COMPILE: $(readelf -h x.o | grep Machine)"
grep -q "run: [^ ]*aarch64-linux-gnu-gcc " v.txt || bad "CROSS_COMPILE: not the cross gcc: $(cat v.txt)"
grep -q "run: [^ ]*aarch64-linux-gnu-as " v.txt || bad "CROSS_COMPILE: not the cross as: $(cat v.txt)"

# clang as a cross backend, --target= as Kbuild's CLANG_FLAGS give it:
# its own assembler, or GNU as with -fno-integrated-as (LLVM_IAS=0).
if command -v aarch64-linux-gnu-as > /dev/null; then
	for ias in "" -fno-integrated-as; do
		# shellcheck disable=SC2086
		clang --target=aarch64-linux-gnu $ias -O2 -c -o ref.o x.c
		# shellcheck disable=SC2086
		"$CCD" clang --target=aarch64-linux-gnu $ias -O2 -c -o got.o x.c ||
			bad "clang --target $ias compile"
		readelf -h got.o | grep -q 'Machine: *AArch64' || bad "clang --target $ias: not AArch64"
		cmp -s ref.o got.o || bad "clang --target=aarch64-linux-gnu $ias: object differs"
	done
fi
# The other targets: clang's own object; with -fno-integrated-as the as
# words are asked of clang's driver, with the -fno-integrated-as of the -S
# (without it clang names no as at all).
for t in $triples; do
	[ "$t" = aarch64-linux-gnu ] && continue
	# clang 14's m68k backend is experimental: its assembly has ';'
	# comments GNU as rejects, so -fno-integrated-as fails in clang itself.
	for ias in "" -fno-integrated-as; do
		[ "$t$ias" = m68k-linux-gnu-fno-integrated-as ] && continue
		# shellcheck disable=SC2086
		clang --target="$t" $ias -O2 -c -o ref.o x.c || { bad "clang --target=$t $ias"; continue; }
		# shellcheck disable=SC2086
		"$CCD" clang --target="$t" $ias -O2 -c -o got.o x.c ||
			{ bad "ccd clang --target=$t $ias"; continue; }
		cmp -s ref.o got.o || bad "clang --target=$t $ias: object differs"
	done
done

# A cross compiler (its name carries a triple) that says nothing of its
# target: a message naming what to set, no object.  Named without a
# triple, it is the machine ccd runs on (tests/ccd/pcc.sh).
mkdir -p bin
printf '#!/bin/sh\ncase " $* " in *" -dM "*|*" -dumpmachine "*) exit 1 ;; esac\nexec gcc "$@"\n' > bin/aarch64-linux-gnu-mute
chmod +x bin/aarch64-linux-gnu-mute
ln -s aarch64-linux-gnu-mute bin/mute
echo stale > mute.o
"$CCD" "$work/bin/aarch64-linux-gnu-mute" -O2 -c -o mute.o x.c 2> err.txt && bad "no target: compile succeeded"
grep -q "cannot tell the target of backend .*CCD_TARGET" err.txt || bad "no target: message: $(cat err.txt)"
[ -e mute.o ] && bad "no target: an object was left"
"$CCD" "$work/bin/mute" -O2 -c -o mute.o x.c || bad "native mute compile"
gcc -O2 -c -o ref.o x.c && cmp -s ref.o mute.o || bad "native mute: not gcc's object"
CCD_TARGET=x86_64-linux-gnu "$CCD" "$work/bin/aarch64-linux-gnu-mute" -O2 -c -o mute.o x.c ||
	bad "CCD_TARGET compile"
gcc -O2 -c -o ref.o x.c && cmp -s ref.o mute.o || bad "CCD_TARGET: not gcc's object"
CCD_TARGET=vax "$CCD" gcc -O2 -c -o mute.o x.c 2> err.txt && bad "CCD_TARGET=vax accepted"
grep -q "unknown target 'vax' (from CCD_TARGET" err.txt || bad "CCD_TARGET=vax: $(cat err.txt)"
end_test
