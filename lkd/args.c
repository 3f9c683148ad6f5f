// SPDX-License-Identifier: GPL-2.0
/*
 * GNU ld command-line analysis.  The option table is data: adding an ld
 * option is one line.  Like ld's getopt_long_only(), a long option may be
 * written with one dash or two, "-x" options may have their argument
 * attached ("-ofoo", "-lm") and long ones after "=" ("--output=foo").
 * Options lkd does not know are taken to have no argument (ld's own
 * abbreviations of long options are not recognised).
 */
#include "args.h"
#include "respfile.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum ld_kind {
	K_PLAIN, K_OUTPUT, K_RELOC, K_DEFCOMMON, K_QUERY, K_VERSION, K_LIB, K_LIBDIR,
	K_FORMAT, K_STATIC, K_DYNAMIC,
	K_SCRIPT,	/* names a linker script */
	K_PICK,		/* picks which of GNU ld's built-in scripts a link without one gets */
};

enum ld_arg { A_NONE, A_REQ, A_OPT };	/* A_OPT: only as "--name=value" */

struct ld_opt {
	const char *name;
	unsigned char arg;
	unsigned char kind;
};

/* Long options (one or two dashes) that matter or take an argument. */
static const struct ld_opt long_opts[] = {
	{ "output", A_REQ, K_OUTPUT },
	{ "relocatable", A_NONE, K_RELOC },
	{ "Ur", A_NONE, K_RELOC },
	{ "dc", A_NONE, K_DEFCOMMON },
	{ "dp", A_NONE, K_DEFCOMMON },
	{ "help", A_NONE, K_QUERY },
	{ "version", A_NONE, K_QUERY },
	{ "target-help", A_NONE, K_QUERY },
	{ "print-output-format", A_NONE, K_QUERY },
	{ "print-sysroot", A_NONE, K_QUERY },
	{ "library", A_REQ, K_LIB },
	{ "library-path", A_REQ, K_LIBDIR },
	{ "format", A_REQ, K_FORMAT },
	{ "Bstatic", A_NONE, K_STATIC },
	{ "dn", A_NONE, K_STATIC },
	{ "non_shared", A_NONE, K_STATIC },
	{ "static", A_NONE, K_STATIC },
	{ "Bdynamic", A_NONE, K_DYNAMIC },
	{ "dy", A_NONE, K_DYNAMIC },
	{ "call_shared", A_NONE, K_DYNAMIC },
	{ "script", A_REQ, K_SCRIPT }, { "default-script", A_REQ, K_SCRIPT },
	{ "dT", A_REQ, K_SCRIPT },
	{ "shared", A_NONE, K_PICK }, { "Bshareable", A_NONE, K_PICK },
	{ "pie", A_NONE, K_PICK }, { "pic-executable", A_NONE, K_PICK },
	{ "no-pie", A_NONE, K_PICK }, { "omagic", A_NONE, K_PICK },
	{ "nmagic", A_NONE, K_PICK }, { "no-omagic", A_NONE, K_PICK },
	{ "EB", A_NONE, K_PICK }, { "EL", A_NONE, K_PICK },
	/* Arguments that are not input files. */
	{ "architecture", A_REQ, K_PLAIN }, { "mri-script", A_REQ, K_PLAIN },
	{ "dependency-file", A_REQ, K_PLAIN }, { "entry", A_REQ, K_PLAIN },
	{ "auxiliary", A_REQ, K_PLAIN }, { "filter", A_REQ, K_PLAIN },
	{ "gpsize", A_REQ, K_PLAIN }, { "soname", A_REQ, K_PLAIN },
	{ "dynamic-linker", A_REQ, K_PLAIN }, { "sysroot", A_REQ, K_PLAIN },
	{ "out-implib", A_REQ, K_PLAIN }, { "plugin", A_REQ, K_PLAIN },
	{ "plugin-opt", A_REQ, K_PLAIN }, { "just-symbols", A_REQ, K_PLAIN },
	{ "undefined", A_REQ, K_PLAIN },
	{ "require-defined", A_REQ, K_PLAIN }, { "trace-symbol", A_REQ, K_PLAIN },
	{ "defsym", A_REQ, K_PLAIN }, { "Map", A_REQ, K_PLAIN },
	{ "oformat", A_REQ, K_PLAIN }, { "retain-symbols-file", A_REQ, K_PLAIN },
	{ "rpath", A_REQ, K_PLAIN }, { "rpath-link", A_REQ, K_PLAIN },
	{ "sort-section", A_REQ, K_PLAIN }, { "spare-dynamic-tags", A_REQ, K_PLAIN },
	{ "task-link", A_REQ, K_PLAIN }, { "section-start", A_REQ, K_PLAIN },
	{ "Tbss", A_REQ, K_PLAIN }, { "Tdata", A_REQ, K_PLAIN },
	{ "Ttext", A_REQ, K_PLAIN }, { "Ttext-segment", A_REQ, K_PLAIN },
	{ "Trodata-segment", A_REQ, K_PLAIN }, { "Tldata-segment", A_REQ, K_PLAIN },
	{ "unresolved-symbols", A_REQ, K_PLAIN }, { "version-script", A_REQ, K_PLAIN },
	{ "version-exports-section", A_REQ, K_PLAIN }, { "dynamic-list", A_REQ, K_PLAIN },
	{ "export-dynamic-symbol", A_REQ, K_PLAIN },
	{ "export-dynamic-symbol-list", A_REQ, K_PLAIN },
	{ "wrap", A_REQ, K_PLAIN }, { "ignore-unresolved-symbol", A_REQ, K_PLAIN },
	{ "orphan-handling", A_REQ, K_PLAIN }, { "ctf-share-types", A_REQ, K_PLAIN },
	{ "hash-size", A_REQ, K_PLAIN }, { "max-cache-size", A_REQ, K_PLAIN },
	{ "compress-debug-sections", A_REQ, K_PLAIN }, { "audit", A_REQ, K_PLAIN },
	{ "exclude-libs", A_REQ, K_PLAIN }, { "hash-style", A_REQ, K_PLAIN },
	{ "depaudit", A_REQ, K_PLAIN }, { "error-handling-script", A_REQ, K_PLAIN },
	{ "assert", A_REQ, K_PLAIN }, { "init", A_REQ, K_PLAIN },
	{ "fini", A_REQ, K_PLAIN }, { "image-base", A_REQ, K_PLAIN },
	{ "build-id", A_OPT, K_PLAIN }, { "package-metadata", A_OPT, K_PLAIN },
	{ "demangle", A_OPT, K_PLAIN }, { "sort-common", A_OPT, K_PLAIN },
	{ "split-by-file", A_OPT, K_PLAIN }, { "split-by-reloc", A_OPT, K_PLAIN },
	{ "verbose", A_OPT, K_PLAIN }, { "unique", A_OPT, K_PLAIN },
	/* Known flags (no argument), so they do not count as unknown. */
	{ "whole-archive", A_NONE, K_PLAIN }, { "no-whole-archive", A_NONE, K_PLAIN },
	{ "start-group", A_NONE, K_PLAIN }, { "end-group", A_NONE, K_PLAIN },
	{ "push-state", A_NONE, K_PLAIN }, { "pop-state", A_NONE, K_PLAIN },
	{ "gc-sections", A_NONE, K_PLAIN }, { "no-gc-sections", A_NONE, K_PLAIN },
	{ "emit-relocs", A_NONE, K_PLAIN }, { "strip-debug", A_NONE, K_PLAIN },
	{ "strip-all", A_NONE, K_PLAIN }, { "discard-all", A_NONE, K_PLAIN },
	{ "discard-locals", A_NONE, K_PLAIN }, { "no-undefined", A_NONE, K_PLAIN },
	{ "nostdlib", A_NONE, K_PLAIN }, { "export-dynamic", A_NONE, K_PLAIN },
	{ "no-dynamic-linker", A_NONE, K_PLAIN }, { "Bsymbolic", A_NONE, K_PLAIN },
	{ "as-needed", A_NONE, K_PLAIN }, { "no-as-needed", A_NONE, K_PLAIN },
	{ "eh-frame-hdr", A_NONE, K_PLAIN }, { "fatal-warnings", A_NONE, K_PLAIN },
	{ "warn-common", A_NONE, K_PLAIN }, { "no-define-common", A_NONE, K_PLAIN },
	{ "print-map", A_NONE, K_PLAIN }, { "cref", A_NONE, K_PLAIN },
	{ "trace", A_NONE, K_PLAIN }, { "relax", A_NONE, K_PLAIN },
	{ "no-relax", A_NONE, K_PLAIN }, { "no-warn-rwx-segments", A_NONE, K_PLAIN },
	{ "no-warn-execstack", A_NONE, K_PLAIN }, { "print-gc-sections", A_NONE, K_PLAIN },
	{ "no-ld-generated-unwind-info", A_NONE, K_PLAIN },
	{ "warn-unresolved-symbols", A_NONE, K_PLAIN }, { "noinhibit-exec", A_NONE, K_PLAIN },
	{ "allow-multiple-definition", A_NONE, K_PLAIN }, { "no-warnings", A_NONE, K_PLAIN },
	{ "check-sections", A_NONE, K_PLAIN }, { "no-check-sections", A_NONE, K_PLAIN },
	{ "enable-new-dtags", A_NONE, K_PLAIN }, { "disable-new-dtags", A_NONE, K_PLAIN },
	{ "discard-none", A_NONE, K_PLAIN }, { "stats", A_NONE, K_PLAIN },
};

