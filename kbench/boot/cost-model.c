// SPDX-License-Identifier: GPL-2.0
#include "cost-model.h"
#include "kbench-config.h"
#include "warn.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The model directory in the build tree (beside kbench), or "" if kbench is installed. */
static const char *build_tree_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 64);
	char *slash;

	if (n <= 0)
		return "";
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		return "";
	strcpy(slash, "/model");
	return access(dir, X_OK) ? "" : dir;
}

static char *join(const char *a, const char *b, const char *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s%s%s", a, b, c);
	return strbuf_detach(&sb, NULL);
}

static char *plugin_path(void)
{
	const char *env = getenv("KBENCH_MODEL_PLUGIN"), *dir = build_tree_dir();

	if (env && *env)
		return xstrdup(env);
	if (*dir)
		return join(dir, "/kbench-model.so", "");
	return join(KBENCH_LIBEXECDIR, "/kbench-model.so", "");
}

static char *profile_path(const char *spec, const struct kb_machine *m)
{
	const char *name = spec && *spec ? spec : m->model, *dir = build_tree_dir();

	if (strchr(name, '/') || !access(name, F_OK))
		return xstrdup(name);
	if (*dir) {
		char *base = join(dir, "/", name), *path = join(base, ".profile", "");

		free(base);
		return path;
	}
	return join(KBENCH_DATADIR "/model/", name, ".profile");
}

char *model_plugin(void)
{
	char *plugin = plugin_path();

	if (!access(plugin, R_OK))
		return plugin;
	error("the cost model's plugin %s is missing: kbench was built without "
	      "qemu-plugin.h (run scripts/install-deps, then rebuild; meson option "
	      "qemu_plugin_include names another place)", plugin);
	free(plugin);
	return NULL;
}

int model_setup(struct kb_model *md, const char *spec, const struct kb_machine *m)
{
	char err[1024];

	memset(md, 0, sizeof(*md));
	/* The guest marks its samples with instructions of x86 and arm64 only. */
	if (!m->model)
		return error("no cost model for %s kernels: the model knows amd64 and arm64 "
			     "(the guest's sample markers); measure in instructions", m->debian);
	if (!(md->plugin = model_plugin()))
		return -1;
	md->profile_path = profile_path(spec, m);
	if (kb_profile_load(&md->profile, md->profile_path, err, sizeof(err))) {
		error("%s", err);
		model_release(md);
		return -1;
	}
	return 0;
}

void model_release(struct kb_model *md)
{
	free(md->plugin);
	free(md->profile_path);
	memset(md, 0, sizeof(*md));
}

/* QEMU's option syntax: a comma in a value is written twice. */
static void add_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == ',')
			strbuf_addch(sb, ',');
		strbuf_addch(sb, *s);
	}
}

static void qemu_args(struct strvec *args, const struct kb_model *md, const char *records,
		      int whole, const struct kb_branch_args *br)
{
	struct strbuf sb = STRBUF_INIT;

	add_escaped(&sb, md ? md->plugin : br->plugin);
	if (md) {
		strbuf_addstr(&sb, ",profile=");
		add_escaped(&sb, md->profile_path);
		strbuf_addstr(&sb, ",out=");
		add_escaped(&sb, records);
	}
	if (whole)
		strbuf_addstr(&sb, ",whole=on");
	if (br) {
		strbuf_addstr(&sb, ",branches=");
		add_escaped(&sb, br->out);
		strbuf_addf(&sb, ",kernel=0x%llx,period=%llu", br->kernel_base, br->period);
	}
	strvec_pushl(args, "-plugin", sb.buf, NULL);
	strbuf_release(&sb);
}

void model_qemu_args(struct strvec *args, const struct kb_model *md, const char *records,
		     const struct kb_branch_args *br)
{
	qemu_args(args, md, records, 0, br);
}

void model_qemu_args_whole(struct strvec *args, const struct kb_model *md, const char *records)
{
	qemu_args(args, md, records, 1, NULL);
}

/* "sample cycles=C instructions=N ...": every metric once, in any order. */
static int parse_sample(struct model_sample *s, char *rest)
{
	int seen[KB_NR_METRICS] = { 0 };
	char *save, *w;

	memset(s->v, 0, sizeof(s->v));
	for (w = strtok_r(rest, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '='), *end;
		int m;

		if (!eq)
			return -1;
		*eq = '\0';
		m = metric_named(w);
		if (m < 0)
			continue;	/* a newer plugin's event */
		errno = 0;
		s->v[m] = strtod(eq + 1, &end);
		if (errno || end == eq + 1 || *end || !(s->v[m] >= 0) || seen[m]++)
			return -1;
	}
	/* A plugin from before the front end counts none of its events. */
	for (int m = 0; m < KB_M_fetch_windows; m++)
		if (!seen[m])
			return -1;
	return 0;
}

