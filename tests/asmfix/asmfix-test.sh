#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# asmfix integration tests with the real gcc, clang, as, readelf, nm.
# usage: asmfix-test.sh ASMFIX FIXTURES TEST
set -u
A=$(realpath "$1") FX=$(realpath "$2") T=$3
W=$(mktemp -d "${TMPDIR:-/tmp}/asmfix-test.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
. "$(dirname "$0")/../lib/check.sh"
asflag() { [ "$1" = -m32 ] && echo --32 || echo --64; }

# symbols (name binding type size section-name), sorted.  Function sizes
# and code sections are left out: gcc itself generates different code for
# -fcommon and -fno-common on i386 (it may not assume local binding).
syms() {
	readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] \([^ ]*\) .*/\1 \2/p' > secs
	# One awk for the table (an awk per symbol was most of the cross tests' time).
	readelf -sW "$1" | awk 'FILENAME == ARGV[1] { sec[$1] = $2; next }
		FNR > 3 && $8 != "" && $4 != "FILE" {
			ndx = $7
			if (ndx ~ /^[0-9]/) ndx = sec[ndx]
			print $8, $5, $4, ($4 == "FUNC" ? "-" : $3), ndx }' secs - | sort
}
sizes() { size -A "$1" | awk 'NF==3 && $2>0 && $1 !~ /^(Total|\.note|\.comment|\.text|\.eh_frame)/' | sort; }

t_common_oracle() {
	for src in "$FX"/common1.c "$FX"/common2.c; do
	for m in -m64 -m32; do for ds in "" -fdata-sections; do
		what="$(basename "$src") $m $ds"
		gcc $m -O2 $ds -fcommon -S -o t.s "$src" || { bad "gcc $what"; continue; }
		grep -q '\.comm' t.s || bad "no .comm to test in $what"
		"$A" ${ds:+--data-sections} t.s > tf.s || bad "asmfix $what"
		grep -q '^[[:space:]]*\.comm[[:space:]]' tf.s && ! grep -q '\.local' t.s && bad ".comm left in $what"
		as $(asflag $m) -o tf.o tf.s || bad "as $what"
		gcc $m -O2 $ds -fno-common -c -o tn.o "$src" || bad "gcc -c $what"
		readelf -sW tf.o | grep -q ' COM ' && bad "SHN_COMMON left in $what"
		syms tf.o > A; syms tn.o > B
		diff A B || bad "symbols differ: $what"
		sizes tf.o > A; sizes tn.o > B
		diff A B || bad "section sizes differ: $what"
	done; done; done
}

# The common pass for each cross target: what it writes assembles with that
# target's as (through its gcc driver, so with the driver's as flags) and
# defines what "gcc -fno-common" defines (name, binding, type, size,
# section); on arm with %object/%nobits ('@' starts a comment there).  On
# mips also Kbuild's -G 0 -mno-abicalls, and -G 8 without abicalls, where
# gcc puts objects of 1 to 8 bytes in .sbss and reaches them through $gp:
# the pass must define them there (--small-data=8).  x86-only passes are
# skipped for other targets.
CROSS_TRIPLES="aarch64-linux-gnu arm-linux-gnueabihf arm-linux-gnueabi riscv64-linux-gnu
	powerpc64le-linux-gnu s390x-linux-gnu mipsel-linux-gnu mips-linux-gnu
	mips64el-linux-gnuabi64 mips64-linux-gnuabi64 powerpc-linux-gnu powerpc64-linux-gnu
	m68k-linux-gnu"
