#!/bin/bash
# pcc, the Portable C Compiler: a real foreign backend that, like icc 8.0,
# emits .comm for uninitialised globals even under -fno-common (statics as
# .local + .comm, sizes in octal).  Through ccd: with no pass its objects
# are pcc's own, byte for byte; with the passes every common symbol is a
# real .bss definition of the right size and binding, and the program
# still runs.  Usage: pcc.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

command -v pcc >/dev/null || { echo "SKIP: no pcc (scripts/install-deps installs it)"; exit 77; }
cd "$work" || exit 1
cat > globals.c <<'C'
int counter;
long table[8];
static int hidden[8];
int get(int i)
{
	hidden[i & 7] += i;
	table[i & 7] = hidden[i & 7];
	return hidden[i & 7] + counter;
}
C
cat > main.c <<'C'
#include <stdio.h>
extern int counter;
int get(int i);
int main(void)
{
	counter = 40;
	printf("%d\n", get(2));
	return 0;
}
C

# pcc itself: common symbols despite -fno-common (else this test proves nothing).
pcc -fno-common -O -c -o pcc-globals.o globals.c || bad "pcc -c"
nm pcc-globals.o | grep -q ' C counter$' || bad "pcc made no common symbol: $(nm pcc-globals.o)"

# No pass: pcc's own object (the oracle).
CCD_PASSES=none "$CCD" --ccd-cc=pcc -fno-common -O -c -o none.o globals.c || bad "ccd pcc, no pass"
cmp -s none.o pcc-globals.o || bad "with no pass the object is not pcc's own"

# The passes: no common symbol left; sizes, bindings and sections right.
"$CCD" --ccd-cc=pcc -fno-common -O -c -o globals.o globals.c || bad "ccd pcc"
nm globals.o | grep -q ' [Cc] ' && bad "common symbols left: $(nm globals.o)"
readelf -sW globals.o | awk '$8 == "counter" || $8 == "table" || $8 == "hidden" {
	print $8, $3, $5, $7 }' | sort > syms.txt
ndx=$(readelf -SW globals.o | sed -n 's/^ *\[ *\([0-9]*\)\] \.bss .*/\1/p')
printf 'counter 4 GLOBAL %s\nhidden 32 LOCAL %s\ntable 64 GLOBAL %s\n' "$ndx" "$ndx" "$ndx" > want.txt
diff -u want.txt syms.txt >&2 || bad "symbols not as pcc declared them in .bss"

# The program runs the same either way.
"$CCD" --ccd-cc=pcc -O -c -o main.o main.c && pcc -o prog main.o globals.o && [ "$(./prog)" = 42 ] ||
	bad "the program built through ccd: $(./prog 2>&1)"
pcc -O -o prog-pcc main.c globals.c && [ "$(./prog-pcc)" = 42 ] || bad "pcc's own program"

# ccd knows it is pcc; pcc never sees gcc's -dumpdir.
"$CCD" --ccd-cc=pcc --ccd-identity | grep -q "(profile pcc," || bad "identity: $("$CCD" --ccd-cc=pcc --ccd-identity)"
"$CCD" --ccd-cc=pcc --ccd-verbose -O -c -o v.o globals.c 2> verbose.txt
grep -q -- "-dumpdir" verbose.txt && bad "pcc got -dumpdir: $(cat verbose.txt)"
grep -q "profile pcc, family pcc (predefined macro __PCC__" verbose.txt ||
	bad "family not asked of pcc: $(head -1 verbose.txt)"

# More of pcc's options: with no pass, pcc's own object each time.
mkdir -p inc
echo '#define K 3' > inc/k.h
cat > flags.c <<'C'
#include "k.h"
int scale(int x) { return x * K + X; }
C
for flags in "-O -DX=1" "-fPIC -O -DX=2" "-Iinc -DX=1 -w" "-O -fno-common -Wall -DX=0"; do
	case $flags in -I*) inc= ;; *) inc=-Iinc ;; esac
	# shellcheck disable=SC2086
	pcc $inc $flags -c -o own.o flags.c || bad "pcc $flags"
	# shellcheck disable=SC2086
	CCD_PASSES=none "$CCD" --ccd-cc=pcc $inc $flags -c -o ccd.o flags.c || bad "ccd pcc $flags"
	cmp -s ccd.o own.o || bad "pcc $flags: not pcc's own object"
done

# -g: pcc writes stabs and its driver gives as no debug option; gcc's
# --gdwarf-5 would add DWARF line tables describing ccd's temp .s.
pcc -g -c -o own-g.o globals.c || bad "pcc -g"
"$CCD" --ccd-cc=pcc --ccd-passes=none -g -c -o ccd-g.o globals.c || bad "ccd pcc -g"
readelf -SW own-g.o | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p' > own-sections.txt
readelf -SW ccd-g.o | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p' > ccd-sections.txt
grep -qx .stab own-sections.txt || bad "pcc -g made no .stab (the check proves nothing)"
diff -u own-sections.txt ccd-sections.txt >&2 || bad "pcc -g: sections differ from pcc's own"

