// SPDX-License-Identifier: GPL-2.0
#include "result.h"
#include "json.h"
#include "warn.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A result file bigger than this is not one of ours. */
#define MAX_RESULT_SIZE (16 << 20)

void result_init(struct kb_result *r)
{
	memset(r, 0, sizeof(*r));
}

#define KB_METRIC_NAME(m) #m,
const char *const kb_metric_names[KB_NR_METRICS] = { KB_METRICS(KB_METRIC_NAME) };

int metric_named(const char *name)
{
	for (int m = 0; m < KB_NR_METRICS; m++)
		if (!strcmp(kb_metric_names[m], name))
			return m;
	return -1;
}

static void row_release(struct kb_row *row)
{
	for (int m = 0; m < KB_NR_METRICS; m++)
		free(row->model[m]);
	free(row->name);
	free(row->unit);
	free(row->group);
	free(row->samples);
}

void result_release(struct kb_result *r)
{
	for (size_t i = 0; i < r->nr; i++)
		row_release(&r->rows[i]);
	free(r->rows);
	free(r->clock);
	free(r->kernel);
	free(r->compiler);
	free(r->version);
	free(r->append);
	free(r->model);
	free(r->qemu);
	free(r->qemu_version);
	free(r->lab_device_type);
	free(r->lab_device);
	free(r->lab_worker);
	free(r->lab_job);
	free(r->lab_url);
	result_init(r);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median_of(const double *v, size_t nr)
{
	double *s, m;

	if (!nr)
		return NAN;
	s = xmalloc(nr * sizeof(*s));
	memcpy(s, v, nr * sizeof(*s));
	qsort(s, nr, sizeof(*s), cmp_double);
	m = nr % 2 ? s[nr / 2] : (s[nr / 2 - 1] + s[nr / 2]) / 2;
	free(s);
	return m;
}

int unit_smaller_is_better(const char *unit)
{
	return strcmp(unit, "MB/s") != 0;
}

static struct kb_row *new_row(struct kb_result *r)
{
	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 32;
		r->rows = xrealloc(r->rows, r->alloc * sizeof(*r->rows));
	}
	memset(&r->rows[r->nr], 0, sizeof(r->rows[0]));
	return &r->rows[r->nr++];
}

static void push_sample(struct kb_row *row, double v)
{
	row->samples = xrealloc(row->samples, (row->nr + 1) * sizeof(double));
	row->samples[row->nr++] = v;
}

int result_add_row(struct kb_result *r, const char *name, const char *unit,
		   const char *group, const char *samples)
{
	struct kb_row row;
	const char *p = samples;

	memset(&row, 0, sizeof(row));
	while (*p) {
		char *end;
		double v;

		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || !isfinite(v) || v <= 0 || (*end && *end != ',')) {
			free(row.samples);
			return -1;
		}
		push_sample(&row, v);
		p = *end ? end + 1 : end;
	}
	if (!row.nr)
		return -1;
	row.name = xstrdup(name);
	row.unit = xstrdup(unit);
	row.group = xstrdup(group);
	row.median = median_of(row.samples, row.nr);
	row.cpus = 1;
	*new_row(r) = row;
	return 0;
}

static void take(char **dst, char **src)
{
	if (!*dst) {
		*dst = *src;
		*src = NULL;
	}
}

void result_take_rows(struct kb_result *dst, struct kb_result *src, int cpus)
{
	for (size_t i = 0; i < src->nr; i++) {
		struct kb_row *row = new_row(dst);

		*row = src->rows[i];
		row->cpus = cpus;
	}
	src->nr = 0;
	take(&dst->version, &src->version);
	take(&dst->compiler, &src->compiler);
	take(&dst->model, &src->model);
}

void result_set_model(struct kb_row *row, double *values[KB_NR_METRICS])
{
	for (int m = 0; m < KB_NR_METRICS; m++) {
		free(row->model[m]);
		row->model[m] = values[m];
		row->model_median[m] = median_of(values[m], row->nr);
	}
}

