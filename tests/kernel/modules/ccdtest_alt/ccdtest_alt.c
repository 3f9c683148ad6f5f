// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's alternatives in a module: the loader patches each original
 * instruction with its replacement when the CPU has the feature.
 * X86_FEATURE_ALWAYS is always set, so after patching the value is 2, not 1.
 * This only works when the .altinstructions records resolve to the right
 * sections (asmfix pass altinstr, lkd's altinstr check).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <asm/alternative.h>
#include <asm/cpufeatures.h>

static noinline int ccdtest_alt_run(void)
{
	int v;

	/* alternative(): a barrier, as barrier_nospec() uses it. */
	alternative("", "lfence", X86_FEATURE_ALWAYS);
	/* alternative() with an output operand: the result shows the patch. */
	alternative_io("movl $1, %0", "movl $2, %0", X86_FEATURE_ALWAYS, "=r" (v));
	return v;
}

static int __init ccdtest_alt_init(void)
{
	int v = ccdtest_alt_run();

	pr_info("ccdtest_alt: alternative ran, value=%d (%s)\n", v,
		v == 2 ? "patched" : "NOT patched");
	return 0;
}
module_init(ccdtest_alt_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ccd-suite test: alternative() in a module");
