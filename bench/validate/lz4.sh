# lz4 at level 9 (its high-compression match finder).
pkg=lz4 prog=lz4
build() {
	# Debian's Makefile links the program to the system's liblz4: the
	# library's sources compiled in instead.
	$CC $CFLAGS $LDFLAGS -Ilib -o lz4 lib/lz4.c lib/lz4hc.c lib/lz4frame.c lib/xxhash.c \
		programs/*.c
}
measure=(-c -9 "$IN/kernel.c")
train=(-c -9 "$IN/ext4.c")
