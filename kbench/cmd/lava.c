// SPDX-License-Identifier: GPL-2.0
/*
 * kbench lava: kbench's boots on a LAVA lab.  `job` writes a boot as a
 * job (and the files it downloads), `submit` hands jobs to the lab,
 * `fetch` waits for them and turns their logs into a result file, `serve`
 * serves a directory of jobs' files to a lab on this machine.  The lab
 * does the scheduling; the machinery is in lab/.
 */
#include "cmd.h"
#include "atomic-file.h"
#include "console.h"
#include "fileio.h"
#include "identity.h"
#include "job.h"
#include "lava-api.h"
#include "lava-log.h"
#include "machine.h"
#include "qemu.h"
#include "result.h"
#include "serve.h"
#include "strbuf.h"
#include "tempfile.h"
#include "warn.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Seconds between two looks at a job that has not finished. */
#define POLL_SECONDS 5

/* --- kbench lava job ------------------------------------------------------ */

struct job_opts {
	const char *output, *url_base, *device_type, *boot, *name, *priority, *tags;
	struct strvec run_args;	/* run's options and the image */
};

static int parse_job_option(struct job_opts *o, int argc, char **argv, int *i)
{
	const char *v;

	if ((v = opt_arg(argc, argv, i, "-o")) || (v = opt_arg(argc, argv, i, "--output")))
		o->output = v;
	else if ((v = opt_arg(argc, argv, i, "--url-base")))
		o->url_base = v;
	else if ((v = opt_arg(argc, argv, i, "--device-type")))
		o->device_type = v;
	else if ((v = opt_arg(argc, argv, i, "--boot"))) {
		if (strcmp(v, "u-boot") && strcmp(v, "grub"))
			return usage_error("lava job: --boot is u-boot or grub, not '%s'", v);
		o->boot = v;
	} else if ((v = opt_arg(argc, argv, i, "--name")))
		o->name = v;
	else if ((v = opt_arg(argc, argv, i, "--priority"))) {
		if (strcmp(v, "high") && strcmp(v, "medium") && strcmp(v, "low"))
			return usage_error("lava job: --priority is high, medium or low, not '%s'", v);
		o->priority = v;
	} else if ((v = opt_arg(argc, argv, i, "--tags")))
		o->tags = v;
	else
		strvec_push(&o->run_args, argv[*i]);
	return 0;
}

/* "DIR/NAME.yaml" -> "DIR/NAME": the files of the job are named after it. */
static char *job_stem(const char *output)
{
	size_t len = strlen(output);

	if (len > 5 && !strcmp(output + len - 5, ".yaml"))
		len -= 5;
	else if (len > 4 && !strcmp(output + len - 4, ".yml"))
		len -= 4;
	return xstrndup(output, len);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* URL-BASE/NAME, one slash between. */
static char *file_url(const char *base, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, base);
	if (sb.len && sb.buf[sb.len - 1] != '/')
		strbuf_addch(&sb, '/');
	strbuf_addstr(&sb, base_name(path));
	return strbuf_detach(&sb, NULL);
}

/* A copy of from at to: a hard link where it can be (a kernel is megabytes). */
static int place_file(const char *from, const char *to)
{
	char *tmp;
	int in, fd, failed;

	if (unlink(to) && errno != ENOENT)
		return error_errno("cannot replace %s", to);
	if (!link(from, to))
		return 0;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return error_errno("cannot read %s", from);
	fd = atomic_create(to, &tmp);
	if (fd < 0) {
		close(in);
		return -1;
	}
	failed = copy_fd(in, fd) ? error_errno("cannot copy %s to %s", from, to) : 0;
	close(in);
	return atomic_commit(fd, tmp, to, failed);
}

/* Whether the kernel's command line goes through the lab's shell-like split whole. */
static int cmdline_quotable(const struct lab_job *j)
{
	return !strpbrk(j->cmdline.buf, "\"'\\$`");
}

