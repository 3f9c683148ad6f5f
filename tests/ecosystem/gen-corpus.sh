#!/bin/sh
# gen-corpus.sh DIR [N]: write a Kbuild-shaped C corpus of N translation
# units (default 32) under DIR: subdirectories like a kernel tree, a
# forced-include config header, shared headers, and a Makefile whose
# compile rule has Kbuild's shape (-nostdinc -isystem, -include,
# -Wp,-MMD,dir/.file.o.d, -c -o obj src).  Eight templates rotate so the
# corpus exercises different code generation: lists and inlines, jump
# tables, builtins, function-pointer tables and sections, bitfields and
# varargs, inline asm and cold paths, big const tables, recursion.
set -eu
dir=$1
n=${2:-32}
mkdir -p "$dir/include/linux"
cd "$dir"

cat > include/config.h <<'EOF'
#define CONFIG_SMP 1
#define CONFIG_NR_CPUS 64
#define CONFIG_HZ 250
EOF

cat > include/linux/common.h <<'EOF'
#ifndef COMMON_H
#define COMMON_H
#include <stdarg.h>
#include <stddef.h>
typedef __UINT32_TYPE__ uint32_t;	/* no libc headers under -nostdinc */
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __cold		__attribute__((cold))
#define __section(s)	__attribute__((section(s)))
#define barrier()	asm volatile("" ::: "memory")
struct list_head { struct list_head *next, *prev; };
static inline void list_add(struct list_head *n, struct list_head *h)
{
	n->next = h->next; n->prev = h; h->next->prev = n; h->next = n;
}
static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next; e->next->prev = e->prev;
}
static inline uint32_t rol32(uint32_t w, unsigned s)
{
	return (w << (s & 31)) | (w >> ((-s) & 31));
}
int printk(const char *fmt, ...);
#endif
EOF

cat > Makefile <<'EOF'
# Kbuild-shaped compile rule; CC may be "ccache ccd", "distcc ccd", ...
CC ?= gcc
SRCS := $(sort $(wildcard */*.c))
OBJS := $(SRCS:.c=.o)
KFLAGS := -nostdinc -isystem $(shell $(CC) -print-file-name=include) \
	-Iinclude -include include/config.h -D__KERNEL__ -std=gnu11 \
	-Wall -Wundef -Wno-unused-function -fno-strict-aliasing -fno-common \
	-fshort-wchar -fno-PIE -m64 -mno-sse -mno-mmx -mno-sse2 -mno-3dnow \
	-mno-avx -mno-red-zone -mcmodel=kernel -fno-asynchronous-unwind-tables \
	-fno-stack-protector -fno-delete-null-pointer-checks -O2 -g \
	$(EXTRA_CFLAGS)
all: $(OBJS)
%.o: %.c
	$(CC) -Wp,-MMD,$(@D)/.$(@F).d $(KFLAGS) \
		-DKBUILD_MODNAME='"$(notdir $(@D))"' -DKBUILD_BASENAME='"$(notdir $*)"' \
		-c -o $@ $<
clean:
	rm -f $(OBJS) $(foreach o,$(OBJS),$(dir $(o)).$(notdir $(o)).d)
.PHONY: all clean
EOF

dirs="kernel mm fs lib drivers net"
i=0
while [ "$i" -lt "$n" ]; do
	set -- $dirs
	shift $((i % 6))
	d=$1
	mkdir -p "$d"
	f=$d/f$i.c
	k=$((i * 7 + 3))
	{
	echo "/* generated: template $((i % 8)), unit $i */"
	echo '#include <linux/common.h>'
	case $((i % 8)) in
	0) cat <<EOF
struct item$i { struct list_head node; int key; unsigned long val; };
static struct list_head head$i = { &head$i, &head$i };
void insert$i(struct item$i *it) { list_add(&it->node, &head$i); }
unsigned long sum$i(void)
{
	unsigned long s = 0;
	for (struct list_head *p = head$i.next; p != &head$i; p = p->next)
		s += ((struct item$i *)((char *)p - offsetof(struct item$i, node)))->val * $k;
	return s;
}
void drop$i(struct item$i *it) { list_del(&it->node); }
EOF
	;;
	1) cat <<EOF
