#!/bin/bash
# Oracle, gcc backend: for each corpus file and flag set, ccd with
# CCD_PASSES=none and with all passes produces the same set of files
# (object, .d, .gcno, .dwo, .su) as "gcc -c" run at the same path, byte
# for byte.  (--coverage stamps .gcno with the time unless -frandom-seed is
# given, so those flag sets pin it: gcc itself differs run to run.)  Each
# object's check line (CCD_CHECK_REPORT) must say "same": the report's
# claim, checked against the comparison.  Usage: oracle.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

run="$work/run"
flagsets=(
	"o|-O0 -g"
	"o|-O2"
	"o|-Os -ffunction-sections -fdata-sections"
	"o|-m32 -O2 -g"
	"o|-m16 -Os"
	"o|-O2 -Wp,-MMD,obj/.@.o.d"
	"o|-O2 -MD"
	"o|-O2 -MMD -MP"
	"o|-O2 --coverage -frandom-seed=ccd"
	"o|-O2 -g -gsplit-dwarf"
	"o|-O2 -fstack-usage"
	"o|-O1 -g -frecord-gcc-switches"
	"o|-O2 -g -gz -Wa,--noexecstack -Xassembler --fatal-warnings"
	"o|-O2 -g -gdwarf-4 -I src -Isrc"
	"cwd|-O2 -MD --coverage -frandom-seed=@ -g -gsplit-dwarf -fstack-usage"
	"cwd|-O0 -g -Wp,-MMD,.@.o.d"
	"S|-O2 -MD -fverbose-asm"
)

# compile CC FLAGS BASE MODE: one compile at the fixed path under $run
compile() {
	local cc=$1 flags=${2//@/$3} base=$3 mode=$4
	case $mode in
	o) (cd "$run" && $cc -c $flags -o obj/$base.o src/$base.c) ;;
	cwd) (cd "$run/obj" && $cc -c $flags ../src/$base.c) ;;
	S) (cd "$run" && $cc -S $flags -o obj/$base.s src/$base.c) ;;
	esac
}

mkdir -p "$run/src"
cp "$SRC"/corpus/*.[ch] "$run/src/"
n=0
for fs in "${flagsets[@]}"; do
	mode=${fs%%|*} flags=${fs#*|}
	for c in "$SRC"/corpus/*.c; do
		base=$(basename "$c" .c)
		rm -rf "$run/obj" "$work/ref"; mkdir -p "$run/obj"
		compile gcc "$flags" "$base" "$mode" || { bad "gcc failed: $flags $base"; continue; }
		mv "$run" "$work/ref"; mkdir -p "$run/obj"; mv "$work/ref/src" "$run/src"
		for passes in none all; do
			rm -rf "$run/obj" "$work/check"; mkdir -p "$run/obj"
			if ! CCD_CHECK_REPORT=$work/check CCD_PASSES=$passes \
				compile "$CCD" "$flags" "$base" "$mode"; then
				bad "ccd failed ($passes): $flags $base"
				continue
			fi
			n=$((n + 1))
			# The same files, byte for byte: one diff -r over both trees
			# (src/ left out), not a listing and a cmp per file.
			d=$(diff -rq -x src "$work/ref" "$run") ||
				bad "[$mode $flags] $base ($passes): not gcc's files: $d"
			want="same obj/$base.o"
			case $mode in cwd) want="same $base.o" ;; S) want= ;; esac
			got=$(cat "$work/check" 2>/dev/null)
			[ "$got" = "$want" ] ||
				bad "[$mode $flags] $base ($passes): check report '$got', not '$want'"
		done
		check_tmp "$flags $base"
	done
done
echo "$n ccd compiles compared with gcc -c"
end_test
