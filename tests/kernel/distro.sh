#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-distro CONFIG: a fixed sample of a distribution's own kernel
# configuration (debian-61: Linux 6.1 with linux-config-6.1's amd64 config;
# debian-612: 6.12 with linux-config-6.12's; debian-61-arm64: 6.1 with the
# arm64 config, Debian's cross gcc), objects and composite modules,
# built with plain make (gcc) and with make CC=ccd LD=lkd at the same path:
# every object gcc builds builds through ccd, byte-identical, and the ccd
# objects pass lkd --lkd-verify.  debian-61-clang: the 6.1 sample through
# ccd with CCD_CC=clang: every object clang builds builds through ccd, and
# passes lkd --lkd-verify.  debian-61-lto-thin: the 6.1 sample with
# ThinLTO, plain make LLVM=1 against make LLVM=1 CC=ccd LD=lkd: every
# object (bitcode) identical.  debian-61-vmlinux, debian-612-vmlinux: the
# whole bzImage with BTF, every object, vmlinux and bzImage identical, and
# the ccd kernel boots.  The samples are tests/kernel/distro/*.sample.
. "$(dirname "$0")/lib.sh"
cfg=${1:?usage: distro.sh CONFIG}

need_build "$cfg" || fail "the $cfg builds failed"
verify() {	# the objects ccd built pass lkd --lkd-verify
	local list=$KWORK/distro.$$.list
	local o
	while IFS= read -r o; do
		[ -f "$dir/obj/$o" ] && echo "$dir/obj/$o"
	done <"$dir/ccd.list" >"$list"
	if "$LKD" --lkd-verify @"$list" >"$list.out" 2>&1; then
		log "lkd --lkd-verify: $(wc -l <"$list") objects, clean"
	else
		head -n 20 "$list.out" | sed 's/^/  | /'
		bad "lkd --lkd-verify found problems"
	fi
	rm -f "$list" "$list.out"
}
safety_net() {	# a pass's rewrite that as rejected is a bug, even if the build went on
	grep -F 'GNU as rejected the assembly' "$dir.log" | head -10 | sed 's/^/  | safety net: /'
	grep -qF 'GNU as rejected the assembly' "$dir.log" && bad "the safety net caught a pass's rewrite (above)"
}

# The clang backend: what clang builds, ccd builds.
if [ -f "$dir/clang-only.list" ]; then
	log "$(wc -l <"$dir/ccd.list") objects built through ccd with CCD_CC=clang"
	[ ! -s "$dir/clang-only.list" ] || { sed 's/^/  | clang built, ccd did not: /' "$dir/clang-only.list"
		bad "$(wc -l <"$dir/clang-only.list") objects clang built failed through ccd"; }
	[ "$(wc -l <"$dir/ccd.list")" -ge 100 ] || bad "only $(wc -l <"$dir/ccd.list") objects built"
	safety_net
	verify
	finish
fi
if [ -f "$dir/boot.status" ]; then	# a whole image: plain gcc must build it
	[ "$(cat "$dir/gcc.status")" = 0 ] || fail "plain gcc did not build the image (see $dir.log)"
elif [ "$(cat "$dir/gcc.status")" != 0 ]; then
	log "plain gcc did not build all of the sample (make -k); compared: what it built"
fi
safety_net

n=0 same=0 differ=0 missing=0
declare -A differs=()
while IFS= read -r o; do
	n=$((n + 1))
	if [ ! -f "$dir/obj/$o" ]; then
		missing=$((missing + 1))
		[ $missing -le 30 ] && echo "  | gcc built, ccd+lkd did not: $o"
	elif cmp -s "$dir/gcc/$o" "$dir/obj/$o"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		differs[$o]=1
		[ $differ -le 20 ] && echo "  | differs: $o"
	fi
done <"$dir/gcc.list"
log "$n objects built by gcc, $((n - missing)) through ccd+lkd: $same byte-identical," \
	"$differ differ"
[ "$n" -ge 100 ] || bad "only $n objects built by gcc: the sample did not build"
[ $missing = 0 ] || { grep -E 'Error|error:' "$dir.log" | head -20 | sed 's/^/  | /'
	bad "$missing objects gcc built failed through ccd+lkd"; }
[ $differ = 0 ] || bad "$differ objects differ"
# A whole image (distro_image): vmlinux, its .BTF and bzImage are in the
# comparison above; the ccd kernel boots with the static init.
if [ -f "$dir/boot.status" ]; then
	for i in $DISTRO_IMAGES; do
		if ! grep -qxF "$i" "$dir/gcc.list"; then bad "plain gcc built no $i"
		elif [ -z "${differs[$i]:-}" ] && [ -f "$dir/obj/$i" ]; then log "$i identical"
		fi
	done
	btf=$(readelf -S --wide "$dir/obj/vmlinux" 2>/dev/null | awk '$2 == ".BTF" { print $6 }')
	if [ -n "$btf" ]; then log "vmlinux's .BTF (pahole): $((16#$btf)) bytes"
	else bad "the ccd vmlinux has no .BTF section"
	fi
	[ -f "$dir/gcc.time" ] && [ -f "$dir/ccd.time" ] && log "$(awk '
		FNR == 1 && NR == 1 { w = $1; c = $2 + $3 }
		FNR == 1 && NR == 2 { printf "plain make %d s wall, %d s CPU; through ccd+lkd %d s wall" \
			" (%+.1f %%), %d s CPU (%+.1f %%)", w, c, $1, 100 * ($1 / w - 1), $2 + $3,
			100 * (($2 + $3) / c - 1) }' "$dir/gcc.time" "$dir/ccd.time")"
	if [ "$(cat "$dir/boot.status")" = 0 ]; then
		log "the ccd+lkd kernel booted ($(grep -o 'QEMU ended after [0-9]* s' "$dir/boot.log"))"
	else
		tail -n 15 "$dir/boot.log" | sed 's/^/  | /'
		bad "the ccd+lkd kernel did not boot"
	fi
fi
# ccd's check report against the comparison: every object it vouches for
# (same) is identical, none differs, and the compared objects have a line.
if [ -f "$dir/check.txt" ]; then
	summary=$("$CCD" --ccd-check-summary="$dir/check.txt") || bad "the check report: $summary"
	log "check report: $summary"
	declare -A said=()
	while read -r word o _; do
		said[$o]=$word
		[ "$word" = same ] && [ -n "${differs[$o]:-}" ] && bad "the check report vouches for $o, which differs"
	done <"$dir/check.txt"
	unsaid=0
	while IFS= read -r o; do [ -n "${said[$o]:-}" ] || unsaid=$((unsaid + 1)); done <"$dir/ccd.list"
	# Objects of assembler sources and composites (ld -r) are not compiles of C.
	log "$unsaid of $(wc -l <"$dir/ccd.list") objects have no check line (assembler sources, composites)"
fi
verify
finish