static int read_line(struct model_records *r, char *line, const char *path, int lineno)
{
	if (!strncmp(line, "model profile=", 14)) {
		free(r->profile);
		r->profile = xstrdup(line + 14);
	} else if (!strcmp(line, "row")) {
		r->rows++;
	} else if (!strncmp(line, "sample ", 7)) {
		if (r->nr == r->alloc) {
			r->alloc = r->alloc ? 2 * r->alloc : 64;
			r->v = xrealloc(r->v, r->alloc * sizeof(*r->v));
		}
		if (parse_sample(&r->v[r->nr], line + 7))
			return error("%s:%d: a malformed sample record", path, lineno);
		r->v[r->nr++].row = r->rows;
	} else {
		return error("%s:%d: not a record of kbench's cost model", path, lineno);
	}
	return 0;
}

int model_read(struct model_records *r, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	char *line, *save;
	int lineno = 0, ret = 0;

	memset(r, 0, sizeof(*r));
	if (strbuf_read_file(&text, path, 64 << 20))
		return error_errno("cannot read the cost model's records %s", path);
	for (line = strtok_r(text.buf, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save))
		ret = read_line(r, line, path, ++lineno);
	if (!ret && !r->profile)
		ret = error("%s: the cost model wrote nothing (did QEMU load it?)", path);
	strbuf_release(&text);
	if (ret)
		model_records_release(r);
	return ret;
}

void model_records_release(struct model_records *r)
{
	free(r->profile);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/*
 * The operations of each of the row's samples, from its KBENCH-OPS line:
 * all > 0, or all 0 (the row's figure is not a time per operation, FTQ's
 * noise: the model has no figure for it).
 */
static double *row_ops(const struct strvec *ops, const struct kb_row *row)
{
	size_t len = strlen(row->name);

	for (size_t i = 0; i < ops->nr; i++) {
		const char *p = ops->v[i];
		double *v;
		size_t n = 0;

		if (strncmp(p, row->name, len) || p[len] != ' ')
			continue;
		v = xmalloc(row->nr * sizeof(*v));
		for (p += len + 1; *p && n < row->nr; n++) {
			char *end;

			v[n] = strtod(p, &end);
			if (end == p || !(v[n] >= 0) || (*end && *end != ',') ||
			    (n && (v[n] > 0) != (v[0] > 0)))
				break;
			p = *end ? end + 1 : end;
		}
		if (n == row->nr && !*p)
			return v;
		free(v);
		return NULL;
	}
	return NULL;
}

static int attach_row(struct kb_row *row, const struct model_sample *s, const double *ops)
{
	double *values[KB_NR_METRICS];

	for (int m = 0; m < KB_NR_METRICS; m++) {
		values[m] = xmalloc(row->nr * sizeof(double));
		for (size_t k = 0; k < row->nr; k++)
			values[m][k] = s[k].v[m] / ops[k];
	}
	result_set_model(row, values);
	return 0;
}

int model_attach(struct kb_result *res, const struct strvec *ops,
		 const struct model_records *r, const char *kernel)
{
	size_t next = 0;

	if (r->rows != res->nr)
		return error("kernel %s: the cost model saw %zu rows, the guest reported %zu "
			     "(a guest without the model's markers?)", kernel, r->rows, res->nr);
	for (size_t i = 0; i < res->nr; i++) {
		struct kb_row *row = &res->rows[i];
		size_t n = 0;
		double *o;

		while (next + n < r->nr && r->v[next + n].row == i + 1)
			n++;
		if (n != row->nr)
			return error("kernel %s: row %s has %zu samples, the cost model %zu",
				     kernel, row->name, row->nr, n);
		o = row_ops(ops, row);
		if (!o)
			return error("kernel %s: row %s came without its operations "
				     "(KBENCH-OPS line)", kernel, row->name);
		if (o[0] > 0)
			attach_row(row, &r->v[next], o);
		free(o);
		next += n;
	}
	res->model = xstrdup(r->profile);
	return 0;
}
