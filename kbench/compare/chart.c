// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison as an SVG bar chart a browser opens: one bar per
 * benchmark and later kernel, its length the speed-up against the first
 * kernel in percent, a whisker for the spread of the samples, a grey band
 * for the noise of the row (what kernels with the same code show, noise.h);
 * a difference that is not significant is drawn pale.  For a sweep of CPU
 * counts a bar is a row at one count, and under the bars each kernel's
 * scaling curves follow: per row its speedup from 1 CPU at each count.
 */
#include "comparison.h"
#include "atomic-file.h"

#include <math.h>
#include <string.h>

#define WIDTH 960
#define PLOT_X0 190
#define PLOT_X1 880
#define BAR_H 10
#define BAR_STEP 14
#define GROUP_H 22
#define TOP 78
#define PANEL_H 260	/* a kernel's scaling curves, with its title and axis */
#define CURVE_TOP 40	/* the curves' area within the panel */
#define CURVE_H 180

static const char *const colours[] = {
	"#3366cc", "#dc3912", "#ff9900", "#109618", "#990099", "#0099c6",
};

struct scale {
	double lo, hi;	/* the axis, in percent: whole grid steps around 0 */
	double step;	/* grid lines */
};

static void add_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		default:
			if ((unsigned char)*s >= 0x20)
				strbuf_addch(sb, *s);
		}
	}
}

static double xpos(const struct scale *s, double pct)
{
	double v = pct > s->hi ? s->hi : pct < s->lo ? s->lo : pct;

	return PLOT_X0 + (v - s->lo) / (s->hi - s->lo) * (PLOT_X1 - PLOT_X0);
}

/*
 * From the smallest to the largest percentage shown (whiskers included,
 * at most 1000), in whole grid steps, with a step to spare on each side
 * that has bars, for their labels.
 */
static struct scale make_scale(const struct comparison *c)
{
	static const double steps[] = { 1, 2, 5, 10, 20, 25, 50, 100, 200, 500 };
	struct scale s = { -1, 1, 1 };
	double mn = 0, mx = 0;

	for (size_t r = 0; r < c->nr_rows; r++) {
		for (int i = 1; i < c->nr; i++) {
			const struct cmp_cell *cell = &c->rows[r].cells[i];

			if (!cell->row || !cell->defined)
				continue;
			mn = fmin(mn, fmax(cell->lo, -1000));
			mx = fmax(mx, fmin(cell->hi, 1000));
		}
	}
	for (size_t k = 0; k < sizeof(steps) / sizeof(*steps); k++) {
		s.step = steps[k];
		if ((mx - mn) / s.step <= 8)
			break;
	}
	s.lo = floor(mn / s.step) * s.step - s.step;
	s.hi = ceil(mx / s.step) * s.step + s.step;
	return s;
}

static int chart_height(const struct comparison *c)
{
	int h = TOP + 40;
	const char *group = NULL;

	for (size_t r = 0; r < c->nr_rows; r++) {
		if (!group || strcmp(group, c->rows[r].ref->group))
			h += GROUP_H;
		group = c->rows[r].ref->group;
		h += (c->nr - 1) * BAR_STEP + 6;
	}
	return h;
}

/* Below the bars: a panel per kernel that scales (a sweep). */
static int panels_height(const struct comparison *c)
{
	int h = 0;

	for (int i = 0; c->sweep && i < c->nr; i++)
		if (c->scaling[i].nr_rows)
			h += PANEL_H;
	return h;
}

/* ", cpus 1,2,4": a kernel's CPU counts. */
static void add_cpus(struct strbuf *sb, const struct cmp_scaling *s)
{
	strbuf_addstr(sb, ", cpus ");
	for (int k = 0; k < s->nr_cpus; k++)
		strbuf_addf(sb, "%s%d", k ? "," : "", s->cpus[k]);
}

/* A row's name, and in a sweep its CPUs. */
static void add_row_name(struct strbuf *sb, const struct comparison *c, const struct kb_row *a)
{
	add_text(sb, a->name);
	if (c->sweep)
		strbuf_addf(sb, " at %d CPU%s", a->cpus, a->cpus == 1 ? "" : "s");
}

static void header(struct strbuf *sb, const struct comparison *c)
{
	strbuf_addstr(sb, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">"
		      "kbench: speed against ");
	add_text(sb, c->labels[0]);
	strbuf_addf(sb, " in percent (positive is faster), clock %s", c->res[0].clock);
	if (c->sweep)
		add_cpus(sb, &c->scaling[0]);
	strbuf_addstr(sb, "</text>\n");
	strbuf_addstr(sb, "<text x=\"10\" y=\"40\" font-size=\"11\">");
	add_text(sb, result_metric_text(&c->res[0]));
	strbuf_addstr(sb, "; whiskers: the spread "
		    "of the samples; grey band: the noise of equivalent builds (");
	add_text(sb, c->noise.source);
	strbuf_addstr(sb, "); pale bars: not significant</text>\n");
	for (int i = 1; i < c->nr; i++) {
		int x = 10 + (i - 1) * 240;

		strbuf_addf(sb, "<rect x=\"%d\" y=\"50\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			    "<text x=\"%d\" y=\"60\" font-size=\"12\">", x,
			    colours[(i - 1) % 6], x + 16);
		add_text(sb, c->labels[i]);
		strbuf_addstr(sb, "</text>\n");
	}
}