static void job_defaults(struct job_opts *o, struct lab_job *j)
{
	char *name = NULL;

	j->device_type = o->device_type ? o->device_type : "qemu";
	j->boot = o->boot;
	j->priority = o->priority;
	if (!o->name) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "kbench %s, %s, %d CPU%s", base_name(j->kernel), j->clock, j->cpus,
			    j->cpus == 1 ? "" : "s");
		name = strbuf_detach(&sb, NULL);
	}
	j->name = name ? name : o->name;
	for (const char *p = o->tags; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		char *tag = xstrndup(p, strcspn(p, ","));

		if (*tag)
			strvec_push(&j->tags, tag);
		free(tag);
	}
}

static int job_check_options(const struct job_opts *o)
{
	if (!o->output)
		return usage_error("lava job: no -o JOB.yaml");
	if (!o->url_base)
		return usage_error("lava job: no --url-base=URL (where the lab downloads the "
				   "job's files from: kbench lava serve DIR serves them)");
	if (!strstr(o->url_base, "://"))
		return usage_error("lava job: --url-base takes a URL (http://HOST:PORT/, "
				   "file:///DIR/), not '%s'", o->url_base);
	if (o->boot && (!o->device_type || !strcmp(o->device_type, "qemu")))
		return usage_error("lava job: --boot is for a board: --device-type=TYPE names it");
	if (o->device_type && strcmp(o->device_type, "qemu") && !o->boot)
		return usage_error("lava job: a board's device type needs --boot=u-boot or grub");
	return 0;
}

/* The job's files and YAML; on failure none of them is left, old or new. */
static int write_job(struct job_opts *o, struct lab_job *j)
{
	char *stem = job_stem(o->output);
	struct strbuf kernel = STRBUF_INIT, initrd = STRBUF_INIT, dtb = STRBUF_INIT;
	struct strbuf yaml = STRBUF_INIT;
	struct lab_files files = { NULL, NULL, NULL };
	const char *arch;
	int ret;

	strbuf_addf(&kernel, "%s.kernel", stem);
	strbuf_addf(&initrd, "%s.cpio", stem);
	strbuf_addf(&dtb, "%s.dtb", stem);
	files.initrd = initrd.buf;
	strvec_insert(&o->run_args, 0, "lava job");
	ret = run_lab_job((int)o->run_args.nr, o->run_args.v, j, &files);
	if (ret == KB_OK && !o->boot && !lab_qemu_arch(j->m, &arch))
		ret = usage_error("lava job: LAVA's qemu device type cannot start %s's QEMU (%s)",
				  j->m->name, j->m->qemu);
	if (ret == KB_OK && !o->boot && !cmdline_quotable(j))
		ret = usage_error("lava job: --append with quotes, '\\', '$' or '`' does not "
				  "pass through the lab's command line");
	if (ret == KB_OK) {
		job_defaults(o, j);
		if (o->boot)
			j->clock = "board";
		if (place_file(j->kernel, kernel.buf) ||
		    (files.dtb && place_file(files.dtb, dtb.buf)))
			ret = KB_TROUBLE;
	}
	if (ret == KB_OK) {
		j->kernel_url = file_url(o->url_base, kernel.buf);
		j->initrd_url = file_url(o->url_base, initrd.buf);
		j->dtb_url = files.dtb ? file_url(o->url_base, dtb.buf) : NULL;
		lab_job_yaml(j, &yaml);
		if (lab_job_check(yaml.buf, o->output) ||
		    write_atomically(o->output, yaml.buf, yaml.len))
			ret = KB_TROUBLE;
	}
	if (ret != KB_OK) {
		unlink_if_regular(o->output);
		unlink_if_regular(kernel.buf);
		unlink_if_regular(initrd.buf);
		unlink_if_regular(dtb.buf);
	} else {
		note("%s: job for %s on %s; its files %s, %s%s%s at %s", o->output, j->kernel,
		     j->device_type, base_name(kernel.buf), base_name(initrd.buf),
		     files.dtb ? ", " : "", files.dtb ? base_name(dtb.buf) : "", o->url_base);
	}
	if (!o->name && j->name)
		free((char *)j->name);
	free(files.dtb);
	free(stem);
	strbuf_release(&kernel);
	strbuf_release(&initrd);
	strbuf_release(&dtb);
	strbuf_release(&yaml);
	return ret;
}

