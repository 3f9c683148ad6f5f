#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fault injection, hostile input and concurrency tests (suite 'faults').
#   faults.sh CASE      with CCD, ASMFIX, LKD set to the built programs.
# Real gcc and GNU as throughout; a fake backend only where the fault is the
# backend's own (it dies, it hangs), to test ccd's reaction.  Every ccd case
# checks: exit status or signal, a message naming the cause, no object at
# the output path, nothing left in the private TMPDIR, no child running.
set -u
case_=${1:?usage: faults.sh CASE}
CHECK_CONTEXT=$case_
: "${CCD:?}" "${ASMFIX:?}" "${LKD:?}"
tried=0
work=$(mktemp -d "${TMPDIR:-/tmp}/ccd-faults.XXXXXX")
cleanup() {
	for m in $(grep -o " ${work}[^ ]*" /proc/mounts | sort -r); do umount "$m"; done
	chmod -R u+w "$work" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR" "$work/bin"
unset CCD_CC CCD_AS CCD_PASSES CCD_ASSEM CCD_VERBOSE CCD_STRICT CCD_KEEP_PREFIX _CCD_SAFEGUARD \
	LKD_LD LKD_CHECKS DEPENDENCIES_OUTPUT SUNPRO_DEPENDENCIES
export CCD_SYSTEM_CONFIG=/nonexistent/ccd.conf XDG_CONFIG_HOME=$work/xdg LC_ALL=C
cd "$work" || exit 1

. "$(dirname "$0")/../lib/check.sh"
note() { echo "  $*"; }

# run NAME CMD...: runs CMD, stderr to $work/err, exit status to $rc.
run() {
	local n=$1; shift
	tried=$((tried + 1))
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	cur=$n
}
# Exit status: "fail" any non-zero not from a signal; "sig:NAME" death by NAME
# or exit 128+NAME; "sig-or-fail" either.  Then the message must match $3.
expect() {
	local want=$1 msg=$2 out=${3:-}
	local sigrc=
	case $want in
	fail) [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] ||
		bad "$cur: exit $rc, want a plain failure (1..127)";;
	sig:*) sigrc=$((128 + $(kill -l "${want#sig:}")))
		[ "$rc" = "$sigrc" ] || bad "$cur: exit $rc, want death by SIG${want#sig:} ($sigrc)";;
	sig-or-fail) [ "$rc" -ne 0 ] || bad "$cur: exit 0, want a failure";;
	esac
	[ -z "$msg" ] || grep -qiE -- "$msg" "$work/err" ||
		bad "$cur: message does not match /$msg/: $(head -c 400 "$work/err")"
	if [ -n "$out" ] && [ -e "$out" ]; then
		bad "$cur: output $out exists ($(stat -c %s "$out") bytes) after the failure"
		rm -f "$out"
	fi
	check_tmp
}
check_tmp() {
	if [ -n "$(ls -A "$TMPDIR")" ]; then
		bad "$cur: left in TMPDIR: $(ls -A "$TMPDIR" | tr '\n' ' ')"
		rm -rf "${TMPDIR:?}"/* "$TMPDIR"/.[!.]* 2>/dev/null
	fi
}
# No process still running with $1 (a path in our private $work) in its command line.
check_children() {
	local pids
	sleep 0.2
	pids=$(pgrep -f -- "$1")
	[ -z "$pids" ] || { bad "$cur: children left running: $(ps -o pid,args -p "$pids" | tail -n +2)";
		kill $pids 2>/dev/null; }
}

ok_c() { printf 'int %s(int x) { return x * 3 + %d; }\n' "${2:-f}" "${3:-1}" >"$1"; }

# A backend that behaves like gcc except for the -S compile, where it does
# what $FAKE_MODE says.  Its pid goes to $work/backend.pid.
fake_backend() {
	cat >"$work/bin/fakecc" <<'EOS'
#!/bin/bash
case " $* " in *" -S "*) ;; *) exec gcc "$@";; esac
out=
prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
echo $$ >"$FAKE_DIR/backend.pid"
# Part of real assembly first, as a dying compiler would leave it.
printf '\t.text\n\t.globl f\nf:\n\tmovl %%edi, %%eax\n' >"$out"
case $FAKE_MODE in
exit3) echo "fakecc: error: told to fail" >&2; exit 3;;
kill) kill -KILL $$;;
segv) kill -SEGV $$;;
slow) exec -a "$FAKE_DIR/sleeper" sleep 60;;
esac
EOS
	chmod +x "$work/bin/fakecc"
	export FAKE_DIR=$work
}

case_backend() {
	# Real gcc, a syntax error: gcc's exit status, its file:line message.
	printf 'int f(void) { return 1 +; }\n' >bad.c
	: >bad.o   # a stale object must not survive a failed compile
	run backend-syntax "$CCD" gcc -c bad.c -o bad.o
	expect fail 'bad\.c:1' bad.o
	fake_backend
	ok_c a.c
	for m in exit3 kill segv; do
		run "backend-$m" env FAKE_MODE=$m "$CCD" --ccd-cc="$work/bin/fakecc" -c a.c -o a.o
		case $m in
		exit3) expect fail 'told to fail' a.o
			[ "$rc" = 3 ] || bad "$cur: exit $rc, want the backend's 3";;
		kill) expect sig-or-fail 'fakecc.*(kill|signal)' a.o;;
		segv) expect sig-or-fail 'fakecc.*(segmentation|signal|SIGSEGV)' a.o;;
		esac
		check_children "$work/"
	done
}

case_as() {
	ok_c a.c
	run as-missing env CCD_AS=/nonexistent/as "$CCD" gcc -c a.c -o a.o
	expect fail '/nonexistent/as' a.o
	# The real as, rejecting what the compiler emitted.
	printf 'void f(void) { __asm__("no_such_insn %%eax"); }\n' >insn.c
	run as-rejects "$CCD" gcc -c insn.c -o insn.o
	expect fail 'no_such_insn' insn.o
	# An assembler that writes half an object and fails.
	printf '#!/bin/sh\nfor a; do o=$a; done\nfor a; do [ "$p" = -o ] && o=$a; p=$a; done\nhead -c 100 /bin/sh >"$o"; echo "fakeas: out of luck" >&2; exit 1\n' >"$work/bin/fakeas"
	chmod +x "$work/bin/fakeas"
	run as-fails-midway env CCD_AS="$work/bin/fakeas" "$CCD" gcc -c a.c -o a.o
	expect fail 'out of luck' a.o
}

case_output() {
	ok_c a.c
	: >file
	run out-parent-is-file "$CCD" gcc -c a.c -o file/a.o
	expect fail 'file/a\.o' ""
	# A read-only filesystem: root ignores permission bits, not MS_RDONLY.
	mkdir ro
	if mount -t tmpfs -o ro,size=64k tmpfs ro 2>/dev/null; then
		run out-readonly-fs "$CCD" gcc -c a.c -o ro/a.o
		expect fail 'ro/a\.o' ro/a.o
	else
		note "skipped out-readonly-fs: cannot mount a tmpfs (not root?)"
	fi
	# Disk full: a 64 KiB tmpfs, an object of ~200 KiB (small assembly).
	printf 'char big[200000] = { 1 };\nint f(void) { return big[9]; }\n' >big.c
	mkdir full
	if mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
		run out-disk-full "$CCD" gcc -c big.c -o full/big.o
		expect fail 'full/big\.o|space' full/big.o
		# asmfix with 2.5 MB of input, more than the disk holds: it reserves
		# blocks first (lib/fileio.c), then the writes fail.  Exit 3 (I/O),
		# the cause named, with -o nothing at OUT; the disk is empty again.
		{ printf '\t.section .debug_str,"MS",@progbits,1\n'
		  yes '	.string "xxxxxxxxxxxxxxxxxxxxxxxx"' | head -n 80000; } >bigasm.s
		run asmfix-o-disk-full "$ASMFIX" bigasm.s -o full/big.s
		[ "$rc" = 3 ] || bad "$cur: exit $rc, want 3"
		expect fail 'full/big\.s.*space' full/big.s
		run asmfix-stdout-disk-full sh -c '"$1" "$2" >full/big.s' - "$ASMFIX" bigasm.s
		[ "$rc" = 3 ] || bad "$cur: exit $rc, want 3"
		expect fail 'cannot write output: no space' ""
		rm -f full/big.s
		[ -z "$(ls -A full)" ] || bad "asmfix left on the full disk: $(ls -A full)"
		# ccd --assem=both keeps the backend's assembly (~200 KiB here) next
		# to the object: the copy fails, and no truncated .raw.S is left.
		{ printf 'int tbl[] = {'; seq -s, 1 20000; printf '};\n'; } >bigtbl.c
		run assem-raw-disk-full "$CCD" gcc --assem=both -c bigtbl.c -o full/bigtbl.o
		expect fail 'full/bigtbl\.c\.raw\.S.*space' full/bigtbl.o
		[ -z "$(ls -A full)" ] || bad "$cur: left on the full disk: $(ls -A full)"
	else
		note "skipped out-disk-full: cannot mount a tmpfs (not root?)"
	fi
	# File size limit (RLIMIT_FSIZE) while as writes the object.
	run out-ulimit-f bash -c 'ulimit -f 64; exec "$@"' - "$CCD" gcc -c big.c -o big.o
	expect sig-or-fail 'big\.o|file size|signal' big.o
}

case_signals() {
	# The programs keep a signal ignored as they found it (nohup), and a
	# shell cannot undo what it was started with ignored: a suite run under
	# nohup, or in the background of a shell without job control, would
	# wait here forever.  So they start with every signal at its default.
	local DEFSIG="env --default-signal"
	fake_backend
	ok_c a.c
	for s in INT TERM; do
		rm -f "$work/backend.pid"
		tried=$((tried + 1)); cur=signal-$s
		set -m	# a background job that does not ignore SIGINT
		FAKE_MODE=slow $DEFSIG "$CCD" --ccd-cc="$work/bin/fakecc" -c a.c -o a.o 2>"$work/err" &
		pid=$!
		set +m
		for _ in $(seq 100); do [ -s "$work/backend.pid" ] && break; sleep 0.05; done
		[ -s "$work/backend.pid" ] || bad "$cur: the backend never started"
		sleep 0.1
		kill -$s $pid
		wait $pid
		rc=$?
		expect "sig:$s" '' a.o
		check_children "$work/sleeper"
	done
	# asmfix -o, stopped while its input is still coming: it dies of the
	# signal and leaves neither its temp file nor OUT (it spawns nothing:
	# the cleanup is the temp-file module's alone).
	mkfifo asm.fifo
	for s in INT TERM HUP; do
		tried=$((tried + 1)); cur=asmfix-signal-$s
		set -m
		$DEFSIG "$ASMFIX" -o out.s asm.fifo 2>"$work/err" &
		pid=$!
		set +m
		exec 3>asm.fifo
		printf '\t.text\nf:\n\tret\n' >&3
		for _ in $(seq 100); do [ -n "$(ls -A "$TMPDIR")" ] && break; sleep 0.05; done
		[ -n "$(ls -A "$TMPDIR")" ] || bad "$cur: no temp file while asmfix ran"
		kill -$s $pid
		wait $pid
		rc=$?
		exec 3>&-
		expect "sig:$s" '' out.s
	done
}

# Hostile file names, compiled through ccd and by gcc -c: same object.
case_names() {
	local names=("with space.c" "quote'single.c" 'quote"double.c' $'new\nline.c'
		"-dash.c" $'\xff\xfe-latin.c' 'back\slash.c' '$(touch pwned).c' '*.c')
	local i=0
	for n in "${names[@]}"; do
		i=$((i + 1))
		mkdir -p "n$i/ccd" "n$i/gcc"
		ok_c "n$i/ccd/$n" "f$i" "$i"; ok_c "n$i/gcc/$n" "f$i" "$i"
		(cd "n$i/gcc" && gcc -O2 -c "./$n" -o "./${n%.c}.o") || { bad "gcc on '$n'"; continue; }
		(cd "n$i/ccd" && run "name-$i" "$CCD" gcc -O2 -c "./$n" -o "./${n%.c}.o"
		 [ "$rc" = 0 ] || echo "FAIL [$case_]: ccd on '$n': exit $rc: $(cat "$work/err")")
		tried=$((tried + 1))
		cmp -s "n$i/gcc/${n%.c}.o" "n$i/ccd/${n%.c}.o" ||
			bad "object for '$n' differs from gcc -c (or is missing)"
		# And without ./ (the name as make would pass it), output by default name.
		if [ "${n#-}" = "$n" ]; then
			(cd "n$i/ccd" && rm -f "${n%.c}.o" && "$CCD" gcc -O2 -c "$n" 2>"$work/err") ||
				bad "ccd -c '$n' (default output): $(cat "$work/err")"
			cmp -s "n$i/gcc/${n%.c}.o" "n$i/ccd/${n%.c}.o" ||
				bad "default-named object for '$n' differs from gcc -c"
			tried=$((tried + 1))
		fi
		check_tmp
	done
	[ ! -e pwned ] && [ ! -e "n$(( ${#names[@]} - 1 ))/ccd/pwned" ] || bad "a file name was run by a shell"
}

# asmfix on hostile assembly: exit 0, or 1 with "file:line:" — never a crash
# or a hang, and with -o never a partial output.
asmfix_try() {
	local n=$1 f=$2
	tried=$((tried + 1)); cur=asmfix-$n
	rm -f out.s
	timeout 20 "$ASMFIX" -o out.s "$f" 2>"$work/err"
	rc=$?
	case $rc in
	0) [ -f out.s ] || bad "$cur: exit 0 but no output";;
	1) grep -qE "^(asmfix: error: .*$f|$f:[0-9]+:)" "$work/err" ||
		bad "$cur: exit 1 without a message naming $f and a line: $(head -c 300 "$work/err")"
	   [ ! -e out.s ] || bad "$cur: failed but left out.s";;
	124) bad "$cur: hangs (killed after 20 s)";;
	*) bad "$cur: exit $rc: $(head -c 300 "$work/err")";;
	esac
	ls out.s.asmfix-* >/dev/null 2>&1 && bad "$cur: temp output left next to out.s"
	check_tmp
}
case_asmfix() {
	local gen
	{ printf '\t.text\n\t.globl f\nf:\n\tmovl $'; head -c 1048576 /dev/zero | tr '\0' 1; printf ', %%eax\n\tret\n'; } >longline.s
	{ printf '\t.text\nf:\n# '; head -c 1048576 /dev/zero | tr '\0' x; printf '\n\tret\n'; } >longcomment.s
	{ printf '\t.section .altinstructions,"a"\n\t.long '; head -c 1048576 /dev/zero | tr '\0' 9; } >long-noeol.s
	printf '\t.text\nf:\n\tmovl $1,\0 %%eax\n\t.string "a\0b"\n\tret\n' >nul.s
	head -c 4096 /dev/urandom >random.s
	printf '\t.section .rodata\n\t.string "never closed\n\tret\n' >unterminated-string.s
	printf '\t.text\nf:\n/* never closed\n\tret\n' >unterminated-comment.s
	printf '\t.text\n\t.popsection\n\t.popsection\n\tret\n' >pop-empty.s
	printf '\t.text\n\t.previous\n\t.previous\n\t.subsection 3\n\t.previous\n' >previous.s
	{ for i in $(seq 2000); do printf '\t.pushsection .text.%d,"ax"\n' "$i"; done; printf '\tret\n'; } >push-deep.s
	printf '\t.pushsection .altinstructions,"a"\n\t.long 661b - .\n' >push-unclosed.s
	printf '\t.section\n\t.pushsection\n\t.section ,\n\t.pushsection "\n' >section-no-name.s
	printf '\t.altinstr_replacement\n663:\n\t.popsection\n664:\n\t.byte 664b-663b\n' >alt-odd.s
	printf '\t.macro m\n\t.pushsection .x\n\t.endm\n\tm\n\t.popsection\n\t.popsection\n' >macro.s
	printf '\xff\xfe\t.text\n\xc3\x28:\n\tlock; \xe2\x82\n' >non-utf8.s
	for gen in longline longcomment long-noeol nul random unterminated-string \
		unterminated-comment pop-empty previous push-deep push-unclosed \
		section-no-name alt-odd macro non-utf8; do
		asmfix_try "$gen" "$gen.s"
	done
	: >empty.s
	asmfix_try empty empty.s
}

# lkd --lkd-verify on truncated and mangled ELF: exit 2, naming the file.
case_lkd() {
	local n
	gcc -O2 -c -o whole.o -x c - <<<'int g; int f(void) { return g; }' || return
	n=$(stat -c %s whole.o)
	for len in 0 1 4 16 52 63 64 65 128 $((n / 2)) $((n - 64)) $((n - 1)); do
		head -c "$len" whole.o >"t$len.o"
		run "lkd-trunc-$len" "$LKD" --lkd-verify "t$len.o"
		[ "$rc" = 2 ] || bad "$cur: exit $rc, want 2 (malformed)"
		grep -q "t$len\.o" "$work/err" || bad "$cur: message does not name t$len.o: $(head -c 300 "$work/err")"
		check_tmp
	done
	# Section header table pointing past the end; e_shnum huge.
	cp whole.o shoff.o; printf '\xff\xff\xff\x7f' | dd of=shoff.o bs=1 seek=40 conv=notrunc 2>/dev/null
	cp whole.o shnum.o; printf '\xff\xff' | dd of=shnum.o bs=1 seek=60 conv=notrunc 2>/dev/null
	for f in shoff shnum; do
		run "lkd-$f" "$LKD" --lkd-verify "$f.o"
		[ "$rc" = 2 ] || bad "$cur: exit $rc, want 2 (malformed)"
		grep -q "$f\.o" "$work/err" || bad "$cur: message does not name $f.o"
	done
	# As an ld input: lkd must refuse before ld, and leave no output.
	run lkd-link-trunc "$LKD" -r -o linked.o "t$((n / 2)).o"
	expect fail "t$((n / 2))\.o" linked.o
}

# Symlinks planted in TMPDIR at temp-file-like names: never followed.
case_symlink() {
	local i target=$work/precious
	echo "do not touch" >"$target"; chmod 644 "$target"
	local before; before=$(stat -c '%s %Y %a' "$target")
	for i in $(seq 300); do
		ln -s "$target" "$TMPDIR/ccd$(head -c 32 /dev/urandom | tr -dc A-Za-z0-9 | head -c 6).s"
	done
	for n in ccd.s ccd000000.s ccdXXXXXX.s ccd-$$.s a.s a.o a.i a.S; do ln -sf "$target" "$TMPDIR/$n"; done
	ok_c a.c; mkdir g; (cd g && ok_c a.c && gcc -O2 -c a.c)
	for i in $(seq 20); do
		run "symlink-$i" "$CCD" gcc -O2 -c a.c -o a.o
		[ "$rc" = 0 ] || bad "$cur: exit $rc: $(cat "$work/err")"
		cmp -s a.o g/a.o || bad "$cur: object differs from gcc -c"
	done
	[ "$(cat "$target")" = "do not touch" ] && [ "$(stat -c '%s %Y %a' "$target")" = "$before" ] ||
		bad "the symlink target was written"
	[ "$(find "$TMPDIR" -type f | wc -l)" = 0 ] || bad "temp files left: $(find "$TMPDIR" -type f)"
	find "$TMPDIR" -type l -delete
}

# 200 compiles at once into one directory; make -j4 of 50 files.
case_parallel() {
	local i pids=
	mkdir -p p/src p/ccd p/gcc
	for i in $(seq 200); do ok_c "p/src/f$i.c" "f$i" "$i"; done
	(cd p/src && for i in $(seq 200); do gcc -O2 -c "f$i.c" -o "../gcc/f$i.o"; done)
	cd p/src || return
	for i in $(seq 200); do "$CCD" gcc -O2 -c "f$i.c" -o "../ccd/f$i.o" 2>>"$work/err.par" & done
	wait
	cd "$work" || return
	for i in $(seq 200); do
		tried=$((tried + 1))
		cmp -s "p/gcc/f$i.o" "p/ccd/f$i.o" || bad "parallel: f$i.o differs from gcc -c"
	done
	[ -s "$work/err.par" ] && bad "parallel: messages: $(head -c 300 "$work/err.par")"
	cur=parallel; check_tmp
	mkdir -p m/ccd m/gcc
	for i in $(seq 50); do ok_c "m/ccd/u$i.c" "u$i" "$i"; cp "m/ccd/u$i.c" m/gcc/; done
	printf 'OBJS := $(patsubst %%.c,%%.o,$(wildcard *.c))\nall: $(OBJS)\n%%.o: %%.c\n\t$(CC) -O2 -c $< -o $@\n' >m/Makefile
	make -s -C m/gcc -f ../Makefile -j4 CC=gcc || bad "make with gcc failed"
	make -s -C m/ccd -f ../Makefile -j4 CC="$CCD gcc" 2>"$work/err" || bad "make -j4 CC=ccd failed: $(head -c 300 "$work/err")"
	for i in $(seq 50); do
		tried=$((tried + 1))
		cmp -s "m/gcc/u$i.o" "m/ccd/u$i.o" || bad "make -j4: u$i.o differs from gcc -c"
	done
	cur="make -j4"; check_tmp
}

"case_$case_"
echo "$case_: $tried tried"
finish
