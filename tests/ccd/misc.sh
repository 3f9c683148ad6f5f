#!/bin/bash
# ccd's own interface: --assem, @file, `ccd BACKEND args`, __CCD__, the
# --ccd-* queries, stdout hygiene, UNCACHED_ERR_FD, config precedence,
# handled -S, the temp directory when TMPDIR is unusable.  Usage: misc.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && mkdir -p fs obj && cp "$SRC"/corpus/hello.c fs/file.c && cp "$SRC"/corpus/corpus.h fs/

# --assem keeps <source>.S next to the object; both also keeps .raw.S.
"$CCD" --ccd-cc=gcc --assem -O2 -Ifs -c -o fs/file.o fs/file.c || bad "--assem compile"
[ -s fs/file.c.S ] && [ ! -e fs/file.c.raw.S ] || bad "--assem: $(ls fs)"
gcc -O2 -Ifs -S -o ref.s fs/file.c && cmp -s ref.s fs/file.c.S || bad "--assem: .S is not the (unrepaired) asm"
rm -f fs/file.c.S
CCD_ASSEM=both "$CCD" --ccd-cc=gcc -O2 -c -o fs/file.o fs/file.c || bad "CCD_ASSEM=both compile"
[ -s fs/file.c.S ] && [ -s fs/file.c.raw.S ] || bad "CCD_ASSEM=both: $(ls fs)"
rm -f fs/file.c.S fs/file.c.raw.S
"$CCD" --ccd-cc=gcc --assem=no -c -o fs/file.o fs/file.c && [ ! -e fs/file.c.S ] || bad "--assem=no kept a file"

# Handled -S: the user gets the (repaired) assembly, no object; default name in cwd.
(cd obj && "$CCD" --ccd-cc=gcc -O2 -S ../fs/file.c && gcc -O2 -S -o ref.s ../fs/file.c) &&
	cmp -s obj/file.s obj/ref.s && [ ! -e obj/file.o ] || bad "-S without -o"

# @file response files: expanded for classification, same object as gcc.
printf -- '-O2 "-DGREETING=\\"hi there\\"" -c\n-o obj/rsp.o\n' > opts.rsp
"$CCD" --ccd-cc=gcc @opts.rsp fs/file.c || bad "@file compile"
gcc @opts.rsp -o obj/rsp-ref.o fs/file.c && cmp -s obj/rsp.o obj/rsp-ref.o || bad "@file: object differs"
"$CCD" --ccd-cc=gcc -c @missing.rsp fs/file.c 2> ccd.err; got=$?
gcc -c @missing.rsp fs/file.c 2> gcc.err; want=$?
[ "$got" = "$want" ] && cmp -s ccd.err gcc.err || bad "@missing.rsp: exit $got/$want"
rm -f file.o

# `ccd BACKEND args` (distcc style) and CCD_CC with a prefix command.
"$CCD" clang -O2 -c -o obj/c.o fs/file.c && clang -o obj/c obj/c.o && [ "$(obj/c)" = "hello from the corpus" ] ||
	bad "ccd clang ..."
printf '#!/bin/sh\necho "$@" > %s/prefix.log\nexec "$@"\n' "$work" > prefix.sh && chmod +x prefix.sh
CCD_CC="$work/prefix.sh gcc" "$CCD" -O2 -c -o obj/p.o fs/file.c && grep -q -- "-S" prefix.log ||
	bad "prefix command: $(cat prefix.log 2>&1)"
# distcc sends a bare "gcc" as "<triple>-gcc": the word stays when PATH's gcc is not ccd...
head -c 4 prefix.log | grep -q '^gcc ' || bad "prefix command: backend word not kept: $(cat prefix.log)"
# ... and is resolved past ccd when ccd masquerades as gcc on PATH (G4).
mkdir -p masq && ln -sf "$CCD" masq/gcc
PATH=$work/masq:$PATH CCD_CC="$work/prefix.sh gcc" "$CCD" -O2 -c -o obj/p.o fs/file.c ||
	bad "prefix command behind a masquerade: failed"
head -c 9 prefix.log | grep -q '^/' && ! grep -q '^[^ ]*/masq/' prefix.log ||
	bad "prefix command behind a masquerade: backend not resolved past ccd: $(cat prefix.log)"

# Any name starting with "ccd" is ccd itself (the installed ccd-gcc link for ccache).
ln -s "$CCD" ccd-gcc
[ "$(./ccd-gcc --ccd-cc=clang --ccd-identity | sed -n 's/^backend command: .*(profile \([a-z]*\).*/\1/p')" = clang ] ||
	bad "ccd-gcc is not ccd"

