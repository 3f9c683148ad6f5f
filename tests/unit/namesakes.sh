#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# No namesakes, read off the built objects with nm (suite 'unit').
#   namesakes.sh exports LIBASMFIX   every global that asmfix's library defines
#                                    starts with asmfix_ (ccd links it)
#   namesakes.sh folders BUILD_ROOT  no name that lib/'s objects or asmfix's
#                                    library define is defined in another folder
#                                    (asmfix, ccd, lkd, kbench), global or static
# A static function the compiler inlined everywhere leaves no symbol: what an
# optimised build shows is a lower bound (a -O0 build shows every function).
# Names starting with "__" (the implementation's: sanitizers, gcov), gcc's
# constructors for them (_sub_I_00099_0) and the compiler's own names for
# function-local statics and literals ("buf.1", clang's "fn.buf", ".LC0",
# "asan.module_ctor") are not the program's; gcc's clones ("f.constprop.0")
# count as f.
set -u
export LC_ALL=C
. "$(dirname "$0")/../lib/check.sh"

# "OBJECT NAME" for each name the objects define, global or static.
defined() {
	nm -A --defined-only "$@" 2>/dev/null |
	awk '{ n = $NF; f = $1; sub(/:[^:]*$/, "", f)
	       if (n ~ /^(__|_sub_[DI]_[0-9]+_[0-9]+$)/ || $(NF-1) !~ /^[BbCDdGgRrSsTtVvWwiu]$/) next
	       if (n ~ /\./) { if (n !~ /\.(constprop|isra|part|cold|lto_priv)(\.|$)/) next
	                       sub(/\..*/, "", n) }
	       print f, n }' | sort -u
}

case $1 in
exports)
	lib=$2
	[ -f "$lib" ] || fail "no library $lib"
	globals=$(nm -g --defined-only "$lib") || fail "nm cannot read $lib"
	globals=$(awk 'NF == 3 { print $3 }' <<< "$globals" | sort -u)
	others=$(grep -v -E '^(asmfix_|__)' <<< "$globals" | paste -s -d ' ')
	if [ -n "$others" ]; then
		bad "asmfix's library exports names without the asmfix_ prefix: $others"
	else
		pass "the $(wc -l <<< "$globals") globals of $(basename "$lib") all start with asmfix_"
	fi
	;;
folders)
	b=$2
	w=$(mktemp -d "${TMPDIR:-/tmp}/namesakes.XXXXXX") || exit 1
	trap 'rm -rf "$w"' EXIT
	# The objects the build makes now (not a stale one of a file since
	# renamed), as paths under the build root.
	ninja -C "$b" -t targets all > "$w/targets" || fail "ninja cannot read $b"
	sed -n 's/^\([^:]*\.o\): .*/\1/p' "$w/targets" | sort > "$w/objects"
	# One list per group of objects: lib/, asmfix's library, then each folder.
	group() {
		local g=$1 files
		files=$(awk -v want="$2" -v not="${3:-^$}" '$0 ~ want && $0 !~ not' "$w/objects")
		[ -n "$files" ] || fail "no objects for $g under $b (not built?)"
		# shellcheck disable=SC2086
		(cd "$b" && defined $files) | awk -v g="$g" '{ print g, $2, $1 }' > "$w/$g"
	}
	group lib '^lib/'
	group asmfixlib '^asmfix/libasmfix[.]a[.]p/'
	group asmfix '^asmfix/' '^asmfix/libasmfix[.]a[.]p/'
	for d in ccd lkd kbench; do
		group "$d" "^$d/"
	done
	# The folder each group is in: a name may recur within one folder.
	folder() { case $1 in asmfixlib) echo asmfix ;; *) echo "$1" ;; esac; }
	n=0
	for s in lib asmfixlib; do
		for g in lib asmfixlib asmfix ccd lkd kbench; do
			[ "$(folder "$s")" != "$(folder "$g")" ] || continue
			# lib/ against asmfix's library: once, from lib/'s side.
			[ "$s" != asmfixlib ] || [ "$g" != lib ] || continue
			while read -r name a c; do
				bad "$name is defined in $a and in $c"
				n=$((n + 1))
			done < <(join -j 2 -o 0,1.3,2.3 <(sort -k2,2 "$w/$s") <(sort -k2,2 "$w/$g") |
				 sort -u -k1,1)
		done
	done
	[ "$n" -ne 0 ] || pass "$(cat "$w"/lib "$w"/asmfixlib | wc -l) definitions in lib/ and" \
		"asmfix's library, none of a name another folder defines"
	;;
*)
	fail "usage: namesakes.sh exports LIBASMFIX | folders BUILD_ROOT"
	;;
esac
finish