static int lava_job(int argc, char **argv)
{
	struct job_opts o = { 0 };
	struct lab_job j;
	int ret = KB_OK;

	o.run_args = (struct strvec)STRVEC_INIT;
	lab_job_init(&j);
	for (int i = 1; i < argc && ret == KB_OK; i++)
		if (parse_job_option(&o, argc, argv, &i))
			ret = KB_USAGE;
	if (ret == KB_OK && job_check_options(&o))
		ret = KB_USAGE;
	if (ret == KB_OK)
		ret = write_job(&o, &j);
	lab_job_release(&j);
	strvec_clear(&o.run_args);
	return ret;
}

/* --- the lab's identity: kbench lava submit and fetch ----------------------- */

struct lab_opts {
	const char *identity, *identity_name;
};

static int parse_lab_option(struct lab_opts *o, int argc, char **argv, int *i)
{
	const char *v;

	if ((v = opt_arg(argc, argv, i, "--identity")))
		o->identity = v;
	else if ((v = opt_arg(argc, argv, i, "--identity-name")))
		o->identity_name = v;
	else
		return 0;
	return 1;
}

/* --- kbench lava submit --------------------------------------------------- */

static int submit_one(const struct lava_identity *id, const char *path)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct strvec ids = STRVEC_INIT;
	int ret = KB_OK;

	if (strbuf_read_file(&text, path, 0) < 0)
		ret = (error_errno("cannot read %s", path), KB_TROUBLE);
	else if (lab_job_check(text.buf, path))
		ret = KB_TROUBLE;
	else if (lava_submit(id, text.buf, &ids, &why))
		ret = (error("%s: not submitted: %s", path, why.buf), KB_TROUBLE);
	for (size_t i = 0; i < ids.nr; i++) {
		printf("%s\n", ids.v[i]);
		note("%s: job %s", path, ids.v[i]);
	}
	fflush(stdout);
	strvec_clear(&ids);
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

static int lava_submit_cmd(int argc, char **argv)
{
	struct lab_opts lo = { 0 };
	struct lava_identity id;
	struct strvec files = STRVEC_INIT;
	int ret = KB_OK;

	for (int i = 1; i < argc; i++) {
		if (parse_lab_option(&lo, argc, argv, &i))
			continue;
		if (argv[i][0] == '-' && argv[i][1]) {
			strvec_clear(&files);
			return usage_error("lava submit: unknown option '%s'", argv[i]);
		}
		strvec_push(&files, argv[i]);
	}
	if (!files.nr)
		return usage_error("lava submit: no job (kbench lava submit JOB.yaml...)");
	if (lava_identity_load(&id, lo.identity, lo.identity_name)) {
		strvec_clear(&files);
		return KB_TROUBLE;
	}
	for (size_t i = 0; i < files.nr; i++)
		if (submit_one(&id, files.v[i]) != KB_OK)
			ret = KB_TROUBLE;
	lava_identity_release(&id);
	strvec_clear(&files);
	return ret;
}

/* --- kbench lava fetch ---------------------------------------------------- */

struct fetch_opts {
	struct lab_opts lab;
	const char *output;
	int wait, wait_timeout;
	struct strvec jobs;
};

/* The job's state until it has finished (or not, without --wait); KB_OK or why not. */
static int wait_job(const struct fetch_opts *o, const struct lava_identity *id, const char *job,
		    struct lava_job_info *info)
{
	double t0 = qemu_clock();
	char *said = NULL;
	struct strbuf why = STRBUF_INIT;
	int ret = KB_OK;

	for (;;) {
		lava_job_info_release(info);
		if (lava_job_get(id, job, info, &why) && !info->state) {
			ret = (error("job %s: %s", job, why.buf), KB_TROUBLE);
			break;
		}
		if (info->state && !strcmp(info->state, "Finished"))
			break;
		if (!o->wait) {
			ret = (error("job %s has not finished: %s", job,
				     info->state ? info->state : "no state"), KB_TROUBLE);
			break;
		}
		if (o->wait_timeout && qemu_clock() - t0 > o->wait_timeout) {
			ret = (error("job %s: still %s after %d s", job,
				     info->state ? info->state : "unknown", o->wait_timeout),
			       KB_TROUBLE);
			break;
		}
		/* Progress when the job moves on: queued, scheduled, running where. */
		if (!said || strcmp(said, info->state ? info->state : "")) {
			free(said);
			said = xstrdup(info->state ? info->state : "");
			note("job %s: %s%s%s", job, said, info->device ? " on " : "",
			     info->device ? info->device : "");
		}
		sleep(POLL_SECONDS);
	}
	free(said);
	strbuf_release(&why);
	return ret;
}

