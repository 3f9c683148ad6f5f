# shellcheck shell=bash
# Shared helpers for the bench/ scripts.  Sourced, never run.
#
# Environment (all optional):
#   BUILD       meson build dir with ccd/ccd, asmfix/asmfix, lkd/lkd
#               (default: /work/main/build-bench, else ../build-bench next to bench/)
#   BENCH_CACHE where generated inputs are cached (default /work/bench-cache)
#   KSRC        Linux 6.1 source tree (default: unpacked from
#               /usr/src/linux-source-6.1.tar.xz into $BENCH_CACHE)
#   KOBJ        kernel object dir configured and prepared from KSRC
#               (default $BENCH_CACHE/ktree-tiny; created on first use)

set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$BENCH_DIR/.." && pwd)
BUILD=${BUILD:-$TOP/build-bench}
BENCH_CACHE=${BENCH_CACHE:-/work/bench-cache}
CCD=${CCD:-$BUILD/ccd/ccd}
ASMFIX=${ASMFIX:-$BUILD/asmfix/asmfix}
LKD=${LKD:-$BUILD/lkd/lkd}
KTARBALL=${KTARBALL:-/usr/src/linux-source-6.1.tar.xz}

bench_log() { printf 'bench: %s\n' "$*" >&2; }
bench_die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }

need_prog() {
	local p
	for p; do
		[ -x "$p" ] || command -v "$p" >/dev/null 2>&1 ||
			bench_die "'$p' not found (build with: meson setup $BUILD -Dbuildtype=release -Dtests=disabled && meson compile -C $BUILD)"
	done
}

# Median of the numbers on stdin (one per line).
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "nan"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratio A B -> A/B with 4 decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "nan"; else printf "%.4f\n", a / b }'; }

# Where the machine's load stands, for the results table.
load_note() {
	local l; l=$(cut -d' ' -f1-3 /proc/loadavg)
	printf 'loadavg %s on %s cores' "$l" "$(nproc)"
}

machine_line() {
	local cpu
	cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	printf '%s, %s cores, %s MiB RAM, %s, %s' "$cpu" "$(nproc)" \
		"$(awk '/MemTotal/ { printf "%d", $2 / 1024 }' /proc/meminfo)" \
		"$(uname -sr)" "$(gcc --version | head -1)"
}

# Does `perf stat -e instructions:u` work here (PMU exposed)?
have_perf_instr() {
	perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep -q '^[0-9]'
}

# A Linux 6.1 source tree; unpacked once into the cache.
ensure_ksrc() {
	if [ -n "${KSRC:-}" ]; then
		[ -f "$KSRC/Makefile" ] || bench_die "KSRC=$KSRC has no Makefile"
		return
	fi
	KSRC=$BENCH_CACHE/linux-source-6.1
	[ -f "$KSRC/Makefile" ] && return
	[ -f "$KTARBALL" ] || bench_die "$KTARBALL missing (apt-get install linux-source-6.1)"
	bench_log "unpacking $KTARBALL into $BENCH_CACHE"
	mkdir -p "$BENCH_CACHE"
	tar -C "$BENCH_CACHE" -xJf "$KTARBALL"
}

# The tinyconfig that boots here (see kernel-notes.md), written to $1/.config.
tiny_config() {
	local obj=$1 src=$2
	make -s -C "$src" O="$obj" tinyconfig >/dev/null
	"$src/scripts/config" --file "$obj/.config" --enable 64BIT --enable PRINTK \
		--enable TTY --enable SERIAL_8250 --enable SERIAL_8250_CONSOLE \
		--enable BLK_DEV_INITRD --enable BINFMT_ELF --enable MODULES --enable EARLY_PRINTK
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
}

# own_config OBJ SRC CONFIG: OBJ configured from CONFIG (plain or .xz), unless
# it already is; the trusted and revocation key files a distribution's
# configuration names (only the distribution has them) emptied.
own_config() {
	local obj=$1 src=$2 cfg=$3 new=$1/kb-config.new
	case $cfg in
	*.xz) xz -dc "$cfg" ;;
	*) cat "$cfg" ;;
	esac >"$new" || { rm -f "$new"; return 1; }
	if [ -f "$obj/.config" ] && cmp -s "$new" "$obj/kb-config"; then
		rm -f "$new"
		return 0
	fi
	# kb-config (what .config was made from) is written last, on success.
	rm -f "$obj/kb-config"
	cp "$new" "$obj/.config" &&
		"$src/scripts/config" --file "$obj/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" &&
		make -s -C "$src" O="$obj" olddefconfig >/dev/null &&
		mv "$new" "$obj/kb-config" || { rm -f "$new"; return 1; }
}

# A configured + prepared object dir with .cmd files for the given objects.
ensure_kobj() {
	ensure_ksrc
	KOBJ=${KOBJ:-$BENCH_CACHE/ktree-tiny}
	local o missing=()
	for o; do
		[ -f "$KOBJ/$(dirname "$o")/.$(basename "$o").cmd" ] || missing+=("$o")
	done
	[ ${#missing[@]} -eq 0 ] && return
	mkdir -p "$KOBJ"
	if [ ! -f "$KOBJ/.config" ]; then
		bench_log "configuring tinyconfig in $KOBJ"
		tiny_config "$KOBJ" "$KSRC"
	fi
	bench_log "make prepare ${missing[*]} in $KOBJ (once)"
	make -s -C "$KSRC" O="$KOBJ" -j"$(nproc)" prepare >/dev/null
	make -s -C "$KSRC" O="$KOBJ" -j"$(nproc)" "${missing[@]}" >/dev/null
}

# The compile command Kbuild recorded for object $1 (first command only,
# without the objtool/recordmcount tail).
kbuild_cmd() {
	local o=$1 f
	f="$KOBJ/$(dirname "$o")/.$(basename "$o").cmd"
	sed -n "s|^cmd_$o := ||p" "$f" | sed 's/ ; .*$//; s/;.*$//; s/[[:blank:]]*$//'
}

# $KOBJ fully built once (make -j<ncpu> with gcc): every .cmd file exists.
ensure_kbuilt() {
	ensure_kobj
	[ -f "$KOBJ/vmlinux" ] && return
	[ -f "$KOBJ/.config" ] || tiny_config "$KOBJ" "$KSRC"
	bench_log "building the tinyconfig kernel in $KOBJ (once)"
	make -s -C "$KSRC" O="$KOBJ" -j"$(nproc)" >/dev/null
}
