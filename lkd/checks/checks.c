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

int lkd_run_input_checks(struct lkd_ctx *ctx, lkd_check_mask mask, struct lkd_obj *obj)
{
	ctx->objects++;
	return run(ctx, mask, obj, 0);
}

int lkd_run_output_checks(struct lkd_ctx *ctx, lkd_check_mask mask, struct lkd_obj *obj)
{
	return run(ctx, mask, obj, 1);
}