static void grid(struct strbuf *sb, const struct scale *s, int height)
{
	for (double v = s->lo; v <= s->hi + 1e-9; v += s->step) {
		double x = xpos(s, v);

		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>"
			    "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">"
			    "%+g%%</text>\n", x, TOP - 8, x, height - 30,
			    fabs(v) < 1e-9 ? "#000" : "#ddd", x, height - 18, v);
	}
}

/* The band of a row's noise, behind its bars: from -noise to +noise. */
static void band(struct strbuf *sb, const struct scale *s, double noise, int y, int h)
{
	double xl = xpos(s, -noise), xh = xpos(s, noise);

	if (noise > 0)
		strbuf_addf(sb, "<rect class=\"noise\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
			    "height=\"%d\" fill=\"#000\" fill-opacity=\"0.08\"/>\n", xl, y - 2, xh - xl, h);
}

static void bar(struct strbuf *sb, const struct comparison *c, const struct scale *s,
		const struct cmp_row *row, const struct cmp_cell *cell, int y, const char *colour)
{
	double pct = cell->pct, lo = cell->lo, hi = cell->hi, noise = row->noise;
	double x0 = xpos(s, 0), x = xpos(s, pct), xl = xpos(s, lo), xh = xpos(s, hi);
	int mid = y + BAR_H / 2, sig = cell->significant;

	strbuf_addf(sb, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"%s>"
		    "<title>", fmin(x0, x), y, fmax(fabs(x - x0), 0.5), BAR_H, colour,
		    sig ? "" : " fill-opacity=\"0.3\"");
	add_row_name(sb, c, row->ref);
	strbuf_addf(sb, ": %+.2f%% (%+.2f..%+.2f), %s (noise %.1f%%)</title></rect>\n",
		    pct, lo, hi, sig ? "significant" : "not significant", noise);
	strbuf_addf(sb, "<path d=\"M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d\" stroke=\"#000\"/>\n",
		    xl, mid, xh, xl, y + 1, y + BAR_H - 1, xh, y + 1, y + BAR_H - 1);
	strbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"%s\">"
		    "%+.1f%%</text>\n", pct >= 0 ? fmax(x, xh) + 4 : fmin(x, xl) - 4,
		    y + BAR_H - 1, pct >= 0 ? "start" : "end", pct);
}

static void draw_rows(struct strbuf *sb, const struct comparison *c, const struct scale *s)
{
	const char *group = NULL;
	int nr = c->nr, y = TOP;

	for (size_t r = 0; r < c->nr_rows; r++) {
		const struct cmp_row *row = &c->rows[r];
		const struct kb_row *a = row->ref;

		if (!group || strcmp(group, a->group)) {
			strbuf_addf(sb, "<text x=\"10\" y=\"%d\" font-size=\"12\" "
				    "font-weight=\"bold\">", y + 14);
			add_text(sb, group_title(a->group));
			strbuf_addstr(sb, "</text>\n");
			y += GROUP_H;
			group = a->group;
		}
		band(sb, s, row->noise, y, (nr - 1) * BAR_STEP + 2);
		strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">",
			    PLOT_X0 - 8, y + ((nr - 1) * BAR_STEP) / 2 + 4);
		add_row_name(sb, c, a);
		strbuf_addstr(sb, "</text>\n");
		for (int i = 1; i < nr; i++)
			if (row->cells[i].row && row->cells[i].defined)
				bar(sb, c, s, row, &row->cells[i], y + (i - 1) * BAR_STEP,
				    colours[(i - 1) % 6]);
		y += (nr - 1) * BAR_STEP + 6;
	}
}

/* The speedups' axis of a panel: from the least to the most, 1 always in it. */
static void speedup_range(const struct cmp_scaling *s, double *lo, double *hi)
{
	*lo = *hi = 1;
	for (size_t r = 0; r < s->nr_rows; r++) {
		for (int k = 1; k < s->nr_cpus; k++) {
			if (!s->rows[r].at[k].row)
				continue;
			*lo = fmin(*lo, s->rows[r].at[k].speedup);
			*hi = fmax(*hi, s->rows[r].at[k].speedup);
		}
	}
	*lo = floor(*lo * 10 - 1) / 10;
	*hi = ceil(*hi * 10 + 1) / 10;
}

