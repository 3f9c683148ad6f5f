#!/bin/sh
# Fake backend: logs its argv (one "[arg]" per word, one line per call) to
# $FAKE_CC_LOG, then lets the real gcc do the work with the Intel-only
# spellings removed, so ccd's whole pipeline still runs.
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
