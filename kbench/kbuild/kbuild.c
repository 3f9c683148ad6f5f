// SPDX-License-Identifier: GPL-2.0
/* Configuring and building the compared kernels (kbuild.h). */
#include "kbuild.h"
#include "atomic-file.h"
#include "machine.h"
#include "kbench.h"
#include "fileio.h"
#include "run-command.h"
#include "warn.h"
#include "kbench-config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void kbuild_fixed_env(void)
{
	setenv("KBUILD_BUILD_TIMESTAMP", "Sat Jan  1 00:00:00 UTC 2000", 0);
	setenv("KBUILD_BUILD_USER", "kbench", 0);
	setenv("KBUILD_BUILD_HOST", "ccd-suite", 0);
	setenv("KBUILD_BUILD_VERSION", "1", 0);
}

char *kbuild_abs(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *cwd;

	if (path[0] == '/')
		return xstrdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		die_errno("getcwd");
	strbuf_addf(&sb, "%s/%s", cwd, path);
	free(cwd);
	return strbuf_detach(&sb, NULL);
}

int kbuild_run(const struct kbuild *kb, struct strvec *args)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	struct strbuf sb = STRBUF_INIT;
	int status;

	quote_argv(&sb, args->v);
	if (kb->dry_run) {
		printf("%s\n", sb.buf);
		strbuf_release(&sb);
		return 0;
	}
	note("%s", sb.buf);
	strbuf_release(&sb);
	strvec_pushv(&cp.args, args->v);
	/* Nothing of a build asks: a question of Kconfig's must not wait for a terminal. */
	cp.in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (cp.in < 0) {
		child_process_clear(&cp);
		return error_errno("cannot open /dev/null");
	}
	status = run_command(&cp);
	close(cp.in);
	child_process_clear(&cp);
	if (status_ok(status))
		return 0;
	return error("'%s' failed", args->v[0]);
}

const struct kb_machine *kbuild_machine(const struct kbuild *kb)
{
	return kb->m ? kb->m : machine_host();
}

/*
 * make TARGETS (NULL-terminated) for the machine, through ccd and lkd; with
 * jobs, a build.  The configuration too is made through them: Kconfig asks
 * the compiler what it supports, and a configuration made for another
 * compiler is made again by the build, with questions for what is new.
 */
static int kmake(const struct kbuild *kb, const char *dir, const char *const *targets, int jobs)
{
	const struct kb_machine *m = kbuild_machine(kb);
	struct strvec args = STRVEC_INIT;
	int ret;

	strvec_pushl(&args, "make", "-C", kb->source, NULL);
	strvec_pushf(&args, "O=%s", dir);
	strvec_pushf(&args, "ARCH=%s", m->kernel_arch);
	/* Another machine's kernel: Debian's cross gcc, binutils and ld. */
	if (m != machine_host())
		strvec_pushf(&args, "CROSS_COMPILE=%s-", m->triple);
	if (jobs)
		strvec_pushf(&args, "-j%d", jobs);
	strvec_pushf(&args, "CC=%s", kb->ccd);
	if (kb->link_order)
		strvec_pushf(&args, "LD=%s --lkd-order=%s", kb->lkd, kb->link_order);
	else
		strvec_pushf(&args, "LD=%s", kb->lkd);
	if (jobs && kb->kcflags)
		strvec_pushf(&args, "KCFLAGS=%s", kb->kcflags);
	for (; *targets; targets++)
		strvec_push(&args, *targets);
	ret = kbuild_run(kb, &args);
	strvec_clear(&args);
	return ret;
}

/*
 * What a distribution's configuration gets on top.  The "=y" lines of
 * kbench's fragment before its last block: what the guest needs to boot and
 * the benchmarks use (the distribution's own CPUs, optimisation, allocator
 * and IPv6 stay as it chose).  Then what changes no code but would stop the
 * build outside the distribution's tree or double its time: the signing
 * keys its packaging provides, and debug information.
 */
static void distro_needs(const struct kb_machine *m, struct strbuf *sb)
{
	const char *p = m->config, *end = strstr(p, KB_PEOPLE_RUN);

	if (!end)
		end = p + strlen(p);
	while (p < end) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, "CONFIG_", 7) && len > 2 && !strncmp(p + len - 2, "=y", 2)) {
			strbuf_add(sb, p, len);
			strbuf_addch(sb, '\n');
		}
		p += len + (p[len] == '\n');
	}
	strbuf_addstr(sb, m->extra_config);
}

static const char distro_build[] =
	"CONFIG_SYSTEM_TRUSTED_KEYS=\"\"\n"
	"CONFIG_SYSTEM_REVOCATION_KEYS=\"\"\n"
	"CONFIG_DEBUG_INFO_NONE=y\n";

/* What is appended to the base configuration, and checked after olddefconfig. */
static void fragments(const struct kbuild *kb, const char *extra, struct strbuf *add,
		      struct strbuf *check)
{
	const struct kb_machine *m = kbuild_machine(kb);

	if (kb->base_config) {
		distro_needs(m, check);
		strbuf_addstr(add, check->buf);
		strbuf_addstr(add, distro_build);
	} else {
		strbuf_addstr(check, m->config);
		strbuf_addstr(add, m->config);
		strbuf_addstr(add, m->extra_config);
	}
	if (extra) {
		strbuf_addstr(add, extra);
		strbuf_addstr(check, extra);
	}
}

/*
 * --config's file into conf: a kernel configuration as it is, not
 * compressed (Debian's linux-config-* packages ship theirs in xz).
 */
