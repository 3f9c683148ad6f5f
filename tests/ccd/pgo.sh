#!/bin/bash
# Profile use (ccd(1) PROFILE USE) with the real gcc: a program built
# instrumented through ccd, run, its gcda laid out as gcc names them; then
# every case of a profile-guided rebuild: used (the object is gcc's own
# -fprofile-use object, and not the plain one), none (the plain object),
# a source changed after training (a warning, the build goes on, the other
# objects keep their profiles), stale, probes, a backend that cannot read
# gcc's profiles, one that fails with the profile, a missing directory,
# the report and its summary.
#   Usage: pgo.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && mkdir -p build/sub prof
cat > build/sub/hot.c <<'C'
/* Never called in training: compiled as without a profile, not for size. */
void never(int *a, const int *b, int n)
{
	for (int i = 0; i < n; i++)
		a[i] += b[i] * 3;
}

int hot(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++) {
		if (i % 7 == 3)
			s += i * 3;
		else if (i % 5)
			s -= i;
		else
			s ^= i;
	}
	return s;
}
C
cat > build/main.c <<'C'
#include <stdlib.h>
int hot(int n);
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000;

	return hot(n) == 42 ? 1 : 0;
}
C
cp build/sub/hot.c build/sub/cold.c && sed -i 's/hot(/cold(/' build/sub/cold.c
cd build
CFLAGS="-O2 -fno-common"

# Training: instrumented as Kbuild's CONFIG_GCOV_PROFILE_ALL does, through ccd.
for o in sub/hot main; do
	"$CCD" --ccd-cc=gcc $CFLAGS -fprofile-arcs -ftest-coverage -c -o $o.o $o.c ||
		bad "instrumented compile of $o.c"
done
gcc -fprofile-arcs -o prog sub/hot.o main.o && ./prog || bad "instrumented program"
[ -s sub/hot.gcda ] && [ -s main.gcda ] || bad "no gcda after the run: $(ls . sub)"
cp sub/hot.gcda '../prof/sub#hot.gcda' && cp main.gcda ../prof/main.gcda
rm -f ./*.gcda ./*.gcno sub/*.gcda sub/*.gcno ./*.o sub/*.o
prof=$(cd ../prof && pwd -P)
export CCD_PROFILE_USE=../prof CCD_PROFILE_REPORT=$work/report.txt
gcc_use() { gcc -fprofile-use="$prof" -fprofile-prefix-path="$(pwd -P)" -fprofile-correction \
	-fprofile-partial-training -Wno-error=coverage-mismatch -Wno-missing-profile "$@"; }

# Used: the object gcc itself makes with the profile (gcc names the
# profile after the object, hence the same -o), which is not the plain one.
gcc_use $CFLAGS -c -o sub/hot.o sub/hot.c && mv sub/hot.o ref-hot.o || bad "gcc -fprofile-use"
"$CCD" --ccd-cc=gcc $CFLAGS -c -o sub/hot.o sub/hot.c 2>err.txt || bad "profile-use compile"
[ -s err.txt ] && bad "used: something said: $(cat err.txt)"
cmp -s sub/hot.o ref-hot.o || bad "used: not gcc's own -fprofile-use object"
# ... with -fprofile-partial-training: without it, never() would be optimised for size.
gcc_use -fno-profile-partial-training $CFLAGS -c -o sub/hot.o sub/hot.c && mv sub/hot.o full-hot.o &&
	! cmp -s full-hot.o ref-hot.o || bad "used: the untrained function is compiled for size"
env -u CCD_PROFILE_USE -u CCD_PROFILE_REPORT gcc $CFLAGS -c -o plain-hot.o sub/hot.c
cmp -s sub/hot.o plain-hot.o && bad "used: the profile changed nothing"
"$CCD" --ccd-cc=gcc $CFLAGS -c -o main.o main.c 2>err.txt || bad "main.o with its profile"
[ "$(cat "$CCD_PROFILE_REPORT")" = "used sub/hot.o
used main.o" ] || bad "report after two used: $(cat "$CCD_PROFILE_REPORT")"

# None: a warning naming the object and its expected profile; the plain object.
"$CCD" --ccd-cc=gcc $CFLAGS -c -o sub/cold.o sub/cold.c 2>err.txt || bad "compile without a profile"
grep -q "^ccd: warning: sub/cold.o: no profile (.*/prof/sub#cold.gcda)$" err.txt ||
	bad "none: warning: $(cat err.txt)"
gcc $CFLAGS -c -o ref-cold.o sub/cold.c && cmp -s sub/cold.o ref-cold.o || bad "none: not the plain object"
tail -1 "$CCD_PROFILE_REPORT" | grep -qx "none sub/cold.o" || bad "none: report"

# Stale: the source is newer than its profile (same text): still used, said.
touch -d '+1 hour' main.c
"$CCD" --ccd-cc=gcc $CFLAGS -c -o main2.o main.c 2>err.txt || bad "stale compile"
# (main2.o's profile would be main2.gcda: the profile is the object's, by name.)
grep -q "no profile (.*/prof/main2.gcda)" err.txt || bad "a renamed object found a profile: $(cat err.txt)"
"$CCD" --ccd-cc=gcc $CFLAGS -c -o main.o main.c 2>err.txt || bad "stale compile"
grep -q "^ccd: warning: main.o: the source is newer than its profile .*(stale)$" err.txt ||
	bad "stale: warning: $(cat err.txt)"
tail -1 "$CCD_PROFILE_REPORT" | grep -qx "stale main.o" || bad "stale: report"
touch -d '-1 hour' main.c

