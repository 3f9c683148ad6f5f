#!/bin/bash
# Clang backend: the corpus compiled through ccd links and the programs
# behave exactly as when compiled with "clang -c"; dependency files name
# gcc's targets (-Wp,-MMD: <source-basename>.o; -MD: the -o name).
# Usage: clang.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

command -v clang >/dev/null || { echo "SKIP: no clang"; exit 77; }
cd "$work" && mkdir -p src ref ccd && cp "$SRC"/corpus/*.[ch] src/
n=0
for flags in "-O0 -g" "-O2" "-Os -ffunction-sections -fdata-sections" "-O2 -g -gz"; do
	for c in src/*.c; do
		b=$(basename "$c" .c)
		# The reference program once per flag set, not once per pass set.
		clang -c $flags -o ref/$b.o "$c" && clang -o ref/$b ref/$b.o ||
			{ bad "clang -c $flags $b"; continue; }
		want=$(ref/$b)
		for passes in none all; do
			rm -f ccd/$b.o
			CCD_PASSES=$passes "$CCD" --ccd-cc=clang -c $flags -o ccd/$b.o "$c" ||
				{ bad "ccd clang $flags $b"; continue; }
			clang -o ccd/$b ccd/$b.o || { bad "link $flags $b"; continue; }
			got=$(ccd/$b)
			n=$((n + 1))
			[ -n "$want" ] && [ "$want" = "$got" ] ||
				bad "clang $flags $b ($passes): output '$got', clang -c gives '$want'"
		done
	done
done
# -m32 objects link into a working program too (gcc-multilib's crt files).
clang -m32 -O2 -c -o ref/h32.o src/hello.c && clang -m32 -o ref/h32 ref/h32.o &&
	"$CCD" --ccd-cc=clang -m32 -O2 -c -o ccd/h32.o src/hello.c && clang -m32 -o ccd/h32 ccd/h32.o &&
	[ "$(ref/h32)" = "$(ccd/h32)" ] || bad "clang -m32 program differs"
file ccd/h32.o | grep -q 'ELF 32-bit' || bad "clang -m32 object is not ELF32"

# With GNU as (-fno-integrated-as), dependency targets follow gcc's rule,
# whatever the backend does alone.
mkdir -p obj
nias=-fno-integrated-as
"$CCD" --ccd-cc=clang $nias -Wp,-MMD,obj/.data.o.d -O2 -c -o obj/data.o src/data.c || bad "ccd -Wp,-MMD"
gcc -Wp,-MMD,obj/gcc.d -O2 -c -o obj/gcc.o src/data.c
[ "$(head -1 obj/.data.o.d | cut -d: -f1)" = "data.o" ] || bad "clang -Wp,-MMD target: $(head -1 obj/.data.o.d)"
cmp -s obj/.data.o.d obj/gcc.d || bad "clang -Wp,-MMD dep file differs from gcc's: $(cat obj/.data.o.d)"
"$CCD" --ccd-cc=clang $nias -MD -O2 -c -o obj/x.o src/data.c || bad "ccd -MD"
[ "$(head -1 obj/x.d | cut -d: -f1)" = "obj/x.o" ] || bad "clang -MD target/file: $(cat obj/x.d 2>&1)"
(cd obj && "$CCD" --ccd-cc=clang $nias -MMD -c ../src/hello.c) && [ "$(cut -d: -f1 obj/hello.d)" = "hello.o" ] ||
	bad "clang -MMD without -o: $(cat obj/hello.d 2>&1)"

# clang's own assembler (no -fno-integrated-as, as plain "make CC=clang"):
# the object and the dependency file are clang's own, byte for byte, from
# one backend run when the object shows nothing a pass repairs; with
# -fcommon the .comm is repaired (asmfix, then clang -x assembler); with
# -fno-integrated-as, GNU as, as clang's driver would run it.
# "clang" last: on Debian it is one of the clang-N (readlink -f), already
# done; only a distinct binary is run through it all again.
done_ccs=
for cc in clang-13 clang-14 clang-15 clang-16 clang; do
	command -v $cc > /dev/null || continue
	real=$(readlink -f "$(command -v $cc)")
	case " $done_ccs " in *" $real "*) echo "$cc is $real, done"; continue ;; esac
	done_ccs="$done_ccs $real"
	for flags in "-O2" "-O2 -g" "-Os -ffunction-sections -fdata-sections" "-O2 -g -gz" \
		"-O2 -m32" "-O2 -g -gdwarf-4 -fno-integrated-as -fintegrated-as"; do
		for c in src/*.c; do
			b=$(basename "$c" .c)
			# Both at the same paths (the object's name is in the dependency file).
			# shellcheck disable=SC2086
			(cd src && $cc -c $flags -Wp,-MMD,../obj/$b.d -o ../obj/$b.o $b.c) &&
				mv obj/$b.o obj/$b.d ref/ || { bad "$cc -c $flags $b"; continue; }
			# shellcheck disable=SC2086
			(cd src && CCD_VERBOSE=1 "$CCD" $cc -c $flags -Wp,-MMD,../obj/$b.d -o ../obj/$b.o \
				$b.c 2> ../ccd/$b.log) && mv obj/$b.o obj/$b.d ccd/ ||
				{ bad "ccd $cc $flags $b"; continue; }
			cmp -s ref/$b.o ccd/$b.o || bad "$cc $flags $b: not clang's own object"
			cmp -s ref/$b.d ccd/$b.d || bad "$cc $flags $b: not clang's own dependency file"
			[ "$(grep -c '^ccd: run: ' ccd/$b.log)" = 1 ] ||
				bad "$cc $flags $b: more than clang's own run: $(cat ccd/$b.log)"
			n=$((n + 1))
		done
	done
	printf 'int counter;\nstatic int hidden[4];\nint get(int i) { return counter + hidden[i & 3]++; }\n' > com.c
	$cc -fcommon -O2 -c -o ref/com.o com.c
	nm ref/com.o | grep -q ' C counter$' || bad "$cc -fcommon made no common symbol"
	CCD_VERBOSE=1 "$CCD" $cc -fcommon -O2 -c -o ccd/com.o com.c 2> ccd/com.log || bad "ccd $cc -fcommon"
	nm ccd/com.o | grep -q ' B counter$' || bad "$cc -fcommon: counter not in .bss: $(nm ccd/com.o)"
	grep -q "run: [^ ]*$cc .*-c -x assembler " ccd/com.log ||
		bad "$cc -fcommon: not assembled by clang: $(cat ccd/com.log)"
	"$CCD" $cc -fno-integrated-as -fcommon -O2 -c -o ccd/com-gas.o com.c || bad "ccd $cc GNU as"
	nm ccd/com-gas.o | grep -q ' B counter$' || bad "$cc GNU as: counter not in .bss"
	# A keep-alive accessor: removed, and clang's own assembler takes the text.
	printf 'static int hidden = 3;\nvoid __ccd_keep_hidden(void) { (void)&hidden; }\nint get(void) { return hidden; }\n' > keep.c
	CCD_VERBOSE=1 "$CCD" $cc -O2 -c -o ccd/keep.o keep.c 2> ccd/keep.log || bad "ccd $cc keep.c"
	grep -q "warning" ccd/keep.log && bad "$cc keep.c: $(cat ccd/keep.log)"
	nm ccd/keep.o | grep -q __ccd_keep && bad "$cc: accessor left: $(nm ccd/keep.o)"
	nm ccd/keep.o | grep -q ' T get$' || bad "$cc: get missing: $(nm ccd/keep.o)"
	# A record section: asmfix reads the text, changes nothing: clang's own object.
	printf 'int f(int *p)\n{\n\tasm volatile("661: nop\\n.pushsection .smp_locks,\\"a\\"\\n.long 661b - .\\n.popsection");\n\treturn *p;\n}\n' > rec.c
	$cc -O2 -c -o ref/rec.o rec.c || bad "$cc rec.c"
	CCD_VERBOSE=1 "$CCD" $cc -O2 -c -o ref/rec-ccd.o rec.c 2> ccd/rec.log || bad "ccd $cc rec.c"
	grep -q "asmfix: " ccd/rec.log || bad "$cc rec.c: a record section, and asmfix did not read the text"
	cmp -s ref/rec.o ref/rec-ccd.o || bad "$cc rec.c: not clang's own object"
	# LTO: the object is clang's IR, byte for byte, though an inline asm in
	# a header records its place as an offset that counts the predefined
	# text (a -D__CCD__ would move it); preprocessing still says ccd.
	printf 'static inline void hnop(void) { asm volatile("nop" ::: "memory"); }\n' > lto.h
	printf '#include "lto.h"\nint f(int x) { hnop(); return x + 1; }\n' > lto.c
	for lto in -flto=thin -flto "-flto=full -fno-lto -flto"; do
		# shellcheck disable=SC2086
		$cc -O2 $lto -c -o ref/lto.o lto.c && "$CCD" $cc -O2 $lto -c -o ccd/lto.o lto.c ||
			{ bad "$cc $lto"; continue; }
		cmp -s ref/lto.o ccd/lto.o || bad "$cc $lto: not clang's own bitcode"
	done
	"$CCD" $cc -flto=thin -E -dM -x c /dev/null -o ccd/lto.dm && grep -q '__CCD__' ccd/lto.dm ||
		bad "$cc -flto -E: __CCD__ not defined"
	# make LLVM=-N with no backend named: ccd runs clang-N, as Kbuild would.
	case $cc in clang-*)
		LLVM=-${cc#clang-} "$CCD" -O2 -flto=thin -c -o ccd/llvm.o lto.c &&
			$cc -O2 -flto=thin -c -o ref/llvm.o lto.c && cmp -s ref/llvm.o ccd/llvm.o ||
			bad "LLVM=-${cc#clang-}: not $cc's own object"
		LLVM=-${cc#clang-} "$CCD" --ccd-identity | grep -q "^backend command: .*/$cc (.*from LLVM)" ||
			bad "LLVM=-${cc#clang-}: the backend is not $cc: $(LLVM=-${cc#clang-} "$CCD" --ccd-identity | head -3)"
	esac
	check_tmp "$cc"
done
echo "$n clang programs compared"
end_test
