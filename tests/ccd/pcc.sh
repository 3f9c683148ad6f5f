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
finish
