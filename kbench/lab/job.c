// SPDX-License-Identifier: GPL-2.0
/* A kbench boot as a LAVA job (job.h). */
#include "job.h"
#include "json.h"
#include "machine.h"
#include "fileio.h"
#include "run-command.h"
#include "tempfile.h"
#include "warn.h"
#include "ccd-config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The job's actions beyond the rows: downloading the images, starting QEMU or the board. */
#define DEPLOY_SECONDS 600
#define BOOT_SECONDS 300

void lab_job_init(struct lab_job *j)
{
	const struct strvec empty = STRVEC_INIT;

	memset(j, 0, sizeof(*j));
	j->qemu = empty;
	j->tags = empty;
	strbuf_init(&j->cmdline);
}

void lab_job_release(struct lab_job *j)
{
	free(j->kernel);
	free(j->append);
	free(j->only);
	free(j->kernel_url);
	free(j->initrd_url);
	free(j->dtb_url);
	strvec_clear(&j->qemu);
	strvec_clear(&j->tags);
	strbuf_release(&j->cmdline);
}

/* kbench's machines by the "arch" of LAVA's qemu device type (its template's list). */
static const struct {
	const char *debian, *arch;
} qemu_arches[] = {
	{ "amd64", "amd64" }, { "arm64", "arm64" }, { "armhf", "arm" }, { "armel", "arm" },
	{ "ppc64el", "ppc64" }, { "s390x", "s390x" }, { "mipsel", "mipsel" },
	{ "riscv64", "riscv64" },
};

int lab_qemu_arch(const struct kb_machine *m, const char **arch)
{
	for (size_t i = 0; i < sizeof(qemu_arches) / sizeof(*qemu_arches); i++)
		if (!strcmp(m->debian, qemu_arches[i].debian)) {
			*arch = qemu_arches[i].arch;
			return 1;
		}
	return 0;
}

static void add_str(struct strbuf *out, const char *key, const char *value)
{
	strbuf_addf(out, "%s: ", key);
	json_add_string(out, value);
	strbuf_addch(out, '\n');
}

/* kbench.* metadata: each a JSON string, read back by lab_meta_read(). */
static void add_meta(struct strbuf *out, const char *key, const char *value)
{
	strbuf_addf(out, "  kbench.%s: ", key);
	json_add_string(out, value);
	strbuf_addch(out, '\n');
}

static void add_meta_int(struct strbuf *out, const char *key, int value)
{
	strbuf_addf(out, "  kbench.%s: \"%d\"\n", key, value);
}

static void add_header(const struct lab_job *j, struct strbuf *out)
{
	strbuf_addf(out, "# kbench (ccd-suite) %s: %s on %s\n", CCD_VERSION, j->kernel,
		    j->device_type);
	add_str(out, "device_type", j->device_type);
	add_str(out, "job_name", j->name);
	strbuf_addf(out, "timeouts:\n  job: {seconds: %d}\n  action: {seconds: %d}\n"
		    "  connection: {seconds: %d}\n",
		    DEPLOY_SECONDS + BOOT_SECONDS + j->timeout + 60, j->timeout, BOOT_SECONDS);
	add_str(out, "priority", j->priority ? j->priority : "medium");
	strbuf_addstr(out, "visibility: public\n");
	if (j->tags.nr) {
		strbuf_addstr(out, "tags:\n");
		for (size_t i = 0; i < j->tags.nr; i++) {
			strbuf_addstr(out, "- ");
			json_add_string(out, j->tags.v[i]);
			strbuf_addch(out, '\n');
		}
	}
	strbuf_addstr(out, "metadata:\n");
	add_meta(out, "version", CCD_VERSION);
	add_meta(out, "kernel", j->kernel);
	add_meta(out, "machine", j->m->name);
	add_meta(out, "clock", j->clock);
	add_meta_int(out, "cpus", j->cpus);
	add_meta_int(out, "runs", j->runs);
	add_meta_int(out, "quick", j->quick);
	add_meta(out, "append", j->append ? j->append : "");
}

/*
 * kbench's QEMU options as the context's extra_options: an option and its
 * value one item (the dispatcher joins the items into one command line
 * and splits it again as a shell would).
 */
static void add_qemu_context(const struct lab_job *j, struct strbuf *out)
{
	struct strbuf item = STRBUF_INIT;
	const char *arch = "";

	lab_qemu_arch(j->m, &arch);
	strbuf_addstr(out, "context:\n");
	strbuf_addf(out, "  arch: %s\n", arch);
	/* The device type would add -enable-kvm on x86: an icount boot is TCG's. */
	if (strcmp(j->clock, "kvm"))
		strbuf_addstr(out, "  no_kvm: true\n");
	strbuf_addf(out, "  memory: %lu\n", j->memory);
	strbuf_addstr(out, "  extra_options:\n");
	for (size_t i = 0; i < j->qemu.nr; i++) {
		strbuf_reset(&item);
		strbuf_addstr(&item, j->qemu.v[i]);
		while (i + 1 < j->qemu.nr && j->qemu.v[i + 1][0] != '-')
			strbuf_addf(&item, " %s", j->qemu.v[++i]);
		strbuf_addstr(out, "  - ");
		json_add_string(out, item.buf);
		strbuf_addch(out, '\n');
	}
	strbuf_reset(&item);
	strbuf_addf(&item, "-append \"%s\"", j->cmdline.buf);
	strbuf_addstr(out, "  - ");
	json_add_string(out, item.buf);
	strbuf_addch(out, '\n');
	strbuf_release(&item);
}