t_cross_common() {
	local n=0 f v opts
	for t in $CROSS_TRIPLES; do
		# riscv's -fno-common puts objects up to 8 bytes in .sbss; the
		# pass defines them in .bss, as for every target (both are bss).
		variants="-fno-PIE|"
		case $t in
		riscv64-*) variants="-fno-PIE -msmall-data-limit=0|" ;;
		mips*) variants="-fno-PIE|;-G 0 -mno-abicalls -fno-pic|;-G 8 -mno-abicalls -fno-pic|--small-data=8" ;;
		# 32-bit ppc: gcc's own -G 8 (Linux's -msdata=data) puts public
		# objects of 1 to 8 bytes in .sbss, Kbuild's flags too; -G and
		# -msdata=none change it.
		powerpc-*) variants="-fno-PIE|--small-data=8;-m32 -mcpu=powerpc -msoft-float -mno-readonly-in-sdata -fno-PIE|--small-data=8;-fno-PIE -G 4|--small-data=4;-fno-PIE -G 0|;-fno-PIE -msdata=none|" ;;
		powerpc64-*) variants="-fno-PIE|;-m64 -mabi=elfv1 -mcpu=power4 -mcmodel=medium -fno-PIE|" ;;
		esac
		command -v "$t-gcc" > /dev/null || { bad "no $t-gcc (scripts/install-deps installs it)"; continue; }
		IFS=';' read -r -a vs <<< "$variants"
		for v in "${vs[@]}"; do
		f=${v%|*} opts=${v#*|}
		for src in "$FX"/common1.c "$FX"/common2.c; do for ds in "" -fdata-sections; do
			what="$t $(basename "$src") $f $ds"
			"$t-gcc" -O2 $f $ds -fcommon -S -o t.s "$src" || { bad "gcc $what"; continue; }
			grep -q '\.comm' t.s || bad "no .comm to test in $what"
			"$A" --target="$t" $opts ${ds:+--data-sections} t.s > tf.s || bad "asmfix $what"
			"$t-gcc" $f -c -o tf.o tf.s || { bad "$t as rejects the rewrite: $what"; continue; }
			"$t-gcc" -O2 $f $ds -fno-common -c -o tn.o "$src" || bad "gcc -c $what"
			readelf -sW tf.o | grep -Eq ' S?COM ' && bad "SHN_COMMON left in $what"
			# Section sizes are not compared: gcc lays .bss out in
			# another order for -fcommon, so the padding differs; nor
			# section symbols: ppc64's -fcommon code uses a .toc; nor
			# mips' __gnu_local_gp: non-PIC abicalls code reaches a
			# common through the GOT, a -fno-common object directly.
			syms tf.o | grep -Ev ' SECTION |^__gnu_local_gp ' > A
			syms tn.o | grep -Ev ' SECTION |^__gnu_local_gp ' > B
			diff A B || bad "symbols differ: $what"
			n=$((n + 1))
		done; done
		done
	done
	# What the pass writes for gcc's $gp-relative small data.
	mipsel-linux-gnu-gcc -O2 -G 8 -mno-abicalls -fno-pic -fcommon -S -o t.s "$FX"/common1.c &&
		"$A" --target=mipsel --small-data=8 t.s | grep -q '\.pushsection	\.sbss,"aw",@nobits' ||
		bad "mips -G 8: no .sbss definition"
	# m68k: '|' starts a comment, '#' is an immediate's prefix.
	printf '\t.comm\tcnt,4,2 | a comment, with a comma\n\t.text\n\tmove.l #1,%%d0 | #1\n' > m.s
	"$A" --target=m68k-linux-gnu m.s > mo.s || bad "m68k: asmfix: $(cat mo.s)"
	m68k-linux-gnu-as -o m.o mo.s || bad "m68k: as rejects the rewrite"
	[ "$(syms m.o | grep '^cnt ')" = "cnt GLOBAL OBJECT 4 .bss" ] || bad "m68k: cnt is $(syms m.o)"
	"$A" --small-data=x /dev/null 2> err && bad "--small-data=x accepted"
	grep -q "not a byte count" err || bad "--small-data=x: $(cat err)"
	"$A" --target=arm-linux-gnueabihf "$FX"/common1.c > /dev/null 2>&1
	arm-linux-gnueabihf-gcc -O2 -fcommon -S -o t.s "$FX"/common1.c 2>/dev/null &&
		"$A" --target=arm t.s | grep -q '^	\.type	[a-z_]*, @object' && bad "arm: @object written"
	# lockfix rewrites listing2.s on x86; for aarch64 it is not run at all.
	"$A" --check --passes=lockfix --target=aarch64 "$FX"/listing2.s > /dev/null 2>&1 ||
		bad "aarch64: lockfix ran (exit $?)"
	"$A" --check --passes=lockfix "$FX"/listing2.s > /dev/null 2>&1
	[ $? = 2 ] || bad "x86: lockfix did not find its change"
	"$A" --target=vax /dev/null 2> err && bad "unknown target accepted"
	grep -q "unknown target 'vax'" err || bad "unknown target message: $(cat err)"
	echo "$n cross compiles checked"
}

