/* SPDX-License-Identifier: GPL-2.0 */
/* What every part of kbench shares: its exit statuses. */
#ifndef KBENCH_H
#define KBENCH_H

/* Exit statuses (kbench(1) EXIT STATUS). */
#define KB_OK		0
#define KB_KERNEL_FAIL	1	/* the kernel did not boot, panicked, hung, a benchmark failed */
#define KB_USAGE	2
#define KB_TROUBLE	3	/* kbench's own trouble: QEMU, files, bad input */

#endif
