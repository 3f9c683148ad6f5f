// SPDX-License-Identifier: GPL-2.0
/*
 * lab-test: kbench's LAVA machinery (kbench/lab/) alone, for lab-test.sh:
 *   lab-test identity FILE|- NAME|-      the identity read ('-': the default)
 *   lab-test url URI PATH                lava_url
 *   lab-test submit IDFILE JOBFILE       the new job ids, one a line
 *   lab-test job IDFILE JOB              the job's fields, NAME=VALUE
 *   lab-test log IDFILE JOB              the job's log
 *   lab-test serve DIR HOST PORT [SECS]  serve DIR; "port=N" once listening
 * The identity command prints the token: a test's own, to check it was
 * read whole.  Exits 0, 2 on usage, 3 on failure (kbench's statuses).
 */
#include "identity.h"
#include "kbench.h"
#include "lava-api.h"
#include "serve.h"
#include "strbuf.h"
#include "warn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *arg_or_null(const char *s)
{
	return strcmp(s, "-") ? s : NULL;
}

static void field(const char *name, const char *value)
{
	printf("%s=%s\n", name, value ? value : "(null)");
}

static int identity(char **argv)
{
	struct lava_identity id;

	if (lava_identity_load(&id, arg_or_null(argv[0]), arg_or_null(argv[1])))
		return KB_TROUBLE;
	field("name", id.name);
	field("uri", id.uri);
	field("username", id.username);
	field("token", id.token);
	lava_identity_release(&id);
	return KB_OK;
}

static int url(char **argv)
{
	struct strbuf u = STRBUF_INIT, why = STRBUF_INIT;
	int ret = KB_OK;

	if (lava_url(argv[0], argv[1], &u, &why)) {
		error("%s", why.buf);
		ret = KB_TROUBLE;
	} else {
		puts(u.buf);
	}
	strbuf_release(&u);
	strbuf_release(&why);
	return ret;
}

static int submit(struct lava_identity *id, const char *file, struct strbuf *why)
{
	struct strbuf def = STRBUF_INIT;
	struct strvec ids = STRVEC_INIT;
	size_t i;
	int ret = 0;

	if (strbuf_read_file(&def, file, 0))
		return error_errno("cannot read %s", file);
	ret = lava_submit(id, def.buf, &ids, why);
	for (i = 0; !ret && i < ids.nr; i++)
		puts(ids.v[i]);
	strvec_clear(&ids);
	strbuf_release(&def);
	return ret;
}

static int job(struct lava_identity *id, const char *which, struct strbuf *why)
{
	struct lava_job_info j;
	int ret = lava_job_get(id, which, &j, why);

	if (!ret) {
		field("id", j.id);
		field("state", j.state);
		field("health", j.health);
		field("failure_comment", j.failure_comment);
		field("device", j.device);
		field("device_type", j.device_type);
		field("worker", j.worker);
		field("definition", j.definition);
		field("submit_time", j.submit_time);
		field("end_time", j.end_time);
		if (why->len)
			warning("%s", why->buf);
	}
	lava_job_info_release(&j);
	return ret;
}

static int log_(struct lava_identity *id, const char *which, struct strbuf *why)
{
	struct strbuf log = STRBUF_INIT;
	int ret = lava_job_log(id, which, &log, why);

	if (!ret)
		fwrite(log.buf, 1, log.len, stdout);
	strbuf_release(&log);
	return ret;
}

static int api(const char *cmd, char **argv)
{
	struct lava_identity id;
	struct strbuf why = STRBUF_INIT;
	int ret;

	if (lava_identity_load(&id, argv[0], NULL))
		return KB_TROUBLE;
	if (!strcmp(cmd, "submit"))
		ret = submit(&id, argv[1], &why);
	else if (!strcmp(cmd, "job"))
		ret = job(&id, argv[1], &why);
	else
		ret = log_(&id, argv[1], &why);
	if (ret && why.len)
		error("%s", why.buf);
	strbuf_release(&why);
	lava_identity_release(&id);
	return ret ? KB_TROUBLE : KB_OK;
}

static int ready(int port, void *arg)
{
	printf("port=%d\n", port);
	fflush(stdout);
	note("serving %s", (const char *)arg);
	return 0;
}

static int serve(int argc, char **argv)
{
	if (argc > 3)
		lava_serve_timeout = atoi(argv[3]);
	return lava_serve(argv[0], argv[1], atoi(argv[2]), ready, argv[0]) ? KB_TROUBLE : KB_OK;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	warn_set_progname("kbench");	/* the log lines read as kbench's */
	if (!strcmp(cmd, "identity") && argc == 4)
		return identity(argv + 2);
	if (!strcmp(cmd, "url") && argc == 4)
		return url(argv + 2);
	if ((!strcmp(cmd, "submit") || !strcmp(cmd, "job") || !strcmp(cmd, "log")) && argc == 4)
		return api(cmd, argv + 2);
	if (!strcmp(cmd, "serve") && (argc == 5 || argc == 6))
		return serve(argc - 2, argv + 2);
	error("usage: lab-test identity|url|submit|job|log|serve ARGS (see lab-test.c)");
	return KB_USAGE;
}