int result_use_metric(struct kb_result *r, int metric, const char *path)
{
	size_t kept = 0;

	for (size_t i = 0; i < r->nr; i++) {
		struct kb_row *row = &r->rows[i];

		if (!row->model[metric]) {
			if (!r->model)
				return error("%s: benchmark %s has no cost model figures (kbench "
					     "run --model=cycles) for --metric=%s", path,
					     row->name, kb_metric_names[metric]);
			/* Modelled, but its figure is not a time per operation (ftq_*). */
			row_release(row);
			continue;
		}
		memcpy(row->samples, row->model[metric], row->nr * sizeof(double));
		row->median = row->model_median[metric];
		free(row->unit);
		row->unit = xstrdup(metric == KB_M_cycles ? "cyc" : "/op");
		r->rows[kept++] = *row;
	}
	r->nr = kept;
	r->metric = kb_metric_names[metric];
	return 0;
}

const char *result_metric_text(const struct kb_result *r)
{
	static char buf[160];

	if (!r->metric)
		return !strcmp(r->clock, "icount") ?
			"icount: instructions executed, 1 ns each; not cycles" :
			"real time under KVM";
	snprintf(buf, sizeof(buf), "%s per operation, modelled (cost model: %s)", r->metric,
		 r->model ? r->model : "?");
	return buf;
}

const struct kb_row *result_find(const struct kb_result *r, const char *name, int cpus)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->rows[i].cpus == cpus && !strcmp(r->rows[i].name, name))
			return &r->rows[i];
	return NULL;
}

int result_cpu_counts(const struct kb_result *r, int *cpus)
{
	int seen[KB_MAX_CPUS + 1] = { 0 }, n = 0;

	for (size_t i = 0; i < r->nr; i++)
		seen[r->rows[i].cpus] = 1;
	for (int c = 1; c <= KB_MAX_CPUS; c++)
		if (seen[c])
			cpus[n++] = c;
	return n;
}

static void add_member(struct strbuf *sb, const char *key, const char *val)
{
	strbuf_addstr(sb, "  ");
	json_add_string(sb, key);
	strbuf_addstr(sb, ": ");
	json_add_string(sb, val ? val : "");
	strbuf_addstr(sb, ",\n");
}

static void model_to_json(const struct kb_row *row, struct strbuf *out)
{
	strbuf_addstr(out, ",\n      \"cycles\": ");
	json_add_number(out, row->model_median[KB_M_cycles]);
	strbuf_addstr(out, ", \"events\": {");
	for (int m = KB_M_cycles + 1; m < KB_NR_METRICS; m++) {
		strbuf_addf(out, "%s\"%s\": ", m > 1 ? ", " : "", kb_metric_names[m]);
		json_add_number(out, row->model_median[m]);
	}
	strbuf_addstr(out, "},\n      \"model_samples\": {");
	for (int m = 0; m < KB_NR_METRICS; m++) {
		strbuf_addf(out, "%s\"%s\": [", m ? ", " : "", kb_metric_names[m]);
		for (size_t i = 0; i < row->nr; i++) {
			if (i)
				strbuf_addstr(out, ", ");
			json_add_number(out, row->model[m][i]);
		}
		strbuf_addch(out, ']');
	}
	strbuf_addch(out, '}');
}

static void row_to_json(const struct kb_row *row, struct strbuf *out)
{
	strbuf_addstr(out, "    {\"name\": ");
	json_add_string(out, row->name);
	strbuf_addstr(out, ", \"unit\": ");
	json_add_string(out, row->unit);
	strbuf_addstr(out, ", \"group\": ");
	json_add_string(out, row->group);
	strbuf_addf(out, ", \"cpus\": %d, \"samples\": [", row->cpus);
	for (size_t i = 0; i < row->nr; i++) {
		if (i)
			strbuf_addstr(out, ", ");
		json_add_number(out, row->samples[i]);
	}
	strbuf_addstr(out, "], \"median\": ");
	json_add_number(out, row->median);
	if (row->model[0])
		model_to_json(row, out);
	strbuf_addch(out, '}');
}

static void machine_to_json(const struct kb_result *r, struct strbuf *out)
{
	const char *keys[] = { "device_type", "device", "worker", "job", "lab" };
	const char *values[] = { r->lab_device_type, r->lab_device, r->lab_worker, r->lab_job,
				 r->lab_url };

	strbuf_addstr(out, "  \"machine\": {");
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		strbuf_addf(out, "%s\"%s\": ", i ? ", " : "", keys[i]);
		json_add_string(out, values[i] ? values[i] : "");
	}
	strbuf_addstr(out, "},\n");
}

