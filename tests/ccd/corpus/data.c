#include "corpus.h"
/* Common, initialised, zeroed, const and static data of several sizes. */
int common_var;
int init_var = 42;
long zero_var;
static short table[64] = { 1, 2, 3, [63] = 99 };
const char *const names[] = { "alpha", "beta", "gamma" };
static char buffer[4096];
int main(void)
{
	long sum = init_var + common_var + zero_var;
	for (unsigned i = 0; i < sizeof(table) / sizeof(*table); i++)
		sum += table[i];
	buffer[100] = (char)sum;
	printf("%ld %s %d\n", sum, names[sum % 3], buffer[100]);
	return 0;
}
