#!/bin/bash
# The icc and icx translation tables (and what ccd adds or leaves alone
# for every profile), checked on the exact argv a fake backend records.
# Usage: fake-backend.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && mkdir -p fake obj && cp "$SRC"/corpus/hello.c "$SRC"/corpus/corpus.h .
for name in icc icx gcc clang; do
	ln -s "$SRC/fake-cc.sh" fake/$name
done
export FAKE_CC_LOG="$work/log"

# expect NAME WANT CMD...: run ccd, compare the backend's logged argv
# (temp names replaced by TEMP) with WANT.
expect() {
	local name=$1 want=$2
	shift 2
	: > "$FAKE_CC_LOG"
	"$CCD" "$@" > /dev/null 2> "$work/err" || bad "$name: ccd failed: $(cat "$work/err")"
	got=$(sed "s|$TMPDIR/ccd[A-Za-z0-9]*\.s|TEMP|g" "$FAKE_CC_LOG")
	[ "$got" = "$want" ] || bad "$name:
  want: $want
  got:  $got"
	check_tmp "$name"
}

kflags="-Wall -fno-omit-frame-pointer -march=x86-64 -mtune=generic -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -mno-80387 -mno-fp-ret-in-387 -mpreferred-stack-boundary=3 -mskip-rax-setup -falign-jumps=1 -falign-loops=1 -fconserve-stack -fno-delete-null-pointer-checks -fno-allow-store-data-races -fno-var-tracking-assignments -fdiagnostics-color=always -Wno-pointer-sign -O2"

expect "icc kernel compile" \
	"icc: [-D__CCD__=1] [-w] [-fp] [-march=core2] [-no-vec] [-no-vec] [-no-vec] [-O2] [-Wp,-MMD,obj/.hello.o.d] [-S] [-o] [TEMP] [hello.c] [-MQ] [hello.o]" \
	--ccd-cc=fake/icc $kflags -Wp,-MMD,obj/.hello.o.d -c -o obj/hello.o hello.c
[ -s obj/hello.o ] || bad "icc: no object"
[ "$(head -1 obj/.hello.o.d | cut -d: -f1)" = hello.o ] || bad "icc: dep target $(head -1 obj/.hello.o.d)"

expect "icc option values are not translated" \
	"icc: [-D__CCD__=1] [-w] [-MT] [-Wall] [-MD] [-S] [-o] [TEMP] [hello.c] [-MF] [obj/hello.d]" \
	--ccd-cc=fake/icc -Wall -MT -Wall -MD -c -o obj/hello.o hello.c
expect "icc passthrough -E is translated too (probes see what compiles get)" \
	"icc: [-D__CCD__=1] [-w] [-fp] [-E] [hello.c]" \
	--ccd-cc=fake/icc -Wall -fno-omit-frame-pointer -E hello.c
expect "icc query: nothing added" "icc: [--version]" --ccd-cc=fake/icc --version
expect "icc link: nothing added" "icc: [-o] [obj/prog] [obj/hello.o]" --ccd-cc=fake/icc -o obj/prog obj/hello.o
expect "icc --coverage passes through (no -dumpbase to name .gcno)" \
	"icc: [-D__CCD__=1] [--coverage] [-c] [-o] [obj/cov.o] [hello.c]" \
	--ccd-cc=fake/icc --coverage -c -o obj/cov.o hello.c
rm -f obj/cov.* cov.* hello.gcno

expect "icx kernel compile" \
	"icx: [-D__CCD__=1] [-Wall] [-fno-omit-frame-pointer] [-march=x86-64] [-mtune=generic] [-mno-sse] [-mno-mmx] [-mno-sse2] [-mno-3dnow] [-mno-avx] [-mno-80387] [-mno-fp-ret-in-387] [-mskip-rax-setup] [-falign-loops=1] [-fno-delete-null-pointer-checks] [-fdiagnostics-color=always] [-Wno-pointer-sign] [-O2] [-Wp,-MMD,obj/.hello.o.d] [-fno-integrated-as] [-S] [-o] [TEMP] [hello.c] [-MQ] [hello.o] [-fno-integrated-as]" \
	--ccd-cc=fake/icx $kflags -Wp,-MMD,obj/.hello.o.d -fno-integrated-as -c -o obj/hello.o hello.c
expect "icx kernel compile, its own assembler: the words translated, -c and -o as given" \
	"icx: [-D__CCD__=1] [-Wall] [-fno-omit-frame-pointer] [-march=x86-64] [-mtune=generic] [-mno-sse] [-mno-mmx] [-mno-sse2] [-mno-3dnow] [-mno-avx] [-mno-80387] [-mno-fp-ret-in-387] [-mskip-rax-setup] [-falign-loops=1] [-fno-delete-null-pointer-checks] [-fdiagnostics-color=always] [-Wno-pointer-sign] [-O2] [-Wp,-MMD,obj/.hello.o.d] [-c] [-o] [obj/hello.o] [hello.c]" \
	--ccd-cc=fake/icx $kflags -Wp,-MMD,obj/.hello.o.d -c -o obj/hello.o hello.c
expect "gcc profile: only -c -> -S, -o -> temp, and gcc's derived names" \
	"gcc: [-D__CCD__=1] [-Wall] [-O2] [-MD] [-S] [-o] [TEMP] [hello.c] [-MF] [obj/hello.d] [-MQ] [obj/hello.o]" \
	--ccd-cc=fake/gcc -Wall -O2 -MD -c -o obj/hello.o hello.c
expect "gcc, side files named from -o: -dumpdir and -dumpbase said (only then)" \
	"gcc: [-D__CCD__=1] [--coverage] [-S] [-o] [TEMP] [hello.c] [-dumpdir] [obj/] [-dumpbase] [cov]" \
	--ccd-cc=fake/gcc --coverage -c -o obj/cov.o hello.c
expect "explicit backend word and -Wp,-MMD: gcc's target pinned (distcc rewrites -Wp)" \
	"gcc: [-D__CCD__=1] [-Wp,-MMD,d] [-S] [hello.c] [-o] [TEMP] [-MQ] [hello.o]" \
	fake/gcc -Wp,-MMD,d -c hello.c
expect "clang profile, GNU as" \
	"clang: [-D__CCD__=1] [-S] [-O2] [-fno-integrated-as] [-o] [TEMP] [hello.c] [-fno-integrated-as]" \
	--ccd-cc=fake/clang -c -O2 -fno-integrated-as -o obj/hello.o hello.c
expect "clang profile, its own assembler: clang's own compile" \
	"clang: [-D__CCD__=1] [-c] [-O2] [-o] [obj/hello.o] [hello.c]" \
	--ccd-cc=fake/clang -c -O2 -o obj/hello.o hello.c
gcc -E hello.c > x.i
expect ".i input: compiled, not preprocessed: no __CCD__" \
	"gcc: [-S] [-o] [TEMP] [x.i]" \
	--ccd-cc=fake/gcc -c -o obj/hello.o x.i < /dev/null 2>/dev/null
end_test
