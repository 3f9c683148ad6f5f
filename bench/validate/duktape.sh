# Duktape's JavaScript interpreter running a script.
pkg=duktape prog=duk
build() {
	# print() comes from the print-alert extra.
	$CC $CFLAGS $LDFLAGS -Isrc -Iexamples/cmdline -Iextras/print-alert \
		-DDUK_CMDLINE_PRINTALERT_SUPPORT src/duktape.c examples/cmdline/duk_cmdline.c \
		extras/print-alert/duk_print_alert.c -lm -o duk
}
measure=("$INPUTS/work.js")
train=("$INPUTS/train.js")