/* Why LAVA says a job failed: its failure comment, else its log's job result. */
static const char *lava_reason(const struct lava_job_info *info, const struct lava_log *log)
{
	static char why[512];

	if (info->failure_comment && *info->failure_comment)
		return info->failure_comment;
	if (!log->error_msg)
		return "no reason given";
	snprintf(why, sizeof(why), "%s%s%s", log->error_type ? log->error_type : "",
		 log->error_type ? " error: " : "", log->error_msg);
	/* One line: LAVA's messages may end in a newline or hold several. */
	for (char *p = why; *p; p++)
		if (*p == '\n')
			*p = ' ';
	for (size_t n = strlen(why); n && why[n - 1] == ' '; n--)
		why[n - 1] = '\0';
	return why;
}

/* The guest's figures of the log, judged as run judges a boot. */
static int judge_log(const char *job, const struct lava_job_info *info,
		     const struct lab_meta *meta, const struct kb_machine *m,
		     const struct console *c, const struct lava_log *log)
{
	unsigned want = strcmp(meta->clock, "board") ? qemu_ns_per_insn(meta->clock, m) : 1;
	const char *k = meta->kernel;

	if (!c->begun && c->panic)
		return error("job %s: kernel %s panicked before the guest started: %s", job, k,
			     c->panic);
	if (!c->begun && !log->target)
		return error("job %s: LAVA ended it %s before the kernel said anything: %s", job,
			     info->health ? info->health : "with no health", lava_reason(info, log));
	if (!c->begun)
		return error("job %s: kernel %s: the guest never started (LAVA ended the job %s: "
			     "%s)", job, k, info->health ? info->health : "with no health",
			     lava_reason(info, log));
	if (c->panic)
		return error("job %s: kernel %s panicked%s%s: %s", job, k,
			     c->last_row ? " after benchmark " : "",
			     c->last_row ? c->last_row : "", c->panic);
	if (c->bad_version)
		return error("job %s: the guest speaks another protocol version than kbench", job);
	if (c->ns_per_insn != want)
		return error("job %s: the guest divided its clock by %g, not %u: not the boot "
			     "kbench's job asked for", job, c->ns_per_insn, want);
	if (c->cpus && c->cpus < meta->cpus)
		return error("job %s: the guest saw %d CPUs of %d", job, c->cpus, meta->cpus);
	if (!c->ended)
		return error("job %s: its log ends before the guest's end line (%s%s): a "
			     "truncated log or a guest that died", job,
			     c->last_row ? "after benchmark " : "before the first benchmark",
			     c->last_row ? c->last_row : "");
	if (c->fails.nr || !c->end_ok || !c->res->nr) {
		error("job %s: %zu benchmark(s) failed%s", job, c->fails.nr,
		      c->fails.nr ? ":" : " (no results)");
		for (size_t i = 0; i < c->fails.nr; i++)
			fprintf(stderr, "  %s\n", c->fails.v[i]);
		return -1;
	}
	if (!info->health || strcmp(info->health, "Complete"))
		return error("job %s: LAVA ended it %s: %s", job,
			     info->health ? info->health : "with no health", lava_reason(info, log));
	return 0;
}

/* Where the rows ran: the device type, the device, its worker, the job. */
static void set_machine(struct kb_result *res, const struct lava_job_info *info,
			const char *job, const char *lab)
{
	free(res->lab_device_type);
	free(res->lab_device);
	free(res->lab_worker);
	free(res->lab_job);
	free(res->lab_url);
	res->lab_device_type = xstrdup(info->device_type ? info->device_type : "unknown");
	res->lab_device = xstrdup(info->device ? info->device : "unknown");
	res->lab_worker = xstrdup(info->worker ? info->worker : "unknown");
	res->lab_job = xstrdup(job);
	res->lab_url = xstrdup(lab);
}

