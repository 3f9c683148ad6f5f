// SPDX-License-Identifier: GPL-2.0
/* Which QEMU kbench run uses when --qemu names none (kbench/boot/qemu-choice.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "qemu-choice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define Q72 "/usr/bin/qemu-system-x86_64"
#define Q10 "/opt/ccd-suite/qemu-backports/usr/bin/qemu-system-x86_64"
#define PLUGIN_WORDS "Could not load plugin /k/kbench-model.so: plugin requires API " \
	"version 1, but this QEMU supports only a minimum version of 2"

/* Candidates as choose_qemu() leaves them: each one judged in order. */
static void set(struct qemu_candidates *cs, size_t nr, const char *const *paths,
		const char *const *versions)
{
	cs->v = calloc(nr, sizeof(*cs->v));
	cs->nr = nr;
	for (size_t i = 0; i < nr; i++) {
		cs->v[i].path = strdup(paths[i]);
		cs->v[i].in_path = i == 0;
		cs->v[i].found = versions[i] != NULL;
		cs->v[i].version = versions[i] && *versions[i] ? strdup(versions[i]) : NULL;
		strbuf_init(&cs->v[i].why);
	}
}

static void judge_all(const struct qemu_request *r, struct qemu_candidates *cs)
{
	for (size_t i = 0; i < cs->nr; i++)
		cs->v[i].fit = qemu_judge(r, &cs->v[i], &cs->v[i].why);
}

static const struct kb_machine *machine(const char *name)
{
	const struct kb_machine *m = machine_named(name);

	assert_non_null(m);
	return m;
}

/* x86_64 at 2 CPUs: Debian's 7.2 first in PATH cannot, backports' 10 can. */
static void test_x86_smp_takes_qemu10(void **state)
{
	const char *paths[] = { Q72, Q10 }, *versions[] = { "7.2.22", "10.0.2" };
	struct qemu_request r = { machine("amd64"), 2, 1, 0 };
	struct qemu_candidates cs;

	(void)state;
	set(&cs, 2, paths, versions);
	judge_all(&r, &cs);
	assert_int_equal(cs.v[0].fit, QEMU_UNFIT);
	assert_string_equal(cs.v[0].why.buf, "x86_64 guests of more than 1 CPU do not boot under "
			    "its icount clock (kbench(1), BUGS)");
	assert_int_equal(cs.v[1].fit, QEMU_FIT);
	assert_int_equal(qemu_pick(&cs), 1);
	/* At one CPU, or under KVM, the first is fit. */
	r.cpus = 1;
	judge_all(&r, &cs);
	assert_int_equal(qemu_pick(&cs), 0);
	r.cpus = 4;
	r.icount = 0;
	judge_all(&r, &cs);
	assert_int_equal(qemu_pick(&cs), 0);
	qemu_candidates_release(&cs);
}

/* A QEMU that does not say its version goes on, as --qemu's always has; one not there cannot. */
static void test_unknown_version_and_missing(void **state)
{
	const char *paths[] = { "qemu-system-x86_64", "/x/qemu-system-x86_64", "/y/qemu-system-x86_64" };
	const char *versions[] = { NULL, NULL, "" };
	struct qemu_request r = { machine("x86_64"), 2, 1, 0 };
	struct qemu_candidates cs;

	(void)state;
	set(&cs, 3, paths, versions);
	judge_all(&r, &cs);
	assert_int_equal(cs.v[0].fit, QEMU_UNFIT);
	assert_string_equal(cs.v[0].why.buf, "not in PATH");
	assert_int_equal(cs.v[1].fit, QEMU_UNFIT);
	assert_string_equal(cs.v[1].why.buf, "no such executable");
	assert_int_equal(cs.v[2].fit, QEMU_FIT);
	assert_int_equal(qemu_pick(&cs), 2);
	qemu_candidates_release(&cs);
}

/*
 * The cost model: a QEMU is tried (QEMU_PROBE) once nothing else is
 * against it; the plugin refused is its reason.  With x86_64 at 2 CPUs
 * no QEMU here does both, and the refusal names each and why.
 */
static void test_model(void **state)
{
	const char *paths[] = { Q72, Q10 }, *versions[] = { "7.2.22", "10.0.2" };
	struct qemu_request r = { machine("x86_64"), 1, 1, 1 };
	struct qemu_candidates cs;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	set(&cs, 2, paths, versions);
	judge_all(&r, &cs);
	assert_int_equal(cs.v[0].fit, QEMU_PROBE);
	assert_int_equal(cs.v[1].fit, QEMU_PROBE);
	cs.v[0].probed = cs.v[1].probed = 1;
	cs.v[1].probe_error = strdup(PLUGIN_WORDS);
	judge_all(&r, &cs);
	assert_int_equal(cs.v[0].fit, QEMU_FIT);
	assert_int_equal(cs.v[1].fit, QEMU_UNFIT);
	assert_string_equal(cs.v[1].why.buf, "QEMU could not load the cost model's plugin: "
			    PLUGIN_WORDS);
	assert_int_equal(qemu_pick(&cs), 0);

	/* 2 CPUs: 7.2 is out before it is tried, 10 after. */
	r.cpus = 2;
	cs.v[0].probed = 0;
	judge_all(&r, &cs);
	assert_int_equal(cs.v[0].fit, QEMU_UNFIT);
	assert_int_equal(cs.v[1].fit, QEMU_UNFIT);
	assert_int_equal(qemu_pick(&cs), -1);
	qemu_refusal(&r, &cs, &sb);
	assert_string_equal(sb.buf,
		"no QEMU here runs this x86_64 kernel with 2 CPUs under icount with the cost model:\n"
		"  " Q72 " (QEMU 7.2.22): x86_64 guests of more than 1 CPU do not boot under its "
		"icount clock (kbench(1), BUGS)\n"
		"  " Q10 " (QEMU 10.0.2): QEMU could not load the cost model's plugin: " PLUGIN_WORDS);

	/* Another failure of the command line is said as QEMU's. */
	free(cs.v[1].probe_error);
	cs.v[1].probe_error = strdup("unsupported machine type");
	cs.v[1].fit = qemu_judge(&r, &cs.v[1], &cs.v[1].why);
	assert_string_equal(cs.v[1].why.buf, "QEMU could not set up the boot: unsupported machine type");
	strbuf_release(&sb);
	qemu_candidates_release(&cs);
}

