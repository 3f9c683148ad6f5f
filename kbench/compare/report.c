// SPDX-License-Identifier: GPL-2.0
/* What kbench compare shows, in its order (comparison.h). */
#include "comparison.h"
#include "kbench.h"
#include "warn.h"

#include <stdio.h>

int comparison_report(const struct comparison *c, const char *chart, const char *json)
{
	int ret = KB_OK;

	table_print(c);
	/* The table before the messages of the files that follow. */
	fflush(stdout);
	if (chart && chart_write(chart, c))
		ret = KB_TROUBLE;
	else if (chart)
		note("chart in %s", chart);
	if (json && compare_json_write(json, c))
		ret = KB_TROUBLE;
	return ret;
}