/* Which of the figures the fetched rows are, from the first job's metadata. */
static void set_figures(struct kb_result *all, const struct lab_meta *meta,
			const struct kb_machine *m, const struct lava_log *log)
{
	all->clock = xstrdup(meta->clock);
	all->kernel = xstrdup(meta->kernel);
	all->append = xstrdup(meta->append);
	all->runs = meta->runs;
	all->quick = meta->quick;
	if (strcmp(meta->clock, "board")) {
		all->qemu = xstrdup(m->qemu);
		all->qemu_version = log->qemu_version ? xstrdup(log->qemu_version) : NULL;
	}
}

/* Jobs of one result: the same kernel, clock and runs, each CPU count once. */
static int same_boot(const char *job, const struct kb_result *all, const struct lab_meta *meta)
{
	if (strcmp(all->kernel, meta->kernel) || strcmp(all->clock, meta->clock) ||
	    all->runs != meta->runs || all->quick != meta->quick ||
	    strcmp(all->append, meta->append))
		return error("job %s booted another kernel or another way (kernel %s, clock %s) "
			     "than the jobs before it (%s, %s): one result a kernel", job,
			     meta->kernel, meta->clock, all->kernel, all->clock);
	for (size_t i = 0; i < all->nr; i++)
		if (all->rows[i].cpus == meta->cpus)
			return error("job %s: its CPU count (%d) is another job's already", job,
				     meta->cpus);
	return 0;
}

static int fetch_one(const struct fetch_opts *o, const struct lava_identity *id,
		     const char *job, struct kb_result *all)
{
	struct lava_job_info info = { 0 };
	struct lab_meta meta = { 0 };
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT, lab = STRBUF_INIT;
	const struct kb_machine *m = NULL;
	struct lava_log log = { 0 };
	struct kb_result res;
	struct console c;
	int ret = wait_job(o, id, job, &info);

	result_init(&res);
	console_init(&c, &res);
	c.quiet = 1;
	if (ret == KB_OK && (!info.definition || lab_meta_read(info.definition, job, &meta)))
		ret = KB_TROUBLE;
	if (ret == KB_OK && !(m = machine_named(meta.machine)))
		ret = (error("job %s: unknown machine '%s' in its metadata", job, meta.machine),
		       KB_TROUBLE);
	if (ret == KB_OK && all->nr && same_boot(job, all, &meta))
		ret = KB_TROUBLE;
	if (ret == KB_OK && lava_job_log(id, job, &text, &why))
		ret = (error("job %s: no log: %s", job, why.buf), KB_TROUBLE);
	if (ret == KB_OK && lava_log_feed(text.buf, text.len, job, &c, &log))
		ret = KB_TROUBLE;
	/* Nothing from the kernel: the lab's trouble (a download, QEMU), not the kernel's. */
	if (ret == KB_OK && judge_log(job, &info, &meta, m, &c, &log))
		ret = log.target ? KB_KERNEL_FAIL : KB_TROUBLE;
	if (ret == KB_OK) {
		if (!all->clock)
			set_figures(all, &meta, m, &log);
		lava_url(id->uri, "", &lab, &why);
		set_machine(all, &info, job, lab.buf);
		note("job %s: %zu benchmarks from %s (%s) on worker %s", job, res.nr,
		     all->lab_device, all->lab_device_type, all->lab_worker);
		result_take_rows(all, &res, meta.cpus);
	}
	console_release(&c);
	result_release(&res);
	lava_log_release(&log);
	lab_meta_release(&meta);
	lava_job_info_release(&info);
	strbuf_release(&text);
	strbuf_release(&why);
	strbuf_release(&lab);
	return ret;
}

