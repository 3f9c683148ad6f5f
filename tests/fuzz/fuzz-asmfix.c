// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: any input through every pass (and through check
 * mode, and with -fdata-sections) must not crash or leak; the output goes
 * to /dev/null.  Input arrives through a pipe, as in ccd.
 */
#include "asmfix.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static int devnull = -1;

static void run(const uint8_t *data, size_t size, int check, int data_sections)
{
	struct asmfix_options opt = { 0 };
	struct asmfix_stats stats;
	char path[] = "/tmp/fuzz-asmfix-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		abort();
	unlink(path);
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET))
		abort();
	opt.filename = "fuzz.s";
	opt.passes = asmfix_all_passes();
	opt.check_only = check;
	opt.data_sections = data_sections;
	asmfix_filter(&opt, fd, devnull, &stats);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY);
	run(data, size, 0, size & 1);
	run(data, size, 1, 0);
	return 0;
}
