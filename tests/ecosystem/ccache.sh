#!/bin/bash
# ccache.sh CCD: make CC="ccache ccd" over a Kbuild-shaped corpus.
#
# The documented setup (doc/ecosystem.md) is:
#   CCACHE_COMPILERTYPE=gcc  - ccache cannot guess the type from "ccd"
#   CCACHE_COMPILERCHECK='%compiler% --ccd-identity'
# This test proves: a rebuild from clean gets >= 99% hits, objects and dep
# files equal the first build and plain gcc -c; a change of CCD_PASSES or
# CCD_CC misses; -fdiagnostics-color (added by ccache for gcc-type
# compilers on a tty) is accepted; ccd's own notices go to UNCACHED_ERR_FD
# and are not replayed on hits; CCACHE_DISABLE reaches the backend;
# ccache's prefix mode (ccd BACKEND ARGS) builds gcc's objects.
set -u
. "$(dirname "$0")/lib.sh"
ccd=$(realpath "${1:?usage: ccache.sh CCD}")
need_exe "$ccd"
need ccache gcc clang make cpio script

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
isolate "$T"
export CCD_CC=gcc
export CCACHE_DIR=$T/ccache CCACHE_CONFIGPATH=$T/ccache.conf
export CCACHE_COMPILERTYPE=gcc CCACHE_COMPILERCHECK='%compiler% --ccd-identity'
: > "$T/ccache.conf"
# ccd's (and ccache's) temp files land here; none may be left at the end.
mkdir "$T/tmp"
export TMPDIR=$T/tmp
n=32
"$eco_dir/gen-corpus.sh" "$T/w" "$n"
cd "$T/w"

stat() { ccache --print-stats | awk -v k="$1" '$1 == k { print $2 }'; }
hits() { echo $(( $(stat direct_cache_hit) + $(stat preprocessed_cache_hit) )); }
build() { make -s clean && make -s -j2 "$@" >"$T/make.out" 2>&1 || { cat "$T/make.out" >&2; return 1; }; }

# 0. --ccd-identity: stable, side-effect free, sensitive to passes and backend.
mkdir "$T/empty" "$T/idtmp"
id1=$(cd "$T/empty" && TMPDIR=$T/idtmp "$ccd" --ccd-identity) || bad "ccd --ccd-identity exits non-zero"
id2=$(cd "$T/empty" && TMPDIR=$T/idtmp "$ccd" --ccd-identity)
[ -n "$id1" ] && [ "$id1" = "$id2" ] && pass "--ccd-identity stable" || bad "--ccd-identity empty or unstable"
left=$(find "$T/empty" "$T/idtmp" -mindepth 1)
[ -z "$left" ] && pass "--ccd-identity leaves no files" || bad "--ccd-identity left files: $left"
id3=$(CCD_PASSES=none "$ccd" --ccd-identity)
id4=$(CCD_CC=clang "$ccd" --ccd-identity)
[ "$id1" != "$id3" ] && pass "identity depends on CCD_PASSES" || bad "identity ignores CCD_PASSES"
[ "$id1" != "$id4" ] && pass "identity depends on CCD_CC" || bad "identity ignores CCD_CC"
grep -qF "$(gcc --version | head -n1)" <<<"$id1" && pass "identity names the backend version" ||
	bad "identity lacks '$(gcc --version | head -n1)'"
grep -qF "$(as --version | head -n1)" <<<"$id1" && pass "identity names the assembler version" ||
	bad "identity lacks '$(as --version | head -n1)'"

# 1. Reference: plain gcc, same directory (so debug info paths match).
build CC=gcc || fail "corpus does not build with gcc"
snapshot . "$T/ref-gcc"

# 2. Cold cache: all misses; objects and deps equal gcc's.
ccache -z >/dev/null
build CC="ccache $ccd" || fail "make CC='ccache ccd' failed"
echo "cold: misses $(stat cache_miss), hits $(hits)"
[ "$(stat cache_miss)" -eq "$n" ] && pass "cold build: $n misses" ||
	bad "cold build: $(stat cache_miss) misses, expected $n (uncacheable? see ccache -s)"
snapshot . "$T/cold"
same_tree "$T/ref-gcc" "$T/cold" "ccache+ccd cold build == gcc -c"

# 3. Rebuild from clean: >= 99% hits, same bytes.
ccache -z >/dev/null
build CC="ccache $ccd" || fail "rebuild failed"
h=$(hits)
echo "warm: hits $h of $n, misses $(stat cache_miss)"
[ $((h * 100)) -ge $((n * 99)) ] && pass "warm rebuild: $h/$n hits" || bad "warm rebuild: only $h/$n hits"
snapshot . "$T/warm"
same_tree "$T/ref-gcc" "$T/warm" "ccache+ccd warm build == gcc -c"

# 4. Changing what ccd does must miss.
ccache -z >/dev/null
if CCD_PASSES=none build CC="ccache $ccd"; then
	[ "$(stat cache_miss)" -eq "$n" ] && [ "$(hits)" -eq 0 ] && pass "CCD_PASSES change: all misses" ||
		bad "CCD_PASSES change: $(hits) hits, $(stat cache_miss) misses (stale objects served)"
else
	bad "build with CCD_PASSES=none failed"
fi
ccache -z >/dev/null
if CCD_CC=clang build CC="ccache $ccd"; then
	[ "$(stat cache_miss)" -eq "$n" ] && [ "$(hits)" -eq 0 ] && pass "CCD_CC change: all misses" ||
		bad "CCD_CC change: $(hits) hits, $(stat cache_miss) misses (stale objects served)"
else
	bad "build with CCD_CC=clang failed"
fi
ccache -z >/dev/null
build CC="ccache $ccd" || bad "rebuild failed"
[ "$(hits)" -eq "$n" ] && pass "back to the first setup: all hits" || bad "back to first setup: $(hits)/$n hits"

