#!/bin/bash
# install.sh BUILDDIR: meson install (into a DESTDIR) installs the three
# programs, their man pages, ccd.conf(5) and the example ccd.conf; the
# installed programs run; every man page formats without groff warnings.
set -u
. "$(dirname "$0")/lib.sh"
build=$(realpath "${1:?usage: install.sh BUILDDIR}")
need meson groff

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
isolate "$T"
meson install -C "$build" --no-rebuild --destdir "$T/root" >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log" >&2; fail "meson install failed"; }
cd "$T/root"
find . -type f -o -type l | sort > "$T/files"

want() {	# want PATTERN WHAT
	local f
	f=$(grep -E -m1 -- "$1" "$T/files")
	[ -n "$f" ] && pass "installed $2: $f" || bad "not installed: $2 (no file matches $1)"
}
for p in ccd lkd asmfix kbench; do
	want "/bin/$p\$" "$p"
	want "/man/man1/$p\\.1\$" "$p.1"
done
want '/man/man5/ccd\.conf\.5$' "ccd.conf.5"
want '/doc/ccd-suite/(examples/)?ccd\.conf(\.example)?$' "example ccd.conf"
want '/doc/ccd-suite/ecosystem\.md$' "doc/ecosystem.md"
want '/doc/ccd-suite/proven\.md$' "doc/proven.md"
want '/doc/ccd-suite/packaging/kernel\.spec\.snippet$' "kernel.spec snippet"
want '/doc/ccd-suite/packaging/debian-rules\.snippet$' "debian/rules snippet"

# The installed programs run from their installed place.
for p in ccd:--ccd-version lkd:--lkd-version asmfix:--version kbench:--version; do
	f=$(grep -E -m1 "/bin/${p%%:*}\$" "$T/files") || continue
	out=$("./$f" "${p#*:}" 2>&1) && [ -n "$out" ] && pass "installed ${p%%:*} ${p#*:}: $(head -n1 <<<"$out")" ||
		bad "installed $f ${p#*:} failed: $out"
done

# Man pages format cleanly (groff -ww: all warnings but "break", which
# only says a long word did not fit an 80-column line).
while read -r m; do
	w=$(groff -man -ww -Wbreak -z -Tutf8 "$m" 2>&1)
	[ -z "$w" ] && pass "groff clean: ${m##*/}" || bad "groff warnings in ${m##*/}: $(head -n3 <<<"$w")"
done < <(grep -E '/man/man[0-9]/' "$T/files")

# The example config is valid for the programs that read it.
ex=$(grep -E -m1 '/doc/ccd-suite/(examples/)?ccd\.conf(\.example)?$' "$T/files")
c=$(grep -E -m1 '/bin/ccd$' "$T/files")
if [ -n "$ex" ] && [ -n "$c" ]; then
	# Uncomment every key (first example of each); cc names a backend
	# that may not be installed here.
	sed 's/^#\([a-z_]* = \)/\1/; s/^#\(\[profile \)/\1/' "./$ex" | grep -v '^cc =' | awk '!seen[$1]++' > "$T/all-keys.conf"
	CCD_SYSTEM_CONFIG=$T/all-keys.conf "./$c" --ccd-identity >/dev/null 2>"$T/err" &&
		pass "example ccd.conf (all keys enabled) is accepted by ccd" ||
		bad "ccd rejects the example config: $(head -n2 "$T/err")"
fi
finish