void result_to_json(const struct kb_result *r, struct strbuf *out)
{
	strbuf_addstr(out, "{\n");
	add_member(out, "clock", r->clock);
	add_member(out, "kernel", r->kernel);
	add_member(out, "compiler", r->compiler);
	add_member(out, "version", r->version);
	add_member(out, "append", r->append);
	if (r->model)
		add_member(out, "model", r->model);
	if (r->qemu) {
		strbuf_addstr(out, "  \"qemu\": {\"path\": ");
		json_add_string(out, r->qemu);
		strbuf_addstr(out, ", \"version\": ");
		if (r->qemu_version)
			json_add_string(out, r->qemu_version);
		else
			strbuf_addstr(out, "null");
		strbuf_addstr(out, "},\n");
	}
	if (r->lab_device_type)
		machine_to_json(r, out);
	strbuf_addf(out, "  \"runs\": %d,\n  \"quick\": %s,\n", r->runs,
		    r->quick ? "true" : "false");
	strbuf_addstr(out, "  \"benchmarks\": [\n");
	for (size_t i = 0; i < r->nr; i++) {
		row_to_json(&r->rows[i], out);
		strbuf_addstr(out, i + 1 < r->nr ? ",\n" : "\n");
	}
	strbuf_addstr(out, "  ]\n}\n");
}

static int read_file(const char *path, struct strbuf *sb)
{
	if (!strbuf_read_file(sb, path, MAX_RESULT_SIZE))
		return 0;
	if (errno == EFBIG)
		return error("%s: not a kbench result (bigger than %d MB)", path,
			     MAX_RESULT_SIZE >> 20);
	return error_errno("cannot open %s", path);
}

/* "model_samples": every metric, one number (>= 0) per sample. */
static int load_model(struct kb_row *row, const struct json *ms, const char *path)
{
	double *values[KB_NR_METRICS] = { NULL };

	if (ms->type != JSON_OBJECT)
		return error("%s: benchmark %s: \"model_samples\" is not an object", path,
			     row->name);
	for (int m = 0; m < KB_NR_METRICS; m++) {
		const struct json *a = json_get(ms, kb_metric_names[m]);

		/*
		 * A result from before the model had several CPUs counted no
		 * coherence misses, one from before its front end none of
		 * the front end's events.
		 */
		if (!a && (m == KB_M_coherence_misses || m >= KB_M_fetch_windows)) {
			values[m] = xcalloc(row->nr, sizeof(double));
			continue;
		}
		if (!a || a->type != JSON_ARRAY || a->nr != row->nr) {
			error("%s: benchmark %s: \"model_samples\" lacks %s (%zu numbers)", path,
			      row->name, kb_metric_names[m], row->nr);
			goto fail;
		}
		values[m] = xmalloc(row->nr * sizeof(double));
		for (size_t k = 0; k < a->nr; k++) {
			if (a->items[k]->type != JSON_NUMBER || !(a->items[k]->num >= 0)) {
				error("%s: benchmark %s: %s sample %zu is not a number >= 0", path,
				      row->name, kb_metric_names[m], k + 1);
				goto fail;
			}
			values[m][k] = a->items[k]->num;
		}
	}
	result_set_model(row, values);
	return 0;
fail:
	for (int m = 0; m < KB_NR_METRICS; m++)
		free(values[m]);
	return -1;
}