# 5. -fdiagnostics-color, with every backend we have, directly and via ccache.
cat > "$T/warn.c" <<'W'
int shift(void) { return 1 << 40; }
W
for be in gcc clang; do
	for opt in -fdiagnostics-color -fdiagnostics-color=always; do
		rm -f "$T/warn.o"
		CCD_CC=$be "$ccd" "$opt" -c -o "$T/warn.o" "$T/warn.c" 2>"$T/err"; rc=$?
		if [ "$rc" -eq 0 ] && [ -s "$T/warn.o" ]; then
			pass "ccd ($be) accepts $opt"
		else
			bad "ccd ($be) $opt: exit $rc: $(tail -n2 "$T/err")"
		fi
	done
	grep -q $'\e\\[' "$T/err" && pass "ccd ($be) -fdiagnostics-color=always colours" ||
		bad "ccd ($be) -fdiagnostics-color=always: no colour in stderr"
done
# On a tty ccache adds -fdiagnostics-color for gcc-type compilers.
rm -f "$T/warn.o"
script -qec "ccache $ccd -c -o $T/warn.o $T/warn.c" /dev/null >"$T/tty.out" 2>&1
grep -q $'\e\\[' "$T/tty.out" && [ -s "$T/warn.o" ] &&
	pass "ccache on a tty: ccd gets -fdiagnostics-color, colours, object built" ||
	bad "ccache on a tty: $(tr -d '\r' <"$T/tty.out" | head -n3)"

# 6. UNCACHED_ERR_FD: ccd's own notices (CCD_VERBOSE trace) go there, the
#    backend's diagnostics stay on stderr.
gcc -c -o "$T/warn-gcc.o" "$T/warn.c" 2>"$T/gcc.err"
UNCACHED_ERR_FD=9 CCD_VERBOSE=1 "$ccd" -c -o "$T/warn.o" "$T/warn.c" 9>"$T/fd9" 2>"$T/fd2"
[ -s "$T/fd9" ] && pass "CCD_VERBOSE trace goes to UNCACHED_ERR_FD" || bad "nothing written to UNCACHED_ERR_FD with CCD_VERBOSE=1"
cmp -s "$T/fd2" "$T/gcc.err" && pass "stderr holds exactly the backend's diagnostics" ||
	bad "stderr with UNCACHED_ERR_FD set differs from gcc's: $(diff "$T/gcc.err" "$T/fd2" | head -n4)"
# Through ccache: the hit replays the warning but not ccd's trace.
ccache -C >/dev/null
CCD_VERBOSE=1 ccache "$ccd" -c -o "$T/warn.o" "$T/warn.c" 2>"$T/miss.err"
CCD_VERBOSE=1 ccache "$ccd" -c -o "$T/warn.o" "$T/warn.c" 2>"$T/hit.err"
cmp -s "$T/hit.err" "$T/gcc.err" && pass "ccache hit replays the warning, not ccd's trace" ||
	bad "ccache hit stderr differs from gcc's: $(diff "$T/gcc.err" "$T/hit.err" | head -n4)"
grep -qF "$(head -n1 "$T/gcc.err")" "$T/miss.err" && pass "ccache miss shows the warning" ||
	bad "ccache miss lost the warning"

# 7. CCACHE_DISABLE reaches the backend: with CCD_CC="ccache gcc" the
#    inner ccache must stay out of the cache (one miss, nothing else).
ccache -C -z >/dev/null
ccache "$ccd" -c -o "$T/warn.o" "$T/warn.c" 2>/dev/null
files=$(stat files_in_cache)	# what one outer compile stores
ccache -C -z >/dev/null
CCD_CC="ccache gcc" ccache "$ccd" -c -o "$T/warn.o" "$T/warn.c" 2>/dev/null
[ -s "$T/warn.o" ] && [ "$(stat cache_miss)" -eq 1 ] && [ "$(stat files_in_cache)" -eq "$files" ] &&
	pass "CCACHE_DISABLE kept for the backend (inner ccache idle)" ||
	bad "inner ccache was active: $(stat cache_miss) misses (expected 1), $(stat files_in_cache) files in cache (expected $files)"

# 8. Prefix mode (CCACHE_PREFIX=ccd make CC="ccache gcc"): ccache runs
#    "ccd /usr/bin/gcc ARGS", the explicit-backend form.  Own cache dir:
#    here ccache hashes gcc, not ccd.
if CCACHE_DIR=$T/ccache-prefix CCACHE_PREFIX=$ccd CCACHE_COMPILERTYPE= CCACHE_COMPILERCHECK=mtime \
	build CC="ccache gcc"; then
	snapshot . "$T/prefix"
	same_tree "$T/ref-gcc" "$T/prefix" "CCACHE_PREFIX=ccd (ccd BACKEND ARGS) == gcc -c"
	# ... and it really went through ccd (its trace reaches the terminal).
	CCACHE_DIR=$T/ccache-prefix CCACHE_PREFIX=$ccd CCACHE_COMPILERTYPE= CCACHE_COMPILERCHECK=mtime \
		CCACHE_RECACHE=1 CCD_VERBOSE=1 ccache gcc -c -o "$T/p.o" "$T/warn.c" 2>"$T/p.err"
	grep -q '^ccd' "$T/p.err" && pass "prefix mode runs ccd" || bad "prefix mode: no ccd trace: $(head -n2 "$T/p.err")"
else
	bad "CCACHE_PREFIX=ccd make CC='ccache gcc' failed"
fi

left=$(find "$T/tmp" -mindepth 1 | head -n5)
[ -z "$left" ] && pass "no temp files left in TMPDIR" || bad "temp files left: $left"
finish