t_listing2() {
	"$A" "$FX"/listing2.s > out.s || bad "asmfix failed"
	diff "$FX"/listing2.s out.s > d
	[ "$(grep -c '^[<>]' d)" = 2 ] || { cat d; bad "expected exactly one changed line"; }
	grep -q '^>         lock; cmpxchgl %esi,(%ebx)$' d || bad "cmpxchgl not rewritten to (%ebx)"
	grep -q 'lock; decl (%ebx)' out.s || bad "other locked insn changed"
	as --32 -o out.o out.s || bad "as"
	objdump -d out.o | grep -q 'lock cmpxchg %esi,(%ebx)' || bad "objdump"
	# unprovable: the address register changes between load and lock
	sed 's/^        movl      (%esp), %edx  /        movl      4(%esp), %ebx /' "$FX"/listing2.s > bad.s
	"$A" bad.s > /dev/null 2> err; rc=$?
	[ $rc = 1 ] || bad "unprovable case: exit $rc, expected 1"
	grep -q 'bad.s:[0-9]*: lockfix: in atomic_dec_and_lock: .*line' err || { cat err; bad "error must name function and line"; }
	# the slot read after the locked insn: not rewritable
	sed 's/^        cmpl      %edx, %eax /        cmpl      12(%esp), %eax /' "$FX"/listing2.s > bad2.s
	"$A" bad2.s > /dev/null 2> err; [ $? = 1 ] && grep -q 'is read here' err || bad "read-after case"
	# A label between the stack copy and the lock starts a new block: nothing
	# to prove, nothing rewritten.  Also in the forms the fast path takes
	# (clang's label with a comment) or must not take for a hot directive
	# (a tab-indented label named like one).
	for lab in '.Lsplit:' '.Lsplit:        # %bb.3' '	.byte:' '	.uleb128:	.byte 1'; do
		awk -v l="$lab" '{ print } /movl      %ecx, 12\(%esp\)/ { print l }' \
			"$FX"/listing2.s > split.s
		"$A" split.s > split.out || bad "label '$lab': asmfix failed"
		cmp -s split.s split.out || bad "label '$lab' does not end the block: rewritten anyway"
	done
	# barriers and gcc/clang atomics are never touched
	for cc in gcc clang; do for m in -m32 -m64; do
		printf 'void mb(void){asm volatile("lock; addl $0,0(%%%%esp)":::"memory");}\nint x; int inc(int *p){return __atomic_add_fetch(p,1,5);}\nint loc(void){int v=x; __atomic_fetch_add(&v,1,5); return v;}\n' > b.c
		$cc $m -O2 -S -o b.s b.c 2>/dev/null || $cc $m -O2 -S -o b.s -fno-pic b.c || bad "$cc"
		"$A" --passes=lockfix --stats b.s > bo.s 2> st || bad "$cc $m lockfix failed"
		cmp -s b.s bo.s || bad "$cc $m output changed"
	done; done
}

t_used_accessors() {
	# clang's text closes a function's CFI after its .size: assembled by
	# clang itself (its own -S output is for its integrated assembler).
	for cc in gcc clang; do
	for g in "" -g; do for fs in "" -ffunction-sections; do for m in -m64 -m32; do
		what="$cc $m $fs $g"
		$cc $m -O2 $g $fs -S -o u.s "$FX"/accessors.c || bad "$cc $what"
		grep -q __ccd_keep_ u.s || bad "no accessor in $cc output"
		"$A" u.s > uo.s || bad "asmfix $what"
		if [ $cc = clang ]; then
			clang $m -c -x assembler -o u.o uo.s || bad "clang -x assembler $what"
		else
			as $(asflag $m) -o u.o uo.s || bad "as $what"
		fi
		nm u.o > nm.txt
		grep -q __ccd_keep nm.txt && bad "accessor left: $what"
		for s in counter_table banner real after; do grep -q " $s\$" nm.txt || bad "$s missing: $what"; done
		readelf -SW u.o | grep -q __ccd_keep && bad "accessor section left: $what"
		if [ -n "$g" ]; then
			# DWARF still names the kept objects and reads without complaint
			readelf --debug-dump=info u.o > info.txt 2> info.err || bad "readelf info: $what"
			[ -s info.err ] && { cat info.err; bad "readelf info warnings: $what"; }
			grep -q "counter_table" info.txt || bad "no DWARF for counter_table: $what"
		fi
		"$A" --keep-prefix=__nomatch_ u.s | cmp -s - u.s || bad "--keep-prefix"
	done; done; done; done
	for g in "" -g; do
		gcc -O2 $g -fno-inline -S -o d.s "$FX"/accessors-dangling.c
		"$A" d.s > /dev/null 2> err; rc=$?
		[ $rc = 1 ] || bad "dangling reference: exit $rc ($g)"
		grep -q "d.s:[0-9]*: used-accessors: '__ccd_keep_x' refers to removed function at line [0-9]" err || { cat err; bad "message ($g)"; }
	done
}

