# zstd at level 12 (lazy2 match finder, entropy coding).
pkg=libzstd prog=programs/zstd
build() {
	make -s -C programs CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" HAVE_ZLIB=0 HAVE_LZMA=0 \
		HAVE_LZ4=0 HAVE_THREAD=0 ZSTD_LEGACY_SUPPORT=0 zstd
}
measure=(-c -12 "$IN/kernel.c")
train=(-c -12 "$IN/ext4.c")
