# SPDX-License-Identifier: GPL-2.0
# What kbench's QEMU-less test scripts share (sourced): the binary and the
# fixtures from the environment, a work directory removed on exit, the
# checks of tests/lib/check.sh and stand-in kernel images.
: "${KBENCH:?KBENCH must name the kbench binary}"
: "${FIXTURES:?FIXTURES must name tests/kbench/fixtures}"
export LC_ALL=C

W=$(mktemp -d "${TMPDIR:-/tmp}/kbench-test.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

. "$(dirname "${BASH_SOURCE[0]}")/../lib/check.sh"
has() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks: $2"; }; }
# bzimage FILE: a stand-in kernel with x86's boot header (kbench reads the machine from it)
bzimage() { { head -c 514 /dev/zero; printf HdrS; } >"$1"; }
