# mawk counting words (hash tables, regular expressions, fields).
pkg=mawk prog=mawk
build() { ./configure -q CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" >/dev/null && make -s mawk; }
measure=(-f "$INPUTS/words.awk" "$IN/kernel.c")
train=(-f "$INPUTS/words.awk" "$IN/ext4.c")
