# SQLite's shell running SQL (B-trees, its bytecode engine, sorting).
pkg=sqlite3 prog=sqlite3
build() {
	# The amalgamation is generated (tclsh), then compiled as one file.
	./configure -q >/dev/null && make -s sqlite3.c shell.c >/dev/null &&
		$CC $CFLAGS $LDFLAGS -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -I. \
			shell.c sqlite3.c -lm -o sqlite3
}
measure=(:memory:)
measure_stdin=$INPUTS/work.sql
train=(:memory:)
train_stdin=$INPUTS/train.sql
