// SPDX-License-Identifier: GPL-2.0
#include "order.h"
#include "fileio.h"
#include "lkd-elf.h"
#include "ldscript.h"
#include "run-command.h"
#include "tempfile.h"
#include "warn.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Names past this many that GNU ld cannot take are counted, not each named. */
#define NAMED_SKIPS 10

enum flavour { LD_UNKNOWN, LD_GNU, LD_LLD };

static int is_trimmed(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

int order_read(struct lkd_order *ord, const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long line = 0;
	size_t lines_alloc = 0;
	char *name;
	int ret = 0;

	ord->file = file;
	if (strbuf_read_file(&sb, file, 0)) {
		ret = error_errno("--lkd-order: cannot read %s", file);
		strbuf_release(&sb);	/* a failed read may have grown it */
		return ret;
	}
	for (size_t i = 0; i < sb.len && !ret; i++) {
		const char *s = sb.buf + i, *nl = memchr(s, '\n', sb.len - i);
		size_t n = nl ? (size_t)(nl - s) : sb.len - i;

		line++;
		i += n;
		if (memchr(s, '\0', n))
			ret = error("%s:%lu: a NUL byte: not a list of symbol names", file, line);
		else if (n > LKD_ORDER_LINE_MAX)
			ret = error("%s:%lu: a line of %zu bytes, longer than a symbol name lkd "
				    "takes (%d)", file, line, n, LKD_ORDER_LINE_MAX);
		while (n && is_trimmed(s[n - 1]))
			n--;
		while (n && is_trimmed(*s))
			s++, n--;
		if (ret || !n || *s == '#')
			continue;
		name = xstrndup(s, n);
		strvec_push(&ord->names, name);
		free(name);
		/* The lines grow as the names do: geometrically. */
		if (lines_alloc < ord->names.alloc) {
			lines_alloc = ord->names.alloc;
			ord->lines = xrealloc(ord->lines, lines_alloc * sizeof(*ord->lines));
		}
		ord->lines[ord->names.nr - 1] = line;
	}
	strbuf_release(&sb);
	return ret;
}

/*
 * What lkd cannot do: a warning and the link goes on without it, or under
 * --lkd-strict an error.  0 or -1 to return.
 */
__attribute__((format(printf, 2, 3)))
static int cannot(const struct lkd_order *ord, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (ord->strict)
		error("%s", sb.buf);
	else
		warning("%s; linking without --lkd-order", sb.buf);
	strbuf_release(&sb);
	return ord->strict ? -1 : 0;
}

/* Which linker ld is, by its --version, as Kbuild's ld-version.sh tells. */
static enum flavour ask_flavour(const struct strvec *ld, size_t nr_cmd, struct strbuf *said)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	enum flavour f = LD_UNKNOWN;
	int status;

	for (size_t i = 0; i < nr_cmd; i++)
		strvec_push(&cp.args, ld->v[i]);
	strvec_push(&cp.args, "--version");
	status = capture_command(&cp, &out);
	strbuf_add(said, out.buf, strcspn(out.buf, "\n"));
	if (status_ok(status)) {
		if (strstr(said->buf, "LLD"))
			f = LD_LLD;
		else if (!strncmp(said->buf, "GNU ld ", 7))
			f = LD_GNU;
	}
	strbuf_release(&out);
	child_process_clear(&cp);
	return f;
}

/* Characters of a name that GNU ld's script syntax takes without quoting. */
static int gnu_name(const char *s)
{
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && !strchr("_.$", *s))
			return 0;
	return 1;
}