/* Single-letter options: letter, argument, kind. */
static const struct { char c; unsigned char arg, kind; } short_opts[] = {
	{ 'o', A_REQ, K_OUTPUT }, { 'r', A_NONE, K_RELOC }, { 'i', A_NONE, K_RELOC },
	{ 'd', A_NONE, K_DEFCOMMON }, { 'v', A_NONE, K_VERSION }, { 'V', A_NONE, K_VERSION },
	{ 'l', A_REQ, K_LIB }, { 'L', A_REQ, K_LIBDIR }, { 'b', A_REQ, K_FORMAT },
	{ 'a', A_REQ, K_PLAIN }, { 'A', A_REQ, K_PLAIN }, { 'c', A_REQ, K_PLAIN },
	{ 'e', A_REQ, K_PLAIN }, { 'f', A_REQ, K_PLAIN }, { 'F', A_REQ, K_PLAIN },
	{ 'G', A_REQ, K_PLAIN }, { 'h', A_REQ, K_PLAIN }, { 'I', A_REQ, K_PLAIN },
	{ 'm', A_REQ, K_PICK }, { 'O', A_REQ, K_PLAIN }, { 'P', A_REQ, K_PLAIN },
	{ 'R', A_REQ, K_PLAIN }, { 'T', A_REQ, K_SCRIPT }, { 'u', A_REQ, K_PLAIN },
	{ 'y', A_REQ, K_PLAIN }, { 'Y', A_REQ, K_PLAIN }, { 'z', A_REQ, K_PICK },
	{ 'E', A_NONE, K_PLAIN }, { 'g', A_NONE, K_PLAIN }, { 'M', A_NONE, K_PLAIN },
	{ 'n', A_NONE, K_PICK }, { 'N', A_NONE, K_PICK }, { 'q', A_NONE, K_PLAIN },
	{ 's', A_NONE, K_PLAIN }, { 'S', A_NONE, K_PLAIN }, { 't', A_NONE, K_PLAIN },
	{ 'x', A_NONE, K_PLAIN }, { 'X', A_NONE, K_PLAIN }, { 'w', A_NONE, K_PLAIN },
	{ '(', A_NONE, K_PLAIN }, { ')', A_NONE, K_PLAIN },
};

