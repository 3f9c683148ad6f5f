# xz at preset 1 (LZMA2: a range coder, a hash-chain match finder).
pkg=xz-utils prog=src/xz/xz
build() {
	./configure -q CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" --disable-shared --disable-nls \
		--disable-threads --disable-xzdec --disable-lzmadec --disable-lzmainfo \
		--disable-lzma-links --disable-scripts --disable-doc >/dev/null &&
		make -s -C src/liblzma && make -s -C src/xz
}
measure=(-c -1 "$IN/kernel.c")
train=(-c -1 "$IN/ext4.c")
