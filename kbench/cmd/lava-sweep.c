// SPDX-License-Identifier: GPL-2.0
/*
 * `kbench backends` and `kbench pgo` with --lava=URL (builds.h): the
 * measurements' boots as jobs on a LAVA lab.  Each kernel's jobs (a job a
 * CPU count) are written and submitted as soon as it is built, so the
 * lab boots while the next kernel builds; then the sweep waits for them
 * all, with progress, fetches each kernel's result when its jobs have
 * finished, and submits again, once, a job that ended on an
 * infrastructure error.  The builds, trainings and comparison stay here.
 */
#include "builds.h"
#include "cmd.h"
#include "lava-api.h"
#include "lava-log.h"
#include "result.h"
#include "run-command.h"
#include "strbuf.h"
#include "warn.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define POLL_SECONDS 5

struct lab_boot {
	char *yaml, *id;
	int finished, retried;
};

struct lab_kernel {
	char *result;
	struct lab_boot *boots;
	size_t nr, alloc;	/* submitted, allocated (a dry run submits none) */
	int fetched;
};

static char *fmt(const char *f, const char *a, const char *b, const char *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, f, a, b, c);
	return strbuf_detach(&sb, NULL);
}

int lab_sweep_option(struct lab_sweep *s, int argc, char **argv, int *i)
{
	const char *v;

	if ((v = opt_arg(argc, argv, i, "--lava")))
		s->lab = v;
	else if ((v = opt_arg(argc, argv, i, "--lava-files")))
		s->files_url = v;
	else if ((v = opt_arg(argc, argv, i, "--lava-identity")))
		s->identity = v;
	else if ((v = opt_arg(argc, argv, i, "--lava-identity-name")))
		s->identity_name = v;
	else
		return 0;
	return 1;
}

/* The same site: the identity's uri and --lava's URL, each without /RPC2 or a last '/'. */
static int same_site(const char *uri, const char *url)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, why = STRBUF_INIT;
	int same = !lava_url(uri, "", &a, &why) && !lava_url(url, "", &b, &why) &&
		   !strcmp(a.buf, b.buf);

	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&why);
	return same;
}

/* `kbench lava serve DIR` beside the sweep: the URL it prints is the files' base. */
static int start_server(struct lab_sweep *s)
{
	struct child_process *cp = xcalloc(1, sizeof(*cp));
	struct strbuf line = STRBUF_INIT;
	int fds[2];
	char c;

	*cp = (struct child_process)CHILD_PROCESS_INIT;
	strvec_pushl(&cp->args, "/proc/self/exe", "lava", "serve", "--port=0", s->dir, NULL);
	if (pipe(fds)) {
		free(cp);
		return error_errno("cannot start the lab's file server");
	}
	cp->out = fds[1];
	if (start_command(cp)) {
		close(fds[0]);
		close(fds[1]);
		child_process_clear(cp);
		free(cp);
		return -1;
	}
	close(fds[1]);
	while (read(fds[0], &c, 1) == 1 && c != '\n')
		strbuf_addch(&line, c);
	close(fds[0]);
	s->server = cp;
	if (strncmp(line.buf, "http://", 7)) {
		strbuf_release(&line);
		return error("the lab's file server did not start");
	}
	s->url_base = strbuf_detach(&line, NULL);
	return 0;
}

int lab_sweep_start(struct lab_sweep *s, const struct kbuild *kb, const char *out,
		    const struct strvec *run_args)
{
	const char *model = kb->model;

	if (!s->lab)
		return KB_OK;
	s->dry_run = kb->dry_run;
	if (model)
		return usage_error("--lava measures in the lab's QEMU: --model needs kbench's own");
	for (size_t i = 0; i < run_args->nr; i++)
		if (!strncmp(run_args->v[i], "--qemu=", 7))
			return usage_error("--lava: the lab's QEMU boots, not --qemu's");
	if (lava_identity_load(&s->id, s->identity, s->identity_name))
		return KB_TROUBLE;
	s->loaded = 1;
	if (!same_site(s->id.uri, s->lab))
		return error("--lava=%s: the identity '%s' is for %s (--lava-identity, "
			     "--lava-identity-name)", s->lab, s->id.name, s->id.uri), KB_USAGE;
	s->dir = fmt("%s/lava%s%s", out, "", "");
	if (!s->dry_run && mkdir(s->dir, 0755) && errno != EEXIST)
		return error_errno("cannot create %s", s->dir), KB_TROUBLE;
	if (s->files_url)
		s->url_base = xstrdup(s->files_url);
	else if (s->dry_run)
		s->url_base = xstrdup("http://127.0.0.1:PORT/");
	else if (start_server(s))
		return KB_TROUBLE;
	note("boots on the lab %s, its files from %s", s->lab, s->url_base);
	return KB_OK;
}