/* One *(.text.NAME .text.hot.NAME) a name GNU ld can take, in FILE's order. */
static int descriptions(const struct lkd_order *ord, struct strbuf *sb, size_t *nr)
{
	size_t skipped = 0;

	strbuf_addstr(sb, "\n\t/* lkd --lkd-order */\n");
	for (size_t i = 0; i < ord->names.nr; i++) {
		const char *name = ord->names.v[i];

		if (gnu_name(name)) {
			/* A profile's hot function is gcc's .text.hot.F: ordered as F. */
			strbuf_addf(sb, "\t*(.text.%s .text.hot.%s)\n", name, name);
			++*nr;
		} else if (++skipped <= NAMED_SKIPS) {
			const char *what = "not a name GNU ld's linker scripts take unquoted "
					   "(letters, digits, '_', '.', '$')";

			if (ord->strict)
				error("%s:%lu: '%.80s': %s", ord->file, ord->lines[i], name, what);
			else
				warning("%s:%lu: '%.80s': %s; not ordered", ord->file,
					ord->lines[i], name, what);
		}
	}
	if (skipped > NAMED_SKIPS && ord->strict)
		error("%s: %zu more such names", ord->file, skipped - NAMED_SKIPS);
	else if (skipped > NAMED_SKIPS)
		warning("%s: %zu more such names not ordered", ord->file, skipped - NAMED_SKIPS);
	return ord->strict && skipped ? -1 : 0;
}

/* gcc's sections of a kind, not of one function: .text.unlikely.F and the like. */
static int kind_section(const char *f)
{
	static const char *const kinds[] = { "unlikely", "hot", "startup", "exit", "unknown" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		size_t n = strlen(kinds[i]);

		if (!strncmp(f, kinds[i], n) && (!f[n] || f[n] == '.'))
			return 1;
	}
	return 0;
}

/* obj's function sections: .text.F holding a function F (-ffunction-sections'). */
static int function_sections(struct lkd_obj *obj, void *data)
{
	struct strvec *found = data;

	for (size_t i = 0; obj->elf && i < obj->nsyms; i++) {
		GElf_Sym sym;
		size_t shndx;
		const char *name, *sec;

		if (obj_sym(obj, i, &sym, &shndx) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !shndx || shndx >= obj->shnum)
			continue;
		name = obj_sym_name(obj, &sym);
		sec = obj_sec_name(obj, shndx);
		if (*name && sec && !strncmp(sec, ".text.", 6) && !strcmp(sec + 6, name) &&
		    !kind_section(name) && gnu_name(name))
			strvec_push(found, name);
	}
	return 0;
}

/*
 * A pattern of the script takes .text.F: a word .text.* or .text.[...]...
 * (not .init.text.*, which only ends so).
 */