static const struct ld_opt *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(long_opts) / sizeof(*long_opts); i++)
		if (strlen(long_opts[i].name) == len && !strncmp(long_opts[i].name, name, len))
			return &long_opts[i];
	return NULL;
}

static int find_short(char c)
{
	for (size_t i = 0; i < sizeof(short_opts) / sizeof(*short_opts); i++)
		if (short_opts[i].c == c)
			return (int)i;
	return -1;
}

struct parse_state {
	struct ld_cmdline *cl;
	struct strvec libs;	/* "s:name" / "d:name": -l, resolved at the end */
	int is_static;
	int elf_format;		/* inputs after -b binary are not ELF */
};

static void apply(struct parse_state *ps, int kind, const char *val)
{
	struct ld_cmdline *cl = ps->cl;

	switch (kind) {
	case K_OUTPUT:
		free(cl->output);
		cl->output = xstrdup(val);
		break;
	case K_RELOC:
		cl->relocatable = 1;
		break;
	case K_DEFCOMMON:
		cl->define_common = 1;
		break;
	case K_QUERY:
		cl->query = 1;
		break;
	case K_VERSION:
		cl->verbose_version = 1;
		break;
	case K_LIB:
		strvec_pushf(&ps->libs, "%c:%s", ps->is_static ? 's' : 'd', val);
		break;
	case K_LIBDIR:
		strvec_push(&cl->libdirs, val);
		break;
	case K_FORMAT:
		ps->elf_format = !strncmp(val, "elf", 3) || !strcmp(val, "default");
		break;
	case K_STATIC:
		ps->is_static = 1;
		break;
	case K_DYNAMIC:
		ps->is_static = 0;
		break;
	}
}

