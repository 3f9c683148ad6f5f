// SPDX-License-Identifier: GPL-2.0
/*
 * alternative(): the loader patches the original instruction with the
 * replacement when the CPU has the feature.  X86_FEATURE_ALWAYS is always
 * set, so after patching the store writes 2, not 1.  This only works when
 * the .altinstructions records resolve to the right sections (asmfix pass
 * altinstr, lkd's checks).
 */
#include <linux/module.h>
#include <linux/init.h>
#include <asm/alternative.h>
#include <asm/cpufeatures.h>

int ccdtest_alt_value = -1;

static noinline int ccdtest_alt_run(void)
{
	/* Absolute addressing: the replacement is copied as-is. */
	alternative("movl $1, ccdtest_alt_value", "movl $2, ccdtest_alt_value",
		    X86_FEATURE_ALWAYS);
	return READ_ONCE(ccdtest_alt_value);
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
