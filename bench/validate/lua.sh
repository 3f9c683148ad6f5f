# Lua 5.4's interpreter running a script (tables, strings, closures).
pkg=lua5.4 prog=lua
build() {
	# Debian's Makefile wants libtool: the interpreter compiled directly,
	# with the header Debian's rules generate.
	# The same work every run: strings hash with a seed of the clock and
	# of addresses (0.05 % of the model's instructions moved between runs);
	# a fixed one.
	echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >src/lua5.4-deb-multiarch.h
	$CC $CFLAGS $LDFLAGS -std=gnu99 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX \
		'-Dluai_makeseed(L)=0x5381u' -o lua \
		$(ls src/*.c | grep -v 'src/luac\.c$') -lm
}
measure=("$INPUTS/work.lua" "$IN/kernel.c")
train=("$INPUTS/train.lua" "$IN/ext4.c")
