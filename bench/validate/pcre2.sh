# pcre2grep matching several regular expressions (the interpreter, no JIT),
# the input ten times over.
pkg=pcre2 prog=pcre2grep
build() {
	./configure -q CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" --disable-shared \
		--disable-jit --disable-pcre2grep-libz --disable-pcre2grep-libbz2 >/dev/null &&
		make -s pcre2grep
}
measure=(-c -e 'static\s+\w+\s+\*?\w+\(' -e '(spin|mutex)_(un)?lock\w*\(' -e '\b0x[0-9a-f]{4,}\b' \
	$(for i in $(seq 10); do echo "$IN/kernel.c"; done))
train=(-c -e '\bstruct\s+\w+\s*\{' -e 'if\s*\(.*&&.*\)' "$IN/ext4.c")
