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
		clang -c $flags -o ref/$b.o "$c" || { bad "clang -c $flags $b"; continue; }
		for passes in none all; do
			rm -f ccd/$b.o
			CCD_PASSES=$passes "$CCD" --ccd-cc=clang -c $flags -o ccd/$b.o "$c" ||
				{ bad "ccd clang $flags $b"; continue; }
			clang -o ref/$b ref/$b.o && clang -o ccd/$b ccd/$b.o ||
				{ bad "link $flags $b"; continue; }
			want=$(ref/$b) got=$(ccd/$b)
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

# Dependency targets follow gcc's rule, whatever the backend does alone.
mkdir -p obj
"$CCD" --ccd-cc=clang -Wp,-MMD,obj/.data.o.d -O2 -c -o obj/data.o src/data.c || bad "ccd -Wp,-MMD"
gcc -Wp,-MMD,obj/gcc.d -O2 -c -o obj/gcc.o src/data.c
[ "$(head -1 obj/.data.o.d | cut -d: -f1)" = "data.o" ] || bad "clang -Wp,-MMD target: $(head -1 obj/.data.o.d)"
cmp -s obj/.data.o.d obj/gcc.d || bad "clang -Wp,-MMD dep file differs from gcc's: $(cat obj/.data.o.d)"
"$CCD" --ccd-cc=clang -MD -O2 -c -o obj/x.o src/data.c || bad "ccd -MD"
[ "$(head -1 obj/x.d | cut -d: -f1)" = "obj/x.o" ] || bad "clang -MD target/file: $(cat obj/x.d 2>&1)"
(cd obj && "$CCD" --ccd-cc=clang -MMD -c ../src/hello.c) && [ "$(cut -d: -f1 obj/hello.d)" = "hello.o" ] ||
	bad "clang -MMD without -o: $(cat obj/hello.d 2>&1)"
echo "$n clang programs compared"
end_test
