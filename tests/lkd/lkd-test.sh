#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lkd integration tests with the real gcc, as and ld.
#   lkd-test.sh CASE      (LKD=path/to/lkd, FIXTURES=tests/lkd/fixtures)
# Each case builds its inputs from fixtures in a private directory.
set -u

: "${LKD:?LKD must name the lkd binary}"
: "${FIXTURES:?FIXTURES must name tests/lkd/fixtures}"
export LC_ALL=C
# No user or system configuration leaks into the tests.
export CCD_SYSTEM_CONFIG=/nonexistent XDG_CONFIG_HOME=/nonexistent
unset LKD_LD LKD_CHECKS LKD_QUIET LKD_VERBOSE LKD_ALTINSTR_LAYOUT LKD_STRICT LKD_ORDER LLVM

W=$(mktemp -d "${TMPDIR:-/tmp}/lkd-test.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

. "$(dirname "$0")/../lib/check.sh"
has() { grep -qF -- "$1" err.txt || { cat err.txt >&2; fail "stderr lacks: $1"; }; }
# COM, and mips' small commons (SCOM: SHN_MIPS_SCOMMON, what ld -r makes of them).
commons() { readelf -sW "$1" | awk '$7 == "COM" || $7 == "SCOM"' | wc -l; }

# A recording "ld": writes its argv, one per line, then runs the real ld.
make_recorder() {
	cat > rec-ld <<'SH'
#!/bin/sh
printf '%s\n' "$@" > "${0%/*}/ld-argv.txt"
exec ld "$@"
SH
	chmod +x rec-ld
}

case_common() {
	gcc -fcommon -O2 -c "$FIXTURES/common.c" -o common.o || fail "gcc"
	[ "$(commons common.o)" = 2 ] || fail "fixture has no commons"
	ld -r -o plain.o common.o || fail "ld -r"
	[ "$(commons plain.o)" = 2 ] || fail "plain ld -r should keep the commons"
	expect 0 "$LKD" -r -o mod.o common.o
	[ "$(commons mod.o)" = 0 ] || fail "lkd -r left SHN_COMMON symbols"
	readelf -sW mod.o | grep -q ' lkd_common_buf$' || fail "symbol lost"
	has "common.o: common symbol 'lkd_common_counter' allocated by ld -d"
	has "common.o: common symbol 'lkd_common_buf' allocated by ld -d"
	expect 0 "$LKD" --lkd-quiet -r -o mod2.o common.o
	[ -s err.txt ] && fail "--lkd-quiet still printed: $(cat err.txt)"
	[ "$(commons mod2.o)" = 0 ] || fail "--lkd-quiet changed the fix"
	cmp -s mod.o mod2.o || fail "quiet and normal outputs differ"
	# Final links keep ld's behaviour: no -d added.
	make_recorder
	expect 0 "$LKD" --lkd-ld="$W/rec-ld" -e lkd_common_use -o exe common.o
	grep -qx -- -d ld-argv.txt && fail "-d added to a final link"
	# --lkd-verify reports commons as findings.
	expect 1 "$LKD" --lkd-verify common.o
	has "common.o: common: symbol 'lkd_common_counter' is SHN_COMMON"
	# Checks can be switched off: then ld -r keeps them.
	LKD_CHECKS=altinstr expect 0 "$LKD" -r -o off.o common.o
	[ "$(commons off.o)" = 2 ] || fail "LKD_CHECKS=altinstr still fixed commons"
	LKD_CHECKS=altinstr expect 0 "$LKD" --lkd-checks=common -r -o on.o common.o
	[ "$(commons on.o)" = 0 ] || fail "--lkd-checks did not override LKD_CHECKS"
}

case_alt_clean() {
	gcc -O2 -fno-pie -c "$FIXTURES/alt-kernel.c" -o alt64.o || fail "gcc"
	gcc -m32 -O2 -fno-pie -c "$FIXTURES/alt-kernel.c" -o alt32.o || fail "gcc -m32"
	[ "$(readelf -rW alt64.o | grep -c 'R_X86_64_PC32.*altinstr_replacement')" -ge 8 ] ||
		fail "alt-kernel.c made too few records"
	expect 0 "$LKD" --lkd-verify alt64.o alt32.o
	[ -s err.txt ] && fail "clean objects produced messages: $(cat err.txt)"
	expect 0 "$LKD" -r -o alt-r.o alt64.o
	expect 0 "$LKD" --lkd-verify alt-r.o
	expect 0 "$LKD" -m elf_i386 -r -o alt32-r.o alt32.o
	expect 0 "$LKD" -static -e alt_call -o alt.exe alt64.o
	expect 0 "$LKD" --lkd-verify alt.exe
	as --64 -o clean.o "$FIXTURES/clean.s" || fail "as"
	expect 0 "$LKD" --lkd-verify clean.o
}

# fault FIXTURE MESSAGE: the record fault is caught on verify and on link.
fault() {
	as --64 -o "$1.o" "$FIXTURES/$1.s" || fail "as $1"
	expect 1 "$LKD" --lkd-verify "$1.o"
	has "$2"
	# A failed link leaves no output behind, not even an old one.
	echo stale > "$1-out.o"
	expect 1 "$LKD" -r -o "$1-out.o" "$1.o"
	has "$2"
	[ -e "$1-out.o" ] && fail "$1: old output left after a failed link"
	true
}

case_alt_faults() {
	local at="altinstructions+0xc (record 1, at alt_func+0x7)"

	fault repl-wrong-section \
		"repl-wrong-section.o: .$at: repl_offset: relocation targets '.text', expected '.altinstr_replacement'"
	fault instr-not-exec \
		"instr-not-exec.o: .altinstructions+0xc (record 1, at data_word): instr_offset: relocation targets '.data', which is not executable"
	fault missing-reloc "missing-reloc.o: .$at: repl_offset: missing relocation"
	fault absolute \
		"absolute.o: .$at: instr_offset: absolute relocation R_X86_64_32, expected R_X86_64_PC32"
	fault out-of-range \
		"out-of-range.o: .altinstructions+0xc (record 1, at alt_func+0x47): instr_offset: target .text+0x47, 5 bytes, lies outside the section (size 0xd)"
	fault replen-too-long "replen-too-long.o: .$at: replacementlen 5 is larger than instrlen 2"
	fault extra-reloc \
		"extra-reloc.o: .$at: unexpected relocation at record offset 8 (only instr_offset and repl_offset are relocated)"
	fault undefined \
		"undefined.o: .altinstructions+0xc (record 1): instr_offset: relocation against 'nowhere', which is not defined in a section of this object"
	# ld is not even run when an input is faulty.
	make_recorder
	rm -f ld-argv.txt
	expect 1 "$LKD" --lkd-ld="$W/rec-ld" -r -o x.o absolute.o
	[ -e ld-argv.txt ] && fail "ld ran although an input failed"
	[ -e x.o ] && fail "output left behind"
	true
}

# The inputs are clean; a bad linker script makes the output faulty.
case_output_check() {
	as --64 -o clean.o "$FIXTURES/clean.s" || fail "as"
	echo stale > out-r.o
	expect 1 "$LKD" -r -T "$FIXTURES/merge-repl.lds" -o out-r.o clean.o
	has "out-r.o: .altinstructions+0x0 (record 0, at alt_func+0x1): repl_offset: relocation targets '.text', expected '.altinstr_replacement'"
	has "out-r.o: removed"
	[ -e out-r.o ] && fail "faulty -r output not removed"
	expect 1 "$LKD" -T "$FIXTURES/merge-repl.lds" -e alt_func -o out.exe clean.o
	has "out.exe: .altinstructions+0xc (record 1, at alt_func+0x7): repl_offset: points into '.text', expected '.altinstr_replacement'"
	[ -e out.exe ] && fail "faulty executable not removed"
	# The same faults in linked files, found through addresses.
	as --64 -o ine.o "$FIXTURES/instr-not-exec.s" && ld -e alt_func -o ine.exe ine.o || fail "ld"
	expect 1 "$LKD" --lkd-verify ine.exe
	has "ine.exe: .altinstructions+0xc (record 1, at data_word): instr_offset: points into '.data', which is not executable"
	true
}

case_archives() {
	mkdir -p sub/dir
	gcc -fcommon -c "$FIXTURES/common.c" -o sub/dir/common.o || fail "gcc"
	gcc -O2 -fno-pie -c "$FIXTURES/alt-kernel.c" -o sub/alt.o || fail "gcc"
	as --64 -o sub/bad.o "$FIXTURES/missing-reloc.s" || fail "as"
	ar cDPrST thin.a sub/dir/common.o sub/alt.o || fail "ar thin"
	head -c 8 thin.a | grep -q '!<thin>' || fail "not a thin archive"
	ar cDr fat.a sub/dir/common.o sub/alt.o || fail "ar"
	# Thin members are found relative to the archive, from any directory.
	(cd / && "$LKD" --lkd-verify "$W/thin.a") 2>err.txt
	[ $? = 1 ] || fail "verify of thin.a"
	has "$W/thin.a(sub/dir/common.o): common: symbol 'lkd_common_counter' is SHN_COMMON"
	expect 1 "$LKD" --lkd-verify fat.a
	has "fat.a(common.o): common: symbol 'lkd_common_buf'"
	# @file with quoting, --whole-archive, --start-group.
	printf '%s\n' "-r -o 'whole out.o'" '--whole-archive thin.a --no-whole-archive' > args.rsp
	expect 0 "$LKD" @args.rsp
	has "thin.a(sub/dir/common.o): common symbol 'lkd_common_counter' allocated by ld -d"
	[ "$(commons 'whole out.o')" = 0 ] || fail "commons survived the thin-archive link"
	printf 'thin.a\nsub/bad.o\n' > list
	expect 1 "$LKD" --lkd-verify @list
	has "sub/bad.o: .altinstructions+0xc"
	ar cDPrST bad.a sub/bad.o sub/alt.o
	expect 1 "$LKD" -r -o g.o --start-group bad.a --end-group
	has "bad.a(sub/bad.o): .altinstructions+0xc (record 1, at alt_func+0x7): repl_offset: missing relocation"
	rm sub/alt.o
	expect 2 "$LKD" --lkd-verify thin.a
	has "cannot open thin.a(sub/alt.o)"
}

case_passthrough() {
	ld --version > want.txt; w=$?
	"$LKD" --version > got.txt; g=$?
	[ "$w" = "$g" ] && cmp -s want.txt got.txt || fail "--version differs from ld's"
	ld --help > want.txt
	"$LKD" --help > got.txt
	cmp -s want.txt got.txt || fail "--help differs from ld's"
	ld -v > want.txt
	"$LKD" -v > got.txt
	cmp -s want.txt got.txt || fail "-v differs from ld's"
	ld --bogus-option > want.txt 2>&1; w=$?
	"$LKD" --bogus-option > got.txt 2>&1; g=$?
	[ "$w" = "$g" ] && cmp -s want.txt got.txt || fail "unknown option not passed through"
	"$LKD" --lkd-version | grep -q '^lkd (ccd-suite) ' || fail "--lkd-version"
	"$LKD" --lkd-help | grep -q -- '--lkd-verify' || fail "--lkd-help"
	# ld gets the argv minus --lkd-*, with -d added only for commons in -r links.
	make_recorder
	gcc -O2 -fno-pie -c "$FIXTURES/alt-kernel.c" -o alt.o
	gcc -fcommon -c "$FIXTURES/common.c" -o common.o
	LKD_LD="$W/rec-ld" expect 0 "$LKD" -r --lkd-quiet -o 'a b.o' -Map=m.map alt.o
	printf '%s\n' -r -o 'a b.o' -Map=m.map alt.o | cmp -s - ld-argv.txt ||
		fail "argv changed: $(cat ld-argv.txt)"
	LKD_LD="$W/rec-ld" expect 0 "$LKD" -r -o c.o common.o --lkd-verbose
	printf '%s\n' -d -r -o c.o common.o | cmp -s - ld-argv.txt ||
		fail "argv for commons: $(cat ld-argv.txt)"
	has "running: $W/rec-ld -d -r -o c.o common.o"
	# ld's failure is lkd's failure, with ld's exit status.
	expect 1 "$LKD" -o x nonexistent.o
	grep -q 'nonexistent.o' err.txt || fail "ld's message lost"
}

case_malformed() {
	as --64 -o clean.o "$FIXTURES/clean.s" || fail "as"
	python3 - <<'PY' || fail "python"
import struct
d = open('clean.o', 'rb').read()
def w(name, b): open(name, 'wb').write(bytes(b))
w('trunc.o', d[:len(d) // 2])
w('hdr-only.o', d[:40])
b = bytearray(d); b[4] = 9; w('badclass.o', b)
b = bytearray(d); b[4] = 1; w('class32.o', b)
b = bytearray(d); b[5] = 2; w('bigendian.o', b)
b = bytearray(d); struct.pack_into('<H', b, 18, 40); w('arm.o', b)
b = bytearray(d); struct.pack_into('<Q', b, 0x28, 0x7ffffff00); w('shoff.o', b)
shoff = struct.unpack_from('<Q', d, 0x28)[0]
n = struct.unpack_from('<H', d, 0x3c)[0]
b = bytearray(d)
for i in range(1, n): struct.pack_into('<Q', b, shoff + i * 64 + 24, 0x7fffffff)
w('secoff.o', b)
b = bytearray(d); struct.pack_into('<H', b, 0x3e, 200); w('shstrndx.o', b)
hdr = '%-16s%-12s%-6s%-6s%-8s%-10s`\n' % ('foo.o/', '0', '0', '0', '644', '99999')
w('badar.a', b'!<arch>\n' + hdr.encode() + b'\x7fELF')
w('badhdr.a', b'!<arch>\nfoo.o/   garbage\n')
w('text.o', b'not an object\n')
PY
	m() { expect 2 "$LKD" --lkd-verify "$1"; has "$1: $2"; }
	m trunc.o "section header table (offset 0x"
	m hdr-only.o "cannot read ELF"
	m badclass.o "not an ELF object"
	m class32.o "bad ELF header size"
	m bigendian.o "not a little-endian ELF file"
	m shoff.o "section header table (offset 0x7ffffff00, 10 entries) lies outside the file"
	m secoff.o "section 1 (offset 0x7fffffff, size 0x"
	m shstrndx.o "section name table index 200 out of range"
	m badar.a "member at offset 8 runs past the end"
	m badhdr.a "truncated or corrupt archive header at offset 8"
	m text.o "not an ELF object or archive"
	# Another machine's .altinstructions are not the x86 records: nothing to
	# say, even under --lkd-strict.
	expect 0 "$LKD" --lkd-verify arm.o
	[ -s err.txt ] && fail "arm.o: lkd said: $(cat err.txt)"
	expect 0 "$LKD" --lkd-verify --lkd-strict arm.o
	[ -s err.txt ] && fail "arm.o, --lkd-strict: lkd said: $(cat err.txt)"
	# In a link a malformed input stops lkd before ld, with no output.
	expect 1 "$LKD" -r -o out.o clean.o trunc.o
	has "trunc.o: section header table"
	[ -e out.o ] && fail "output written"
	# Text inputs are linker scripts: ld's business.
	echo 'INPUT(clean.o)' > script.ld
	expect 0 "$LKD" -r -o s.o script.ld
	true
}

case_layout() {
	as --64 -o l26.o "$FIXTURES/linux26.s" || fail "as"
	expect 0 "$LKD" --lkd-verify --lkd-altinstr-layout=linux26 l26.o
	LKD_ALTINSTR_LAYOUT=linux26 expect 0 "$LKD" --lkd-verify l26.o
	# By default the layout is read off the object's relocations.
	expect 0 "$LKD" --lkd-verify --lkd-verbose l26.o
	has "l26.o: checking .altinstructions (linux26 layout, 24-byte records)"
	# A layout named on the command line is what the records must be.
	expect 1 "$LKD" --lkd-verify --lkd-altinstr-layout=linux6 l26.o
	has "instr_offset: absolute relocation R_X86_64_64, expected R_X86_64_PC32"
	expect 2 "$LKD" --lkd-verify --lkd-altinstr-layout=linux99 l26.o
	has "linux99"
	mkdir -p cfg/ccd && echo 'altinstr_layout = linux6' > cfg/ccd/ccd.conf
	XDG_CONFIG_HOME=$W/cfg expect 1 "$LKD" --lkd-verify l26.o
	echo 'altinstr_layout = linux26' > cfg/ccd/ccd.conf
	XDG_CONFIG_HOME=$W/cfg expect 0 "$LKD" --lkd-verify l26.o
	echo 'lkd_checks = bogus' > cfg/ccd/ccd.conf
	XDG_CONFIG_HOME=$W/cfg expect 2 "$LKD" --lkd-verify l26.o
	has "unknown check 'bogus'"
}

# Objects from each kernel's alternative macros (tests/fixtures/): by
# default lkd reads the layout off each object, in a link too.
case_layout_infer() {
	local h m o want
	for h in 26 61 612; do
		for m in 64 32; do
			o=a$h-$m.o
			case $h in
			26) gcc -m$m -O2 -fno-pie -c "$FIXTURES/alt-kernel-26.c" -o $o ;;
			61) gcc -m$m -O2 -fno-pie -c "$FIXTURES/alt-kernel.c" -o $o ;;
			612) gcc -m$m -O2 -fno-pie -DALT_LINUX612 -c "$FIXTURES/alt-kernel.c" -o $o ;;
			esac || fail "gcc $o"
			case $h/$m in
			26/64) want="linux26 layout, 24-byte" ;;
			26/32) want="linux26 layout, 12-byte" ;;
			61/*) want="linux6 layout, 12-byte" ;;
			612/*) want="linux612 layout, 14-byte" ;;
			esac
			expect 0 "$LKD" --lkd-verify --lkd-verbose $o
			has "$o: checking .altinstructions ($want records)"
			grep -q warning err.txt && fail "$o: $(cat err.txt)"
			if [ $m = 64 ]; then
				expect 0 "$LKD" -r -o r$o $o
				ld -e 0 -o $o.exe $o 2>/dev/null || fail "ld $o"
			else
				expect 0 "$LKD" -m elf_i386 -r -o r$o $o
				ld -m elf_i386 -e 0 -o $o.exe $o 2>/dev/null || fail "ld $o"
			fi
			expect 0 "$LKD" --lkd-verify --lkd-verbose r$o $o.exe
			has "r$o: checking .altinstructions ($want records)"
			has "$o.exe: checking .altinstructions ($want records)"
		done
	done
	# One 14-byte record also fits the 6.1 offsets: its size decides.
	as --64 -o one.o "$FIXTURES/one-612.s" || fail "as"
	expect 0 "$LKD" --lkd-verify --lkd-verbose one.o
	has "one.o: checking .altinstructions (linux612 layout, 14-byte records)"
	# A layout named by the user is what the records must be.
	expect 1 "$LKD" --lkd-verify --lkd-altinstr-layout=linux6 a612-64.o
	has "a612-64.o: .altinstructions: size 154 is not a multiple of the 12-byte linux6 record"
	expect 1 "$LKD" --lkd-verify --lkd-altinstr-layout=linux612 a61-32.o
	expect 0 "$LKD" --lkd-verify --lkd-altinstr-layout=linux612 a612-32.o one.o
	# A layout with no name, read off the relocations.
	as --64 -o f16.o "$FIXTURES/future-16.s" || fail "as"
	expect 0 "$LKD" --lkd-verify --lkd-verbose f16.o
	has "f16.o: checking .altinstructions (inferred layout, 16-byte records, references at 0 and 4; lengths not checked)"
}

# A record lkd understands and that is wrong is an error in every layout.
case_layout_corrupt() {
	gcc -O2 -fno-pie -DALT_LINUX612 -c "$FIXTURES/alt-kernel.c" -o a.o || fail "gcc"
	ld -e 0 -o a.exe a.o 2>/dev/null || fail "ld"
	# record 1's replacementlen (byte 13 of a 14-byte record) made 255
	python3 - a.o a.exe <<'PY' || fail "python3"
import subprocess, sys
for f in sys.argv[1:]:
    out = subprocess.run(['readelf', '-SW', f], capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if ' .altinstructions ' in l)
    off = int(line.split(']')[1].split()[3], 16)
    b = bytearray(open(f, 'rb').read())
    b[off + 14 + 13] = 255
    open(f, 'wb').write(b)
PY
	expect 1 "$LKD" --lkd-verify a.o
	has "a.o: .altinstructions+0xe (record 1, at alt_rdtsc_ordered"
	has "replacementlen 255 is larger than instrlen"
	expect 1 "$LKD" --lkd-verify a.exe
	has "a.exe: .altinstructions+0xe (record 1"
	has "replacementlen 255 is larger than instrlen"
	as --64 --defsym REPL_IN_TEXT=1 -o f16bad.o "$FIXTURES/future-16.s" || fail "as"
	expect 1 "$LKD" --lkd-verify f16bad.o
	has "f16bad.o: .altinstructions+0x10 (record 1, at alt_func+0x6): second reference: relocation targets '.text', expected '.altinstr_replacement'"
	# A 6.1-layout section cut short.
	fault short-record \
		"short-record.o: .altinstructions: size 23 is not a multiple of the 12-byte linux6 record its relocations show"
}

# What lkd cannot interpret is said once and linked; --lkd-strict fails it.
case_layout_unknown() {
	local msg="odd.o: .altinstructions: cannot interpret: size 16, 3 relocations: no known layout (linux612, linux6, linux26) fits them"
	as --64 -o odd.o "$FIXTURES/odd-refs.s" || fail "as"
	expect 0 "$LKD" --lkd-verify odd.o
	has "lkd: warning: $msg; not checked"
	[ "$(wc -l < err.txt)" = 1 ] || fail "more than one message: $(cat err.txt)"
	expect 0 "$LKD" -r -o odd-r.o odd.o
	has "lkd: warning: $msg; not checked"
	[ -s odd-r.o ] || fail "no output"
	expect 1 "$LKD" --lkd-verify --lkd-strict odd.o
	has "lkd: error: $msg"
	expect 1 "$LKD" --lkd-strict -r -o strict.o odd.o
	[ -e strict.o ] && fail "strict: output written"
	LKD_STRICT=yes expect 1 "$LKD" --lkd-verify odd.o
	mkdir -p cfg/ccd && echo 'lkd_strict = yes' > cfg/ccd/ccd.conf
	XDG_CONFIG_HOME=$W/cfg expect 1 "$LKD" --lkd-verify odd.o
	has "lkd: error: $msg"
}

# Each cross target: -fcommon objects (and one with a .altinstructions of
# its own, as arm64 kernels have) through lkd -r with CROSS_COMPILE and no
# ld named: ${CROSS_COMPILE}ld links, no COM left, nothing said about
# .altinstructions; --lkd-verify finds the commons.
CROSS_TRIPLES="aarch64-linux-gnu arm-linux-gnueabihf arm-linux-gnueabi riscv64-linux-gnu
	powerpc64le-linux-gnu s390x-linux-gnu mipsel-linux-gnu mips-linux-gnu
	mips64el-linux-gnuabi64 mips64-linux-gnuabi64 powerpc-linux-gnu powerpc64-linux-gnu
	m68k-linux-gnu"
case_cross() {
	local n=0
	for t in $CROSS_TRIPLES; do
		command -v "$t-gcc" > /dev/null || fail "no $t-gcc (scripts/install-deps installs it)"
		"$t-gcc" -fcommon -O2 -c "$FIXTURES/common.c" -o "c-$t.o" || fail "$t-gcc"
		[ "$(commons "c-$t.o")" = 2 ] || fail "$t: fixture has no commons"
		printf '\t.section .altinstructions,"a"\n\t.long 0, 0\n\t.byte 4, 4\n' > alt.s
		"$t-gcc" -c -o "a-$t.o" alt.s || fail "$t as"
		CROSS_COMPILE=$t- expect 0 "$LKD" -r -o "m-$t.o" "c-$t.o" "a-$t.o"
		[ "$(commons "m-$t.o")" = 0 ] || fail "$t: lkd -r left SHN_COMMON symbols"
		grep -q altinstructions err.txt && fail "$t: lkd spoke of .altinstructions: $(cat err.txt)"
		has "common symbol 'lkd_common_buf' allocated by ld -d"
		[ "$(readelf -h "m-$t.o" | awk '/Machine:/')" = "$(readelf -h "c-$t.o" | awk '/Machine:/')" ] ||
			fail "$t: output machine differs"
		expect 1 "$LKD" --lkd-verify "c-$t.o"
		has "common: symbol 'lkd_common_counter' is SHN_COMMON"
		n=$((n + 1))
	done
	# mips: ld -r (without -d) makes small commons SCOM; a module with one
	# fails to load as one with COM does.  lkd -r allocates them.
	for t in mipsel-linux-gnu mips64-linux-gnuabi64; do
		"$t-gcc" -fcommon -O2 -G 8 -mno-abicalls -fno-pic -c "$FIXTURES/common.c" -o "g-$t.o" ||
			fail "$t-gcc -G 8"
		"$t-ld" -r -o "s-$t.o" "g-$t.o" || fail "$t-ld -r"
		readelf -sW "s-$t.o" | grep -q ' SCOM .*lkd_common_counter' || fail "$t: no SCOM to test"
		expect 1 "$LKD" --lkd-verify "s-$t.o"
		has "common: symbol 'lkd_common_counter' is SHN_COMMON"
		CROSS_COMPILE=$t- expect 0 "$LKD" -r -o "m-$t.o" "s-$t.o"
		[ "$(commons "m-$t.o")" = 0 ] || fail "$t: lkd -r left small commons"
		expect 0 "$LKD" --lkd-verify "m-$t.o"
	done
	# Without CROSS_COMPILE the host's ld is run, which rejects another machine's objects.
	[ "$n" -gt 0 ] && { expect 1 "$LKD" -r -o host.o c-aarch64-linux-gnu.o; true; }
	echo "$n targets"
}

# Relocations as lkd reads them (offset, symbol and type) equal readelf's,
# for every cross target's objects: n64 mips records hold one symbol and
# three types in a layout of their own, which libelf reads as one number.
case_relocs() {
	local n=0
	for t in $CROSS_TRIPLES; do
		command -v "$t-gcc" > /dev/null || fail "no $t-gcc (scripts/install-deps installs it)"
		"$t-gcc" -fcommon -O2 -c "$FIXTURES/common.c" -o "r-$t.o" || fail "$t-gcc"
		"$t-gcc" -O2 -fno-pic -fno-PIE -c "$FIXTURES/common.c" -o "p-$t.o" || fail "$t-gcc"
		for o in "r-$t.o" "p-$t.o"; do
			"$LKD_RELOCS" "$o" | sort > got.txt || fail "$t: lkd cannot read the relocations of $o"
			readelf -rW "$o" | awk '/^[0-9a-f]+ +[0-9a-f]+ /{print $1, $2}' | sort > want.txt
			[ -s want.txt ] || fail "$t: $o has no relocations to compare"
			cmp -s got.txt want.txt || { diff got.txt want.txt | head >&2; fail "$t $o: relocations differ from readelf's"; }
			n=$((n + 1))
		done
		expect 0 "$LKD" --lkd-verify "p-$t.o"
	done
	echo "$n objects' relocations equal readelf's"
}

# LLVM bitcode (clang -flto): lkd leaves it to the LTO link and checks
# that link's output; make LLVM=-N names the linker it runs, ld.lld-N.
case_lto() {
	local v ld
	for v in 14 15 16; do
		command -v clang-$v >/dev/null && command -v ld.lld-$v >/dev/null &&
			command -v llvm-ar-$v >/dev/null && break
		v=
	done
	[ -n "$v" ] || skip "no clang-N with its ld.lld-N and llvm-ar-N"
	ld=ld.lld-$v
	printf 'int lto_a(int x) { return x + 1; }\n' >a.c
	printf 'int lto_a(int);\nint lto_b(int x) { return lto_a(x) * 2; }\n' >b.c
	clang-$v -O2 -flto=thin -c a.c -o a.o && clang-$v -O2 -flto -c b.c -o b.o ||
		fail "clang -flto"
	# Kbuild's vmlinux.a under LTO: a thin archive of bitcode.
	llvm-ar-$v rcs lib.a a.o b.o && llvm-ar-$v rcsT thin.a a.o b.o || fail "llvm-ar"
	# Checked alone, bitcode is said to be unchecked, not an error (--lkd-strict: 2).
	expect 0 "$LKD" --lkd-verify a.o lib.a
	has "a.o: LLVM bitcode (an LTO object): not checked"
	has "lib.a(b.o): LLVM bitcode (an LTO object): not checked"
	expect 2 "$LKD" --lkd-strict --lkd-verify a.o
	has "a.o: LLVM bitcode (an LTO object): no machine code to check"
	# The linker make LLVM=-N runs: lkd --version answers as it (LD_IS_LLD).
	LLVM=-$v expect 0 "$LKD" --version
	grep -q 'LLD' out.txt || fail "lkd --version under LLVM=-$v: $(head -1 out.txt)"
	# Links of bitcode: the output is ld.lld's own, byte for byte.
	$ld -r -o plain.o a.o b.o && $ld -r -o plain-w.o --whole-archive thin.a ||
		fail "$ld -r"
	LLVM=-$v expect 0 "$LKD" -r -o r.o a.o b.o
	[ -s err.txt ] && fail "a clean LTO link printed: $(cat err.txt)"
	cmp -s r.o plain.o || fail "lkd -r of bitcode differs from $ld's"
	LLVM=-$v expect 0 "$LKD" -r -o w.o --whole-archive thin.a
	cmp -s w.o plain-w.o || fail "lkd -r of a thin bitcode archive differs from $ld's"
	readelf -sW w.o | grep -q ' FUNC .* lto_b$' || fail "the LTO link made no lto_b"
	# LLVM=DIR/ names DIR/ld.lld; LKD_LD still wins over LLVM=.
	mkdir -p bin && ln -sf "$(command -v $ld)" bin/ld.lld
	LLVM=$PWD/bin/ expect 0 "$LKD" --lkd-verbose -r -o p.o a.o b.o
	has "2 of them LLVM bitcode"
	has "running: $PWD/bin/ld.lld -r"
	LLVM=-$v LKD_LD=ld expect 1 "$LKD" -r -o g.o a.o
	has "file format not recognized"
	grep -q 'lkd:' err.txt && fail "lkd's own message on GNU ld's failure: $(cat err.txt)"
	# The output is checked: a common the LTO link made from bitcode is
	# said (lkd could not ask for -d), the output kept; strict: removed.
	clang-$v -fcommon -O2 -flto=thin -c "$FIXTURES/common.c" -o c.o || fail "clang -fcommon"
	LLVM=-$v expect 0 "$LKD" -r -o cr.o c.o
	has "cr.o: common: symbol 'lkd_common_buf' is SHN_COMMON after an LTO link"
	[ "$(commons cr.o)" = 2 ] || fail "the LTO link's commons: $(commons cr.o)"
	LLVM=-$v expect 1 "$LKD" --lkd-strict -r -o cs.o c.o
	[ -e cs.o ] && fail "--lkd-strict kept an output with commons"
	pass "bitcode verified, linked and its output checked with $ld"
}

# --lkd-order: the fixture's functions, each in its own .text.NAME section.
order_setup() {
	gcc -O2 -ffunction-sections -fno-pie -c "$FIXTURES/order.c" -o ord.o || fail "gcc"
	printf '# hottest first\nwest\n\n  south \t\ncash$\r\neast\nnorth\n' > one.txt
	printf 'north\neast\nsouth\nwest\ncash$\n' > two.txt
	printf 'not_in_this_link\n' > absent.txt
	# The temp scripts go here, and must be gone after each link.
	mkdir -p tmp && export TMPDIR=$W/tmp
}
# in_order FILE NAME...: the NAMEs FILE defines, in address order (nm -n).
in_order() {
	local f=$1
	shift
	nm -n "$f" | awk -v want=" $* " '$2 == "T" && index(want, " " $3 " ") { printf "%s ", $3 }'
}
ORDER_NAMES='north east south west cash$'
ORDER_ONE='west south cash$ east north '
ORDER_TWO='north east south west cash$ '
no_temp_left() {
	[ -z "$(ls -A tmp)" ] || fail "temp files left: $(ls -A tmp)"
}

# With GNU ld: a copy of the link's script, or of ld's built-in one, with
# *(.text.NAME) in FILE's order first in .text.
case_order() {
	local o form
	order_setup
	expect 0 "$LKD" --lkd-order=one.txt -e north -o one.exe ord.o
	[ -s err.txt ] && fail "messages: $(cat err.txt)"
	[ "$(in_order one.exe $ORDER_NAMES)" = "$ORDER_ONE" ] ||
		fail "one.txt's order: $(in_order one.exe $ORDER_NAMES)"
	LKD_ORDER=two.txt expect 0 "$LKD" -e north -o two.exe ord.o
	[ "$(in_order two.exe $ORDER_NAMES)" = "$ORDER_TWO" ] ||
		fail "LKD_ORDER=two.txt's order: $(in_order two.exe $ORDER_NAMES)"
	mkdir -p cfg/ccd && echo "lkd_order = $W/two.txt" > cfg/ccd/ccd.conf
	XDG_CONFIG_HOME=$W/cfg expect 0 "$LKD" -e north -o conf.exe ord.o
	cmp -s two.exe conf.exe || fail "lkd_order in ccd.conf: not two.txt's order"
	# With every check off too (without the order such a link is ld's alone).
	expect 0 "$LKD" --lkd-checks=none --lkd-order=one.txt -e north -o none.exe ord.o
	cmp -s one.exe none.exe || fail "--lkd-checks=none: not one.txt's order"
	# Without it, ld's own bytes; names absent from the link change nothing,
	# so the built-in script (-pie's too) is copied as ld has it.
	for o in "" -pie; do
		ld $o -e north -o plain.exe ord.o || fail "ld $o"
		expect 0 "$LKD" $o -e north -o same.exe ord.o
		cmp -s plain.exe same.exe || fail "lkd $o differs from ld"
		LKD_ORDER= expect 0 "$LKD" $o -e north -o empty.exe ord.o
		cmp -s plain.exe empty.exe || fail "LKD_ORDER= (empty): lkd $o differs from ld"
		expect 0 "$LKD" --lkd-order=absent.txt $o -e north -o absent.exe ord.o
		[ -s err.txt ] && fail "absent names: messages: $(cat err.txt)"
		cmp -s plain.exe absent.exe || fail "names absent from the link: lkd $o differs from ld"
	done
	pass "GNU ld's built-in script: FILE's order; without it or its names, ld's bytes"
	# x86 Linux's shape: _text and .head.text stay first, the order comes
	# before TEXT_TEXT (.text.hot first), and the other function sections
	# (boot's) follow it: the script takes no .text.*, so ld would leave
	# them orphans beyond _etext; the script itself is left alone.
	cp "$FIXTURES/order-kernel.lds" k.lds
	for form in "-T k.lds" "-Tk.lds" "--script=k.lds" "--script k.lds" "-dT k.lds"; do
		rm -f k.exe
		expect 0 "$LKD" --lkd-order=one.txt $form -e head_entry -o k.exe ord.o
		[ "$(in_order k.exe head_entry warm boot $ORDER_NAMES)" = "head_entry $ORDER_ONE""boot warm " ] ||
			fail "$form: $(in_order k.exe head_entry warm boot $ORDER_NAMES)"
		cmp -s k.lds "$FIXTURES/order-kernel.lds" || fail "$form: the script was changed"
	done
	ld -T k.lds -e head_entry -o k-plain.exe ord.o 2>/dev/null || fail "ld -T k.lds"
	expect 0 "$LKD" --lkd-order=absent.txt -T k.lds -e head_entry -o k-absent.exe ord.o
	beyond() { nm -n "$1" | awk '$3 == "_etext" { e = 1; next } e && $2 == "T" { printf "%s ", $3 }'; }
	[ -n "$(beyond k-plain.exe)" ] || fail "ld left no function beyond _etext: the case shows nothing"
	[ -z "$(beyond k-absent.exe)" ] || fail "functions beyond _etext: $(beyond k-absent.exe)"
	[ "$(in_order k-absent.exe $ORDER_NAMES boot)" = "boot north east south west cash\$ " ] ||
		fail "names absent from the link: not the input's order: $(in_order k-absent.exe $ORDER_NAMES boot)"
	# A profile's hot function (gcc's .text.hot.F, warm's) is ordered as F.
	printf 'east\nwarm\nnorth\n' > hot.txt
	expect 0 "$LKD" --lkd-order=hot.txt -T k.lds -e head_entry -o k-hot.exe ord.o
	[ "$(in_order k-hot.exe east warm north)" = "east warm north " ] ||
		fail ".text.hot.warm not in FILE's order: $(in_order k-hot.exe east warm north)"
	# A script found in a -L directory, or named in a response file; what it
	# puts first (KEEP(*(.text.boot))) stays first.
	mkdir -p lds && cp "$FIXTURES/order-boot.lds" lds/boot.lds
	expect 0 "$LKD" --lkd-order=one.txt -L lds -T boot.lds -e boot -o b.exe ord.o
	[ "$(in_order b.exe boot $ORDER_NAMES)" = "boot $ORDER_ONE" ] ||
		fail "-L lds -T boot.lds: $(in_order b.exe boot $ORDER_NAMES)"
	printf -- "-T lds/boot.lds -e 'boot'\n" > args.rsp
	expect 0 "$LKD" --lkd-order=one.txt @args.rsp -o b2.exe ord.o
	cmp -s b.exe b2.exe || fail "-T in a response file: not the same link"
	pass "-T, -TFILE, --script=, --script, -dT, -L, @file: FILE's order after what the script puts first"
	# Names GNU ld's scripts cannot hold: each said with FILE:LINE, the rest ordered.
	printf 'west\nno such\nsouth\na-b\n"east"\nnorth\n' > bad.txt
	expect 0 "$LKD" --lkd-order=bad.txt -e north -o bad.exe ord.o
	has "lkd: warning: bad.txt:2: 'no such': not a name GNU ld's linker scripts take unquoted (letters, digits, '_', '.', '\$'); not ordered"
	has "bad.txt:4: 'a-b'"
	has "bad.txt:5: '\"east\"'"
	[ "$(wc -l < err.txt)" = 3 ] || fail "more messages than names refused: $(cat err.txt)"
	[ "$(in_order bad.exe $ORDER_NAMES)" = 'west south north east cash$ ' ] ||
		fail "bad.txt: $(in_order bad.exe $ORDER_NAMES)"
	# A script without .text: said, and linked as ld links it (--lkd-strict: refused).
	ld -T "$FIXTURES/order-notext.lds" -e north -o nt-plain.exe ord.o || fail "ld"
	expect 0 "$LKD" --lkd-order=one.txt -T "$FIXTURES/order-notext.lds" -e north -o nt.exe ord.o
	has "lkd: warning: $FIXTURES/order-notext.lds has no .text output section; linking without --lkd-order"
	cmp -s nt-plain.exe nt.exe || fail "without .text: lkd differs from ld"
	echo stale > nt-strict.exe
	expect 2 "$LKD" --lkd-strict --lkd-order=one.txt -T "$FIXTURES/order-notext.lds" -e north -o nt-strict.exe ord.o
	has "lkd: error: $FIXTURES/order-notext.lds has no .text output section"
	[ -e nt-strict.exe ] && fail "--lkd-strict: output left"
	# --script abbreviated (ld takes it, lkd does not read it): said, linked as ld links it.
	ld --scr=k.lds -e head_entry -o ab-plain.exe ord.o || fail "ld --scr="
	expect 0 "$LKD" --lkd-order=one.txt --scr=k.lds -e head_entry -o ab.exe ord.o
	has "lkd: warning: --scr=k.lds: a linker script option lkd does not read in full; linking without --lkd-order"
	cmp -s ab-plain.exe ab.exe || fail "--scr=: lkd differs from ld"
	# A linker lkd cannot tell: said, linked as it links.
	printf '#!/bin/sh\n[ "$1" = --version ] && { echo "mold 9.9 (compatible with GNU ld)"; exit 0; }\nexec ld "$@"\n' > other-ld
	chmod +x other-ld
	ld -e north -o plain.exe ord.o
	expect 0 "$LKD" --lkd-ld="$W/other-ld" --lkd-order=one.txt -e north -o other.exe ord.o
	has "lkd: warning: $W/other-ld is neither GNU ld nor ld.lld (its --version: 'mold 9.9 (compatible with GNU ld)'); linking without --lkd-order"
	cmp -s plain.exe other.exe || fail "another linker: lkd differs from ld"
	no_temp_left
}

# With ld.lld: --symbol-ordering-file=FILE, also under make LLVM=1.
case_order_lld() {
	command -v ld.lld > /dev/null || skip "no ld.lld"
	order_setup
	expect 0 "$LKD" --lkd-ld=ld.lld --lkd-order=one.txt -e north -o one.exe ord.o
	[ -s err.txt ] && fail "messages: $(cat err.txt)"
	[ "$(in_order one.exe $ORDER_NAMES)" = "$ORDER_ONE" ] ||
		fail "one.txt's order: $(in_order one.exe $ORDER_NAMES)"
	LLVM=1 LKD_ORDER=two.txt expect 0 "$LKD" --lkd-verbose -e north -o two.exe ord.o
	has "running: ld.lld -e north -o two.exe ord.o --symbol-ordering-file=two.txt --no-warn-symbol-ordering"
	[ "$(in_order two.exe $ORDER_NAMES)" = "$ORDER_TWO" ] ||
		fail "LLVM=1 LKD_ORDER=two.txt's order: $(in_order two.exe $ORDER_NAMES)"
	ld.lld -e north -o plain.exe ord.o || fail "ld.lld"
	expect 0 "$LKD" --lkd-ld=ld.lld -e north -o same.exe ord.o
	cmp -s plain.exe same.exe || fail "lkd differs from ld.lld"
	# Names absent from the link: no warning, ld.lld's bytes.
	expect 0 "$LKD" --lkd-ld=ld.lld --lkd-order=absent.txt -e north -o absent.exe ord.o
	[ -s err.txt ] && fail "absent names: messages: $(cat err.txt)"
	cmp -s plain.exe absent.exe || fail "names absent from the link: lkd differs from ld.lld"
	no_temp_left
}

# -r links are passed on exactly as without --lkd-order; FILE is not even read.
case_order_reloc() {
	local ld
	order_setup
	make_recorder
	expect 0 "$LKD" --lkd-ld="$W/rec-ld" --lkd-order=one.txt -r -T "$FIXTURES/order-kernel.lds" -o r.o ord.o
	printf '%s\n' -r -T "$FIXTURES/order-kernel.lds" -o r.o ord.o | cmp -s - ld-argv.txt ||
		fail "argv of a -r link changed: $(cat ld-argv.txt)"
	for ld in ld ld.lld; do
		command -v $ld > /dev/null || continue
		$ld -r -o plain.o ord.o || fail "$ld -r"
		expect 0 "$LKD" --lkd-ld=$ld --lkd-order=one.txt -r -o r.o ord.o
		cmp -s plain.o r.o || fail "$ld -r: lkd --lkd-order differs"
		expect 0 "$LKD" --lkd-ld=$ld --lkd-order=/nonexistent/order.txt -r -o r2.o ord.o
		cmp -s plain.o r2.o || fail "$ld -r: a missing FILE changed the link"
	done
	no_temp_left
}

# A FILE lkd cannot read, or that is no list of names: exit 2, ld not run,
# no output left.
case_order_errors() {
	order_setup
	make_recorder
	e() {
		echo stale > out.exe
		rm -f ld-argv.txt
		expect 2 "$LKD" --lkd-ld="$W/rec-ld" "$@" -e north -o out.exe ord.o
		[ -e ld-argv.txt ] && fail "$*: ld ran"
		[ -e out.exe ] && fail "$*: old output left"
		true
	}
	e --lkd-order=missing.txt
	has "lkd: error: --lkd-order: cannot read missing.txt: No such file or directory"
	LKD_ORDER=$W/missing.txt e
	has "cannot read $W/missing.txt"
	mkdir -p adir
	e --lkd-order=adir
	has "lkd: error: --lkd-order: cannot read adir"
	python3 -c "print('north'); print('east'); print('a' * 5000); print('west')" > long.txt
	e --lkd-order=long.txt
	has "lkd: error: long.txt:3: a line of 5000 bytes, longer than a symbol name lkd takes (4096)"
	printf 'north\neast\0west\n' > nul.txt
	e --lkd-order=nul.txt
	has "lkd: error: nul.txt:2: a NUL byte: not a list of symbol names"
	# One byte under the limit is a name (ld.lld takes it; it is just absent).
	python3 -c "print('a' * 4096)" > max.txt
	command -v ld.lld > /dev/null &&
		{ expect 0 "$LKD" --lkd-ld=ld.lld --lkd-order=max.txt -e north -o max.exe ord.o; }
	no_temp_left
}

case_usage() {
	expect 2 "$LKD" --lkd-verify
	has "no files given"
	expect 2 "$LKD" --lkd-nonsense
	has "unknown option '--lkd-nonsense'"
	expect 2 "$LKD" --lkd-verify /nonexistent/x.o
	has "cannot open /nonexistent/x.o"
}

"case_${1:?case name}"
finish
