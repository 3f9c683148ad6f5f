# Shared helpers for the ecosystem tests (sourced by bash scripts).
# Every test runs in a private temp dir with the user's ccd, ccache and
# distcc configuration shut out, so results depend only on the tree.

eco_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$eco_dir/../lib/check.sh"

# need PROG...: the test cannot run without these; that is a failure, not a skip.
need() {
	for p; do
		command -v "$p" >/dev/null 2>&1 || fail "$p not found (scripts/install-deps installs it)"
	done
}

# need_exe PATH: a program built by this tree.
need_exe() {
	[ -x "$1" ] || fail "$1 not built"
}

# isolate TMP: private config for ccd, ccache and distcc; C locale.
isolate() {
	local v
	for v in $(env | sed -n 's/^\(CCD_[A-Z_]*\|LKD_[A-Z_]*\|CCACHE_[A-Z_]*\|DISTCC_[A-Z_]*\|UNCACHED_ERR_FD\|_DISTCC_SAFEGUARD\)=.*/\1/p'); do
		unset "$v"
	done
	export LC_ALL=C
	export CCD_SYSTEM_CONFIG=/dev/null XDG_CONFIG_HOME=$1/xdg HOME=$1/home
	mkdir -p "$1/xdg" "$1/home"
}

# snapshot DIR DEST: copy the objects and dep files of a corpus build.
snapshot() {
	(cd "$1" && find . \( -name '*.o' -o -name '.*.o.d' \) -print0 |
		cpio -0pdm --quiet "$2")
}

# same_tree A B WHAT: every file in A exists in B with the same bytes, and
# B has no extra files.
same_tree() {
	local a=$1 b=$2 what=$3 f bad=0 n=0
	while IFS= read -r -d '' f; do
		n=$((n + 1))
		if ! cmp -s "$a/$f" "$b/$f"; then
			[ "$bad" -lt 5 ] && echo "  differs: $f" >&2
			bad=$((bad + 1))
		fi
	done < <(cd "$a" && find . -type f -print0)
	local m
	m=$(cd "$b" && find . -type f | wc -l)
	[ "$m" -eq "$n" ] || { echo "  $b has $m files, $a has $n" >&2; bad=$((bad + 1)); }
	if [ "$n" -gt 0 ] && [ "$bad" -eq 0 ]; then
		pass "$what ($n files identical)"
	else
		bad "$what: $bad of $n files differ"
	fi
}

# free_port: a TCP port nobody listens on right now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# server_workdir T CCD: make T a work directory a daemon that drops to its
# own user can use (the build tree may sit in a private home): T/tmp as
# everybody's TMPDIR (none of ccd's temp files may be left there) and
# T/bin/ccd, the same bytes as CCD.  Sets ccd to its path.
server_workdir() {
	chmod 755 "$1"
	mkdir -m 1777 "$1/tmp"
	export TMPDIR=$1/tmp
	mkdir -m 755 "$1/bin"
	cp "$2" "$1/bin/ccd"
	ccd=$1/bin/ccd
}

# keep_or_remove T: the end of a test's work directory (ECO_KEEP=DIR keeps a copy).
keep_or_remove() {
	[ -n "${ECO_KEEP:-}" ] && cp -a "$1" "$ECO_KEEP"
	rm -rf "$1"
}