# used-accessors for each cross target: the accessors go, whole (on mips
# with their .ent and .end, which GAS would otherwise warn about; with -g
# the .cfi_startproc gcc puts before .ent keeps its .cfi_endproc, and
# "$LFB1 = ." stays), the rest assembles with the target's as without a
# warning.
t_cross_accessors() {
	local n=0
	for t in $CROSS_TRIPLES; do
		command -v "$t-gcc" > /dev/null || { bad "no $t-gcc (scripts/install-deps installs it)"; continue; }
		for g in "" -g; do for fs in "" -ffunction-sections; do
			what="$t $fs $g"
			"$t-gcc" -O2 $g $fs -S -o u.s "$FX"/accessors.c || { bad "gcc $what"; continue; }
			grep -q __ccd_keep_ u.s || bad "no accessor in gcc output: $what"
			"$A" --target="$t" u.s > uo.s || { bad "asmfix $what"; continue; }
			"$t-gcc" -c -Wa,--fatal-warnings -o u.o uo.s || { bad "$t as: $what"; continue; }
			"$t-nm" u.o > nm.txt
			grep -q __ccd_keep nm.txt && bad "accessor left: $what"
			for s in counter_table banner real after; do
				grep -q " $s\$" nm.txt || bad "$s missing: $what"
			done
			# mips -g: "$LFB0 = ." and .cfi_startproc come before .ent;
			# the debug info still resolves and reads without complaint.
			if [ -n "$g" ]; then
				readelf --debug-dump=info u.o > info.txt 2> info.err || bad "readelf info: $what"
				[ -s info.err ] && { cat info.err; bad "readelf info warnings: $what"; }
				grep -q counter_table info.txt || bad "no DWARF for counter_table: $what"
			fi
			n=$((n + 1))
		done; done
	done
	echo "$n cross compiles checked"
}

