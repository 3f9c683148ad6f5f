# Duktape's JavaScript interpreter running a script.
pkg=duktape prog=duk
build() {
	# The same work every run, natively and under the model: the sort's
	# pivots come from a PRNG seeded with the clock and the heap's address,
	# and strings hash with a seed of that address (0.3 to 1.1 % of the
	# model's instructions moved between runs); both seeds fixed.
	sed -i -e 's/^\(\s*res->rnd_state\(\[0\]\)\{0,1\} = ([a-z0-9_]*) \)duk_time_get_ecmascript_time(res->heap_thread);/\10;/' \
		-e '/^\s*res->rnd_state\[1\] ^= tmp_u64;/d' \
		-e 's/^\(\s*res->hash_seed = \)(duk_uint32_t) (duk_uintptr_t) res;/\10x5381;/' src/duktape.c
	if grep -Eq 'rnd_state(\[0\])? = \([a-z0-9_]*\) duk_time_get|rnd_state\[1\] \^= tmp_u64|hash_seed = \(duk_uint32_t\) \(duk_uintptr_t\) res' \
		src/duktape.c; then
		echo "duktape.c: its seeds were not fixed (another version?)" >&2
		return 1
	fi
	# print() comes from the print-alert extra.
	$CC $CFLAGS $LDFLAGS -Isrc -Iexamples/cmdline -Iextras/print-alert \
		-DDUK_CMDLINE_PRINTALERT_SUPPORT src/duktape.c examples/cmdline/duk_cmdline.c \
		extras/print-alert/duk_print_alert.c -lm -o duk
}
measure=("$INPUTS/work.js")
train=("$INPUTS/train.js")