/* s390x repeats above 1 CPU only in QEMU 8 and later: preferred, 7.2 still runs. */
static void test_unrepeatable(void **state)
{
	const char *paths[] = { "/usr/bin/qemu-system-s390x", "/b/qemu-system-s390x" };
	const char *versions[] = { "7.2.22", "10.0.2" }, *only_old[] = { "7.2.22", NULL };
	struct qemu_request r = { machine("s390x"), 2, 1, 0 };
	struct qemu_candidates cs;

	(void)state;
	set(&cs, 2, paths, versions);
	judge_all(&r, &cs);
	assert_int_equal(cs.v[0].fit, QEMU_UNREPEATABLE);
	assert_string_equal(cs.v[0].why.buf, "two boots of one s390x image differ above 1 CPU "
			    "under its icount (kbench(1), BUGS)");
	assert_int_equal(qemu_pick(&cs), 1);
	qemu_candidates_release(&cs);
	set(&cs, 2, paths, only_old);
	judge_all(&r, &cs);
	assert_int_equal(qemu_pick(&cs), 0);
	qemu_candidates_release(&cs);
}

/* armhf runs 2 CPUs under 7.2, not 4; arm64 any count (no limit of its own). */
static void test_machines(void **state)
{
	const char *arm[] = { "/usr/bin/qemu-system-arm" }, *v72[] = { "7.2.22" };
	struct qemu_request r = { machine("armhf"), 2, 1, 0 };
	struct qemu_candidates cs;

	(void)state;
	set(&cs, 1, arm, v72);
	judge_all(&r, &cs);
	assert_int_equal(qemu_pick(&cs), 0);
	r.cpus = 4;
	judge_all(&r, &cs);
	assert_int_equal(qemu_pick(&cs), -1);
	assert_string_equal(cs.v[0].why.buf, "armhf guests of more than 2 CPUs print nothing "
			    "under its icount clock (kbench(1), BUGS)");
	r.m = machine("arm64");
	r.cpus = 8;
	judge_all(&r, &cs);
	assert_int_equal(qemu_pick(&cs), 0);
	qemu_candidates_release(&cs);
	assert_int_equal(qemu_major("10.0.2"), 10);
	assert_int_equal(qemu_major("7.2.22"), 7);
	assert_int_equal(qemu_major(NULL), -1);
	assert_int_equal(qemu_major("x"), -1);
}

static void executable(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

/*
 * The candidates: PATH's, then each directory's, in order; an empty entry
 * skipped, one not there kept (its reason is said), a file named twice
 * once; no KBENCH_QEMU_DIRS is backports' directory.
 */
static void test_candidates(void **state)
{
	char dir[] = "/tmp/test-qemu-choice.XXXXXX", a[40], b[40], c[40], dirs[160], path[80];
	const struct kb_machine *m = machine("x86_64");
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	struct qemu_candidates cs;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(c, sizeof(c), "%s/c", dir);
	assert_int_equal(mkdir(a, 0755) | mkdir(b, 0755) | mkdir(c, 0755), 0);
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", a);
	executable(path);
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", b);
	executable(path);
	setenv("PATH", a, 1);
	snprintf(dirs, sizeof(dirs), "%s::%s:%s/../a", b, c, a);
	qemu_candidates(&cs, m, dirs);
	assert_int_equal(cs.nr, 3);
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", a);
	assert_string_equal(cs.v[0].path, path);
	assert_true(cs.v[0].in_path && cs.v[0].found);
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", b);
	assert_string_equal(cs.v[1].path, path);
	assert_true(!cs.v[1].in_path && cs.v[1].found);
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", c);
	assert_string_equal(cs.v[2].path, path);
	assert_false(cs.v[2].found);
	qemu_candidates_release(&cs);

	setenv("PATH", c, 1);
	qemu_candidates(&cs, m, NULL);
	assert_int_equal(cs.nr, 2);
	assert_string_equal(cs.v[0].path, "qemu-system-x86_64");
	assert_true(cs.v[0].in_path && !cs.v[0].found);
	assert_string_equal(cs.v[1].path, KB_QEMU_DIRS "/qemu-system-x86_64");
	qemu_candidates_release(&cs);
	qemu_candidates(&cs, m, "");
	assert_int_equal(cs.nr, 1);
	qemu_candidates_release(&cs);

	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", a);
	unlink(path);
	snprintf(path, sizeof(path), "%s/qemu-system-x86_64", b);
	unlink(path);
	rmdir(a);
	rmdir(b);
	rmdir(c);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_smp_takes_qemu10),
		cmocka_unit_test(test_unknown_version_and_missing),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_unrepeatable),
		cmocka_unit_test(test_machines),
		cmocka_unit_test(test_candidates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
