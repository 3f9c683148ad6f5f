#include "corpus.h"
/* Sections, used/unused/weak/aliases, constructors, visibility. */
__attribute__((used)) static int kept_alive = 5;
__attribute__((section(".data.ccd_test"))) int in_section = 9;
__attribute__((weak)) int weak_fn(void) { return 4; }
int real_fn(void) { return 6; }
int alias_fn(void) __attribute__((alias("real_fn")));
__attribute__((visibility("hidden"))) int hidden_var = 8;
static int ctor_ran;
__attribute__((constructor)) static void ctor(void) { ctor_ran = 1; }
__attribute__((noinline)) static int sum(void)
{
	return weak_fn() + alias_fn() + in_section + hidden_var + ctor_ran;
}
int main(void)
{
	printf("%d %d\n", sum(), THROUGH_CCD * 0);
	return 0;
}
