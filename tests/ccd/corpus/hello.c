#include "corpus.h"
static const char msg[] = "hello from the corpus";
int main(void)
{
	printf("%s\n", msg);
	return 0;
}
