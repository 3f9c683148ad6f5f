#include "corpus.h"
/* Bitfields, packed structs, 64-bit arithmetic, unions. */
struct flags {
	unsigned a : 3, b : 5, c : 1;
	unsigned long long big : 40;
} __attribute__((packed));
union u { unsigned int w; unsigned char b[4]; };
static unsigned long long mix(unsigned long long x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}
int main(void)
{
	struct flags f = { 5, 17, 1, 123456789ULL };
	union u u = { .w = 0x01020304 };
	printf("%u %u %u %llu %u %llx\n", f.a, f.b, f.c, (unsigned long long)f.big,
	       u.b[0] + u.b[3], mix(f.big));
	return 0;
}
