#!/bin/bash
# snippets.sh DIR: the Debian rules snippet in doc/packaging parses as make
# and passes CC=ccd LD=lkd to Kbuild (and not with DEB_BUILD_OPTIONS=noccd);
# ($(MAKE) lines run even under -n, so MAKE is "echo make");
# the kernel.spec snippet's conditionals balance and it sets make_opts.
set -u
. "$(dirname "$0")/lib.sh"
dir=$(realpath "${1:?usage: snippets.sh DIR}")
need make

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf 'include %s\n' "$dir/debian-rules.snippet" > "$T/rules"
out=$(cd "$T" && make -n -f rules override_dh_auto_build NPROC=2 MAKE="echo make" 2>&1)
grep -q '^make.* CC=ccd LD=lkd HOSTCC=gcc .*bindeb-pkg$' <<<"$out" &&
	pass "rules snippet runs bindeb-pkg with CC=ccd LD=lkd" || bad "rules snippet: $out"
out=$(cd "$T" && DEB_BUILD_OPTIONS=noccd make -n -f rules override_dh_auto_build NPROC=2 MAKE="echo make" 2>&1)
grep -q 'ccd\|lkd' <<<"$out" && bad "noccd still uses ccd: $out" || pass "DEB_BUILD_OPTIONS=noccd turns it off"

spec=$dir/kernel.spec.snippet
opens=$(grep -c '^%if' "$spec")
closes=$(grep -c '^%endif' "$spec")
[ "$opens" -gt 0 ] && [ "$opens" -eq "$closes" ] && pass "spec snippet: $opens %if/%endif pairs" ||
	bad "spec snippet: $opens %if, $closes %endif"
grep -q '^%global make_opts %{make_opts} .*LD=lkd' "$spec" && pass "spec snippet extends make_opts" ||
	bad "spec snippet does not extend make_opts with LD=lkd"
finish
