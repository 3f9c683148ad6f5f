#!/bin/bash
# The check report (ccd(1) CHECK REPORT) with the real gcc, clang, pcc, a
# cross gcc and GNU as: each object's line, checked against the object
# itself (a "same" or "own" object is byte-identical to the backend's own
# -c object, a "repaired" one is not); an assembler other than the
# driver's "differs" and makes the summary exit 1; a bad report names its
# file and line.  Usage: check-report.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && mkdir -p src obj ref
cat > src/plain.c <<'C'
int scale = 3;
int f(int a) { return a * scale; }
C
printf 'int tentative;\nint g(void) { return tentative; }\n' > src/common.c
export CCD_CHECK_REPORT=$work/report.txt

# line OBJ: the report's line for OBJ (the last one).
line() { grep " $1\( \|$\)" "$CCD_CHECK_REPORT" | tail -1; }
# same_as_own CC FLAGS... : ccd's object against CC -c's, at the same path.
compare() {
	local want=$1 cc=$2 base=$3
	shift 3
	"$CCD" "$cc" "$@" -c src/$base.c -o obj/$base.o || { bad "ccd $cc $*: failed"; return; }
	mv obj/$base.o ref/$base.ccd.o
	"$cc" "$@" -c src/$base.c -o obj/$base.o || { bad "$cc $*: failed"; return; }
	case $want in
	same|own) cmp -s obj/$base.o ref/$base.ccd.o ||
		bad "$cc $* $base: the report says $want, but the object is not $cc's own" ;;
	repaired*) cmp -s obj/$base.o ref/$base.ccd.o &&
		bad "$cc $* $base: the report says repaired, but the object is $cc's own" ;;
	esac
	case "$(line obj/$base.o)" in
	"$want obj/$base.o"*) pass "$cc $* $base: $want" ;;
	*) bad "$cc $* $base: line '$(line obj/$base.o)', not '$want'" ;;
	esac
}

compare same gcc plain -O2 -g
compare same gcc plain -m32 -O2 -Wa,--noexecstack
compare repaired gcc common -O2 -fcommon
compare same aarch64-linux-gnu-gcc plain -O2
compare own clang plain -O2
compare same clang plain -O2 -fno-integrated-as
# pcc's driver has no -###: its objects are not vouched for.
"$CCD" pcc -c src/plain.c -o obj/pcc.o || bad "ccd pcc failed"
case "$(line obj/pcc.o)" in unknown\ obj/pcc.o\ *) ;; *) bad "pcc: '$(line obj/pcc.o)'" ;; esac

# An assembler that is not the driver's (a copy of it): "differs", naming
# both, and the summary exits 1 pointing at the line.
drv_as=$(readlink -f "$(command -v "$(gcc -print-prog-name=as)")")
cp "$drv_as" "$work/as-copy"
CCD_AS=$work/as-copy "$CCD" gcc -O2 -c src/plain.c -o obj/copy.o || bad "ccd with CCD_AS failed"
case "$(line obj/copy.o)" in
"differs obj/copy.o as: ccd '$work/as-copy "*"', driver '/"*) ;;
*) bad "another as: '$(line obj/copy.o)'" ;;
esac
# A link to the driver's own as is the same program.
ln -s "$drv_as" "$work/as-link"
CCD_AS=$work/as-link "$CCD" gcc -O2 -c src/plain.c -o obj/link.o || bad "ccd with a link failed"
[ "$(line obj/link.o)" = "same obj/link.o" ] || bad "as by a link: '$(line obj/link.o)'"
# Nothing but objects: -S, -E and probes add no line.
n=$(wc -l < "$CCD_CHECK_REPORT")
"$CCD" gcc -S src/plain.c -o obj/plain.s && "$CCD" gcc -E src/plain.c >/dev/null &&
	"$CCD" gcc -c -x c /dev/null -o /dev/null || bad "-S, -E or a probe failed"
[ "$(wc -l < "$CCD_CHECK_REPORT")" = "$n" ] || bad "-S, -E or a probe added a line"

expect 1 "$CCD" --ccd-check-summary="$CCD_CHECK_REPORT"
grep -q "^9 objects: 6 the backend's own by construction (5 assembled as its driver would, 1 by itself), 1 repaired, 0 fallback, 1 unknown, 1 differ$" out.txt ||
	bad "summary: $(cat out.txt)"
grep -q "report.txt:[0-9]*: differs obj/copy.o" err.txt || bad "summary names no differing line: $(cat err.txt)"
grep -v differs "$CCD_CHECK_REPORT" > good.txt
expect 0 "$CCD" --ccd-check-summary=good.txt
printf 'same a.o\nsame\n' > bad.txt
expect 2 "$CCD" --ccd-check-summary=bad.txt
grep -q "bad.txt:2: error: not a check report line: 'same'" err.txt || bad "bad report: $(cat err.txt)"
expect 2 "$CCD" --ccd-check-summary=nonexistent.txt
grep -q "nonexistent.txt" err.txt || bad "missing report: $(cat err.txt)"
end_test
