# nettle-hash: SHA3-256 in C (nettle's own assembly left out).
pkg=nettle prog=tools/nettle-hash
build() {
	./configure -q CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" --disable-assembler \
		--disable-shared --disable-documentation --disable-public-key --disable-openssl \
		>/dev/null && make -s libnettle.a && make -s -C tools nettle-hash
}
# The input twenty times over (one pass is 6 ms).
measure=(-a sha3_256 $(for i in $(seq 20); do echo "$IN/kernel.c"; done))
train=(-a sha3_256 "$IN/ext4.c")