# What pcc rejects, it rejects through ccd too, with its own exit code.
pcc -std=gnu11 -c -o own-r.o globals.c 2>/dev/null
want=$?
"$CCD" --ccd-cc=pcc -std=gnu11 -c -o ccd-r.o globals.c 2> err.txt
got=$?
[ "$want" != 0 ] && [ "$got" = "$want" ] || bad "pcc -std=gnu11: exit $got, pcc's own $want"
grep -q "unknown option" err.txt || bad "pcc's own message not shown: $(cat err.txt)"
[ -e ccd-r.o ] && bad "pcc -std=gnu11: an object was left"
# Dependency styles pcc cannot do right are refused, said, no object:
# -Wp,-MD,FILE (pcc's cpp fails on it) and a target other than the one pcc
# derives from the source (its -MT/-MQ write garbage before the target).
mkdir -p sub
for args in "-Wp,-MD,x.d -c -o r.o" "-MD -c -o sub/r.o"; do
	# shellcheck disable=SC2086
	"$CCD" --ccd-cc=pcc $args globals.c 2> err.txt && bad "pcc $args: not refused"
	grep -q "(profile pcc): .*-M" err.txt || bad "pcc $args: message: $(cat err.txt)"
	[ -e r.o ] || [ -e sub/r.o ] && bad "pcc $args: an object was left"
done

# A compiler that says nothing of its target (neither -E -dM nor
# -dumpmachine answers, as small C compilers do): pcc behind a stand-in
# that refuses both.  Its name carries no triple and CROSS_COMPILE is
# unset: the machine ccd runs on, said in --ccd-identity, its .comm
# repaired.  Named like a cross compiler, or under CROSS_COMPILE: the
# error, naming what to set, and no object.
mkdir -p silent
cat > silent/tcc <<'SH'
#!/bin/sh
for a; do case $a in -dM|-dumpmachine) echo "tcc: unknown option $a" >&2; exit 1 ;; esac; done
exec pcc "$@"
SH
chmod +x silent/tcc
cp silent/tcc silent/mips-linux-gnu-cc-2
echo 'int x;' > one.c
silent/tcc -E -dM one.c > /dev/null 2>&1 && bad "the stand-in answers -E -dM (the check proves nothing)"
"$CCD" --ccd-cc="$PWD/silent/tcc" -fno-common -c -o one.o one.c 2> err.txt ||
	bad "a compiler that cannot say its target, native: $(cat err.txt)"
[ "$(nm one.o 2>&1)" = "0000000000000000 B x" ] || bad "int x; not in .bss: $(nm one.o 2>&1)"
"$CCD" --ccd-cc="$PWD/silent/tcc" --ccd-identity > id.txt 2>&1
grep -q "^target: $(uname -m) (no answer to -E -dM or -dumpmachine; .*the machine ccd runs on)" id.txt ||
	bad "identity does not say the target is the host's: $(cat id.txt)"
rm -f one.o
for how in "--ccd-cc=$PWD/silent/mips-linux-gnu-cc-2" "CROSS_COMPILE=x-"; do
	case $how in
	CROSS*) env "$how" "$CCD" --ccd-cc="$PWD/silent/tcc" -c -o one.o one.c 2> err.txt ;;
	*) "$CCD" "$how" -c -o one.o one.c 2> err.txt ;;
	esac && bad "$how: a compiler that cannot say its target built"
	grep -q "cannot tell the target of backend .*; set CCD_TARGET=NAME" err.txt ||
		bad "$how: message: $(cat err.txt)"
	[ -e one.o ] && bad "$how: an object was left"
done
CCD_TARGET=x86_64 "$CCD" --ccd-cc="$PWD/silent/mips-linux-gnu-cc-2" -c -o one.o one.c ||
	bad "CCD_TARGET with a compiler that cannot say"

# A multi-file program with make CC=ccd CCD_CC=pcc: dependency files name
# the objects, a header change rebuilds only what includes it.
mkdir proj && cd proj || exit 1
echo 'extern int counter; int get(int i);' > g.h
cp ../globals.c ../main.c .
sed -i '1i #include "g.h"' globals.c
cat > Makefile <<'MK'
CFLAGS = -O -fno-common -MD
prog: main.o globals.o
	$(CC) -o $@ main.o globals.o
-include main.d globals.d
MK
# MALLOC_PERTURB_ (meson sets it too) shows pcc's -MQ garbage if ccd gave it one.
export MALLOC_PERTURB_=165
make CC="$CCD" CCD_CC=pcc > make1.txt 2>&1 || bad "make CC=ccd CCD_CC=pcc: $(cat make1.txt)"
[ "$(./prog)" = 42 ] || bad "the program built with make: $(./prog 2>&1)"
nm main.o globals.o | grep -q ' [Cc] ' && bad "make: common symbols left: $(nm globals.o)"
grep -qx 'globals.o: globals.c' globals.d && grep -qx 'globals.o: g.h' globals.d ||
	bad "globals.d: $(cat globals.d)"
grep -qx 'main.o: main.c' main.d || bad "main.d: $(cat main.d)"
grep -v '^[a-z]*\.o: ' main.d globals.d && bad "dependency lines not of make's form"
sleep 1
touch g.h
make CC="$CCD" CCD_CC=pcc > make2.txt 2>&1 || bad "make after touching g.h"
grep -qF ' globals.c' make2.txt || bad "g.h changed, globals.o not rebuilt: $(cat make2.txt)"
grep -qF ' main.c' make2.txt && bad "g.h changed, main.o rebuilt: $(cat make2.txt)"
cd .. || exit 1
end_test
