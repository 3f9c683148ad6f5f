#!/bin/bash
# Failure paths: the backend's status and diagnostics, no object and no
# temp file left, signals, -o /dev/null, missing tools, recursion.
# Usage: failures.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && mkdir -p obj fake && cp "$SRC"/corpus/hello.c "$SRC"/corpus/corpus.h .
printf 'int main(void) { return undeclared; }\n' > bad.c
printf 'void f(void) { __asm__("no_such_insn %%eax"); }\n' > badasm.c

# Backend error: same status and stderr as gcc, stale object removed.
gcc -c -o obj/ref.o bad.c 2> gcc.err; want=$?
echo stale > obj/bad.o
"$CCD" --ccd-cc=gcc -c -o obj/bad.o bad.c 2> ccd.err; got=$?
[ "$got" = "$want" ] && [ "$got" != 0 ] || bad "backend error: exit $got, gcc $want"
cmp -s gcc.err ccd.err || bad "backend error: stderr differs: $(diff gcc.err ccd.err | head -4)"
[ -e obj/bad.o ] && bad "backend error: object left behind"
check_tmp "backend error"

# as rejects the code: exit 1 like gcc, same messages (temp names aside), no object.
gcc -c -o obj/ref.o badasm.c 2> gcc.err; want=$?
echo stale > obj/badasm.o
"$CCD" --ccd-cc=gcc -c -o obj/badasm.o badasm.c 2> ccd.err; got=$?
[ "$got" = 1 ] && [ "$want" = 1 ] || bad "as failure: exit $got, gcc $want"
norm() { sed -E 's|/[^ :]*/cc[A-Za-z0-9]*\.s|TEMP.s|g' "$1"; }
[ "$(norm gcc.err)" = "$(norm ccd.err)" ] || bad "as failure: stderr differs: $(cat ccd.err)"
[ -e obj/badasm.o ] && bad "as failure: object left behind"
check_tmp "as failure"

# asmfix rejects the assembly: file:line naming the raw assembly (kept by
# --assem=both for inspection), exit 1, no object, no partial .S, no temp.
printf '__asm__(".set n, 4\\n\\t.comm x, n");\nint y;\n' > comm.c
if CCD_PASSES=none "$CCD" --ccd-cc=gcc -c -o obj/comm.o comm.c; then
	echo stale > obj/comm.o
	"$CCD" --ccd-cc=gcc --ccd-passes=common --assem=both -c -o obj/comm.o comm.c 2> ccd.err; got=$?
	[ "$got" = 1 ] || bad "asmfix error: exit $got"
	grep -q "^obj/comm.c.raw.S:[0-9]*: common: .*not a constant" ccd.err || bad "asmfix error: message: $(cat ccd.err)"
	line=$(sed -n 's/^obj\/comm.c.raw.S:\([0-9]*\):.*/\1/p' ccd.err)
	sed -n "${line:-0}p" obj/comm.c.raw.S 2>/dev/null | grep -q '\.comm' || bad "asmfix error: line $line is not the .comm"
	[ -e obj/comm.o ] && bad "asmfix error: object left"
	[ -e obj/comm.c.S ] && bad "asmfix error: partial .S left"
	check_tmp "asmfix error"
else
	bad "comm.c does not compile with CCD_PASSES=none"
fi

# A missing input is the backend's to report (B7), word for word.
gcc -c nonexistent.c 2> gcc.err; want=$?
"$CCD" --ccd-cc=gcc -c nonexistent.c 2> ccd.err; got=$?
[ "$got" = "$want" ] && cmp -s gcc.err ccd.err || bad "missing input: exit $got/$want: $(cat ccd.err)"
check_tmp "missing input"

# as missing.
CCD_AS=/nonexistent/as "$CCD" --ccd-cc=gcc -c -o obj/h.o hello.c 2> ccd.err; got=$?
[ "$got" = 1 ] || bad "missing as: exit $got"
grep -q "cannot run '/nonexistent/as'" ccd.err || bad "missing as: message: $(cat ccd.err)"
[ -e obj/h.o ] && bad "missing as: object left"
check_tmp "missing as"

# -o /dev/null is written through, never replaced, even when
# as fails.  A private null device, so a regression cannot break the machine.
if mknod -m 666 devnull c 1 3 2>/dev/null; then
	"$CCD" --ccd-cc=gcc -O2 -c -o devnull hello.c || bad "-o devnull compile failed"
	"$CCD" --ccd-cc=gcc -c -o devnull badasm.c 2>/dev/null
	"$CCD" --ccd-cc=gcc -S -o devnull hello.c || bad "-S -o devnull failed"
	echo 'int x = 1;' | "$CCD" --ccd-cc=gcc -c -x c -o devnull - || bad "probe -o devnull failed"
	"$CCD" --ccd-cc=gcc --assem=both -c -o devnull hello.c || bad "--assem -o devnull failed"
	[ -e hello.c.S ] || [ -e hello.c.raw.S ] && bad "--assem -o devnull kept files next to the device"
	[ -c devnull ] || bad "-o devnull: no longer a character device"
	check_tmp "-o devnull"
else
	echo "note: not root, -o <device> case skipped"
fi

# -c -o - fails as it does with gcc+binutils (C4).
gcc -c -o - hello.c > gcc.out 2> gcc.err; want=$?
"$CCD" --ccd-cc=gcc -c -o - hello.c > ccd.out 2> ccd.err; got=$?
[ "$got" = "$want" ] && cmp -s gcc.err ccd.err && cmp -s gcc.out ccd.out || bad "-c -o -: exit $got/$want"

