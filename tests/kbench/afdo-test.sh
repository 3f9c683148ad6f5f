#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbench's AFDO files (kbench/kbuild/afdo.c) read by the real gcc-12: LLVM
# text profiles written here by hand, their line offsets read off the
# source, converted by afdo-convert and compiled with -fauto-profile.
#   afdo-test.sh CASE   (AFDO_CONVERT=path/to/afdo-convert)
set -u
: "${AFDO_CONVERT:?AFDO_CONVERT must name the afdo-convert binary}"
export LC_ALL=C
. "$(dirname "$0")/../lib/check.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/afdo-test.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
has() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks: $2"; }; }
lacks() { ! grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 has: $2"; }; }
command -v gcc-12 >/dev/null || skip "no gcc-12"

# off FILE FUNCTION MARK: the line marked /* @MARK */, counted from the line
# of FUNCTION's name (gcc's and LLVM's offsets both)
off() {
	local f m
	f=$(grep -n "^[a-z].* $2(" "$1" | head -1 | cut -d: -f1)
	m=$(grep -n "/\* @$3 \*/" "$1" | head -1 | cut -d: -f1)
	[ -n "$f" ] && [ -n "$m" ] || fail "no $2 or @$3 in $1"
	echo $((m - f))
}

# One hot loop calling mix (too big for gcc to inline unasked) and a cold
# branch, taken once, into report.
hot_c() {
	{
		printf '#include <stdio.h>\n\nint mix(int a, int b)\n{\n\tint r = a;\n\n'
		printf '\tr = r * 29 + b; /* @mix-first */\n'
		for k in 0 1 2 3 4 5 6 7 8 9 10 11; do
			printf '\tr = r * %d + (b >> %d);\n\tif (r & %d)\n\t\tr ^= b * %d;\n' \
				$((31 + 2 * k)) $((k % 5)) $((1 << (k % 7))) $((13 + k))
		done
		cat <<-'EOF'
		return r;
		}

		static int report(int i)
		{
			printf("at %d\n", i);
			return i * 3;
		}

		int work(int n)
		{
			int s = 0; /* @init */

			for (int i = 0; i < n; i++) { /* @loop */
				if (i == n - 7) /* @test */
					s += report(i); /* @cold */
				else
					s += mix(i, s); /* @hot */
			}
			return s; /* @ret */
		}
		EOF
	} >hot.c
}

# compile [PROFILE]: gcc-12 with it, its afdo dump in afdo.txt (work's blocks
# in work.txt), what it inlined in inline.txt; it must say nothing at all
compile() {
	rm -f afdo.txt inline.txt work.txt
	expect 0 gcc-12 -O2 -g -c hot.c -o hot.o -fopt-info-inline-optimized=inline.txt \
		${1:+-fauto-profile="$1" -fdump-ipa-afdo=afdo.txt}
	[ -s err.txt ] && { cat err.txt >&2; fail "gcc-12 said something about ${1:-hot.c}"; }
	[ -z "$1" ] || sed -n '/^int work/,/^}/p' afdo.txt >work.txt
}

# The profile: work's copy and a second one LLVM names work.__uniq.N (gcc
# knows one work), the hot line's second block as discriminator 1, and mix
# inlined at the hot line, in the second copy in its block 2.
profile() {
	local i l t c h r m
	i=$(off hot.c work init) l=$(off hot.c work loop) t=$(off hot.c work test)
	c=$(off hot.c work cold) h=$(off hot.c work hot) r=$(off hot.c work ret)
	m=$(off hot.c mix mix-first)
	cat <<-EOF
	# by hand: work's loop ran 123457 times, mix 123450
	work:${1:-500000}:1
	 $i: 1
	 $l: 123457
	 $t: 123457
	 $c: 7
	 $h: 100000
	 $h.1: 2
	 $h: mix:300000
	  $m: 99000
	 $r: 1
	work.__uniq.1234:23450:0
	 $h: 23450
	 $h.2: mix:24000
	  $m: 24000
	EOF
}

