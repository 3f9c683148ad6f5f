// SPDX-License-Identifier: GPL-2.0
/*
 * Uninitialized globals compiled with -fcommon: .comm symbols, which the
 * module loader refuses ("please compile with -fno-common") unless ccd's
 * asmfix (pass common) or lkd turned them into real .bss definitions.
 */
#include <linux/module.h>
#include <linux/init.h>

int ccdtest_common_counter;
long ccdtest_common_table[8];

static int __init ccdtest_common_init(void)
{
	ccdtest_common_counter += 41;
	ccdtest_common_table[7] = ccdtest_common_counter + 1;
	pr_info("ccdtest_common: loaded, counter=%d table[7]=%ld\n",
		ccdtest_common_counter, ccdtest_common_table[7]);
	return 0;
}
module_init(ccdtest_common_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ccd-suite test: uninitialized globals as .comm");
