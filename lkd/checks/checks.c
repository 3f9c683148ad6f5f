// SPDX-License-Identifier: GPL-2.0
/*
 * The one table of lkd checks, and running them.
 */
#include "check.h"
#include "namelist.h"
#include "strbuf.h"
#include "warn.h"

#include <string.h>

/* Order is the order they run in and the order --lkd-help lists them. */
const struct lkd_check *const lkd_checks[] = {
	&check_common,
	&check_altinstr,
};

const size_t lkd_nr_checks = sizeof(lkd_checks) / sizeof(lkd_checks[0]);

static const char *check_name(size_t i)
{
	return lkd_checks[i]->name;
}

int lkd_parse_checks(const char *list, lkd_check_mask *mask)
{
	unsigned m;
	int ret = namelist_parse(list, check_name, lkd_nr_checks, "check", &m);

	*mask = m;
	return ret;
}

static int run(struct lkd_ctx *ctx, lkd_check_mask mask, struct lkd_obj *obj, int output)
{
	int findings = 0, failed = 0;

	for (size_t i = 0; i < lkd_nr_checks; i++) {
		const struct lkd_check *c = lkd_checks[i];
		int (*fn)(struct lkd_ctx *, struct lkd_obj *) = output ? c->output : c->input;
		int r;

		if (!(mask & (1u << i)) || !fn)
			continue;
		r = fn(ctx, obj);
		if (r < 0)
			failed = 1;
		else
			findings += r;
	}
	return failed ? -1 : findings;
}

/*
 * An LTO object is LLVM bitcode: its machine code does not exist before
 * the LTO link makes it, so a link's checks read that link's output
 * instead (Kbuild's vmlinux.o, then vmlinux).  Checked alone, it is not
 * checked at all, which --lkd-verify says.
 */
static int ir_input(struct lkd_ctx *ctx, const struct lkd_obj *obj)
{
	ctx->ir_objects++;
	if (ctx->mode != LKD_VERIFY)
		return 0;
	if (ctx->strict)
		return error("%s: LLVM bitcode (an LTO object): no machine code to check "
			     "before an LTO link makes it", obj->name);
	warning("%s: LLVM bitcode (an LTO object): not checked; lkd checks the machine code "
		"an LTO link writes", obj->name);
	return 0;
}

int lkd_run_input_checks(struct lkd_ctx *ctx, lkd_check_mask mask, struct lkd_obj *obj)
{
	ctx->objects++;
	if (obj->ir)
		return ir_input(ctx, obj);
	return run(ctx, mask, obj, 0);
}

int lkd_run_output_checks(struct lkd_ctx *ctx, lkd_check_mask mask, struct lkd_obj *obj)
{
	return run(ctx, mask, obj, 1);
}