/* run_args' --cpus counts (1 without), and run_args without it, for one job a count. */
static void split_cpus(const struct strvec *run_args, struct strvec *rest, struct strvec *cpus)
{
	for (size_t i = 0; i < run_args->nr; i++) {
		const char *a = run_args->v[i];

		if (strncmp(a, "--cpus=", 7)) {
			strvec_push(rest, a);
			continue;
		}
		for (const char *p = a + 7; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
			char *n = xstrndup(p, strcspn(p, ","));

			strvec_push(cpus, n);
			free(n);
		}
	}
	if (!cpus->nr)
		strvec_push(cpus, "1");
}

static int submit(struct lab_sweep *s, struct lab_boot *b)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct strvec ids = STRVEC_INIT;
	int ret = 0;

	if (strbuf_read_file(&text, b->yaml, 0) < 0)
		ret = error_errno("cannot read %s", b->yaml);
	else if (lava_submit(&s->id, text.buf, &ids, &why) || ids.nr != 1)
		ret = error("%s: not submitted: %s", b->yaml, why.len ? why.buf : "no job id");
	if (!ret) {
		free(b->id);
		b->id = xstrdup(ids.v[0]);
		b->finished = 0;
		note("%s: job %s", b->yaml, b->id);
	}
	strvec_clear(&ids);
	strbuf_release(&text);
	strbuf_release(&why);
	return ret;
}

int lab_sweep_add(struct lab_sweep *s, const char *name, const char *image, const char *result,
		  const struct strvec *run_args)
{
	struct strvec rest = STRVEC_INIT, cpus = STRVEC_INIT, args = STRVEC_INIT;
	struct lab_kernel *k;
	int ret = KB_OK;

	split_cpus(run_args, &rest, &cpus);
	s->kernels = xrealloc(s->kernels, (s->nr + 1) * sizeof(*s->kernels));
	k = memset(&s->kernels[s->nr++], 0, sizeof(*k));
	k->result = xstrdup(result);
	k->boots = xcalloc(cpus.nr, sizeof(*k->boots));
	k->alloc = cpus.nr;
	for (size_t c = 0; c < cpus.nr && ret == KB_OK; c++) {
		struct lab_boot *b = &k->boots[c];

		b->yaml = fmt("%s/%s-%scpu.yaml", s->dir, name, cpus.v[c]);
		strvec_clear(&args);
		strvec_pushl(&args, "lava", "job", NULL);
		if (rest.v)
			strvec_pushv(&args, rest.v);
		strvec_pushf(&args, "--cpus=%s", cpus.v[c]);
		strvec_pushl(&args, "-o", b->yaml, "--url-base", s->url_base, image, NULL);
		if (s->dry_run) {
			struct strbuf sb = STRBUF_INIT;

			strvec_insert(&args, 0, "kbench");
			quote_argv(&sb, args.v);
			printf("%s\nkbench lava submit %s\n", sb.buf, b->yaml);
			strbuf_release(&sb);
			continue;
		}
		ret = cmd_lava((int)args.nr, args.v);
		if (ret == KB_OK && submit(s, b))
			ret = KB_TROUBLE;
		/* Only a submitted job is waited for. */
		if (ret == KB_OK)
			k->nr++;
	}
	strvec_clear(&args);
	strvec_clear(&rest);
	strvec_clear(&cpus);
	return ret;
}

/*
 * An Incomplete job LAVA blames on its infrastructure (its log's job
 * result says so) before the guest started: not a kernel that panicked,
 * which LAVA too calls Infrastructure ("Connection closed").
 */
