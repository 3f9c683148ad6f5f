// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for lkd's ELF reading and checks: the input is taken
 * as an object, an executable or an archive, and every check runs on it
 * as an input (verify and -r modes) and as a link output, with both
 * .altinstructions layouts (auto and each named one).  Anything but a clean return is a bug.
 */
#include "checks/check.h"
#include "lkd-elf.h"
#include "warn.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct fuzz_run {
	struct lkd_ctx ctx;
	int output;
};

/* Every section's relocations, as a check may read them (n64 mips has a reader of its own). */
static void read_relocs(struct lkd_obj *obj)
{
	for (size_t idx = 1; idx < obj->shnum; idx++) {
		struct lkd_reloc *rel;
		size_t nr;

		if (!obj_relocs_for(obj, idx, &rel, &nr))
			free(rel);
	}
}

static int run_checks(struct lkd_obj *obj, void *data)
{
	struct fuzz_run *r = data;
	lkd_check_mask all = (1u << lkd_nr_checks) - 1;

	read_relocs(obj);
	if (r->output)
		return lkd_run_output_checks(&r->ctx, all, obj);
	return lkd_run_input_checks(&r->ctx, all, obj);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const layouts[] = { "auto", "linux612", "linux6", "linux26" };
	static const enum lkd_mode modes[] = { LKD_VERIFY, LKD_LINK_REL };
	static int ready;
	/* libelf may convert in place: each run gets its own copy. */
	char *buf = malloc(size ? size : 1);

	if (!ready) {
		lkd_elf_init();
		warn_set_fd(open("/dev/null", O_WRONLY | O_CLOEXEC));
		ready = 1;
	}
	for (size_t l = 0; l < sizeof(layouts) / sizeof(*layouts); l++) {
		for (size_t m = 0; m < 2; m++) {
			struct fuzz_run r = { .ctx = { .mode = modes[m], .layout = layouts[l],
						       .verbose = 1, .strict = (int)(l & 1) },
					      .output = (int)m };

			memcpy(buf, data, size);
			/* Thin archives would open files named by the input: not here. */
			lkd_for_each_in_memory("fuzz-input", buf, size, NULL, 0, run_checks, &r);
		}
	}
	free(buf);
	return 0;
}
