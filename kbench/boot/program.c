// SPDX-License-Identifier: GPL-2.0
/* Programs as rows: their specs, their files, the guest's list (program.h). */
#include "program.h"
#include "elfdeps.h"
#include "rows.h"
#include "warn.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the guest's console line and a row's name hold (protocol.h). */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_.-"
/* One console line holds the guest's list of names (kbench_only's limit). */
#define MAX_PROGRAMS 32

#define ROW_NAME(name, unit, group, ...) name, group,
static const char *const taken[] = { KB_ROWS(ROW_NAME) KB_PROGRAM_GROUP, "all", "none" };
#undef ROW_NAME

static int name_taken(const struct kb_programs *ps, const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(taken) / sizeof(*taken); i++)
		if (strlen(taken[i]) == len && !strncmp(taken[i], name, len))
			return 1;
	for (size_t i = 0; i < ps->nr; i++)
		if (strlen(ps->v[i].name) == len && !strncmp(ps->v[i].name, name, len))
			return 1;
	return 0;
}

int programs_add(struct kb_programs *ps, const char *spec, struct strbuf *why)
{
	const char *eq = strchr(spec, '=');
	size_t len = eq ? (size_t)(eq - spec) : 0;
	struct kb_program *p;

	if (!eq || !len || strspn(spec, NAME_CHARS) != len)
		return strbuf_addf(why, "--program takes NAME=COMMAND ARGS... with NAME of "
				"a-z 0-9 _ . - (a row's name), not '%s'", spec), -1;
	if (name_taken(ps, spec, len))
		return strbuf_addf(why, "--program: '%.*s' is already a row, a group or another "
				"program's name", (int)len, spec), -1;
	if (strpbrk(eq, "\n\r"))
		return strbuf_addf(why, "--program %.*s: a line break in the command",
				   (int)len, spec), -1;
	if (ps->nr == MAX_PROGRAMS)
		return strbuf_addf(why, "--program: at most %d programs", MAX_PROGRAMS), -1;
	ps->v = xrealloc(ps->v, (ps->nr + 1) * sizeof(*ps->v));
	p = &ps->v[ps->nr];
	memset(p, 0, sizeof(*p));
	strvec_split(&p->argv, eq + 1);
	if (!p->argv.nr) {
		strvec_clear(&p->argv);
		return strbuf_addf(why, "--program %.*s: no command after '='", (int)len, spec), -1;
	}
	p->name = xstrndup(spec, len);
	ps->nr++;
	return 0;
}

char *program_find(const char *command)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;

	if (strchr(command, '/'))
		return xstrdup(command);
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;; p++) {
		size_t n = strcspn(p, ":");
		struct stat st;

		strbuf_reset(&sb);
		strbuf_addf(&sb, "%.*s/%s", n ? (int)n : 1, n ? p : ".", command);
		if (!stat(sb.buf, &st) && S_ISREG(st.st_mode) && !access(sb.buf, X_OK))
			return strbuf_detach(&sb, NULL);
		p += n;
		if (!*p)
			break;
	}
	strbuf_release(&sb);
	return NULL;
}

static int listed_before(const struct kb_programs *ps, size_t k, size_t f)
{
	for (size_t i = 0; i <= k; i++)
		for (size_t j = 0; j < (i < k ? ps->v[i].files.nr : f); j++)
			if (!strcmp(ps->v[i].files.v[j], ps->v[k].files.v[f]))
				return 1;
	return 0;
}

static int resolve(struct kb_program *p, const struct kb_machine *m)
{
	struct strbuf what = STRBUF_INIT;
	char *found = program_find(p->argv.v[0]);
	int ret;

	if (!found)
		return error("--program %s: no command '%s' in PATH", p->name, p->argv.v[0]);
	strbuf_addf(&what, "--program %s:", p->name);
	ret = access(found, X_OK) ? error_errno("--program %s: cannot run %s", p->name, found) :
		machine_check_program(m, found, what.buf, "a program for the kernel's machine");
	if (!ret)
		ret = elf_closure(m, found, &p->files, &p->bytes);
	if (!ret) {
		free(p->path);
		p->path = xstrdup(p->files.v[0]);
	}
	strbuf_release(&what);
	free(found);
	return ret;
}

int programs_resolve(struct kb_programs *ps, const struct kb_machine *m)
{
	ps->bytes = 0;
	for (size_t i = 0; i < ps->nr; i++) {
		struct kb_program *p = &ps->v[i];

		strvec_clear(&p->files);
		p->bytes = 0;
		if (resolve(p, m))
			return -1;
		for (size_t f = 0; f < p->files.nr; f++) {
			struct stat st;

			if (!listed_before(ps, i, f) && !stat(p->files.v[f], &st))
				ps->bytes += (uint64_t)st.st_size;
		}
	}
	return 0;
}

void programs_list(const struct kb_programs *ps, struct strbuf *sb)
{
	for (size_t i = 0; i < ps->nr; i++) {
		strbuf_addf(sb, "%s %s", ps->v[i].name, ps->v[i].path);
		for (size_t a = 0; a < ps->v[i].argv.nr; a++)
			strbuf_addf(sb, " %s", ps->v[i].argv.v[a]);
		strbuf_addch(sb, '\n');
	}
}

int programs_check_rows(const struct kb_programs *ps, const struct kb_result *res,
			const char *kernel)
{
	for (size_t i = 0; i < ps->nr; i++)
		/* One boot's rows: run gives them their CPUs when it merges them. */
		if (!result_find(res, ps->v[i].name, 1))
			return error("kernel %s: the guest ran no row for --program %s (a guest "
				     "without programs, from --guest or $KBENCH_GUEST?)", kernel,
				     ps->v[i].name);
	return 0;
}

void programs_release(struct kb_programs *ps)
{
	for (size_t i = 0; i < ps->nr; i++) {
		free(ps->v[i].name);
		free(ps->v[i].path);
		strvec_clear(&ps->v[i].argv);
		strvec_clear(&ps->v[i].files);
	}
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}
