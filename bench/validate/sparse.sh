# sparse, the kernel's semantic checker, checking C (a C front end: lexing,
# preprocessing, parsing, type checking).
pkg=sparse prog=sparse
build() { make -s CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" sparse; }
# Duktape's one-file source (standard headers only); trained on brotli's encoder.
also=(duktape brotli)
measure=("$V/src/duktape/src/duktape.c")
train=(-I"$V/src/brotli/c/include" "$V/src/brotli/c/enc/encode.c")