/*
 * An option of kind with its value val (NULL: none), which lies in
 * args.v[at]; spelled is the option as ld takes it without its value.
 */
static void take(struct parse_state *ps, int kind, const char *spelled, const char *val,
		 size_t at)
{
	struct ld_cmdline *cl = ps->cl;

	if (kind == K_SCRIPT) {
		cl->scripts = xrealloc(cl->scripts, (cl->nr_scripts + 1) * sizeof(*cl->scripts));
		cl->scripts[cl->nr_scripts].arg = at;
		cl->scripts[cl->nr_scripts++].off = (size_t)(val - cl->args.v[at]);
	} else if (kind == K_PICK) {
		strvec_push(&cl->script_opts, spelled);
		if (val)
			strvec_push(&cl->script_opts, val);
	} else {
		apply(ps, kind, val);
	}
}

/* One option at argv[*i]; may consume the next argument. */
static int parse_option(struct parse_state *ps, struct strvec *args, size_t *i)
{
	const char *a = args->v[*i], *name = a + 1 + (a[1] == '-');
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct ld_opt *o = find_long(name, len);
	int s;

	if (o) {
		const char *val = eq ? eq + 1 : NULL;

		if (o->arg == A_REQ && !val) {
			if (*i + 1 >= args->nr)
				return error("ld option '%s' needs an argument", a);
			val = args->v[++*i];
		}
		/* As spelled: the long options that pick a script have no value. */
		take(ps, o->kind, a, val, *i);
		return 0;
	}
	if (a[1] == '-') {
		ps->cl->unknown++;
		return 0;
	}
	/* Short options, possibly clustered ("-rs") or with an attached argument. */
	for (const char *p = a + 1; *p; p++) {
		char spelled[3] = { '-', *p, 0 };

		s = find_short(*p);
		if (s < 0) {
			ps->cl->unknown++;
			return 0;
		}
		if (short_opts[s].arg == A_REQ) {
			const char *val = p[1] ? p + 1 : NULL;

			if (!val) {
				if (*i + 1 >= args->nr)
					return error("ld option '%s' needs an argument", a);
				val = args->v[++*i];
			}
			take(ps, short_opts[s].kind, spelled, val, *i);
			return 0;
		}
		take(ps, short_opts[s].kind, spelled, NULL, *i);
	}
	return 0;
}

static int file_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * ld searches -L directories, then its built-in ones; lkd checks only
 * libraries found in -L directories (the system's are not ours to check)
 * and only archives (shared libraries are linked, not copied).
 */
static void resolve_lib(struct ld_cmdline *cl, const char *spec)
{
	struct strbuf sb = STRBUF_INIT;
	int is_static = spec[0] == 's';
	const char *name = spec + 2;

	for (size_t d = 0; d < cl->libdirs.nr; d++) {
		const char *dir = cl->libdirs.v[d];

		if (name[0] == ':') {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s/%s", dir, name + 1);
			if (file_exists(sb.buf)) {
				strvec_push(&cl->inputs, sb.buf);
				break;
			}
			continue;
		}
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/lib%s.so", dir, name);
		if (!is_static && file_exists(sb.buf))
			break;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/lib%s.a", dir, name);
		if (file_exists(sb.buf)) {
			strvec_push(&cl->inputs, sb.buf);
			break;
		}
	}
	strbuf_release(&sb);
}

int ld_parse(struct ld_cmdline *cl, int argc, char *const *argv)
{
	struct parse_state ps = { .cl = cl, .libs = STRVEC_INIT, .elf_format = 1 };
	struct strvec *args = &cl->args;
	int ret = 0;

	if (respfile_expand(args, argc, argv))
		return -1;
	for (size_t i = 0; i < args->nr && !ret; i++) {
		const char *a = args->v[i];

		if (a[0] == '-' && a[1])
			ret = parse_option(&ps, args, &i);
		else if (ps.elf_format && a[0] != '-')
			strvec_push(&cl->inputs, a);
	}
	for (size_t i = 0; i < ps.libs.nr; i++)
		resolve_lib(cl, ps.libs.v[i]);
	if (!cl->output)
		cl->output = xstrdup("a.out");
	strvec_clear(&ps.libs);
	return ret;
}

void ld_cmdline_release(struct ld_cmdline *cl)
{
	strvec_clear(&cl->inputs);
	strvec_clear(&cl->libdirs);
	strvec_clear(&cl->args);
	free(cl->scripts);
	strvec_clear(&cl->script_opts);
	free(cl->output);
	memset(cl, 0, sizeof(*cl));
}
