# libdeflate's gzip: deflate at level 9 (near-optimal parsing).
pkg=libdeflate prog=gzip
build() { make -s CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" gzip; }
measure=(-c -9 "$IN/kernel.c")
train=(-c -9 "$IN/ext4.c")