/* The CPU counts, evenly spaced along x: cpus[k]'s position. */
static double curve_x(const struct cmp_scaling *s, int k)
{
	return PLOT_X0 + (double)k / (s->nr_cpus - 1) * (PLOT_X1 - PLOT_X0);
}

static double curve_y(double v, double lo, double hi, int top)
{
	return top + CURVE_H - (v - lo) / (hi - lo) * CURVE_H;
}

/* The panel's title, its CPU axis and its speedup axis with the line of 1. */
static void panel_axes(struct strbuf *sb, const struct comparison *c, int i, int y, double lo,
		       double hi)
{
	const struct cmp_scaling *s = &c->scaling[i];
	int top = y + CURVE_TOP;

	strbuf_addf(sb, "<text x=\"10\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">"
		    "Scaling of ", y + 20);
	add_text(sb, c->labels[i]);
	strbuf_addstr(sb, " from 1 CPU: speedup per row (above 1: faster with more CPUs; "
		      "efficiency = speedup / CPUs)</text>\n");
	for (int k = 0; k < s->nr_cpus; k++) {
		double x = curve_x(s, k);

		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			    "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%d\" font-size=\"10\" "
			    "text-anchor=\"middle\">%d CPU%s</text>\n", x, top, x, top + CURVE_H, x,
			    top + CURVE_H + 14, s->cpus[k], s->cpus[k] == 1 ? "" : "s");
	}
	strbuf_addf(sb, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\" "
		    "stroke-dasharray=\"4 3\"/>\n", PLOT_X0, curve_y(1, lo, hi, top), PLOT_X1,
		    curve_y(1, lo, hi, top));
	strbuf_addf(sb, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%g</text>\n"
		    "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%g</text>\n"
		    "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">1</text>\n",
		    PLOT_X0 - 6, curve_y(hi, lo, hi, top) + 4, hi, PLOT_X0 - 6,
		    curve_y(lo, lo, hi, top) + 4, lo, PLOT_X0 - 6, curve_y(1, lo, hi, top) + 4);
}

/* One row's curve: 1 at 1 CPU, then its speedup at each count it has; its name at its end. */
static void curve(struct strbuf *sb, const struct cmp_scaling *s, const struct cmp_scale_row *sr,
		  double lo, double hi, int top, const char *colour)
{
	double x = curve_x(s, 0), y = curve_y(1, lo, hi, top);

	strbuf_addf(sb, "<polyline class=\"scaling\" fill=\"none\" stroke=\"%s\" "
		    "stroke-opacity=\"0.6\" points=\"%.1f,%.1f", colour, x, y);
	for (int k = 1; k < s->nr_cpus; k++) {
		if (!sr->at[k].row)
			continue;
		x = curve_x(s, k);
		y = curve_y(sr->at[k].speedup, lo, hi, top);
		strbuf_addf(sb, " %.1f,%.1f", x, y);
	}
	strbuf_addstr(sb, "\"><title>");
	add_text(sb, sr->one->name);
	for (int k = 1; k < s->nr_cpus; k++)
		if (sr->at[k].row)
			strbuf_addf(sb, "; %d CPUs: %.3f (%.0f%%)", s->cpus[k], sr->at[k].speedup,
				    sr->at[k].efficiency * 100);
	strbuf_addf(sb, "</title></polyline>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\">",
		    x + 4, y + 3);
	add_text(sb, sr->one->name);
	strbuf_addstr(sb, "</text>\n");
}

/* Kernel i's scaling curves at y, one per row it has at 1 CPU and more. */
static void scaling_panel(struct strbuf *sb, const struct comparison *c, int i, int y)
{
	const struct cmp_scaling *s = &c->scaling[i];
	const char *colour = i ? colours[(i - 1) % 6] : "#444";
	double lo, hi;

	speedup_range(s, &lo, &hi);
	panel_axes(sb, c, i, y, lo, hi);
	for (size_t r = 0; r < s->nr_rows; r++)
		curve(sb, s, &s->rows[r], lo, hi, y + CURVE_TOP, colour);
}

int chart_write(const char *path, const struct comparison *c)
{
	struct scale s = make_scale(c);
	int height = chart_height(c), bars = height;
	struct strbuf sb = STRBUF_INIT;
	int ret, y = bars;

	height += panels_height(c);
	strbuf_addf(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		    "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		    WIDTH, height, WIDTH, height);
	header(&sb, c);
	grid(&sb, &s, bars);
	draw_rows(&sb, c, &s);
	for (int i = 0; c->sweep && i < c->nr; i++) {
		if (c->scaling[i].nr_rows) {
			scaling_panel(&sb, c, i, y);
			y += PANEL_H;
		}
	}
	strbuf_addstr(&sb, "</svg>\n");
	ret = write_atomically(path, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
