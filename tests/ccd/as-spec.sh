#!/bin/bash
# ccd derives the as command line (and the -gsplit-dwarf objcopy steps)
# from a per-profile spec instead of a "-###" run per compile.  Check that
# spec against the real drivers: for each flag combination the commands
# ccd runs after the backend equal what "gcc -### -c" (and
# "clang -fno-integrated-as -### -c") would run, temp names aside.
# Usage: as-spec.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && cp "$SRC"/corpus/hello.c "$SRC"/corpus/corpus.h . && mkdir -p obj inc

# norm: a shell-quoted command line -> its words, tool basename first,
# temp file names replaced, one line.
norm() {
	eval "set -- $1"
	local out=$(basename "$1")
	shift
	for a; do
		case $a in
		"$TMPDIR"/*.s|/tmp/*.s) a=TEMP.s ;;
		esac
		out+=" $a"
	done
	printf '%s\n' "$out"
}

# The commands after the compiler proper, from -### (stderr).
driver_plan() {
	"$@" 2>&1 >/dev/null | grep -E '^ "?(/usr/bin/)?(as|objcopy)"? ' | while read -r l; do norm "$l"; done
}
ccd_plan() {
	CCD_VERBOSE=1 "$@" 2>&1 >/dev/null | sed -n 's/^ccd: run: //p' | tail -n +2 |
		while read -r l; do norm "$l"; done
}

combos=(
	"" "-m32" "-m16" "-m64" "-mx32" "-m32 -m64" "-m64 -m16"
	"-g" "-g0" "-g1" "-g3" "-ggdb" "-ggdb3" "-gdwarf-4" "-gdwarf-3" "-gdwarf-2 -g"
	"-g -g0" "-g3 -g" "-g0 -gdwarf-4" "-gdwarf" "-g1 -gdwarf-5"
	"-gz" "-gz=none" "-gz=zlib" "-g -gz" "-g -gz -gz=none"
	"-gsplit-dwarf" "-g -gsplit-dwarf" "-g -gsplit-dwarf -gno-split-dwarf"
	"-w" "-I inc" "-Iinc -I obj" "-include corpus.h -Iinc"
	"-Wa,--noexecstack" "-Wa,--noexecstack,-mrelax-relocations=no -Xassembler --fatal-warnings"
	"-Xassembler --defsym -Xassembler X=1 -Wa,-W"
	"-msse2avx" "-msse2avx -mavx" "-g -fdebug-prefix-map=$work=/src"
	"-O2 -m32 -g -gz -Iinc -Wa,--32 -w"
)
n=0
for combo in "${combos[@]}"; do
	want=$(driver_plan gcc -### -c $combo -o obj/hello.o hello.c)
	[ -n "$want" ] || bad "gcc [$combo]: no as line in -### output"
	got=$(ccd_plan "$CCD" --ccd-cc=gcc -c $combo -o obj/hello.o hello.c)
	n=$((n + 1))
	[ "$want" = "$got" ] || bad "gcc [$combo]: driver: $want | ccd: $got"
done
# clang with -fno-integrated-as (Kbuild's LLVM_IAS=0): only what clang's
# GNU as tool passes (no --gdwarf, no -W).
for combo in "" "-m32" "-m16" "-gz" "-g -gz" "-I inc -Iobj" "-Wa,--noexecstack" \
	"-Xassembler --fatal-warnings -Wa,-W" "-m32 -gz -Iinc -Wa,--64,--32"; do
	want=$(driver_plan clang -fno-integrated-as -### -c $combo -o obj/hello.o hello.c)
	[ -n "$want" ] || bad "clang [$combo]: no as line in -### output"
	got=$(ccd_plan "$CCD" --ccd-cc=clang -fno-integrated-as -c $combo -o obj/hello.o hello.c)
	n=$((n + 1))
	[ "$want" = "$got" ] || bad "clang [$combo]: driver: $want | ccd: $got"
done
# The as ccd picks without a driver run is the one the driver names.
for cc in gcc clang; do
	want=$(command -v "$($cc -print-prog-name=as)")
	got=$("$CCD" --ccd-cc=$cc --ccd-identity | sed -n 's/^as: //p')
	[ "$want" = "$got" ] || bad "$cc: -print-prog-name=as gives $want, ccd uses $got"
done
# -B: ccd asks the driver, so a private as in the -B dir is used.
mkdir -p bdir
printf '#!/bin/sh\necho "private as $*" >> %s/bdir/log\nexec as "$@"\n' "$work" > bdir/as
chmod +x bdir/as
"$CCD" --ccd-cc=gcc -B bdir/ -c -o obj/b.o hello.c || bad "-B compile failed"
grep -q "private as" bdir/log 2>/dev/null || bad "-B bdir/: the as in bdir was not used"
echo "$n flag combinations checked"
end_test