static int takes_function_sections(const char *script)
{
	static const char *const pats[] = { ".text.*", ".text.[" };

	for (size_t k = 0; k < sizeof(pats) / sizeof(*pats); k++)
		for (const char *p = script; (p = strstr(p, pats[k])); p++)
			if (p == script || strchr(" \t\n(", p[-1]))
				return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* By name, then by place: the first of equal names sorts first. */
static int cmp_place(const void *a, const void *b)
{
	char *const *p = a, *const *q = b;
	int c = strcmp(*p, *q);

	return c ? c : (p < q ? -1 : p > q);
}

/*
 * The inputs' function sections FILE does not name, in input order, each
 * once, for a script that takes .text.* into .text by no pattern (6.1's
 * x86 kernel does only with dead-code elimination): GNU ld would make
 * orphans of them and place them outside it, beyond the end of the
 * kernel's text.  They follow FILE's.
 */
static void other_functions(const struct lkd_order *ord, const struct ld_cmdline *cl,
			    struct strbuf *sb, size_t *nr)
{
	struct strvec found = STRVEC_INIT;
	char **named = xcalloc(ord->names.nr + 1, sizeof(*named)), ***by_name;
	unsigned char *skip;

	memcpy(named, ord->names.v, ord->names.nr * sizeof(*named));
	qsort(named, ord->names.nr, sizeof(*named), cmp_str);
	for (size_t i = 0; i < cl->inputs.nr; i++)
		lkd_for_each_object(cl->inputs.v[i], LKD_SKIP_NON_ELF, function_sections, &found);
	/* found's entries by name (pointers into found.v keep their places). */
	by_name = xcalloc(found.nr + 1, sizeof(*by_name));
	skip = xcalloc(found.nr + 1, 1);
	for (size_t i = 0; i < found.nr; i++)
		by_name[i] = &found.v[i];
	qsort(by_name, found.nr, sizeof(*by_name), cmp_place);
	for (size_t i = 0; i < found.nr; i++) {
		size_t at = (size_t)(by_name[i] - found.v);

		if ((i && !strcmp(*by_name[i - 1], *by_name[i])) ||
		    bsearch(by_name[i], named, ord->names.nr, sizeof(*named), cmp_str))
			skip[at] = 1;
	}
	for (size_t i = 0; i < found.nr; i++)
		if (!skip[i]) {
			strbuf_addf(sb, "\t*(.text.%s)\n", found.v[i]);
			++*nr;
		}
	free(skip);
	free(by_name);
	free(named);
	strvec_clear(&found);
}

/* A -T script as ld finds it: as named, else in a -L directory. */
static int read_script(struct strbuf *text, const char *name, const struct ld_cmdline *cl)
{
	int err;

	if (!strbuf_read_file(text, name, 0))
		return 0;
	err = errno;
	for (size_t i = 0; name[0] != '/' && err == ENOENT && i < cl->libdirs.nr; i++) {
		struct strbuf path = STRBUF_INIT;
		int r;

		strbuf_addf(&path, "%s/%s", cl->libdirs.v[i], name);
		r = strbuf_read_file(text, path.buf, 0);
		strbuf_release(&path);
		if (!r)
			return 0;
	}
	errno = err;
	return -1;
}

/*
 * An abbreviation of --script or --default-script, which ld takes and
 * args.c does not: a copy of the built-in script would be a second script.
 */
static const char *abbreviated_script(const struct ld_cmdline *cl)
{
	for (size_t i = 0; i < cl->args.nr; i++) {
		const char *a = cl->args.v[i], *name = a + 2;
		size_t n = strcspn(name, "=");

		if (strncmp(a, "--", 2) || n < 3)
			continue;
		if (!strncmp(name, "script", n) || !strncmp(name, "default-script", n))
			return a;
	}
	return NULL;
}

/* GNU ld's built-in script for this link: the options that pick it, and --verbose. */
static int builtin_script(struct strbuf *text, const struct strvec *ld, size_t nr_cmd,
			  const struct ld_cmdline *cl)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf out = STRBUF_INIT;
	int ret = -1;

	for (size_t i = 0; i < nr_cmd; i++)
		strvec_push(&cp.args, ld->v[i]);
	for (size_t i = 0; i < cl->script_opts.nr; i++)
		strvec_push(&cp.args, cl->script_opts.v[i]);
	strvec_push(&cp.args, "--verbose");
	if (status_ok(capture_command(&cp, &out)))
		ret = ldscript_from_verbose(text, out.buf, out.len);
	strbuf_release(&out);
	child_process_clear(&cp);
	return ret;
}

static int write_script(struct lkd_order *ord, const struct strbuf *text)
{
	int fd = tempfile_create("lkd-order-", ".lds", &ord->script);

	if (fd < 0)
		return -1;
	if (write_in_full(fd, text->buf, text->len) || close(fd)) {
		error_errno("%s: cannot write the linker script", ord->script);
		tempfile_remove(ord->script);
		ord->script = NULL;
		return -1;
	}
	return 0;
}