t_altinstr() {
	for m in -m64 -m32 "-m64 -DALT_LINUX612" "-m32 -DALT_LINUX612"; do
		gcc $m -O2 -I"$FX" -S -o a.s "$FX"/alt61.c || bad gcc
		"$A" a.s > ao.s 2>err.txt || bad "asmfix $m"
		[ -s err.txt ] && bad "messages on valid input ($m): $(cat err.txt)"
		cmp -s a.s ao.s || bad "alternatives changed ($m)"
		as $(asflag $m) -o a.o ao.s || bad "as $m"
		readelf -rW a.o > r.txt
		awk '/^Relocation section/{s=$3} /R_X86_64_PC32|R_386_PC32/{print s, $5}' r.txt | sort | uniq -c > rs.txt
		grep -q "3 '.rel.*altinstructions' .altinstr_replacement" rs.txt || { cat rs.txt; bad "altinstructions->replacement relocs ($m)"; }
		grep -q "3 '.rel.*altinstructions' .text" rs.txt || bad "altinstructions->text relocs ($m)"
		grep -q "1 '.rel.*smp_locks' .text" rs.txt || bad "smp_locks relocs ($m)"
	done
	# 2.6's own macros (.section/.previous around each record): nothing to repair
	for m in -m64 -m32; do
		gcc $m -O2 -fno-pie -S -o a.s "$FX"/alt26.c || bad gcc
		"$A" a.s > ao.s 2>err.txt || bad "asmfix alt26.c $m"
		[ -s err.txt ] && bad "messages on valid 2.6 input ($m): $(cat err.txt)"
		cmp -s a.s ao.s || bad "2.6 alternatives changed ($m)"
	done
	# 2.6-style .section/.previous with icc's section directives between
	as --32 -o /dev/null "$FX"/alt26-icc.s 2>/dev/null && bad "broken fixture assembles unrepaired"
	"$A" "$FX"/alt26-icc.s > o.s || bad "asmfix alt26"
	[ "$(diff "$FX"/alt26-icc.s o.s | grep -c '^>')" = 2 ] || bad "expected 2 changed lines"
	grep -q '^\.pushsection \.altinstructions,"a"$' o.s && grep -q '^\.popsection$' o.s || bad "push/pop"
	as --32 -o o.o o.s || bad "as alt26"
	readelf -rW o.o | awk '/^Relocation section/{s=$3} /R_386_32/{print s, $5}' > r.txt
	grep -q "'.rel.altinstructions' .text" r.txt && grep -q "'.rel.altinstructions' .altinstr_replacement" r.txt || { cat r.txt; bad "relocs alt26"; }
	objdump -d -j .text o.o | grep -q 'ret' || bad "ret not in .text"
	# Inline-asm markers, gcc's (#APP/#NO_APP) and icc's (# Begin/End ASM):
	# directives inside them are the asm's, not the compiler's; outside
	# (like the icc fixture's .section .rodata) they are.
	local open close
	for open in '#APP' '# Begin ASM'; do
		close='#NO_APP'
		[ "$open" = '#APP' ] || close='# End ASM'
		sed "s/^#APP\$/$open/; s/^#NO_APP\$/$close/" "$FX"/alt-gcc-app.s > app1.s
		"$A" --stats app1.s > o.s 2> st || bad "asmfix app1 ($open)"
		cmp -s app1.s o.s && grep -q 'altinstr: 0 changes' st ||
			{ diff app1.s o.s; bad "a pair inside $open regions was rewritten"; }
		as --64 -o o.o o.s || bad "as app1 ($open)"
		readelf -rW o.o | awk '/^Relocation section/{s=$3} /R_X86_64_PC32/{print s, $5}' > r.txt
		grep -q "'.rela.altinstructions' .text" r.txt && grep -q "'.rela.altinstructions' .altinstr_replacement" r.txt ||
			{ cat r.txt; bad "relocs app1 ($open)"; }
		sed "s/^\t\.pushsection \(.*\)/$close\n\t.section .rodata\n$open\n&/" app1.s > app2.s
		"$A" app2.s > o.s || bad "asmfix app2 ($open)"
		[ "$(diff app2.s o.s | grep -c '^>')" = 2 ] && grep -qP '^\t\.pushsection \.altinstructions,"a"$' o.s ||
			{ diff app2.s o.s; bad "a compiler .section between $close and $open must split the pair"; }
		as --64 -o o.o o.s || bad "as app2 ($open)"
		readelf -rW o.o | awk '/^Relocation section/{s=$3} /R_X86_64_PC32/{print s, $5}' > r.txt
		grep -q "'.rela.altinstructions' .text" r.txt && grep -q "'.rela.altinstructions' .altinstr_replacement" r.txt ||
			{ cat r.txt; bad "relocs app2 ($open)"; }
	done
	# records that cannot resolve are reported with both lines, as warnings:
	# the assembly is valid, and a check never fails a build
	"$A" "$FX"/alt-bad.s > o.s 2> err; rc=$?
	[ $rc = 0 ] && cmp -s "$FX"/alt-bad.s o.s || bad "alt-bad exit $rc, or changed"
	grep -q 'altinstr: warning: original-instruction' err || bad "alt-bad: not a warning"
	grep -q 'alt-bad.s:15: altinstr: warning: original-instruction label 661b resolves to .data (line 8)' err || { cat err; bad "alt-bad orig"; }
	grep -q 'alt-bad.s:16: altinstr: warning: replacement label 663b resolves to .text (line 11)' err || bad "alt-bad repl"
}

