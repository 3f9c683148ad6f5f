# zlib's minigzip: deflate at level 6 (hash chains, lazy matching).
pkg=zlib prog=minigzip
build() { CC=$CC CFLAGS=$CFLAGS LDFLAGS=$LDFLAGS ./configure --static >/dev/null && make -s minigzip; }
measure=(-c "$IN/kernel.c")
train=(-c "$IN/ext4.c")