# __CCD__: defined for preprocessing runs only.
printf '#ifdef __CCD__\nint ccd_was_here = __CCD__;\n#endif\n' > probe.c
"$CCD" --ccd-cc=gcc -c -o obj/probe.o probe.c && nm obj/probe.o | grep -q ccd_was_here || bad "__CCD__ not defined for a C compile"
"$CCD" --ccd-cc=gcc -E probe.c | grep -q "ccd_was_here = 1" || bad "__CCD__ not defined for -E"
printf '#ifdef __CCD__\n.globl ccd_was_here\nccd_was_here:\n#endif\n' > probe.S
"$CCD" --ccd-cc=gcc -c -o obj/probeS.o probe.S && nm obj/probeS.o | grep -q ccd_was_here || bad "__CCD__ not defined for .S"
"$CCD" --ccd-cc=gcc -O2 -c -o obj/probe2.o -U__CCD__ probe.c && ! nm obj/probe2.o | grep -q ccd_was_here ||
	bad "-U__CCD__ cannot undefine it"

# ccd's own queries go to stdout; --help is gcc's.
"$CCD" --ccd-version | grep -q '^ccd [0-9]' || bad "--ccd-version"
"$CCD" --ccd-help | grep -q -- '--ccd-identity' || bad "--ccd-help"
[ "$("$CCD" --ccd-cc=gcc --help | head -3)" = "$(gcc --help | head -3)" ] || bad "--help is not gcc's"
id=$("$CCD" --ccd-cc=gcc --ccd-identity)
for k in "^ccd " "^backend command: $(command -v gcc)" "^backend version: gcc" "^as: " "^as version: GNU assembler" "^passes: "; do
	grep -q "$k" <<<"$id" || bad "--ccd-identity lacks '$k': $id"
done
before=$(ls -A "$work"); "$CCD" --ccd-identity > /dev/null; after=$(ls -A "$work")
[ "$before" = "$after" ] || bad "--ccd-identity created files"

# stdout hygiene: a handled compile writes nothing there, even verbose.
out=$(CCD_VERBOSE=1 "$CCD" --ccd-cc=gcc -c -o obj/v.o fs/file.c 2> verbose.err)
[ -z "$out" ] || bad "handled compile wrote to stdout: $out"
grep -q "^ccd: run: .*gcc .*-S" verbose.err && grep -q "^ccd: run: .*as .*-o obj/v.o" verbose.err ||
	bad "CCD_VERBOSE: $(cat verbose.err)"
# UNCACHED_ERR_FD: ccd's own messages go there, not to stderr.
UNCACHED_ERR_FD=7 CCD_VERBOSE=1 "$CCD" --ccd-cc=gcc -c -o obj/v.o fs/file.c 7> fd7.err 2> stderr.err
[ ! -s stderr.err ] && grep -q "ccd: run:" fd7.err || bad "UNCACHED_ERR_FD: stderr '$(cat stderr.err)' fd7 '$(cat fd7.err)'"

# Configuration precedence: --ccd-cc > CCD_CC > user file > system file > PATH search.
mkdir -p xdg/ccd && echo "cc = clang" > xdg/ccd/ccd.conf && echo "cc = icx-not-here" > sys.conf
who() { "$@" --ccd-identity | sed -n 's/^backend command: \([^ ]*\) (profile \([a-z]*\), from \(.*\))$/\2 \3/p'; }
CCD_SYSTEM_CONFIG=sys.conf XDG_CONFIG_HOME=/none "$CCD" --ccd-identity 2>&1 | grep -q "'icx-not-here' not found.*sys.conf:1" ||
	bad "system file ignored"
[ "$(who "$CCD")" = "clang $work/xdg/ccd/ccd.conf:1" ] || bad "user file: $(who "$CCD")"
[ "$(CCD_CC=gcc who "$CCD")" = "gcc CCD_CC" ] || bad "CCD_CC: $(CCD_CC=gcc who "$CCD")"
[ "$(CCD_CC=gcc who "$CCD" --ccd-cc=clang)" = "clang --ccd-cc=clang" ] || bad "--ccd-cc"
[ "$(XDG_CONFIG_HOME=/none who "$CCD")" = "gcc PATH search" ] || bad "PATH search: $(XDG_CONFIG_HOME=/none who "$CCD")"
rm -rf xdg

# An unusable TMPDIR (missing, or not a directory): the next of gcc's
# candidates, as gcc does, so compiles and probes answer as gcc's do.
mkdir -p tmp2
for t in /nonexistent /etc/passwd; do
	TMPDIR=$t TMP=$work/tmp2 "$CCD" --ccd-cc=gcc -O2 -Ifs -c -o obj/tmp1.o fs/file.c ||
		bad "TMPDIR=$t: compile failed"
	TMPDIR=$t gcc -O2 -Ifs -c -o obj/tmp2.o fs/file.c && cmp -s obj/tmp1.o obj/tmp2.o ||
		bad "TMPDIR=$t: object differs from gcc's"
	TMPDIR=$t TMP=$work/tmp2 "$CCD" --ccd-cc=gcc -Werror -c -x c /dev/null -o /dev/null ||
		bad "TMPDIR=$t: a probe fails where gcc's passes"
	[ -z "$(ls -A tmp2)" ] || bad "TMPDIR=$t: files left in TMP: $(ls -A tmp2)"
done
rm -rf tmp2
end_test
