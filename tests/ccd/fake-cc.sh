#!/bin/sh
# Fake backend: logs its argv (one "[arg]" per word, one line per call) to
# $FAKE_CC_LOG, then lets the real gcc do the work with the Intel-only
# spellings removed, so ccd's whole pipeline still runs.  It does not say
# which compiler it is (-dM is refused), so ccd names its profile from the
# fake's file name (icc, icx, gcc, clang), the fallback being tested here.
case " $* " in
*" -dM "*) echo "$(basename "$0"): -dM: not answered by this fake" >&2; exit 1 ;;
# ccd's target question (asked once, cached): not a compile, not logged.
*" -dumpmachine "*) exec gcc -dumpmachine ;;
esac
{
	printf '%s' "$(basename "$0"):"
	for a; do printf ' [%s]' "$a"; done
	printf '\n'
} >> "${FAKE_CC_LOG:?}"
for a; do
	shift
	case $a in
	-fp|-no-vec|-fno-integrated-as|-fcolor-diagnostics) ;;
	*) set -- "$@" "$a" ;;
	esac
done
exec gcc "$@"