static int parse_fetch_options(struct fetch_opts *o, int argc, char **argv)
{
	const char *v;

	o->wait = 1;
	for (int i = 1; i < argc; i++) {
		if (parse_lab_option(&o->lab, argc, argv, &i))
			continue;
		if ((v = opt_arg(argc, argv, &i, "-o")) || (v = opt_arg(argc, argv, &i, "--output")))
			o->output = v;
		else if (!strcmp(argv[i], "--no-wait"))
			o->wait = 0;
		else if ((v = opt_arg(argc, argv, &i, "--wait-timeout"))) {
			char *end;
			long n = strtol(v, &end, 10);

			if (!isdigit((unsigned char)*v) || *end || n < 1 || n > 7 * 86400)
				return usage_error("lava fetch: --wait-timeout takes seconds, not '%s'",
						   v);
			o->wait_timeout = (int)n;
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("lava fetch: unknown option '%s'", argv[i]);
		else if (strspn(argv[i], "0123456789.") != strlen(argv[i]))
			return usage_error("lava fetch: '%s' is not a job id", argv[i]);
		else
			strvec_push(&o->jobs, argv[i]);
	}
	if (!o->jobs.nr)
		return usage_error("lava fetch: no job id (kbench lava fetch JOBID... -o RESULT.json)");
	return 0;
}

static int lava_fetch_cmd(int argc, char **argv)
{
	struct fetch_opts o = { 0 };
	struct lava_identity id;
	struct kb_result all;
	struct strbuf json = STRBUF_INIT;
	int ret = KB_OK;

	o.jobs = (struct strvec)STRVEC_INIT;
	if (parse_fetch_options(&o, argc, argv)) {
		strvec_clear(&o.jobs);
		return KB_USAGE;
	}
	if (lava_identity_load(&id, o.lab.identity, o.lab.identity_name)) {
		strvec_clear(&o.jobs);
		return KB_TROUBLE;
	}
	result_init(&all);
	for (size_t i = 0; i < o.jobs.nr && ret == KB_OK; i++)
		ret = fetch_one(&o, &id, o.jobs.v[i], &all);
	if (ret == KB_OK) {
		if (!all.compiler)
			all.compiler = xstrdup("unknown");
		result_to_json(&all, &json);
		if (write_atomically(o.output ? o.output : "-", json.buf, json.len))
			ret = KB_TROUBLE;
	}
	/* A failed fetch leaves no older result to stand in for this one. */
	if (ret != KB_OK && o.output && strcmp(o.output, "-"))
		unlink_if_regular(o.output);
	strbuf_release(&json);
	result_release(&all);
	lava_identity_release(&id);
	strvec_clear(&o.jobs);
	return ret;
}

/* --- kbench lava serve ---------------------------------------------------- */

static int serving(int port, void *arg)
{
	const char **where = arg;

	printf("http://%s:%d/\n", where[1], port);
	fflush(stdout);
	note("serving %s at http://%s:%d/ (Ctrl-C ends it)", where[0], where[1], port);
	return 0;
}

static int lava_serve_cmd(int argc, char **argv)
{
	const char *dir = NULL, *bind = "127.0.0.1", *v, *where[2];
	int port = 0;
	struct stat st;

	for (int i = 1; i < argc; i++) {
		if ((v = opt_arg(argc, argv, &i, "--bind")))
			bind = v;
		else if ((v = opt_arg(argc, argv, &i, "--port"))) {
			char *end;
			long n = strtol(v, &end, 10);

			if (!isdigit((unsigned char)*v) || *end || n < 0 || n > 65535)
				return usage_error("lava serve: --port takes 0 to 65535, not '%s'", v);
			port = (int)n;
		} else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("lava serve: unknown option '%s'", argv[i]);
		else if (dir)
			return usage_error("lava serve: one directory ('%s' and '%s')", dir, argv[i]);
		else
			dir = argv[i];
	}
	if (!dir)
		return usage_error("lava serve: no directory (kbench lava serve DIR)");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return (error("%s: not a directory", dir), KB_TROUBLE);
	where[0] = dir;
	where[1] = bind;
	return lava_serve(dir, bind, port, serving, where) ? KB_TROUBLE : KB_OK;
}

/* --- the command ---------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} lava_cmds[] = {
	{ "job", lava_job }, { "submit", lava_submit_cmd }, { "fetch", lava_fetch_cmd },
	{ "serve", lava_serve_cmd },
};

int cmd_lava(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("lava: no command (job, submit, fetch, serve)");
	for (size_t i = 0; i < sizeof(lava_cmds) / sizeof(*lava_cmds); i++) {
		if (strcmp(argv[1], lava_cmds[i].name))
			continue;
		/* `kbench lava job --help` as `kbench run --help`: the one page. */
		if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
			usage();
			return KB_OK;
		}
		return lava_cmds[i].fn(argc - 1, argv + 1);
	}
	return usage_error("lava: unknown command '%s' (job, submit, fetch, serve)", argv[1]);
}
