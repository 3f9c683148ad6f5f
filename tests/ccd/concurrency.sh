#!/bin/bash
# 200 concurrent compiles into one directory, and make -j8 with CC=ccd:
# no temp-name clash, no leftover temp or stray files, every object and
# dep file identical to gcc's.  Usage: concurrency.sh CCD SRCDIR
. "$(dirname "$0")/lib.sh"

cd "$work" && mkdir -p src out ref && cp "$SRC"/corpus/*.[ch] src/
srcs=(src/*.c)
# gcc's object and dep file name neither the -o nor the -MMD file (the
# target is the source's basename .o): one reference per source, not 200.
for k in "${!srcs[@]}"; do
	gcc -O0 -Wp,-MMD,ref/.s$k.d -c -o ref/s$k.o "${srcs[$k]}" &
done
wait
pids=()
for i in $(seq 0 199); do
	c=${srcs[$((i % ${#srcs[@]}))]}
	"$CCD" --ccd-cc=gcc -O0 -Wp,-MMD,out/.o$i.d -c -o out/o$i.o "$c" & pids+=($!)
done
for p in "${pids[@]}"; do wait $p || bad "a concurrent compile failed"; done
for i in $(seq 0 199); do
	k=$((i % ${#srcs[@]}))
	cmp -s out/o$i.o ref/s$k.o || bad "o$i.o differs from gcc's"
	cmp -s out/.o$i.d ref/.s$k.d || bad ".o$i.d differs from gcc's"
done
[ "$(ls -A out | wc -l)" = 400 ] || bad "stray files in out/: $(ls -A out | grep -v '^\.\?o[0-9]*\.[od]$')"
check_tmp "200 concurrent compiles"

# make -j8, Kbuild-style rule.
mkdir -p mk && cp src/* mk/ && cd mk
for i in 1 2; do for c in *.c; do cp $c v${i}_$c; done; done
cat > Makefile <<'MK'
SRCS := $(wildcard *.c)
all: $(SRCS:.c=.o)
%.o: %.c
	$(CC) -Wp,-MMD,.$@.d -O2 -g -c -o $@ $<
MK
make -s -j8 CC="$CCD --ccd-cc=gcc" || bad "make -j8 CC=ccd failed"
mkdir ../mkref && for o in *.o; do mv $o .$o.d ../mkref/; done
make -s -j8 CC=gcc || bad "make -j8 CC=gcc failed"
for o in *.o; do
	cmp -s $o ../mkref/$o && cmp -s .$o.d ../mkref/.$o.d || bad "make: $o or its dep file differs"
done
[ "$(ls ../mkref/*.o | wc -l)" = "$(ls *.o | wc -l)" ] || bad "make: object count differs"
end_test