# Several inputs: each compiled, the good one survives, exit 1 (gcc's semantics).
gcc -c bad.c hello.c 2> gcc.err; want=$?; mv hello.o ref-hello.o
"$CCD" --ccd-cc=gcc -c bad.c hello.c 2> ccd.err; got=$?
[ "$got" = "$want" ] || bad "several inputs: exit $got, gcc $want"
cmp -s hello.o ref-hello.o || bad "several inputs: hello.o missing or differs"
[ -e bad.o ] && bad "several inputs: bad.o exists"
cmp -s gcc.err ccd.err || bad "several inputs: stderr differs"
rm -f hello.o ref-hello.o
check_tmp "several inputs"

# Backend killed by a signal: ccd dies of the same signal, temps removed.
printf '#!/bin/sh\nkill -KILL $$\n' > fake/gcc; chmod +x fake/gcc
("$CCD" --ccd-cc=fake/gcc -c -o obj/k.o hello.c 2>/dev/null); got=$?
[ "$got" = 137 ] || bad "SIGKILLed backend: exit $got, want 137"
printf '#!/bin/sh\nkill -SEGV $$\n' > fake/gcc
(ulimit -c 0; "$CCD" --ccd-cc=fake/gcc -E hello.c 2>/dev/null); got=$?
[ "$got" = 139 ] || bad "SIGSEGV backend (passthrough): exit $got, want 139"
check_tmp "signal death"

# SIGTERM/SIGINT/SIGHUP to ccd while the backend runs: forwarded, temps removed, same signal.
# (Job control on: otherwise bash starts background jobs with SIGINT ignored.)
set -m
sigs="TERM INT HUP"
# A SIGHUP already ignored when the test starts (nohup) stays ignored in ccd
# and its backend, as it must: only TERM and INT can be tested then.
ign=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2>/dev/null)
[ -n "$ign" ] && [ $((0x$ign & 1)) = 1 ] && sigs="TERM INT"
for sig in $sigs; do
	# The backend's pid (exec keeps it): a pattern would match other processes of the machine.
	printf '#!/bin/sh\necho $$ > %s/started\nexec sleep 20\n' "$work" > fake/gcc
	rm -f started
	"$CCD" --ccd-cc=fake/gcc -c -o obj/s.o hello.c & pid=$!
	for i in $(seq 100); do [ -e started ] && break; sleep 0.05; done
	sleep 0.1
	ls "$TMPDIR" | grep -q . || bad "SIG$sig: no temp file while the backend runs?"
	kill -$sig $pid
	wait $pid; got=$?
	want=$((128 + $(kill -l $sig)))
	[ "$got" = "$want" ] || bad "SIG$sig: exit $got, want $want"
	kill -0 "$(cat started)" 2> /dev/null && bad "SIG$sig: backend still running"
	check_tmp "SIG$sig"
done
set +m

# Backend missing: 127 and a message naming it.
"$CCD" --ccd-cc=no-such-compiler -c hello.c 2> ccd.err; got=$?
[ "$got" = 127 ] && grep -q "no-such-compiler" ccd.err || bad "missing backend: exit $got: $(cat ccd.err)"

# Recursion: ccd as its own backend, directly, via a script, via a masquerade link.
"$CCD" --ccd-cc="$CCD" -c hello.c 2> ccd.err; got=$?
[ "$got" = 1 ] && grep -q "ccd itself" ccd.err || bad "ccd as its backend: exit $got: $(cat ccd.err)"
printf '#!/bin/sh\nexec %s "$@"\n' "$CCD" > fake/gcc
"$CCD" --ccd-cc=fake/gcc -c hello.c 2> ccd.err; got=$?
[ "$got" = 1 ] && grep -q "recursion" ccd.err || bad "ccd via script: exit $got: $(cat ccd.err)"
rm -f hello.o
mkdir -p masq && ln -sf "$CCD" masq/gcc
PATH="$work/masq:$PATH" masq/gcc -O2 -c -o obj/m.o hello.c || bad "masquerade gcc -> ccd failed"
gcc -O2 -c -o obj/ref.o hello.c
cmp -s obj/m.o obj/ref.o || bad "masquerade: object differs from gcc's"
PATH="$work/masq" "$CCD" --ccd-cc=gcc -c hello.c 2> ccd.err; got=$?
[ "$got" = 127 ] || bad "masquerade dir only in PATH: exit $got: $(cat ccd.err)"
# A hard link is ccd too (the same file under another path): the PATH
# search for the backend passes over it, whatever name ccd was started by.
mkdir -p hard
if ln "$CCD" hard/gcc 2>/dev/null; then
	PATH="$work/hard:$PATH" "$CCD" --ccd-cc=gcc -O2 -c -o obj/h.o hello.c 2> ccd.err ||
		bad "hard link gcc -> ccd in PATH: $(cat ccd.err)"
	cmp -s obj/h.o obj/ref.o || bad "hard link: object differs from gcc's"
fi

# Bad configuration: file:line, exit 1.
mkdir -p xdg/ccd && printf 'cc = gcc\nbogus = 1\n' > xdg/ccd/ccd.conf
"$CCD" -c hello.c 2> ccd.err; got=$?
[ "$got" = 1 ] && grep -q "ccd.conf:2: unknown key 'bogus'" ccd.err || bad "bad config: exit $got: $(cat ccd.err)"
rm -rf xdg
if [ "$(cd "$work" && "$CCD" --ccd-cc=gcc --ccd-identity | sed -n 's/^passes: //p')" != none ]; then
	# Only meaningful once asmfix has passes (the placeholder accepts any list).
	CCD_PASSES=no-such-pass "$CCD" --ccd-cc=gcc -c hello.c 2>/dev/null && bad "unknown pass accepted"
fi
"$CCD" --ccd-bogus -c hello.c 2> ccd.err && bad "unknown --ccd- option accepted"
end_test