static int infrastructure_error(struct lab_sweep *s, const char *job)
{
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct lava_log log = { 0 };
	struct kb_result res;
	struct console c;
	int infra = 0;

	result_init(&res);
	console_init(&c, &res);
	c.quiet = 1;
	if (!lava_job_log(&s->id, job, &text, &why) &&
	    !lava_log_feed(text.buf, text.len, job, &c, &log))
		infra = log.error_type && !strcmp(log.error_type, "Infrastructure") &&
			!c.begun && !c.panic;
	lava_log_release(&log);
	console_release(&c);
	result_release(&res);
	strbuf_release(&text);
	strbuf_release(&why);
	return infra;
}

/* One look at a job: finished (and submitted again once after an infrastructure error). */
static int look(struct lab_sweep *s, struct lab_boot *b, int *queued, int *running)
{
	struct lava_job_info info = { 0 };
	struct strbuf why = STRBUF_INIT;
	int ret = 0;

	if (lava_job_get(&s->id, b->id, &info, &why) && !info.state) {
		ret = error("job %s: %s", b->id, why.buf);
	} else if (!strcmp(info.state, "Finished")) {
		if (info.health && !strcmp(info.health, "Incomplete") && !b->retried &&
		    infrastructure_error(s, b->id)) {
			warning("job %s: the lab's infrastructure failed (%s): once more",
				b->id, info.failure_comment ? info.failure_comment : "no reason");
			b->retried = 1;
			ret = submit(s, b);
		} else {
			b->finished = 1;
		}
	} else if (!strcmp(info.state, "Running")) {
		++*running;
	} else {
		++*queued;
	}
	lava_job_info_release(&info);
	strbuf_release(&why);
	return ret;
}

/* A kernel whose jobs have all finished: its result, by kbench lava fetch. */
static int fetch(struct lab_sweep *s, struct lab_kernel *k)
{
	struct strvec args = STRVEC_INIT;
	int ret;

	strvec_pushl(&args, "lava", "fetch", "--no-wait", "-o", k->result, NULL);
	if (s->identity)
		strvec_pushf(&args, "--identity=%s", s->identity);
	if (s->identity_name)
		strvec_pushf(&args, "--identity-name=%s", s->identity_name);
	for (size_t i = 0; i < k->nr; i++)
		strvec_push(&args, k->boots[i].id);
	ret = cmd_lava((int)args.nr, args.v);
	k->fetched = 1;
	strvec_clear(&args);
	return ret;
}

int lab_sweep_finish(struct lab_sweep *s)
{
	int ret = KB_OK, said_q = -1, said_r = -1, said_d = -1;

	if (!s->lab)
		return KB_OK;
	if (s->dry_run) {
		for (size_t i = 0; i < s->nr; i++)
			printf("kbench lava fetch -o %s JOBID...\n", s->kernels[i].result);
		return KB_OK;
	}
	for (;;) {
		int queued = 0, running = 0, done = 0, all = 0;

		for (size_t i = 0; i < s->nr; i++) {
			struct lab_kernel *k = &s->kernels[i];
			int finished = 1;

			for (size_t j = 0; j < k->nr; j++, all++) {
				if (!k->boots[j].finished && look(s, &k->boots[j], &queued, &running))
					return KB_TROUBLE;
				finished &= k->boots[j].finished;
				done += k->boots[j].finished;
			}
			if (finished && !k->fetched && fetch(s, k) != KB_OK)
				ret = KB_KERNEL_FAIL;
		}
		if (queued != said_q || running != said_r || done != said_d)
			note("lab: %d queued, %d running, %d done of %d", queued, running, done, all);
		said_q = queued;
		said_r = running;
		said_d = done;
		if (done == all)
			return ret;
		sleep(POLL_SECONDS);
	}
}

void lab_sweep_release(struct lab_sweep *s)
{
	if (s->server) {
		kill(s->server->pid, SIGTERM);
		finish_command(s->server);
		child_process_clear(s->server);
		free(s->server);
	}
	for (size_t i = 0; i < s->nr; i++) {
		for (size_t j = 0; j < s->kernels[i].alloc; j++) {
			free(s->kernels[i].boots[j].yaml);
			free(s->kernels[i].boots[j].id);
		}
		free(s->kernels[i].boots);
		free(s->kernels[i].result);
	}
	free(s->kernels);
	if (s->loaded)
		lava_identity_release(&s->id);
	free(s->dir);
	free(s->url_base);
}
