# The Tiny C Compiler compiling C (a compiler compiling a file).
pkg=tcc prog=tcc
build() {
	# LDFLAGS given to make: the Makefile's own adds -s, and the function
	# order of a stripped tcc cannot be read.
	./configure --cc="$CC" --extra-cflags="$CFLAGS" --extra-ldflags="$LDFLAGS" >/dev/null &&
		make -s tcc LDFLAGS="$LDFLAGS"
}
# tcc unlinks its output before writing it (as root, -o /dev/null would
# remove the device): a file of the suite's own.
# Duktape's one-file source (100,000 lines, standard headers only); the
# profile trains on brotli's encoder.
also=(duktape brotli)
measure=(-B"$V/src/tcc" -I"$V/src/tcc/include" -c "$V/src/duktape/src/duktape.c" -o "$OUT/tcc.o")
train=(-B"$V/src/tcc" -I"$V/src/tcc/include" -I"$V/src/brotli/c/include" -c "$V/src/brotli/c/enc/encode.c" -o "$OUT/tcc.o")
