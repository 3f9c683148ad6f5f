# brotli at quality 7 (hash chains, context modelling).
pkg=brotli prog=brotli
build() {
	$CC $CFLAGS $LDFLAGS -Ic/include c/common/*.c c/dec/*.c c/enc/*.c c/tools/brotli.c -lm -o brotli
}
measure=(-c -q 7 "$IN/kernel.c")
train=(-c -q 7 "$IN/ext4.c")