static int order_gnu(struct lkd_order *ord, struct strvec *ld, size_t nr_cmd,
		     const struct ld_cmdline *cl)
{
	struct strbuf text = STRBUF_INIT, names = STRBUF_INIT, out = STRBUF_INIT;
	struct strvec args = STRVEC_INIT;
	const struct ld_script_ref *ref = NULL;
	const char *what = "ld's built-in linker script";
	ssize_t at = -1;
	size_t nr = 0;
	int ret = -1;

	if (descriptions(ord, &names, &nr))
		goto out;
	if (!nr) {
		ret = 0;
		goto out;
	}
	for (size_t k = 0; k < cl->nr_scripts && at < 0; k++) {
		ref = &cl->scripts[k];
		what = cl->args.v[ref->arg] + ref->off;
		strbuf_reset(&text);
		if (read_script(&text, what, cl)) {
			ret = cannot(ord, "cannot read the linker script %s: %s", what,
				     strerror(errno));
			goto out;
		}
		at = ldscript_text_start(text.buf, text.len);
	}
	if (!cl->nr_scripts && abbreviated_script(cl)) {
		ret = cannot(ord, "%s: a linker script option lkd does not read in full",
			     abbreviated_script(cl));
		goto out;
	}
	if (!cl->nr_scripts && builtin_script(&text, ld, nr_cmd, cl)) {
		ret = cannot(ord, "%s --verbose printed no linker script", ld->v[0]);
		goto out;
	}
	if (!cl->nr_scripts)
		at = ldscript_text_start(text.buf, text.len);
	if (at < 0 && cl->nr_scripts > 1)
		ret = cannot(ord, "none of the %zu linker scripts has a .text output section",
			     cl->nr_scripts);
	else if (at < 0)
		ret = cannot(ord, "%s has no .text output section", what);
	if (at < 0)
		goto out;
	if (!takes_function_sections(text.buf))
		other_functions(ord, cl, &names, &nr);
	strbuf_add(&out, text.buf, (size_t)at);
	strbuf_add(&out, names.buf, names.len);
	strbuf_add(&out, text.buf + at, text.len - (size_t)at);
	if (write_script(ord, &out))
		goto out;
	for (size_t i = 0; i < nr_cmd; i++)
		strvec_push(&args, ld->v[i]);
	for (size_t i = 0; i < cl->args.nr; i++)
		if (ref && i == ref->arg)
			strvec_pushf(&args, "%.*s%s", (int)ref->off, cl->args.v[i], ord->script);
		else
			strvec_push(&args, cl->args.v[i]);
	if (!ref)
		strvec_pushl(&args, "-T", ord->script, NULL);
	strvec_clear(ld);
	*ld = args;
	if (ord->verbose)
		note("--lkd-order: %zu functions of %s first in .text, in a copy of %s: %s", nr,
		     ord->file, what, ord->script);
	ret = 0;
out:
	strbuf_release(&text);
	strbuf_release(&names);
	strbuf_release(&out);
	return ret;
}

int order_apply(struct lkd_order *ord, struct strvec *ld, size_t nr_cmd,
		const struct ld_cmdline *cl)
{
	struct strbuf said = STRBUF_INIT;
	int ret = 0;

	switch (ask_flavour(ld, nr_cmd, &said)) {
	case LD_LLD:
		strvec_pushf(ld, "--symbol-ordering-file=%s", ord->file);
		/* Symbols of FILE absent from this link (another program's) are no news. */
		strvec_push(ld, "--no-warn-symbol-ordering");
		if (ord->verbose)
			note("--lkd-order: %s orders the functions of %s", ld->v[0], ord->file);
		break;
	case LD_GNU:
		ret = order_gnu(ord, ld, nr_cmd, cl);
		break;
	default:
		ret = cannot(ord, "%s is neither GNU ld nor ld.lld (its --version: '%.80s')",
			     ld->v[0], said.buf);
		break;
	}
	strbuf_release(&said);
	return ret;
}

void order_release(struct lkd_order *ord)
{
	if (ord->script)
		tempfile_remove(ord->script);
	ord->script = NULL;
	strvec_clear(&ord->names);
	free(ord->lines);
	ord->lines = NULL;
}