static int read_base(const char *f, struct strbuf *conf)
{
	if (strbuf_read_file(conf, f, 0))
		return error_errno("--config: cannot read %s", f);
	if ((conf->len >= 6 && !memcmp(conf->buf, "\xfd" "7zXZ", 6)) ||
	    (conf->len >= 2 && !memcmp(conf->buf, "\x1f\x8b", 2)))
		return error("--config: %s is compressed: give its text (xz -dc or zcat "
			     "it into a file)", f);
	if (strncmp(conf->buf, "CONFIG_", 7) && !strstr(conf->buf, "\nCONFIG_"))
		return error("--config: %s has no CONFIG_ line: not a kernel configuration", f);
	return 0;
}

int kbuild_check_base(const struct kbuild *kb)
{
	struct strbuf conf = STRBUF_INIT;
	int ret = kb->base_config ? read_base(kb->base_config, &conf) : 0;

	strbuf_release(&conf);
	return ret;
}

/* dir/.config: --config's file. */
static int copy_base(const struct kbuild *kb, const char *dir)
{
	struct strbuf conf = STRBUF_INIT, path = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/.config", dir);
	if (kb->dry_run)
		printf("mkdir -p %s\ncp %s %s\n", dir, kb->base_config, path.buf);
	else if (read_base(kb->base_config, &conf) ||
		 write_atomically(path.buf, conf.buf, conf.len))
		ret = -1;
	strbuf_release(&conf);
	strbuf_release(&path);
	return ret;
}

/* add onto dir/.config; a dry run prints it (as kbench config and extra when it is that). */
static int append_fragments(const struct kbuild *kb, const char *dir, const char *add,
			    const char *extra)
{
	const struct kb_machine *m = kbuild_machine(kb);
	struct strbuf path = STRBUF_INIT;
	int fd, ret = 0;

	strbuf_addf(&path, "%s/.config", dir);
	if (kb->dry_run) {
		if (kb->base_config)
			printf("printf '%%s' '%s' >>%s\n", add, path.buf);
		else if (m == machine_host())
			printf("kbench config >>%s\n", path.buf);
		else
			printf("kbench config --arch=%s >>%s\n", m->debian, path.buf);
		if (extra && !kb->base_config)
			printf("printf '%%s' '%s' >>%s\n", extra, path.buf);
		strbuf_release(&path);
		return 0;
	}
	fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || write_in_full(fd, add, strlen(add)))
		ret = error_errno("cannot append the kbench configuration to %s", path.buf);
	if (fd >= 0 && close(fd) && !ret)
		ret = error_errno("cannot write %s", path.buf);
	strbuf_release(&path);
	return ret;
}

/* Every CONFIG_ line of fragment survived olddefconfig in conf. */
static int check_fragment(const char *path, const char *conf, const char *p)
{
	while (*p) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, "CONFIG_", 7)) {
			struct strbuf line = STRBUF_INIT;
			int missing;

			strbuf_addch(&line, '\n');
			strbuf_add(&line, p, len);
			strbuf_addch(&line, '\n');
			missing = !strstr(conf, line.buf);
			strbuf_release(&line);
			if (missing)
				return error("%s: %.*s did not stay set (a missing dependency?)",
					     path, (int)len, p);
		}
		p += len + (p[len] == '\n');
	}
	return 0;
}

static int check_config(const struct kbuild *kb, const char *dir, const char *check)
{
	struct strbuf conf = STRBUF_INIT, path = STRBUF_INIT;
	int ret = 0;

	if (kb->dry_run)
		return 0;
	strbuf_addf(&path, "%s/.config", dir);
	strbuf_addch(&conf, '\n');
	if (strbuf_read_file(&conf, path.buf, 0))
		ret = error_errno("cannot read %s", path.buf);
	if (!ret)
		ret = check_fragment(path.buf, conf.buf, check);
	strbuf_release(&conf);
	strbuf_release(&path);
	return ret;
}

/* dir/.config: the base (tinyconfig or --config's), the fragments, olddefconfig. */
static int configure(const struct kbuild *kb, const char *dir, const char *extra)
{
	static const char *const tiny[] = { "tinyconfig", NULL }, *const old[] = { "olddefconfig", NULL };
	struct strbuf add = STRBUF_INIT, check = STRBUF_INIT;
	int ret;

	fragments(kb, extra, &add, &check);
	ret = (kb->base_config ? copy_base(kb, dir) : kmake(kb, dir, tiny, 0)) ||
	      append_fragments(kb, dir, add.buf, extra) || kmake(kb, dir, old, 0) ||
	      check_config(kb, dir, check.buf) ? -1 : 0;
	strbuf_release(&add);
	strbuf_release(&check);
	return ret;
}

int kbuild_kernel(const struct kbuild *kb, const char *cc, const char *dir, const char *extra)
{
	const struct kb_machine *m = kbuild_machine(kb);
	struct strbuf cross = STRBUF_INIT;

	if (!kb->dry_run && mkdir(dir, 0755) && errno != EEXIST)
		return error_errno("cannot create %s", dir);
	/* gcc for another machine is its Debian cross gcc; clang takes Kbuild's --target. */
	if (m != machine_host() && !strcmp(cc, "gcc")) {
		strbuf_addf(&cross, "%s-gcc", m->triple);
		cc = cross.buf;
	}
	if (kb->dry_run)
		printf("CCD_CC=%s\n", cc);
	else
		setenv("CCD_CC", cc, 1);
	strbuf_release(&cross);
	if (configure(kb, dir, extra))
		return -1;
	return kmake(kb, dir, m->targets, kb->jobs);
}

const char *kbuild_metric(const struct kbuild *kb)
{
	return kb->model ? "cycles" : NULL;
}
