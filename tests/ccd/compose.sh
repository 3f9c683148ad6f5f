#!/bin/bash
# Composition: ccache in front of ccd (compiler_type gcc, --ccd-identity as
# compiler_check) gives a hit on the second compile with gcc's object and
# dep file; a changed ccd configuration is a miss.  distcc as ccd's
# backend prefix (localhost) compiles the same object.
# Usage: compose.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && mkdir -p obj && cp "$SRC"/corpus/hello.c "$SRC"/corpus/corpus.h .
gcc -Wp,-MMD,obj/.ref.o.d -O2 -c -o obj/ref.o hello.c
if command -v ccache > /dev/null; then
	export CCACHE_DIR="$work/ccache" CCACHE_COMPILERTYPE=gcc \
		CCACHE_COMPILERCHECK="%compiler% --ccd-identity" CCD_CC=gcc
	for i in 1 2; do
		rm -f obj/h.o obj/.h.o.d
		ccache "$CCD" -Wp,-MMD,obj/.h.o.d -O2 -c -o obj/h.o hello.c || bad "ccache ccd failed"
		cmp -s obj/h.o obj/ref.o || bad "ccache run $i: object differs from gcc's"
		[ "$(head -1 obj/.h.o.d)" = "$(head -1 obj/.ref.o.d)" ] || bad "ccache run $i: dep target"
	done
	stats=$(ccache --print-stats)
	grep -q '^direct_cache_hit	1$' <<<"$stats" || bad "ccache: no direct hit on the second compile"
	CCD_PASSES=none ccache "$CCD" -Wp,-MMD,obj/.h.o.d -O2 -c -o obj/h.o hello.c
	[ "$(ccache --print-stats | sed -n 's/^cache_miss\t//p')" = 2 ] ||
		bad "ccache: changed CCD_PASSES was not a miss"
	unset CCACHE_DIR CCACHE_COMPILERTYPE CCACHE_COMPILERCHECK CCD_CC
else
	echo "note: no ccache, skipped"
fi
if command -v distcc > /dev/null; then
	mkdir -p "$work/distcc"
	DISTCC_HOSTS=localhost DISTCC_DIR="$work/distcc" CCD_CC="distcc gcc" \
		"$CCD" -Wp,-MMD,obj/.d.o.d -O2 -c -o obj/d.o hello.c || bad "CCD_CC='distcc gcc' failed"
	cmp -s obj/d.o obj/ref.o || bad "distcc prefix: object differs from gcc's"
else
	echo "note: no distcc, skipped"
fi
end_test