# A source changed after training: gcc's warning, ours naming the object,
# exit 0, an object; the other objects keep their profiles.
sed -i 's/s ^= i;/{ if (i > 9) s ^= i; else s += 2; }/' sub/hot.c
"$CCD" --ccd-cc=gcc $CFLAGS -c -o sub/hot.o sub/hot.c 2>err.txt || bad "changed source: the compile failed"
[ -s sub/hot.o ] || bad "changed source: no object"
grep -q "\[-Wcoverage-mismatch\]" err.txt || bad "changed source: gcc's warning is not passed on"
grep -q "^ccd: warning: sub/hot.o: the profile .*/prof/sub#hot.gcda does not fit the source" err.txt ||
	bad "changed source: no warning naming the object: $(cat err.txt)"
tail -1 "$CCD_PROFILE_REPORT" | grep -qx "mismatch sub/hot.o" || bad "changed source: report"
"$CCD" --ccd-cc=gcc $CFLAGS -c -o main.o main.c 2>err.txt && [ ! -s err.txt ] &&
	tail -1 "$CCD_PROFILE_REPORT" | grep -qx "used main.o" || bad "the other object lost its profile"
gcc -o prog2 sub/hot.o main.o && ./prog2 || bad "the program of mismatched and used objects"

# Kbuild's probes compile /dev/null: no report, no warning.
lines=$(wc -l < "$CCD_PROFILE_REPORT")
"$CCD" --ccd-cc=gcc -Werror -c -x c /dev/null -o probe.o 2>err.txt || bad "probe failed"
[ -s err.txt ] && bad "probe: something said: $(cat err.txt)"
[ "$(wc -l < "$CCD_PROFILE_REPORT")" = "$lines" ] || bad "probe: reported"
# Pass-through runs get nothing but __CCD__.
"$CCD" --ccd-cc=gcc --ccd-verbose -E -o /dev/null main.c 2>err.txt || bad "-E"
grep -q "fprofile" err.txt && bad "-E got profile flags: $(cat err.txt)"

# A backend that cannot read gcc's profiles: said, counted, compiled without.
"$CCD" --ccd-cc=clang $CFLAGS -c -o main-clang.o main.c 2>err.txt || bad "clang backend failed"
grep -q "^ccd: warning: main-clang.o: profile use needs gcc 11 or later as the backend (profile clang)" \
	err.txt || bad "clang: warning: $(cat err.txt)"
tail -1 "$CCD_PROFILE_REPORT" | grep -qx "unsupported main-clang.o" || bad "clang: report"

# A backend that fails with the profile (an injected internal compiler
# error; real gcc otherwise): compiled again without it, the plain
# object, the failed run's messages not shown, said and counted.
printf '#!/bin/sh\nfor a; do case $a in -fprofile-use=*) echo "internal compiler error (injected)" >&2; exit 4;; esac; done\nexec gcc "$@"\n' \
	> "$work/ice-gcc" && chmod +x "$work/ice-gcc"
"$CCD" --ccd-cc="$work/ice-gcc" $CFLAGS -c -o main.o main.c 2>err.txt || bad "ICE: the build failed"
grep -q "injected" err.txt && bad "ICE: the failed run's messages were shown"
grep -q "^ccd: warning: main.o: the compile failed with the profile .*/prof/main.gcda; compiled without it$" \
	err.txt || bad "ICE: warning: $(cat err.txt)"
tail -1 "$CCD_PROFILE_REPORT" | grep -qx "failed main.o" || bad "ICE: report"
env -u CCD_PROFILE_USE gcc $CFLAGS -c -o ref-main.o main.c && cmp -s main.o ref-main.o ||
	bad "ICE: not the plain object"

# A profile directory that is not there: a warning, the plain object.
CCD_PROFILE_USE=$work/nonexistent "$CCD" --ccd-cc=gcc $CFLAGS -c -o sub/cold.o sub/cold.c 2>err.txt ||
	bad "missing directory: the compile failed"
grep -q "^ccd: warning: profile directory .*/nonexistent: No such file or directory; compiling without profiles$" \
	err.txt || bad "missing directory: $(cat err.txt)"
cmp -s sub/cold.o ref-cold.o || bad "missing directory: not the plain object"

# The summary; a report line that is not one names file and line.
[ "$("$CCD" --ccd-profile-summary="$CCD_PROFILE_REPORT")" = \
  "9 objects: 4 with a profile (1 stale), 1 mismatched, 2 without, 1 failed with it, 1 unsupported" ] ||
	bad "summary: $("$CCD" --ccd-profile-summary="$CCD_PROFILE_REPORT" 2>&1)"
printf 'used a.o\nnone b.o\nbogus c.o\n' > bad-report.txt
"$CCD" --ccd-profile-summary=bad-report.txt >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && [ ! -s out.txt ] && grep -qx "bad-report.txt:3: error: not a profile report line: 'bogus c.o'" err.txt ||
	bad "bad report: exit $rc: $(cat err.txt)"
"$CCD" --ccd-profile-summary=nonexistent.txt 2>err.txt && bad "summary of a missing file succeeded"

# Without profile use: ccd's objects stay gcc's own (the oracle).
unset CCD_PROFILE_USE CCD_PROFILE_REPORT
"$CCD" --ccd-cc=gcc $CFLAGS -c -o sub/hot.o sub/hot.c && gcc $CFLAGS -c -o ref.o sub/hot.c &&
	cmp -s sub/hot.o ref.o || bad "no profile use: not gcc's object"
end_test