enum st$i { A$i, B$i, C$i, D$i, E$i, F$i, G$i };
int step$i(enum st$i s, int x)
{
	switch (s) {
	case A$i: return x + $k;
	case B$i: return x * 3;
	case C$i: return x ^ 0x5a5a;
	case D$i: return x >> 2;
	case E$i: return -x;
	case F$i: return x & $k;
	case G$i: return x | 1;
	}
	return 0;
}
int run$i(const unsigned char *p, int n)
{
	int x = 0;
	while (n--)
		x = step$i((enum st$i)(*p++ % 7), x);
	return x;
}
EOF
	;;
	2) cat <<EOF
uint32_t hash$i(const char *s, size_t n)
{
	uint32_t h = $k;
	for (size_t j = 0; j < n; j++)
		h = rol32(h ^ (unsigned char)s[j], 5) * 0x9e3779b1u;
	return h;
}
int bits$i(unsigned long x) { return __builtin_popcountl(x) + __builtin_ctzl(x | 1); }
void copy$i(void *d, const void *s, size_t n) { __builtin_memcpy(d, s, n); }
int cmp$i(const char *a, const char *b) { return __builtin_strcmp(a, b) == 0 ? $k : 0; }
EOF
	;;
	3) cat <<EOF
typedef long (*op$i)(long, long);
static long add$i(long a, long b) { return a + b + $k; }
static long sub$i(long a, long b) { return a - b; }
static long mul$i(long a, long b) { return a * b; }
static const op$i ops$i[] = { add$i, sub$i, mul$i };
long apply$i(unsigned i, long a, long b) { return ops$i[i % 3](a, b); }
static const char names$i[][8] __section(".rodata.names$i") = { "add", "sub", "mul" };
const char *name$i(unsigned i) { return names$i[i % 3]; }
int table$i[CONFIG_NR_CPUS] __section(".data.percpu$i");
EOF
	;;
	4) cat <<EOF
struct flags$i { unsigned a:3, b:5, c:1, d:7; signed e:4; };
int pack$i(struct flags$i f) { return f.a + f.b * 2 + f.c * 4 + f.d * 8 + f.e; }
long vsum$i(int n, ...)
{
	va_list ap;
	long s = $k;
	va_start(ap, n);
	while (n-- > 0)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}
int counter$i(void) { static int c; return ++c; }
EOF
	;;
	5) cat <<EOF
static inline void cpu_relax$i(void) { asm volatile("rep; nop" ::: "memory"); }
__cold void slow$i(int x) { printk("slow path %d in %s\n", x, KBUILD_BASENAME); }
int spin$i(volatile int *lock, int tries)
{
	while (tries-- > 0) {
		if (likely(!*lock))
			return 0;
		cpu_relax$i();
	}
	if (unlikely(*lock))
		slow$i($k);
	barrier();
	return -1;
}
unsigned long rdflags$i(void)
{
	unsigned long f;
	asm volatile("pushf; pop %0" : "=r"(f) :: "memory");
	return f;
}
EOF
	;;
	6) cat <<EOF
static const unsigned short tbl$i[256] = {
EOF
		j=0
		while [ "$j" -lt 256 ]; do printf ' %d,' $(( (j * k + i) % 65521 )); j=$((j + 1)); done
		cat <<EOF

};
unsigned crc$i(const unsigned char *p, int n)
{
	unsigned c = CONFIG_HZ;
	while (n--)
		c = tbl$i[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}
EOF
	;;
	7) cat <<EOF
long fib$i(int n) { return n < 2 ? n : fib$i(n - 1) + fib$i(n - 2); }
long ack$i(long m, long n)
{
	if (m == 0) return n + 1;
	if (n == 0) return ack$i(m - 1, 1);
	return ack$i(m - 1, ack$i(m, n - 1));
}
long mat$i(long a[4][4], long b[4][4], long c[4][4])
{
	long t = $k;
	for (int r = 0; r < 4; r++)
		for (int q = 0; q < 4; q++) {
			c[r][q] = 0;
			for (int x = 0; x < 4; x++)
				c[r][q] += a[r][x] * b[x][q];
			t += c[r][q];
		}
	return t;
}
EOF
	;;
	esac
	} > "$f"
	i=$((i + 1))
done
