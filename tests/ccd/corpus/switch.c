#include "corpus.h"
/* Dense switch (jump table in .rodata), recursion, function pointers. */
static int classify(int x)
{
	switch (x & 15) {
	case 0: return 7;
	case 1: return 3;
	case 2: return 11;
	case 3: return 5;
	case 4: return 2;
	case 5: return 13;
	case 6: return 17;
	case 7: return 1;
	default: return x;
	}
}
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int apply(int (*f)(int), int v) { return f(v); }
int main(void)
{
	int s = 0;
	for (int i = 0; i < 40; i++)
		s += apply(classify, i);
	printf("%d %d\n", s, apply(fib, 15));
	return 0;
}
