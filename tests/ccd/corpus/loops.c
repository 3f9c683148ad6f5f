#include "corpus.h"
/* Loops the vectorizer likes, so -O2 and -Os differ a lot. */
static int a[256], b[256];
int main(void)
{
	long s = 0;
	for (int i = 0; i < 256; i++) {
		a[i] = i * 3;
		b[i] = 255 - i;
	}
	for (int r = 0; r < 10; r++)
		for (int i = 0; i < 256; i++)
			a[i] += b[i] >> (r & 3);
	for (int i = 0; i < 256; i++)
		s += a[i];
	printf("%ld\n", s);
	return 0;
}