# gcc's own directives inside a lazily closed #APP region (Debian's 6.1
# config: fs/proc/meminfo.c, ccu_frac.c, async_xor.c): nothing to rewrite,
# no warning, and GNU as takes the output without a word.
t_toplevel_asm() {
	local f
	for f in "-O2 -g -pg -mfentry -mrecord-mcount" "-O2 -pg -mfentry -mrecord-mcount" "-O2"; do
		# shellcheck disable=SC2086
		gcc $f -S -o t.s "$FX"/toplevel-asm.c || bad "gcc $f"
		grep -q '^#NO_APP' t.s && grep -q 'rodata.str1' t.s || bad "fixture lost its construct ($f)"
		"$A" t.s > o.s 2> err || bad "asmfix ($f): $(cat err)"
		[ -s err ] && bad "messages ($f): $(cat err)"
		cmp -s t.s o.s || { diff t.s o.s | head; bad "rewritten ($f)"; }
		as --64 -o o.o o.s 2> err && [ ! -s err ] || bad "as ($f): $(head -3 err)"
	done
	# What a pass leaves unproven goes out as it is; --check says why.
	printf '\t.comm x,4,4\n\t.comm x,8,4\n' > rep.s
	"$A" rep.s > o.s 2> err || bad "repeated .comm: exit $?"
	[ ! -s err ] && tail -n 1 o.s | grep -q '^	.comm x,8,4$' || bad "repeated .comm: $(cat err o.s)"
	"$A" --check rep.s > /dev/null 2> err; rc=$?
	[ $rc = 2 ] && grep -q 'rep.s:2: common: left as is: .comm x again with another size' err ||
		bad "repeated .comm --check: exit $rc: $(cat err)"
}

t_icc_facts() {
	"$A" --stats "$FX"/icc-facts.s > o.s 2> st || bad "asmfix"
	grep -q 'common: 2 changes' st || bad "stats"
	diff "$FX"/icc-facts.s o.s | grep '^<' | grep -qv '\.comm' && bad "lines other than .comm changed"
	as --32 -o o.o o.s || bad "as"
	nm o.o | grep -q ' B counter$' && nm o.o | grep -q ' B table$' || bad "bss symbols"
	"$A" --check "$FX"/icc-facts.s > co 2> ce; rc=$?
	[ $rc = 2 ] && [ ! -s co ] && grep -q 'icc-facts.s:57: common: .comm counter' ce || bad "--check: exit $rc"
	"$A" --check "$FX"/listing2.s > /dev/null 2>&1; [ $? = 2 ] || bad "--check listing2"
	"$A" --check o.s 2> ce; [ $? = 0 ] || bad "--check on repaired output"
}

t_idempotent() {
	gcc -O2 -fcommon -S -o c.s "$FX"/common1.c
	gcc -m32 -O2 -S -o u.s "$FX"/accessors.c
	for f in "$FX"/*.s c.s u.s; do
		"$A" "$f" > once.s 2>/dev/null || continue
		"$A" once.s > twice.s || bad "second run failed: $f"
		cmp -s once.s twice.s || bad "not idempotent: $f"
	done
}

t_bad_input() {
	# NUL bytes, unterminated string and comment, unbalanced .popsection,
	# a 1 MiB line, a truncated last line: passed through untouched.
	{ printf '\t.text\n\tnop\0x\n\t.string "open\n\t/* open comment\n'
	  printf '\tnop */ .popsection\n.popsection\n'
	  head -c 1048576 /dev/zero | tr '\0' a; printf '\n\t.long 1'; } > bad.s
	"$A" bad.s > o.s 2> err; rc=$?
	[ $rc = 0 ] || { cat err; bad "bad input: exit $rc"; }
	cmp -s bad.s o.s || bad "bad input not passed through"
	grep -q 'bad.s:6: altinstr: warning: .popsection without .pushsection' err || bad "popsection warning"
	# a pass that needs the input: truncated function -> error, no output file
	printf '\t.text\n\t.globl __ccd_keep_x\n__ccd_keep_x:\n\tret\n' > t.s
	echo stale > out.s
	mkdir -p tmpd
	TMPDIR=$PWD/tmpd "$A" -o out.s t.s 2> err; rc=$?
	[ -z "$(ls -A tmpd)" ] || bad "temp file left in TMPDIR"
	[ $rc = 1 ] || bad "truncated accessor: exit $rc"
	grep -q 't.s:[23]: used-accessors: function __ccd_keep_x has no' err || { cat err; bad "message"; }
	[ "$(cat out.s)" = stale ] || bad "-o OUT touched on error"
	ls | grep -q asmfix- && bad "temp file left"
	"$A" -o good.s "$FX"/listing2.s && cmp -s good.s <("$A" < "$FX"/listing2.s) || bad "-o OUT"
	# a non-regular OUT (FIFO, like /dev/null) is written through, never replaced
	mkfifo out.fifo
	cat out.fifo > fifo.got & reader=$!
	"$A" -o out.fifo "$FX"/listing2.s || bad "-o FIFO failed"
	wait $reader
	[ -p out.fifo ] || bad "-o FIFO replaced by a regular file"
	"$A" "$FX"/listing2.s | cmp -s - fifo.got || bad "-o FIFO content"
	"$A" --passes=bogus < /dev/null 2> err; [ $? = 1 ] && grep -q "unknown pass 'bogus'" err || bad "--passes=bogus"
	"$A" /nonexistent 2> err; [ $? = 3 ] || bad "missing input"
	"$A" --list-passes | awk '{print $1}' | tr '\n' ' ' | grep -q '^common used-accessors lockfix altinstr $' || bad "--list-passes"
	"$A" --help | grep -q -- --check || bad "--help"
	"$A" --version | grep -q '^asmfix' || bad "--version"
	"$A" --passes=none "$FX"/listing2.s | cmp -s - "$FX"/listing2.s || bad "--passes=none"
}