/* A board's console is its device's: the command line without kbench's console=. */
static void add_board_context(const struct lab_job *j, struct strbuf *out)
{
	const char *args = j->cmdline.buf;

	if (!strncmp(args, "console=", 8))
		args += strcspn(args, " ") + (args[strcspn(args, " ")] == ' ');
	strbuf_addstr(out, "context:\n");
	strbuf_addstr(out, "  extra_kernel_args: ");
	json_add_string(out, args);
	strbuf_addch(out, '\n');
}

static void add_image(struct strbuf *out, const char *indent, const char *name,
		      const char *url, const char *arg)
{
	strbuf_addf(out, "%s%s:\n", indent, name);
	strbuf_addf(out, "%s  url: ", indent);
	json_add_string(out, url);
	strbuf_addch(out, '\n');
	if (arg)
		strbuf_addf(out, "%s  image_arg: \"%s\"\n", indent, arg);
}

static void add_qemu_actions(const struct lab_job *j, struct strbuf *out)
{
	strbuf_addf(out, "- deploy:\n    to: tmpfs\n    timeout: {seconds: %d}\n    images:\n",
		    DEPLOY_SECONDS);
	add_image(out, "      ", "kernel", j->kernel_url, "-kernel {kernel}");
	add_image(out, "      ", "ramdisk", j->initrd_url, "-initrd {ramdisk}");
	if (j->dtb_url)
		add_image(out, "      ", "dtb", j->dtb_url, "-dtb {dtb}");
	strbuf_addf(out, "- boot:\n    method: qemu\n    media: tmpfs\n    timeout: {seconds: %d}\n",
		    BOOT_SECONDS);
}

static void add_board_actions(const struct lab_job *j, struct strbuf *out)
{
	/* An arm zImage is booted as one; every other image as an Image (booti, bzImage). */
	const char *type = !strcmp(j->m->kernel_arch, "arm") ? "zimage" : "image";

	strbuf_addf(out, "- deploy:\n    to: tftp\n    timeout: {seconds: %d}\n", DEPLOY_SECONDS);
	add_image(out, "    ", "kernel", j->kernel_url, NULL);
	strbuf_addf(out, "      type: %s\n", type);
	/* kbench's archive as it is: no LAVA overlay, no modules. */
	add_image(out, "    ", "ramdisk", j->initrd_url, NULL);
	strbuf_addstr(out, "      install_modules: false\n      install_overlay: false\n");
	if (j->dtb_url)
		add_image(out, "    ", "dtb", j->dtb_url, NULL);
	strbuf_addf(out, "- boot:\n    method: %s\n    commands: ramdisk\n    timeout: {seconds: %d}\n",
		    j->boot, BOOT_SECONDS);
}

/*
 * The guest gives no shell: LAVA watches its console from BEGIN to END
 * and shows each row's first sample (kbench lava fetch reads them all).
 */
static void add_test(const struct lab_job *j, struct strbuf *out)
{
	strbuf_addf(out, "- test:\n    timeout: {seconds: %d}\n    monitors:\n", j->timeout);
	strbuf_addstr(out, "    - name: kbench\n      start: KBENCH-BEGIN\n      end: KBENCH-END\n");
	strbuf_addstr(out, "      pattern: 'KBENCH-ROW (?P<test_case_id>[a-z0-9_.-]+) "
		      "(?P<units>\\S+) \\S+ (?P<measurement>[0-9.]+)'\n");
}

void lab_job_yaml(const struct lab_job *j, struct strbuf *out)
{
	add_header(j, out);
	if (j->boot)
		add_board_context(j, out);
	else
		add_qemu_context(j, out);
	strbuf_addstr(out, "actions:\n");
	if (j->boot)
		add_board_actions(j, out);
	else
		add_qemu_actions(j, out);
	add_test(j, out);
}

/*
 * LAVA's own check, as lava-server makes it on submission: exit 0 valid,
 * 1 refused (the path and message on stdout), 3 no lava-common.
 */