case_gcc() {
	hot_c
	# Unasked, gcc inlines report into work, not mix.
	compile ""
	has inline.txt "Inlining report/"
	lacks inline.txt "Inlining mix/"
	profile >prof.txt
	expect 0 "$AFDO_CONVERT" prof.txt prof.afdo
	has out.txt "functions=1 merged=1 samples=523450"
	compile prof.afdo
	# mix inlined at the profile's call site, and work's blocks counted as
	# the profile says: 123450 is its two copies' hot line, added (a copy
	# lost, or the discriminator's 2 kept, would be another number), 123000
	# the first line of mix in both copies' inlined mix.
	has inline.txt "Inlining mix/"
	has work.txt "[count: 123457]"
	has work.txt "[count: 123450]"
	has work.txt "[count: 123000]"
	lacks work.txt "[count: 2]"
	pass "gcc-12 read the profile: mix inlined, work's blocks counted 123457, 123450, 123000"
	# LLVM's own writer of the same profile: the same.
	if command -v llvm-profdata-19 >/dev/null; then
		expect 0 llvm-profdata-19 merge --sample --text prof.txt -o llvm.txt
		expect 0 "$AFDO_CONVERT" llvm.txt llvm.afdo
		compile llvm.afdo
		has inline.txt "Inlining mix/"
		has work.txt "[count: 123450]"
		has work.txt "[count: 123000]"
		pass "llvm-profdata-19's text of it read alike"
	fi
	# The control: a profile of no function of hot.c changes nothing.
	profile | sed 's/^work/nowork/' >none.txt
	expect 0 "$AFDO_CONVERT" none.txt none.afdo
	compile none.afdo
	lacks inline.txt "Inlining mix/"
	lacks work.txt "count: 123450"
	# gcc-12 refuses a file it cannot read: the checks above can fail.
	cp prof.afdo bad.afdo
	printf '\3' | dd of=bad.afdo bs=1 seek=4 conv=notrunc 2>/dev/null
	expect 1 gcc-12 -O2 -c hot.c -o hot.o -fauto-profile=bad.afdo
	has err.txt "AutoFDO profile version 3 does not match 2"
	printf 'x' | dd of=bad.afdo bs=1 seek=0 conv=notrunc 2>/dev/null
	expect 1 gcc-12 -O2 -c hot.c -o hot.o -fauto-profile=bad.afdo
	has err.txt "AutoFDO profile magic number does not match"
	pass "gcc-12 refuses a damaged file"
}

# An indirect call the profile saw go to add1: gcc-12 promotes it to a
# direct call.  add1's name comes first, which gcc would take for index 0
# and stop on (an internal compiler error) were index 0 a function's.
case_icall() {
	cat >ind.c <<-'EOF'
	int add1(int x)
	{
		return x + 1; /* @ret */
	}

	int (*fp)(int);

	int drive(int n)
	{
		int s = 0;

		for (int i = 0; i < n; i++) /* @loop */
			s = fp(s); /* @call */
		return s;
	}
	EOF
	cat >ind.txt <<-EOF
	add1.llvm.7:1000:1000
	 $(off ind.c add1 ret): 1000
	drive:3001:1
	 $(off ind.c drive loop): 1001
	 $(off ind.c drive call): 1000 add1.llvm.7:1000
	 $(off ind.c drive call): add1:1000
	  $(off ind.c add1 ret): 1000
	EOF
	expect 0 "$AFDO_CONVERT" ind.txt ind.afdo
	expect 0 gcc-12 -O2 -g -c ind.c -o ind.o -fauto-profile=ind.afdo -fdump-ipa-afdo=afdo.txt
	[ -s err.txt ] && { cat err.txt >&2; fail "gcc-12 said something"; }
	has afdo.txt "Indirect call -> direct call fp.0_1 => add1 transformation"
	pass "gcc-12 promoted the indirect call to add1"
}

# Bad profiles: named by file and line, status 3, no AFDO file left, not
# even an older one.
case_errors() {
	expect 2 "$AFDO_CONVERT" only-one
	has err.txt "usage: afdo-convert"
	printf 'f:10:1\n 1: 10\n' >good.txt
	expect 0 "$AFDO_CONVERT" good.txt out.afdo
	printf 'f:10:1\n 1: 10\n  2: 3\n' >deep.txt
	expect 3 "$AFDO_CONVERT" deep.txt out.afdo
	has err.txt "afdo-convert: error: deep.txt:3: indented 2 spaces where at most 1 can be"
	[ -e out.afdo ] && fail "an older out.afdo was left"
	printf '\377lprof\0\0' >binary.prof
	expect 3 "$AFDO_CONVERT" binary.prof out.afdo
	has err.txt "binary.prof:1: a NUL byte: not a text profile"
	printf '# nothing\n' >empty.txt
	expect 3 "$AFDO_CONVERT" empty.txt out.afdo
	has err.txt "empty.txt: no function's samples in it"
	expect 3 "$AFDO_CONVERT" missing.txt out.afdo
	has err.txt "cannot read missing.txt: No such file or directory"
	[ -e out.afdo ] && fail "an AFDO file was left"
	ls -A | grep -q '^\.out\.afdo\.' && fail "a temporary file was left"
	pass "bad profiles refused, named, nothing left"
}

case_$1
finish
