#!/bin/bash
# ccd with the five Debian cross gccs (and clang --target=aarch64): every
# object is byte-identical to "CROSS-gcc -c" at the same path (a generated
# Kbuild-shaped corpus plus the ccd corpus, plain -O2 and with each arch's
# Kbuild flags, -g for a few); the as words ccd derives equal what the
# driver's -### gives as, for Kbuild's flags and for flags ccd asks the
# driver about; -fcommon objects have no COM symbol and link with
# CROSS-ld -r; CROSS_COMPILE names the compiler and the as; a backend whose
# target ccd cannot tell gets a message naming CCD_TARGET and no object.
# Usage: cross.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

declare -A kflags=(
	[aarch64-linux-gnu]="-mlittle-endian -mgeneral-regs-only -mabi=lp64 -fno-PIE"
	[arm-linux-gnueabihf]="-mlittle-endian -mabi=aapcs-linux -mfpu=vfp -marm -march=armv7-a -msoft-float -fno-PIE"
	[riscv64-linux-gnu]="-march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany -mno-relax -fno-PIE"
	[powerpc64le-linux-gnu]="-m64 -mlittle-endian -mabi=elfv2 -mcmodel=medium -mcpu=power8 -mno-altivec -mno-vsx -msoft-float -fno-PIE"
	[s390x-linux-gnu]="-m64 -march=z10 -mpacked-stack -mbackchain -msoft-float -fno-PIE"
)
# Flag sets for the as-line check: Kbuild's, the defaults, and what ccd
# must ask the driver about (-mcpu= tables, repeats, -mfpu with hard float).
declare -A combos=(
	[aarch64-linux-gnu]="|-mbig-endian|-march=armv8.2-a|-mabi=ilp32|-mcpu=cortex-a57|-march=armv8-a -march=armv8.2-a|-g"
	[arm-linux-gnueabihf]="|-mbig-endian|-marm -march=armv6k -msoft-float|-mabi=apcs-gnu -msoft-float|-mthumb-interwork -mapcs-frame|-march=armv4 -msoft-float|-mfpu=neon -march=armv7-a|-mcpu=cortex-a9|-mfloat-abi=softfp|-g"
	[riscv64-linux-gnu]="|-fno-pie|-march=rv64imafdc|-march=rv64gc|-mabi=lp64 -mno-relax|-mrelax -mno-relax|-misa-spec=2.2 -march=rv64imac -mabi=lp64|-mbig-endian|-g"
	[powerpc64le-linux-gnu]="|-mcpu=power9|-mcpu=power7|-mvsx|-maltivec|-mpower8-vector|-mbig-endian|-mcpu=power8 -mpower9-vector|-mcpu=power6|-g"
	[s390x-linux-gnu]="|-m31|-m31 -mzarch|-march=z13|-march=arch11|-m31 -m64|-march=arch12|-g"
)
triples="aarch64-linux-gnu arm-linux-gnueabihf riscv64-linux-gnu powerpc64le-linux-gnu s390x-linux-gnu"

cd "$work" || exit 1
# The ecosystem suite's Kbuild-shaped corpus, its x86 inline asm made portable.
sh "$SRC/../ecosystem/gen-corpus.sh" gen 14 > /dev/null || bad "gen-corpus.sh"
sed -i 's/"rep; nop"/""/; s/"pushf; pop %0"/""/' gen/*/f*.c
mkdir -p src
cp "$SRC"/corpus/*.[ch] src/ && rm src/atomic.c	# atomic.c is x86 asm
files=$(cd gen && ls */f*.c)
printf 'int counter;\nint table[64];\nchar flag;\nint bump(void) { return ++counter + table[flag]; }\n' > com.c
n=0 asked=0 start=$SECONDS

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
	cc=$t-gcc
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
		want=$("$cc" $set -### -c -o x.o src/hello.c 2>&1 | grep -E '/as"? ' |
			sed 's/^ *[^ ]* //; s/ -o x.o.*//; s/"//g')
		CCD_VERBOSE=1 "$CCD" "$cc" $set -c -o x.o src/hello.c 2> v.txt || bad "$t [$set]: ccd failed"
		got=$(sed -n 's/^ccd: run: [^ ]*-as //p; s/^ccd: run: [^ ]*\/as //p' v.txt | sed 's/ -o x.o.*//')
		grep -q "asking the driver" v.txt && asked=$((asked + 1))
		[ -n "$want" ] && [ "$want" = "$got" ] || bad "$t [$set]: driver gives as: $want | ccd: $got"
	done

	# -fcommon: no SHN_COMMON in ccd's objects, and they link -r.
	for f in com.c gen/kernel/f0.c; do
		"$CCD" "$cc" -O2 -fcommon -Igen/include -c -o "$f.o" "$f" || bad "$t -fcommon $f"
		readelf -sW "$f.o" | grep -q ' COM ' && bad "$t -fcommon $f: COM symbol left"
	done
	"$t-ld" -r -o linked.o com.c.o gen/kernel/f0.c.o || bad "$t-ld -r"
	readelf -sW linked.o | grep -q ' COM ' && bad "$t: COM symbol after ld -r"
	rm -f src/*.o gen/*/*.o ./*.o
	check_tmp "$t"
done
echo "$n objects byte-identical to the cross gccs' ($asked as lines asked of the driver), $((SECONDS - start)) s"

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