static const char check_py[] =
	"import sys\n"
	"try:\n"
	"    import yaml\n"
	"    from voluptuous import Invalid\n"
	"    from lava_common.schemas import validate\n"
	"except ImportError as e:\n"
	"    print(e)\n"
	"    sys.exit(3)\n"
	"try:\n"
	"    validate(yaml.safe_load(sys.stdin.read()), strict=True)\n"
	"except Invalid as e:\n"
	"    print('%s: %s' % ('/'.join(str(p) for p in e.path) or 'the job', e.msg))\n"
	"    sys.exit(1)\n"
	"except yaml.YAMLError as e:\n"
	"    print(str(e).replace('\\n', ' '))\n"
	"    sys.exit(1)\n";

/* text in a temp file, open at its start for a child's standard input; -1 on failure. */
static int text_fd(const char *text)
{
	const char *tmp;
	int fd = tempfile_create("kbench-", ".yaml", &tmp);

	if (fd < 0)
		return -1;
	if (write_in_full(fd, text, strlen(text)) || lseek(fd, 0, SEEK_SET)) {
		error_errno("cannot write %s", tmp);
		close(fd);
		fd = -1;
	}
	tempfile_remove(tmp);
	return fd;
}

/* script run by python3 on text: its wait status (-1: it did not run), its output in out. */
static int python(const char *script, const char *text, struct strbuf *out)
{
	struct child_process cp = CHILD_PROCESS_INIT;
	int status;

	/* Debian's python3, which has lava-common, before one another PATH puts first. */
	strvec_pushl(&cp.args, access("/usr/bin/python3", X_OK) ? "python3" : "/usr/bin/python3",
		     "-c", script, NULL);
	if ((cp.in = text_fd(text)) < 0) {
		child_process_clear(&cp);
		return -1;
	}
	status = capture_command(&cp, out);
	close(cp.in);
	child_process_clear(&cp);
	while (out->len && strchr(" \n", out->buf[out->len - 1]))
		strbuf_setlen(out, out->len - 1);
	return status;
}

int lab_job_check(const char *text, const char *path)
{
	struct strbuf said = STRBUF_INIT;
	int status = python(check_py, text, &said), ret = 0;

	if (status < 0)
		ret = error("%s: cannot check the job: python3 did not run (Debian's python3 "
			    "and lava-common check it)", path);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
		ret = error("%s: cannot check the job against LAVA's schema: %s (install "
			    "Debian's lava-common)", path, said.buf);
	else if (!status_ok(status))
		ret = error("%s: LAVA's schema refuses the job: %s", path,
			    said.len ? said.buf : "python3 failed");
	strbuf_release(&said);
	return ret;
}

void lab_meta_release(struct lab_meta *meta)
{
	free(meta->kernel);
	free(meta->machine);
	free(meta->clock);
	free(meta->append);
	memset(meta, 0, sizeof(*meta));
}

/* The job's metadata (LAVA keeps the definition as it dumps it again): JSON, by Debian's python3. */
static const char meta_py[] =
	"import json, sys, yaml\n"
	"job = yaml.safe_load(sys.stdin.read())\n"
	"meta = job.get('metadata') if isinstance(job, dict) else None\n"
	"print(json.dumps(meta if isinstance(meta, dict) else {}))\n";

static char *meta_str(const struct json *meta, const char *key)
{
	struct strbuf k = STRBUF_INIT;
	const char *v;

	strbuf_addf(&k, "kbench.%s", key);
	v = json_get_str(meta, k.buf);
	strbuf_release(&k);
	return v ? xstrdup(v) : NULL;
}

static int meta_int(const struct json *meta, const char *key, int *out)
{
	char *v = meta_str(meta, key), *end;
	long n = v ? strtol(v, &end, 10) : 0;
	int ok = v && *v && !*end && n >= 0 && n < 1000000;

	*out = (int)n;
	free(v);
	return ok ? 0 : -1;
}

int lab_meta_read(const char *definition, const char *job, struct lab_meta *meta)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct json *j = NULL;
	int status;

	memset(meta, 0, sizeof(*meta));
	status = python(meta_py, definition, &out);
	if (status < 0 || !status_ok(status) || !(j = json_parse(out.buf, out.len, &err))) {
		strbuf_release(&out);
		strbuf_release(&err);
		return error("job %s: its definition cannot be read (Debian's python3 with "
			     "python3-yaml reads it)", job);
	}
	meta->kernel = meta_str(j, "kernel");
	meta->machine = meta_str(j, "machine");
	meta->clock = meta_str(j, "clock");
	meta->append = meta_str(j, "append");
	if (!meta->kernel || !meta->machine || !meta->clock || !meta->append ||
	    meta_int(j, "cpus", &meta->cpus) || meta_int(j, "runs", &meta->runs) ||
	    meta_int(j, "quick", &meta->quick)) {
		lab_meta_release(meta);
		status = error("job %s is not a kbench job (its definition has no kbench.* "
			       "metadata, or not all of it)", job);
	}
	json_free(j);
	strbuf_release(&out);
	strbuf_release(&err);
	return status ? -1 : 0;
}