static int load_row(struct kb_result *r, const struct json *b, const char *path, size_t i)
{
	const char *name = json_get_str(b, "name"), *unit = json_get_str(b, "unit");
	const char *group = json_get_str(b, "group");
	const struct json *samples = json_get(b, "samples"), *cpus = json_get(b, "cpus");
	struct kb_row *row;

	if (!name || !unit || !samples || samples->type != JSON_ARRAY || !samples->nr)
		return error("%s: not a kbench result (benchmark %zu lacks a name, "
			     "a unit or samples)", path, i + 1);
	if (strcmp(unit, "us") && strcmp(unit, "ns") && strcmp(unit, "MB/s"))
		return error("%s: benchmark %s: unknown unit '%s'", path, name, unit);
	for (size_t k = 0; k < samples->nr; k++)
		if (samples->items[k]->type != JSON_NUMBER || samples->items[k]->num <= 0)
			return error("%s: benchmark %s: sample %zu is not a positive number",
				     path, name, k + 1);
	/* Older files measured on one CPU say nothing. */
	if (cpus && (cpus->type != JSON_NUMBER || cpus->num < 1 || cpus->num > KB_MAX_CPUS ||
		     cpus->num != (int)cpus->num))
		return error("%s: benchmark %s: \"cpus\" is not a number from 1 to %d", path,
			     name, KB_MAX_CPUS);
	row = new_row(r);
	row->cpus = cpus ? (int)cpus->num : 1;
	row->name = xstrdup(name);
	row->unit = xstrdup(unit);
	row->group = xstrdup(group ? group : "");
	for (size_t k = 0; k < samples->nr; k++)
		push_sample(row, samples->items[k]->num);
	row->median = median_of(row->samples, row->nr);
	if (json_get(b, "model_samples"))
		return load_model(row, json_get(b, "model_samples"), path);
	return 0;
}

/* Where a lab ran the rows, if one did. */
static void load_machine(struct kb_result *r, const struct json *m)
{
	char **fields[] = { &r->lab_device_type, &r->lab_device, &r->lab_worker, &r->lab_job,
			    &r->lab_url };
	const char *keys[] = { "device_type", "device", "worker", "job", "lab" };

	if (!m || m->type != JSON_OBJECT || !json_get_str(m, "device_type"))
		return;
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		*fields[i] = xstrdup(json_get_str(m, keys[i]) ? json_get_str(m, keys[i]) : "");
}

static int load_json(struct kb_result *r, const struct json *j, const char *path)
{
	const struct json *b = json_get(j, "benchmarks");
	const char *clock = json_get_str(j, "clock");
	const struct json *runs = json_get(j, "runs");

	if (!j || j->type != JSON_OBJECT || !b || b->type != JSON_ARRAY || !clock)
		return error("%s: not a kbench result (no \"clock\" and \"benchmarks\")", path);
	if (strcmp(clock, "icount") && strcmp(clock, "kvm") && strcmp(clock, "board"))
		return error("%s: unknown clock '%s' (icount, kvm or board)", path, clock);
	r->clock = xstrdup(clock);
	r->kernel = xstrdup(json_get_str(j, "kernel") ? json_get_str(j, "kernel") : "");
	r->compiler = xstrdup(json_get_str(j, "compiler") ? json_get_str(j, "compiler") : "");
	r->version = xstrdup(json_get_str(j, "version") ? json_get_str(j, "version") : "");
	r->append = xstrdup(json_get_str(j, "append") ? json_get_str(j, "append") : "");
	r->runs = runs && runs->type == JSON_NUMBER ? (int)runs->num : 0;
	if (json_get_str(j, "model"))
		r->model = xstrdup(json_get_str(j, "model"));
	load_machine(r, json_get(j, "machine"));
	for (size_t i = 0; i < b->nr; i++)
		if (load_row(r, b->items[i], path, i))
			return -1;
	if (!r->nr)
		return error("%s: no benchmarks in it", path);
	return 0;
}

int result_load(struct kb_result *r, const char *path)
{
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	struct json *j;
	int ret = -1;

	result_init(r);
	if (read_file(path, &text))
		goto out;
	j = json_parse(text.buf, text.len, &err);
	if (!j) {
		error("%s: not a kbench result (not JSON: %s)", path, err.buf);
		goto out;
	}
	ret = load_json(r, j, path);
	json_free(j);
out:
	if (ret)
		result_release(r);
	strbuf_release(&text);
	strbuf_release(&err);
	return ret;
}

/*
 * "Linux version 6.12.0 (user@host) (gcc (Debian 12.2.0-14) 12.2.0, GNU
 * ld ...) #1 ...": the compiler is the second parenthesised group up to
 * its first ", " at the outer level.
 */
char *compiler_from_version(const char *version)
{
	const char *p = strchr(version, '(');
	int depth = 0;

	if (!p || !(p = strchr(p, ')')) || !(p = strchr(p, '(')))
		return NULL;
	for (const char *q = ++p; *q; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')' && depth-- == 0)
			return xstrndup(p, (size_t)(q - p));
		else if (*q == ',' && depth == 0)
			return xstrndup(p, (size_t)(q - p));
	}
	return NULL;
}