# Real compiler output changes nothing, and the objects assemble identical.
t_real_output() {
	n=0
	for cc in gcc clang; do for m in -m64 -m32; do for src in "$FX"/*.c "$FX"/../../../lib/strbuf.c "$FX"/../../../asmfix/parse.c "$FX"/../../../asmfix/passes/lockfix.c; do
		case $src in *accessors*) continue ;; esac
		$cc $m -O2 -g -fno-common -I"$FX" -I"$FX"/../../../lib -I"$FX"/../../../asmfix -I"$FX"/../../../build-asmfix -S -o r.s "$src" 2>/dev/null || continue
		"$A" r.s > ro.s || bad "asmfix failed on $cc $m $src"
		cmp -s r.s ro.s || bad "changed: $cc $m $src"
		n=$((n+1))
	done; done; done
	[ $n -ge 24 ] || bad "only $n files compiled"
	if [ -n "${CCD_KERNEL_BUILD:-}" ] && [ -d "$CCD_KERNEL_BUILD" ]; then
		find "$CCD_KERNEL_BUILD" -name '*.s' | head -200 > kernel-s.txt
		while read -r s; do
			"$A" "$s" > ko.s && cmp -s "$s" ko.s || bad "kernel $s changed"
		done < kernel-s.txt
	fi
	# byte-identical objects
	gcc -O2 -S -o k.s "$FX"/alt61.c -I"$FX" && "$A" k.s > ko.s && as -o k1.o k.s && as -o k2.o ko.s && cmp -s k1.o k2.o || bad "objects differ"
}

# Feed file $2 through a pipe in pieces of $1 bytes, with a pause between
# pieces so that reads see them apart (chunk boundaries anywhere in a line).
# One process writes them all: a cat and a sleep per piece made this test
# a minute of process starts.
dribble() {
	perl -e '$| = 1; $/ = \shift; while (<>) { print; select(undef, undef, undef, 0.002) }' "$1" "$2"
}

# The same output, diagnostics (but the file name) and exit status whether
# the input comes whole from a file or in small pieces from a pipe; and
# output held by a pass (an open .section/.previous pair) across thousands
# of lines no pass looks at comes out in order, with the held line rewritten.
t_chunked() {
	# an open pair (alt26-icc.s lines 17-30) with 3000 fast lines inside
	awk 'BEGIN { for (i = 0; i < 500; i++)
		printf "\t.byte\t%d\n\t.uleb128 0x%x\n.Lfill%d:\n\t.long\t%d\n\t.value\t0x1\n\t.string\t\"s%d\"\n", i % 256, i, i, i, i }' > fill.s
	sed '/^\t\.string "mb"$/r fill.s' "$FX"/alt26-icc.s > held.s
	[ "$(wc -l < held.s)" -gt 3000 ] || bad "held.s not built"
	"$A" "$FX"/alt26-icc.s > alt.out || bad "asmfix alt26"
	sed '/^\t\.string "mb"$/r fill.s' alt.out > held.want
	"$A" held.s > held.out || bad "asmfix held.s"
	cmp -s held.out held.want || bad "held output: lines lost, moved or not rewritten"
	as --32 -o held.o held.out || bad "as held.out"
	gcc -O2 -g -S -o g.s "$FX"/common1.c || bad "gcc -g"
	for in in held.s g.s "$FX"/alt26-icc.s "$FX"/alt-bad.s "$FX"/listing2.s "$FX"/icc-facts.s; do
		"$A" --stats "$in" > whole.out 2> whole.err; rw=$?
		sed 's/^[^:]*://' whole.err > whole.msg
		sizes="1000 4096"
		[ "$(wc -c < "$in")" -le 5000 ] && sizes="7 100"
		for size in $sizes; do
			dribble $size "$in" | "$A" --stats > piece.out 2> piece.err; rp=$?
			sed 's/^[^:]*://' piece.err > piece.msg
			[ $rw = $rp ] && cmp -s whole.out piece.out && cmp -s whole.msg piece.msg ||
				bad "$(basename "$in") in $size-byte pieces: exit $rp vs $rw, or output differs"
		done
	done
}

# Bytes the file occupies on disk beyond its size rounded up to 4 KiB.
over_alloc() { echo $(( $(stat -c '%b * %B' "$1") - ($(stat -c %s "$1") + 4095) / 4096 * 4096 )); }

# Big outputs to files: blocks are reserved for them up front (lib/fileio.c).
# Output written to a file (stdout, -o, -o over an existing file, >> after
# existing text) is the same as through a pipe, and an output that came out
# much shorter than its input keeps no reserved blocks past its end.
t_big_output() {
	local k
	gcc -O2 -S -o u.s "$FX"/accessors.c || bad "gcc"
	# 40 renamed copies (each loses its accessors: > 8 KiB shorter), then
	# 2 MB of debug strings no pass touches.
	for k in $(seq 40); do sed "s/counter_table\|banner\|real\|after/&_$k/g" u.s; done > big.s
	printf '\t.section\t.debug_str,"MS",@progbits,1\n' >> big.s
	yes "$(printf '\t.string\t"%s"' "$(head -c 60 /dev/zero | tr '\0' x)")" | head -n 30000 >> big.s
	cat big.s | "$A" > ref.s || bad "asmfix through a pipe"
	[ $(( $(stat -c %s big.s) - $(stat -c %s ref.s) )) -gt 8192 ] || bad "the test input must shrink by > 8 KiB"
	"$A" big.s > out1.s || bad "asmfix > file"
	cmp -s ref.s out1.s || bad "stdout to a file differs from a pipe"
	[ "$(over_alloc out1.s)" -le 4096 ] || bad "stdout file keeps $(over_alloc out1.s) bytes reserved past its end"
	"$A" big.s -o out2.s || bad "asmfix -o"
	cmp -s ref.s out2.s || bad "-o differs from a pipe"
	[ "$(over_alloc out2.s)" -le 4096 ] || bad "-o file keeps $(over_alloc out2.s) bytes reserved past its end"
	# The temporary file on another file system (tmpfs): the copy cannot
	# run in the kernel there (EXDEV) and goes through a buffer.
	if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" != "$(stat -f -c %T .)" ]; then
		TMPDIR=/dev/shm "$A" big.s -o out4.s || bad "asmfix -o with TMPDIR on another file system"
		cmp -s ref.s out4.s || bad "-o through a buffer (TMPDIR on another file system) differs from a pipe"
	fi
	head -c 3000000 /dev/zero > out2.s
	"$A" big.s -o out2.s || bad "asmfix -o over a longer file"
	cmp -s ref.s out2.s || bad "-o over a longer file differs from a pipe"
	printf 'before\n' > out3.s
	"$A" big.s >> out3.s || bad "asmfix >> file"
	{ printf 'before\n'; cat ref.s; } | cmp -s - out3.s || bad ">> file differs"
	[ "$(over_alloc out3.s)" -le 4096 ] || bad ">> file keeps $(over_alloc out3.s) bytes reserved past its end"
}

case $T in
big-output) t_big_output ;;
common-oracle) t_common_oracle ;;
cross-common) t_cross_common ;;
listing2) t_listing2 ;;
used-accessors) t_used_accessors ;;
cross-accessors) t_cross_accessors ;;
altinstr) t_altinstr ;;
toplevel-asm) t_toplevel_asm ;;
icc-facts) t_icc_facts ;;
idempotent) t_idempotent ;;
bad-input) t_bad_input ;;
real-output) t_real_output ;;
chunked) t_chunked ;;
*) echo "unknown test $T"; exit 2 ;;
esac
finish
