#!/bin/bash
# Differential harness: every shape in which Kbuild calls $(CC) gives the
# same exit status, stdout, stderr and files through ccd as through the
# backend itself (gcc and clang), byte for byte.  Compared with the plain
# backend: ccd adds only -D__CCD__=1 to preprocessing runs and none of
# these shapes' outputs depends on it (misc.sh checks __CCD__ itself).
# Usage: kbuild-diff.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

d="$work/d"
printf 'xorl %%eax,%%eax\n' > "$work/as-instr.in"
printf 'pause\n' > "$work/as-instr2.in"
printf '#if defined(__clang__)\nClang\t__clang_major__  __clang_minor__  __clang_patchlevel__\n#elif defined(__INTEL_COMPILER)\nICC\t__INTEL_COMPILER  __INTEL_COMPILER_UPDATE\n#elif defined(__GNUC__)\nGCC\t__GNUC__  __GNUC_MINOR__  __GNUC_PATCHLEVEL__\n#else\nUNKNOWN\n#endif\n' > "$work/cc-version.in"
printf 'int foo(void) { char X[200]; return 3; }\n' > "$work/stackprot.in"
: > "$work/empty.in"

# one WHO BACKEND STDIN ARGS...: run in a fresh $d, keep results in
# $work/WHO.*; the reference's tree moves to $work/ref.tree, the ccd run's
# stays in $d (the same path for both: outputs may name it).
one() {
	local who=$1 be=$2 in=$3
	shift 3
	rm -rf "$d" "$work/$who".*; mkdir -p "$d/obj" "$d/.tmp"
	cp -r "$SRC"/kbuild "$d/src"
	if [ "$who" = ref ]; then
		(cd "$d" && "$be" "$@") < "$in" > "$work/$who.out" 2> "$work/$who.err"
	else
		(cd "$d" && "$CCD" --ccd-cc="$be" "$@") < "$in" > "$work/$who.out" 2> "$work/$who.err"
	fi
	echo $? > "$work/$who.rc"
	[ "$who" = ref ] && mv "$d" "$work/ref.tree"
}

n=0
shape() {
	local name=$1 be=$2 in=$3
	shift 3
	one ref "$be" "$in" "$@"
	one ccd "$be" "$in" "$@"
	n=$((n + 1))
	for part in rc out err; do
		cmp -s "$work/ref.$part" "$work/ccd.$part" ||
			bad "$be $name: $part differs: $(diff "$work/ref.$part" "$work/ccd.$part" | head -5 | tr '\n' ' ')"
	done
	# The files each left, byte for byte (src/ aside): one diff -r, not a
	# find, a cpio and a cmp per file for each run.
	local files
	files=$(diff -rq -x src "$work/ref.tree" "$d" 2>&1) || bad "$be $name: files differ: $files"
	check_tmp "$be $name"
}

E=$work/empty.in
for be in gcc clang; do
	shape "cc-option ok" $be $E -Werror -fno-stack-protector -c -x c /dev/null -o .tmp/tmp.o
	shape "cc-option rejected" $be $E -Werror -fno-such-option -c -x c /dev/null -o .tmp/tmp.o
	shape "cc-disable-warning" $be $E -Werror -Wno-unused-but-set-variable -c -x c /dev/null -o .tmp/tmp.o
	shape "Kconfig cc-option" $be $E -Werror -mno-red-zone -E -x c /dev/null -o /dev/null
	shape "as-option" $be $E -Wa,--noexecstack -c -x assembler-with-cpp /dev/null -o .tmp/tmp.o
	shape "as-instr" $be "$work/as-instr.in" -Wa,--fatal-warnings -c -x assembler-with-cpp -o .tmp/tmp.o -
	shape "as-instr pause" $be "$work/as-instr2.in" -m32 -Wa,--fatal-warnings -c -x assembler-with-cpp -o .tmp/tmp.o -
	shape "cc-version.sh" $be "$work/cc-version.in" -E -P -x c -
	shape "as-version.sh" $be $E -Wa,--version -c -x assembler /dev/null -o /dev/null
	shape "stack-protector probe" $be "$work/stackprot.in" -S -x c -c -m64 -O0 -mcmodel=kernel -fno-PIE -fstack-protector - -o -
	shape "-print-file-name=include" $be $E -print-file-name=include
	shape "-print-file-name=plugin" $be $E -print-file-name=plugin
	shape "--version" $be $E --version
	shape "-dumpmachine" $be $E -dumpmachine
	shape "-dumpversion" $be $E -dumpversion
	shape ".S object" $be $E -Wp,-MMD,obj/.entry.o.d -nostdinc -Isrc -D__ASSEMBLY__ -c -o obj/entry.o src/entry.S
	shape "-E linker script" $be $E -E -Wp,-MMD,obj/.vmlinux.lds.d -P -Isrc -D__ASSEMBLY__ -DLINKER_SCRIPT -o obj/vmlinux.lds src/vmlinux.lds.S
	shape "-E to stdout" $be $E -E -Isrc src/vmlinux.lds.S
	shape "-M deps to stdout" $be $E -M -Isrc src/entry.S
	shape "link" $be $E -nostdlib -o obj/prog -Wl,-e,entry_point -Isrc src/entry.S
	shape "--help" $be $E --help
	shape "syntax-only" $be $E -fsyntax-only -x c src/asm-offsets.c
done
# -S asm-offsets is a handled compile: the user gets repaired assembly,
# byte-identical while no pass changes anything.
for passes in none all; do
	CCD_PASSES=$passes shape "-S asm-offsets ($passes)" gcc $E -Wp,-MMD,obj/.asm-offsets.s.d -O2 \
		-fverbose-asm -S -o obj/asm-offsets.s src/asm-offsets.c
done
echo "$n shapes compared"
end_test
