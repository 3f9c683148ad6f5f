#!/bin/bash
# The safety net: when GNU as rejects the assembly as a pass left it but
# takes the backend's own, ccd's object is the backend's own, with one
# warning naming the pass; --ccd-strict (CCD_STRICT, ccd.conf strict) makes
# it an error with no object.  Real gcc and as.  Usage: safety-net.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && cp "$SRC"/asm-comm.c .

# Another alignment: the common pass leaves the asm's .comm beside its definition.
gcc -O2 -fcommon -DASM_ALIGN='"16"' -c -o gcc.o asm-comm.c || fail "gcc itself rejects the fixture"
"$CCD" gcc -O2 -fcommon -DASM_ALIGN='"16"' -c -o ccd.o asm-comm.c 2> err || bad "fallback: exit $?: $(cat err)"
cmp -s gcc.o ccd.o || bad "fallback: the object is not gcc's own"
[ "$(wc -l < err)" = 1 ] || bad "fallback: want one line on stderr, got: $(cat err)"
grep -q "warning: asm-comm.c: GNU as rejected the assembly as repaired by common (symbol .shared_buf. is already defined)" err ||
	bad "fallback: warning: $(cat err)"
check_tmp fallback

for strict in "--ccd-strict" "CCD_STRICT=yes" "ccd.conf"; do
	rm -f ccd.o
	opt=() envs=()
	case $strict in
	--*) opt=("$strict") ;;
	CCD*) envs=("$strict") ;;
	*) mkdir -p xdg/ccd && echo "strict = yes" > xdg/ccd/ccd.conf ;;
	esac
	env "${envs[@]}" "$CCD" "${opt[@]}" gcc -O2 -fcommon -DASM_ALIGN='"16"' -c -o ccd.o asm-comm.c 2> err
	rc=$?
	rm -f xdg/ccd/ccd.conf
	[ $rc = 1 ] && [ ! -e ccd.o ] || bad "$strict: exit $rc, object $(ls ccd.o 2>&1)"
	grep -q "already defined" err && grep -q "error: asm-comm.c: GNU as rejected the assembly as repaired by common (strict" err ||
		bad "$strict: messages: $(cat err)"
	check_tmp "$strict"
done

# The same size and alignment: repaired (one .bss definition, no COM), no word.
"$CCD" gcc -O2 -fcommon -c -o same.o asm-comm.c 2> err || bad "same alignment: exit $?"
[ ! -s err ] || bad "same alignment: messages: $(cat err)"
readelf -sW same.o | grep -q ' OBJECT  GLOBAL DEFAULT .* [0-9]* shared_buf$' &&
	! readelf -sW same.o | grep -q ' COM shared_buf$' || bad "same alignment: $(readelf -sW same.o | grep shared_buf)"

# Nothing changed by any pass: one as run, straight to the user (gcc's own messages).
printf 'int f(void) { asm(".warning \\"from the asm\\""); return 0; }\n' > warn.c
gcc -O2 -c -o gw.o warn.c 2> gerr && "$CCD" gcc -O2 -c -o cw.o warn.c 2> cerr || bad "as warning: a compile failed"
cmp -s gw.o cw.o && grep -q 'Warning: from the asm' cerr && [ "$(wc -l < cerr)" = "$(wc -l < gerr)" ] ||
	bad "as warning: $(cat cerr)"
end_test
