#include "corpus.h"
/* String literals, merging, a local array, varargs. */
#include <stdarg.h>
static int total(int n, ...)
{
	va_list ap;
	int s = 0;
	va_start(ap, n);
	while (n--)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}
int main(void)
{
	char local[32];
	const char *w = "word";
	int i;
	for (i = 0; w[i]; i++)
		local[i] = (char)(w[i] - 32);
	local[i] = 0;
	printf("%s %s %d\n", local, "word", total(4, 1, 2, 3, 4));
	return 0;
}
