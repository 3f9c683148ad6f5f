# bzip2: block-sorting compression (Burrows-Wheeler; branchy sorting loops).
pkg=bzip2 prog=bzip2
build() {
	# Debian's Makefile links bzip2 to libbz2.so, which would load the
	# system's library at run time: the static one, built the same way.
	make -s CC="$CC" CFLAGS="$CFLAGS -D_FILE_OFFSET_BITS=64" libbz2.a bzip2.o &&
		$CC $CFLAGS $LDFLAGS -o bzip2 bzip2.o libbz2.a
}
measure=(-c -9 "$IN/kernel.c")
train=(-c -9 "$IN/ext4.c")
