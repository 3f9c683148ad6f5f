# The shell tests' one way to report (sourced by every suite's scripts).
#   bad MSG     a check failed: "FAIL: MSG" on stdout (after "[CHECK_CONTEXT] "
#               when that is set, e.g. the case or configuration); the test
#               goes on, and finish exits 1
#   fail MSG    a check failed and what follows depends on it: bad, then exit 1
#   pass MSG    say what a check proved ("ok: MSG")
#   skip MSG    this machine cannot run the test: "SKIP: MSG", exit 77
#   finish      exit 1 after any bad or fail (with their count), else "all passed", 0
#   expect CODE CMD...  run CMD, its stdout in out.txt and stderr in err.txt;
#               an exit status other than CODE shows both and fails
# $failed counts the failures so far.
failed=0
bad() {
	printf 'FAIL: %s%s\n' "${CHECK_CONTEXT:+[$CHECK_CONTEXT] }" "$*"
	failed=$((failed + 1))
}
fail() {
	bad "$@"
	exit 1
}
pass() { printf 'ok: %s\n' "$*"; }
skip() {
	printf 'SKIP: %s\n' "$*"
	exit 77
}
finish() {
	if [ "$failed" -ne 0 ]; then
		printf '%s check(s) failed\n' "$failed"
		exit 1
	fi
	echo "all passed"
	exit 0
}
expect() {
	local want=$1 got
	shift
	"$@" >out.txt 2>err.txt
	got=$?
	[ "$got" = "$want" ] || { cat out.txt err.txt >&2; fail "exit $got, expected $want: $*"; }
}
