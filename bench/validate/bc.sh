# GNU bc computing with arbitrary precision (its bytecode interpreter).
pkg=bc prog=bc/bc
build() {
	./configure -q CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" >/dev/null &&
		make -s -C lib && make -s -C bc
}
measure=(-l -q)
measure_stdin=$INPUTS/work.bc
train=(-l -q)
train_stdin=$INPUTS/train.bc
