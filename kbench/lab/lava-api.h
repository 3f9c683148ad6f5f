/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LAVA's REST API (v0.2) over libcurl: submit a job, read its state and
 * its log.  Authenticated with the identity's token in an
 * "Authorization: Token ..." header, which libcurl sends to the lab's
 * host only (not to another host a redirect names).  The token never
 * appears in a URL, a message or why: whatever the server echoes is
 * scrubbed of it.
 *
 * Every function returns 0, or -1 with a one-line reason in why (reset
 * first), e.g. "POST http://127.0.0.1:8000/api/v0.2/jobs/: HTTP 400:
 * Problem with submitted job data: ..." (the server's own message,
 * shortened) or "GET ...: Could not resolve host: lab" (curl's).  They
 * print nothing.  Timeouts: 30 s to connect, 300 s a request; redirects
 * followed; HTTPS certificates verified (CURL_CA_BUNDLE names other
 * authorities, as for curl(1)); http_proxy and friends honoured.
 */
#ifndef KBENCH_LAB_LAVA_API_H
#define KBENCH_LAB_LAVA_API_H

#include "identity.h"
#include "strbuf.h"

/*
 * A URL of the lab: the site's root from an identity's uri,
 * "https://host[:port][/prefix]" (lavacli's uri ends in /RPC2: dropped),
 * then "/" and path: "api/v0.2/" is the API's base, "scheduler/job/42" a
 * job's page.  Appended to url.  0, or -1 with why for a uri that is not
 * http(s)://host/... .
 */
int lava_url(const char *uri, const char *path, struct strbuf *url, struct strbuf *why);

/* A job as GET api/v0.2/jobs/ID/ describes it; absent or null fields are NULL. */
struct lava_job_info {
	char *id;
	char *state;		/* "Submitted", "Scheduled", "Running", "Canceling", "Finished" */
	char *health;		/* "Unknown", "Complete", "Incomplete", "Canceled" */
	char *failure_comment;
	char *device;		/* actual_device: the device's hostname, once scheduled */
	char *device_type;	/* requested_device_type */
	char *worker;		/* the device's worker_host (GET api/v0.2/devices/DEVICE/) */
	char *definition;	/* the job's YAML */
	char *submit_time, *end_time;	/* as LAVA writes them (ISO 8601) */
};

/*
 * POST api/v0.2/jobs/ {"definition": text}: the new job ids pushed onto
 * ids, as LAVA gives them ("42"; a multinode job makes several: "43.0",
 * "43.1").
 */
int lava_submit(const struct lava_identity *id, const char *definition, struct strvec *ids,
		struct strbuf *why);

/*
 * GET api/v0.2/jobs/JOB/ into j (filled from scratch: release it after,
 * even on failure), and for its device
 * GET api/v0.2/devices/DEVICE/ for the worker.  A device that cannot be
 * read (retired, hidden) leaves worker NULL and still returns 0, with
 * the reason in why: a note for the caller to show, or not.
 */
int lava_job_get(const struct lava_identity *id, const char *job, struct lava_job_info *j,
		 struct strbuf *why);
void lava_job_info_release(struct lava_job_info *j);

/* GET api/v0.2/jobs/JOB/logs/ : the job's log (LAVA's YAML log) appended to log. */
int lava_job_log(const struct lava_identity *id, const char *job, struct strbuf *log,
		 struct strbuf *why);

#endif
