#!/bin/bash
# Backend profiles with the real compilers: the family is asked of the
# compiler (not read off its name) and cached; a compiler ccd does not know
# gets the conservative generic profile and still builds gcc's own object;
# a [profile NAME] in ccd.conf changes what the backend receives.
# Usage: profiles.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" || exit 1
cat > t.c <<'C'
#include <stdio.h>
int counter;
int main(void) { printf("%d\n", counter + 42); return 0; }
C
mkdir bin
cache=$XDG_CACHE_HOME/ccd

family() { "$CCD" "$@" --ccd-identity > id.txt; sed -n 's/^family: //p' id.txt; }

# Asked, not guessed: gcc under a name that says nothing is still gcc.
ln -s "$(command -v gcc)" bin/mycompiler
f=$(family --ccd-cc="$work/bin/mycompiler")
[ "$f" = "gcc (predefined macro __GNUC__)" ] || bad "gcc under another name: family '$f'"
grep -q "(profile gcc," id.txt || bad "gcc under another name: $(head -2 id.txt)"
f=$(family --ccd-cc=clang)
[ "$f" = "clang (predefined macro __clang__)" ] || bad "clang: family '$f'"
if command -v pcc >/dev/null; then
	f=$(family --ccd-cc=pcc)
	[ "$f" = "pcc (predefined macro __PCC__)" ] || bad "pcc (it defines __GNUC__ too): family '$f'"
fi

# Cached: one file per compiler file, said by --ccd-verbose, same identity.
ls "$cache"/family-* > cached.txt 2>/dev/null
[ "$(wc -l < cached.txt)" -ge 2 ] || bad "no family cache files in $cache"
"$CCD" --ccd-cc=clang --ccd-verbose -c -o c.o t.c 2> v.txt || bad "clang compile"
grep -q "family clang (predefined macro __clang__, cached)" v.txt || bad "not from the cache: $(head -1 v.txt)"
# A damaged cache file is asked again and rewritten.
for c in "$cache"/family-*; do printf 'gc' > "$c"; done
f=$(family --ccd-cc=clang)
[ "$f" = "clang (predefined macro __clang__)" ] || bad "damaged cache: family '$f'"
grep -lqx clang "$cache"/family-* || bad "damaged cache not rewritten"
# No cache directory to write: every run asks, and works.
f=$(XDG_CACHE_HOME=/proc/nonexistent family --ccd-cc=clang)
[ "$f" = "clang (predefined macro __clang__)" ] || bad "without a cache: family '$f'"

# A compiler that cannot say (refuses -dM): named by its file name, generic.
cat > bin/mycc <<'SH'
#!/bin/sh
case " $* " in *" -dM "*) echo "mycc: unknown option -dM" >&2; exit 1 ;; esac
exec gcc "$@"
SH
chmod +x bin/mycc
export PATH="$work/bin:$PATH"
f=$(family --ccd-cc=mycc)
[ "$f" = "generic (no answer to -E -dM; guessed from the name 'mycc')" ] || bad "mycc: family '$f'"
grep -q "(profile generic," id.txt || bad "mycc: $(head -2 id.txt)"
# ... and still builds correct objects: gcc's own, byte for byte.
gcc -O2 -c -o ref.o t.c
CCD_PASSES=none "$CCD" --ccd-cc=mycc --ccd-verbose -O2 -c -o gen.o t.c 2> v.txt || bad "generic compile"
cmp -s gen.o ref.o || bad "generic, no pass: not gcc's own object"
grep -q -- "-dumpdir" v.txt && bad "generic got gcc's -dumpdir: $(grep run: v.txt)"
grep -q "run: [^ ]*/mycc -D__CCD__=1 -O2 -S -o " v.txt || bad "generic backend argv: $(grep run: v.txt)"
"$CCD" --ccd-cc=mycc -O2 -c -o gen.o t.c && gcc -o prog gen.o && [ "$(./prog)" = 42 ] ||
	bad "generic: the program"
# A dependency file ccd cannot vouch for is refused: exit 1, said, no object.
cp ref.o dep.o
"$CCD" --ccd-cc=mycc -MD -c -o dep.o t.c 2> err.txt && bad "generic -MD was not refused"
grep -q "profile generic.*deps = yes" err.txt || bad "generic -MD message: $(cat err.txt)"
[ -e dep.o ] && bad "generic -MD left an object from before"
[ -e dep.d ] && bad "generic -MD wrote a dependency file"

