// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing a run's QEMU (qemu-choice.h).  Debian 12's QEMU 7.2 cannot run
 * some machines' guests of several CPUs under icount, bookworm-backports'
 * QEMU 10 runs them but does not load the cost model's plugin: the first
 * QEMU that can run the request is used, and only when none can is the
 * run refused, each one named with its reason.
 */
#include "qemu-choice.h"
#include "run-command.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Measured with kbench's kernels (kbench(1), BUGS): under QEMU 7.2's
 * icount an x86 guest's second CPU never gets a slice while the first
 * waits for it, a riscv64 guest stops at its init, and an armhf guest of
 * 4 CPUs prints nothing; QEMU 10 runs them.
 */
static const struct qemu_limit smp_limits[] = {
	{ EM_X86_64, 1, 8, "do not boot", "qemu-system-x86" },
	{ EM_RISCV, 1, 8, "stop at their init", "qemu-system-riscv" },
	{ EM_ARM, 2, 8, "print nothing", "qemu-system-arm" },
};

/*
 * Where two boots of one image have given different samples above some
 * CPU count under icount: in any QEMU that does not run SCHED_FIFO
 * (qemu.c), or in one older than 8.
 */
static const struct qemu_limit repeat_limits[] = {
	{ EM_PPC64, 2, 0, "can differ", NULL },
	{ EM_RISCV, 2, 0, "can differ", NULL },
	{ EM_S390, 1, 8, "differ", "qemu-system-s390x" },
};

#define NR(a) (sizeof(a) / sizeof(*(a)))

const struct qemu_limit *qemu_smp_limit(const struct kb_machine *m)
{
	for (size_t i = 0; i < NR(smp_limits); i++)
		if (smp_limits[i].elf_machine == m->elf_machine)
			return &smp_limits[i];
	return NULL;
}

const struct qemu_limit *qemu_repeat_limit(const struct kb_machine *m, size_t *i)
{
	for (; *i < NR(repeat_limits); (*i)++)
		if (repeat_limits[*i].elf_machine == m->elf_machine)
			return &repeat_limits[(*i)++];
	return NULL;
}

/* The same file as an earlier candidate: PATH may hold a directory of KBENCH_QEMU_DIRS. */
static int named_before(const struct qemu_candidates *cs, const char *path)
{
	char *real = realpath(path, NULL);
	int same = 0;

	for (size_t i = 0; real && !same && i < cs->nr; i++) {
		char *other = cs->v[i].found ? realpath(cs->v[i].path, NULL) : NULL;

		same = other && !strcmp(real, other);
		free(other);
	}
	free(real);
	return same;
}

static void add(struct qemu_candidates *cs, char *path, int in_path, int found)
{
	struct qemu_candidate *c;

	if (found && named_before(cs, path)) {
		free(path);
		return;
	}
	cs->v = xrealloc(cs->v, (cs->nr + 1) * sizeof(*cs->v));
	c = &cs->v[cs->nr++];
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->in_path = in_path;
	c->found = found;
	strbuf_init(&c->why);
}

void qemu_candidates(struct qemu_candidates *cs, const struct kb_machine *m, const char *dirs)
{
	char *in_path = find_in_path(m->qemu);
	const char *p = dirs ? dirs : KB_QEMU_DIRS;

	cs->v = NULL;
	cs->nr = 0;
	add(cs, in_path ? in_path : xstrdup(m->qemu), 1, in_path != NULL);
	while (*p) {
		const char *end = strchrnul(p, ':');
		struct strbuf sb = STRBUF_INIT;
		struct stat st;

		if (end > p) {
			int found;

			strbuf_add(&sb, p, (size_t)(end - p));
			strbuf_addf(&sb, "/%s", m->qemu);
			found = !stat(sb.buf, &st) && S_ISREG(st.st_mode) && !access(sb.buf, X_OK);
			add(cs, strbuf_detach(&sb, NULL), 0, found);
		}
		p = *end ? end + 1 : end;
	}
}

void qemu_candidates_release(struct qemu_candidates *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		free(cs->v[i].path);
		free(cs->v[i].version);
		free(cs->v[i].probe_error);
		strbuf_release(&cs->v[i].why);
	}
	free(cs->v);
	cs->v = NULL;
	cs->nr = 0;
}

int qemu_major(const char *version)
{
	char *end;
	long major;

	if (!version)
		return -1;
	major = strtol(version, &end, 10);
	return end == version || major < 0 || major > 999 ? -1 : (int)major;
}

static const char *s(int n)
{
	return n == 1 ? "" : "s";
}

enum qemu_fit qemu_judge(const struct qemu_request *r, const struct qemu_candidate *c,
			 struct strbuf *why)
{
	const struct qemu_limit *l = qemu_smp_limit(r->m);
	int major = qemu_major(c->version);
	size_t i = 0;

	strbuf_reset(why);
	if (!c->found) {
		strbuf_addstr(why, c->in_path ? "not in PATH" : "no such executable");
		return QEMU_UNFIT;
	}
	/* One that does not say its version goes on: its boot will tell. */
	if (r->icount && l && r->cpus > l->most && major >= 0 && major < l->before_qemu) {
		strbuf_addf(why, "%s guests of more than %d CPU%s %s under its icount clock "
			    "(kbench(1), BUGS)", r->m->name, l->most, s(l->most), l->what);
		return QEMU_UNFIT;
	}
	if (r->model && !c->probed)
		return QEMU_PROBE;
	if (r->model && c->probe_error) {
		if (strstr(c->probe_error, "plugin"))
			strbuf_addf(why, "QEMU could not load the cost model's plugin: %s",
				    c->probe_error);
		else
			strbuf_addf(why, "QEMU could not set up the boot: %s", c->probe_error);
		return QEMU_UNFIT;
	}
	while (r->icount && (l = qemu_repeat_limit(r->m, &i)))
		if (l->before_qemu && r->cpus > l->most && major >= 0 && major < l->before_qemu) {
			strbuf_addf(why, "two boots of one %s image %s above %d CPU%s under its "
				    "icount (kbench(1), BUGS)", r->m->name, l->what, l->most,
				    s(l->most));
			return QEMU_UNREPEATABLE;
		}
	return QEMU_FIT;
}

int qemu_pick(const struct qemu_candidates *cs)
{
	int unrepeatable = -1;

	for (size_t i = 0; i < cs->nr; i++) {
		if (cs->v[i].fit == QEMU_FIT)
			return (int)i;
		if (cs->v[i].fit == QEMU_UNREPEATABLE && unrepeatable < 0)
			unrepeatable = (int)i;
	}
	return unrepeatable;
}

void qemu_refusal(const struct qemu_request *r, const struct qemu_candidates *cs,
		  struct strbuf *out)
{
	strbuf_addf(out, "no QEMU here runs this %s kernel with %d CPU%s under %s%s:",
		    r->m->name, r->cpus, s(r->cpus), r->icount ? "icount" : "KVM",
		    r->model ? " with the cost model" : "");
	for (size_t i = 0; i < cs->nr; i++) {
		const struct qemu_candidate *c = &cs->v[i];

		strbuf_addf(out, "\n  %s", c->path);
		if (c->found)
			strbuf_addf(out, " (%s%s)", c->version ? "QEMU " : "no version said",
				    c->version ? c->version : "");
		strbuf_addf(out, ": %s", c->why.len ? c->why.buf : "not looked at");
	}
}
