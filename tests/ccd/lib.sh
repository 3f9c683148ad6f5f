# Shared by the ccd integration tests (sourced).  Usage: test.sh CCD SRCDIR
set -u
CCD=$(readlink -f "${1:?usage: $0 CCD SRCDIR}")
SRC=$(readlink -f "${2:?usage: $0 CCD SRCDIR}")
. "$(dirname "$0")/../lib/check.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ccd-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A private TMPDIR: every test ends by checking ccd left nothing in it.
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
# Nothing from the caller's ccd configuration leaks in.
unset CCD_CC CCD_AS CCD_PASSES CCD_ASSEM CCD_VERBOSE CCD_STRICT CCD_KEEP_PREFIX _CCD_SAFEGUARD \
	CCD_PROFILE_USE CCD_PROFILE_REPORT CCD_PROFILE \
	UNCACHED_ERR_FD DEPENDENCIES_OUTPUT SUNPRO_DEPENDENCIES
export CCD_SYSTEM_CONFIG=/nonexistent/ccd.conf XDG_CONFIG_HOME="$work/xdg" XDG_CACHE_HOME="$work/cache"
export LC_ALL=C

check_tmp() {
	if [ -n "$(ls -A "$TMPDIR")" ]; then
		bad "${1:-}: files left in TMPDIR: $(ls -A "$TMPDIR" | tr '\n' ' ')"
		rm -rf "${TMPDIR:?}"/* "$TMPDIR"/.[!.]* 2>/dev/null
	fi
}
# Every test ends here: nothing left in TMPDIR, then the verdict.
end_test() {
	check_tmp "end of test"
	finish
}
# Files under $1 except its src/ directory, one relative path per line.
outputs() { (cd "$1" && find . -path ./src -prune -o -type f -print | sort); }