# A user profile changes what the backend receives.
mkdir -p "$XDG_CONFIG_HOME/ccd"
conf=$XDG_CONFIG_HOME/ccd/ccd.conf
"$CCD" --ccd-cc=mycc -fbogus-flag -Wkernel -c -o u.o t.c 2>/dev/null &&
	bad "gcc accepted -fbogus-flag (the next check would prove nothing)"
cat > "$conf" <<'EOF'
[profile mycc]
family = gcc
deps = yes
drop = -fbogus-flag | mycc has no such flag
translate = -Wkernel -Wall | mycc's name for the kernel's warning set
EOF
"$CCD" --ccd-cc=mycc --ccd-verbose -fbogus-flag -Wkernel -MD -O2 -c -o u.o t.c 2> v.txt ||
	bad "user profile compile: $(cat v.txt)"
grep -q "profile mycc, family gcc (\[profile mycc\] at $conf:2 names the compiler file)" v.txt ||
	bad "user profile not chosen: $(head -1 v.txt)"
grep "run: [^ ]*/mycc " v.txt > run.txt
grep -q -- " -Wall -MD -O2 -S " run.txt || bad "translate row not applied: $(cat run.txt)"
grep -q -- "-fbogus-flag\|-Wkernel" run.txt && bad "rows not applied: $(cat run.txt)"
grep -q -- "-MF u.d -MQ u.o$" run.txt || bad "family gcc's derived names: $(cat run.txt)"
# Side files named from -o: family gcc's -dumpdir/-dumpbase.
"$CCD" --ccd-cc=mycc --ccd-verbose -fstack-usage -O2 -c -o su.o t.c 2> v.txt || bad "-fstack-usage compile"
grep -q -- "-dumpdir '' -dumpbase su$" v.txt || bad "family gcc, side files: $(grep run: v.txt)"
[ -f su.su ] || bad "-fstack-usage: no su.su (gcc's name for it)"
gcc -Wall -MD -O2 -c -o uref.o t.c
cmp -s u.o uref.o || bad "user profile: not gcc's own object"
[ "$(head -c 5 u.d)" = "u.o: " ] || bad "user profile: dependency target: $(head -1 u.d)"
# Passthrough sees the rows too (probes answer for what compiles get).
"$CCD" --ccd-cc=mycc -fbogus-flag -E t.c > pp.txt || bad "passthrough with a dropped flag"
# The 'profile' key wins over the file name; a built-in family can be changed.
cat >> "$conf" <<'EOF'
[profile gcc]
as_flags = --fatal-warnings
EOF
CCD_PROFILE=gcc "$CCD" --ccd-cc=mycc --ccd-verbose -c -o f.o t.c 2> v.txt || bad "CCD_PROFILE=gcc"
grep -q "profile gcc, family gcc (the 'profile' setting)" v.txt || bad "CCD_PROFILE: $(head -1 v.txt)"
grep -q "run: .*as --64 --fatal-warnings -o f.o " v.txt || bad "[profile gcc] as_flags: $(grep as v.txt)"
CCD_PROFILE=nosuch "$CCD" --ccd-cc=mycc -c -o f.o t.c 2> err.txt && bad "unknown profile accepted"
grep -q "no backend profile 'nosuch'" err.txt || bad "unknown profile message: $(cat err.txt)"

# Mistakes in a profile name the file and line, and nothing runs.
printf '[profile x]\ndrop = -fx\n' > "$conf"
"$CCD" --ccd-cc=mycc -c -o e.o t.c 2> err.txt && bad "a row without a reason was accepted"
grep -q "$conf:2: drop: give a reason" err.txt || bad "no-reason message: $(cat err.txt)"
printf '[profile x]\nas_style = gnu\n' > "$conf"
"$CCD" --ccd-cc=mycc -c -o e.o t.c 2> err.txt && bad "a bad as_style was accepted"
grep -q "$conf:2: as_style: 'gnu' is not one of gcc, clang, plain" err.txt || bad "as_style message: $(cat err.txt)"
printf '[profil x]\n' > "$conf"
"$CCD" --ccd-cc=mycc -c -o e.o t.c 2> err.txt && bad "an unknown section was accepted"
grep -q "$conf:1: unknown section" err.txt || bad "section message: $(cat err.txt)"
[ -e e.o ] && bad "a configuration error left an object"
end_test
