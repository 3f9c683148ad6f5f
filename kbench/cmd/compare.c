// SPDX-License-Identifier: GPL-2.0
/*
 * kbench compare: the LMBench-style table of several results (one row per
 * benchmark, each kernel's median, the difference of every later kernel to
 * the first in percent) and, with -o, the chart, with --json the data;
 * with --trained, what a profile-guided kernel gained on the rows it was
 * trained on and on the others.  The figures are the comparison's
 * (compare/comparison.h).
 */
#include "cmd.h"
#include "comparison.h"
#include "warn.h"

#include <stdlib.h>

struct compare_opts {
	const char *chart, *json;
	int trained;		/* --trained given: train holds it */
	struct kb_train train;
	struct comparison_spec spec;
};

static int parse_compare_options(struct compare_opts *o, int argc, char **argv)
{
	struct comparison_spec *s = &o->spec;
	const char *v;

	for (int i = 1; i < argc; i++) {
		if ((v = opt_arg(argc, argv, &i, "-o")) || (v = opt_arg(argc, argv, &i, "--output")))
			o->chart = v;
		else if ((v = opt_arg(argc, argv, &i, "--json")))
			o->json = v;
		else if ((v = opt_arg(argc, argv, &i, "--noise")))
			s->noise = v;
		else if ((v = opt_arg(argc, argv, &i, "--metric"))) {
			s->metric = metric_named(v);
			if (s->metric < 0)
				return usage_error("--metric is cycles, instructions or an "
					"event (loads, stores, l1i_misses, l1d_misses, "
					"l2_misses, llc_misses, coherence_misses, branches, "
					"branch_misses, fetch_windows, taken_branches, "
					"btb_misses, itlb_misses, dtlb_misses, page_walks, opcache_misses), "
					"not '%s'", v);
		}
		else if ((v = opt_arg(argc, argv, &i, "--trained"))) {
			if (train_option(&o->train, v, "--trained"))
				return -1;
			o->trained = 1;
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("compare: unknown option '%s'", argv[i]);
		else
			s->files[s->nr++] = argv[i];
	}
	if (s->nr < 2)
		return usage_error("compare needs two result files or more");
	if (o->trained && s->nr != 2)
		return usage_error("compare --trained takes two result files, not %d", s->nr);
	if (o->trained)
		s->train = &o->train;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = {
		.spec = { .files = xcalloc((size_t)argc, sizeof(char *)), .metric = -1 },
	};
	struct comparison c;
	int ret;

	if (parse_compare_options(&o, argc, argv))
		return free(o.spec.files), KB_USAGE;
	ret = comparison_load(&c, &o.spec);
	if (ret == KB_OK)
		ret = comparison_report(&c, o.chart, o.json);
	comparison_release(&c);
	free(o.spec.files);
	return ret;
}
