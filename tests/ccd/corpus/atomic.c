#include "corpus.h"
/* Inline asm with memory operands: the shape icc got wrong (Listing 2). */
typedef struct { volatile int counter; } atomic_t;
static int cmpxchg(atomic_t *v, int old, int new)
{
	int prev;
	__asm__ __volatile__("lock; cmpxchgl %2,%1"
			     : "=a"(prev), "+m"(v->counter)
			     : "r"(new), "0"(old)
			     : "memory");
	return prev;
}
static int dec_and_test(atomic_t *v)
{
	int c;
	do
		c = v->counter;
	while (cmpxchg(v, c, c - 1) != c);
	return c == 1;
}
int main(void)
{
	atomic_t a = { 3 };
	int n = 0;
	while (!dec_and_test(&a))
		n++;
	printf("%d %d\n", n, a.counter);
	return 0;
}
