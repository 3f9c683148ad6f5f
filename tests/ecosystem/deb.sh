#!/bin/bash
# deb.sh SRCDIR: dpkg-buildpackage -us -uc -b in a copy of the source tree
# builds a .deb holding the programs, man pages and example config; the
# packaged programs run.
set -u
. "$(dirname "$0")/lib.sh"
src=$(realpath "${1:?usage: deb.sh SRCDIR}")
need dpkg-buildpackage dpkg-deb dh fakeroot rsync meson

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
isolate "$T"
# The tree without build directories, VCS data or earlier package builds.
rsync -a --exclude='/build*/' --exclude='/.git/' --exclude='/obj-*/' \
	--exclude='/debian/ccd-suite/' --exclude='/debian/.debhelper/' \
	--exclude='/debian/files' --exclude='/debian/*.substvars' \
	--exclude='/debian/debhelper-build-stamp' --exclude='*.o' \
	"$src/" "$T/src/"
cd "$T/src"
start=$(date +%s)
DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -us -uc -b >"$T/build.log" 2>&1 ||
	{ tail -n 40 "$T/build.log" >&2; fail "dpkg-buildpackage -us -uc -b failed"; }
echo "dpkg-buildpackage took $(($(date +%s) - start))s"
debs=("$T"/ccd-suite_*.deb)
[ -f "${debs[0]}" ] || fail "no ccd-suite_*.deb produced"
deb=${debs[0]}
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's/^\.//' > "$T/contents"

want() {
	grep -qxE -- "$1" "$T/contents" && pass "$deb holds $1" || bad "${deb##*/} lacks $1"
}
for p in ccd lkd asmfix kbench; do
	want "/usr/bin/$p"
	want "/usr/share/man/man1/$p\\.1\\.gz"
done
want '/usr/libexec/ccd-suite/kbench-guest'
# The arm64 guest (debian/control build-depends on the cross gcc off arm64).
[ "$(dpkg --print-architecture)" = arm64 ] || want '/usr/libexec/ccd-suite/kbench-guest-aarch64'
want '/usr/share/man/man5/ccd\.conf\.5\.gz'
want '/usr/share/doc/ccd-suite/(examples/)?ccd\.conf\.example(\.gz)?'
want '/usr/share/doc/ccd-suite/ecosystem\.md(\.gz)?'
want '/usr/share/doc/ccd-suite/copyright'

dep=$(dpkg-deb -f "$deb" Depends)
grep -q 'libelf1' <<<"$dep" && grep -q 'binutils' <<<"$dep" && pass "Depends: $dep" ||
	bad "Depends lacks libelf1 or binutils: $dep"

# The packaged programs run.
dpkg-deb -x "$deb" "$T/x"
for p in ccd:--ccd-version lkd:--lkd-version asmfix:--version kbench:--version; do
	b=$T/x/usr/bin/${p%%:*}
	out=$("$b" "${p#*:}" 2>&1) && [ -n "$out" ] && pass "packaged ${p%%:*} runs: $(head -n1 <<<"$out")" ||
		bad "packaged ${p%%:*} ${p#*:} failed: $(head -n2 <<<"$out")"
done
finish
