// SPDX-License-Identifier: GPL-2.0
/*
 * LAVA's REST API v0.2 (lava-api.h).  One libcurl easy handle a request:
 * kbench makes a handful, so reuse would buy nothing.  The server is
 * Django REST framework's: errors come as JSON, {"message": ...} from
 * LAVA's own views, {"detail": ...} from the framework's (401, 404), or
 * {"field": ["..."]} from validation.
 */
#include "lava-api.h"
#include "ccd-config.h"
#include "json.h"
#include "strbuf.h"

#include <curl/curl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REPLY_MAX ((size_t)1 << 30)	/* a job log of a GiB is not a log */
#define MESSAGE_MAX 300			/* of the server's message in why */

struct request {
	const char *method;	/* "GET" or "POST" */
	const char *url;
	const char *body;	/* POST's JSON */
	const char *accept;
	long status;
	struct strbuf reply;
	char *content_type;	/* of the reply, or NULL */
	int too_big;
};

/* curl_global_init is not thread-safe and must run once: kbench has one thread. */
static int curl_ready(struct strbuf *why)
{
	static int done;

	if (done)
		return 0;
	if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
		strbuf_addstr(why, "cannot initialise libcurl");
		return -1;
	}
	atexit(curl_global_cleanup);
	done = 1;
	return 0;
}

static size_t take_reply(char *data, size_t size, size_t n, void *arg)
{
	struct request *rq = arg;

	if (rq->reply.len + size * n > REPLY_MAX) {
		rq->too_big = 1;
		return 0;	/* curl stops: CURLE_WRITE_ERROR */
	}
	strbuf_add(&rq->reply, data, size * n);
	return size * n;
}

/* Every occurrence of the token in sb becomes "***": servers echo things. */
static void scrub(struct strbuf *sb, const char *token)
{
	size_t tlen = token ? strlen(token) : 0;
	struct strbuf out = STRBUF_INIT;
	const char *p = sb->buf, *hit;

	if (!tlen || !strstr(sb->buf, token))
		return;
	while ((hit = strstr(p, token))) {
		strbuf_add(&out, p, (size_t)(hit - p));
		strbuf_addstr(&out, "***");
		p = hit + tlen;
	}
	strbuf_addstr(&out, p);
	explicit_bzero(sb->buf, sb->len);
	strbuf_release(sb);
	*sb = out;
}

/* s as one short line: controls blanked, blanks squeezed, cut at MESSAGE_MAX. */
static void add_one_line(struct strbuf *sb, const char *s)
{
	size_t start = sb->len;
	int blank = 1;

	for (; *s && sb->len - start < MESSAGE_MAX; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < ' ' || c == 0x7f || c == ' ') {
			if (!blank)
				strbuf_addch(sb, ' ');
			blank = 1;
		} else {
			strbuf_addch(sb, c);
			blank = 0;
		}
	}
	while (sb->len > start && sb->buf[sb->len - 1] == ' ')
		strbuf_setlen(sb, sb->len - 1);
	if (*s)
		strbuf_addstr(sb, "...");
}

/* The first string in v (depth first): validation errors nest them in lists. */
static const char *first_string(const struct json *v)
{
	size_t i;
	const char *s;

	if (!v)
		return NULL;
	if (v->type == JSON_STRING)
		return v->str;
	if (v->type != JSON_ARRAY && v->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->nr; i++)
		if ((s = first_string(v->items[i])))
			return s;
	return NULL;
}

/* The server's own words for a failure, from its JSON or plain-text reply. */
static void add_server_message(struct strbuf *why, const struct request *rq)
{
	struct strbuf err = STRBUF_INIT;
	struct json *j = json_parse(rq->reply.buf, rq->reply.len, &err);
	const char *s = NULL, *field = NULL;

	if (j && j->type == JSON_OBJECT) {
		if (!(s = json_get_str(j, "message")) && !(s = json_get_str(j, "detail")) &&
		    !(s = json_get_str(j, "error")) && j->nr) {
			s = first_string(j->items[0]);
			field = j->keys[0];	/* the field refused: {"definition": ["..."]} */
		}
		if (s) {
			strbuf_addstr(why, ": ");
			if (field) {
				add_one_line(why, field);
				strbuf_addstr(why, ": ");
			}
			add_one_line(why, s);
		}
	} else if (!j && rq->content_type && !strncmp(rq->content_type, "text/plain", 10) &&
		   rq->reply.len) {
		strbuf_addstr(why, ": ");
		add_one_line(why, rq->reply.buf);
	}
	json_free(j);
	strbuf_release(&err);
}

/* "Authorization: Token ..." and the rest; NULL if the token could forge a header. */
static struct curl_slist *headers(const struct lava_identity *id, const struct request *rq)
{
	struct curl_slist *h = NULL, *n;
	struct strbuf sb = STRBUF_INIT;
	const char *t;

	for (t = id->token; *t; t++)
		if ((unsigned char)*t <= ' ' || (unsigned char)*t == 0x7f)
			return NULL;
	strbuf_addf(&sb, "Authorization: Token %s", id->token);
	n = curl_slist_append(h, sb.buf);
	explicit_bzero(sb.buf, sb.len);
	strbuf_release(&sb);
	if (!n)
		return NULL;
	h = n;
	strbuf_addf(&sb, "Accept: %s", rq->accept);
	n = curl_slist_append(h, sb.buf);
	if (n && rq->body)
		n = curl_slist_append(h, "Content-Type: application/json");
	if (n && rq->body)	/* no "Expect: 100-continue" wait for a big job */
		n = curl_slist_append(h, "Expect:");
	strbuf_release(&sb);
	if (!n) {
		curl_slist_free_all(h);
		return NULL;
	}
	return h;
}

static void set_options(CURL *c, struct request *rq, struct curl_slist *h, char *errbuf)
{
	curl_easy_setopt(c, CURLOPT_URL, rq->url);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kbench/" CCD_VERSION);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, take_reply);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, rq);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 300L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
	/* A lab moved from http to https still gets the job, not a GET. */
	curl_easy_setopt(c, CURLOPT_POSTREDIR, (long)(CURL_REDIR_POST_301 | CURL_REDIR_POST_302));
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(c, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	if (getenv("CURL_CA_BUNDLE") && *getenv("CURL_CA_BUNDLE"))
		curl_easy_setopt(c, CURLOPT_CAINFO, getenv("CURL_CA_BUNDLE"));
	if (rq->body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, rq->body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(rq->body));
	}
}

/* The "scheme://host:port/" of url: where libcurl sends the token. */
static size_t origin_len(const char *url)
{
	const char *s = strstr(url, "://");

	return s ? (size_t)(strcspn(s + 3, "/?#") + 3 + (size_t)(s - url)) : strlen(url);
}

/* A 401 or 403 after a redirect elsewhere: libcurl kept the token back. */
static void add_redirect_hint(struct strbuf *why, CURL *c, const struct request *rq)
{
	char *eff = NULL;
	size_t n = origin_len(rq->url);

	if (rq->status != 401 && rq->status != 403)
		return;
	if (curl_easy_getinfo(c, CURLINFO_EFFECTIVE_URL, &eff) || !eff)
		return;
	if (origin_len(eff) != n || strncmp(eff, rq->url, n))
		strbuf_addf(why, " (redirected to %.*s, which is not sent the token: give "
			    "the identity that uri)", (int)origin_len(eff), eff);
}

/* Run rq; 0 for a 2xx reply, else -1 with why. */
static int perform(const struct lava_identity *id, struct request *rq, struct strbuf *why)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *h;
	CURL *c;
	CURLcode rc;
	char *ct = NULL;
	int ret = -1;

	if (curl_ready(why))
		return -1;
	if (!(h = headers(id, rq))) {
		strbuf_addf(why, "%s %s: the identity's token cannot go in an HTTP header",
			    rq->method, rq->url);
		return -1;
	}
	if (!(c = curl_easy_init())) {
		curl_slist_free_all(h);
		strbuf_addf(why, "%s %s: cannot start libcurl", rq->method, rq->url);
		return -1;
	}
	set_options(c, rq, h, errbuf);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &rq->status);
	if (!curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ct) && ct)
		rq->content_type = xstrdup(ct);
	if (rq->too_big)
		strbuf_addf(why, "%s %s: the reply is bigger than %zu bytes", rq->method, rq->url,
			    REPLY_MAX);
	else if (rc != CURLE_OK)
		strbuf_addf(why, "%s %s: %s", rq->method, rq->url,
			    *errbuf ? errbuf : curl_easy_strerror(rc));
	else if (rq->status < 200 || rq->status > 299) {
		strbuf_addf(why, "%s %s: HTTP %ld", rq->method, rq->url, rq->status);
		add_server_message(why, rq);
		add_redirect_hint(why, c, rq);
	} else
		ret = 0;
	curl_easy_cleanup(c);
	curl_slist_free_all(h);
	return ret;
}

static void request_release(struct request *rq)
{
	strbuf_release(&rq->reply);
	free(rq->content_type);
	rq->content_type = NULL;
}

/* The site's root from uri: its scheme, host and prefix, /RPC2 and trailing '/'s dropped. */
static int site_root(const char *uri, struct strbuf *url)
{
	const char *host, *path, *end;
	size_t len;

	if (!strncmp(uri, "https://", 8))
		host = uri + 8;
	else if (!strncmp(uri, "http://", 7))
		host = uri + 7;
	else
		return -1;
	path = host + strcspn(host, "/?#@");
	if (path == host || *path == '?' || *path == '#' || *path == '@' ||
	    strpbrk(path, "?#"))
		return -1;	/* no host, credentials (kept out of URLs), a query */
	len = strlen(path);
	while (len && path[len - 1] == '/')
		len--;
	if (len >= 5 && !strncmp(path + len - 5, "/RPC2", 5))
		len -= 5;
	while (len && path[len - 1] == '/')
		len--;
	end = path + len;
	strbuf_add(url, uri, (size_t)(end - uri));
	strbuf_addch(url, '/');
	return 0;
}

int lava_url(const char *uri, const char *path, struct strbuf *url, struct strbuf *why)
{
	strbuf_reset(why);
	if (!uri || site_root(uri, url)) {
		strbuf_addstr(why, "the identity's uri is not http(s)://HOST[:PORT][/PREFIX]/RPC2");
		return -1;
	}
	strbuf_addstr(url, path);
	return 0;
}

/* A path segment (a job id, a device's name), %-escaped as URLs want. */
static void add_segment(struct strbuf *url, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("-._~", c))
			strbuf_addch(url, c);
		else
			strbuf_addf(url, "%%%02X", c);
	}
	strbuf_addch(url, '/');
}

/* The API URL "api/v0.2/" + what + (segment "/" if given). */
static int api_url(const struct lava_identity *id, const char *what, const char *segment,
		   const char *tail, struct strbuf *url, struct strbuf *why)
{
	if (lava_url(id->uri, "api/v0.2/", url, why))
		return -1;
	strbuf_addstr(url, what);
	if (segment) {
		if (!*segment || !strcmp(segment, ".") || !strcmp(segment, "..")) {
			strbuf_addf(why, "no name to ask the lab's %s about", what);
			return -1;
		}
		add_segment(url, segment);
	}
	strbuf_addstr(url, tail);
	return 0;
}

/* A JSON scalar as text: ids come as numbers or as strings ("43.0"). */
static char *scalar_dup(const struct json *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!v)
		return NULL;
	switch (v->type) {
	case JSON_STRING:
		return xstrdup(v->str);
	case JSON_NUMBER:
		if (v->num == floor(v->num) && fabs(v->num) < 1e15)
			strbuf_addf(&sb, "%.0f", v->num);
		else
			strbuf_addf(&sb, "%.17g", v->num);
		return strbuf_detach(&sb, NULL);
	case JSON_BOOL:
		return xstrdup(v->num ? "true" : "false");
	default:
		return NULL;
	}
}

/* rq's reply as a JSON object, or NULL with why. */
static struct json *reply_object(const struct request *rq, struct strbuf *why)
{
	struct strbuf err = STRBUF_INIT;
	struct json *j = json_parse(rq->reply.buf, rq->reply.len, &err);

	if (!j || j->type != JSON_OBJECT) {
		strbuf_addf(why, "%s %s: HTTP %ld but the reply is not a JSON object%s%s",
			    rq->method, rq->url, rq->status, j ? "" : ": ", j ? "" : err.buf);
		json_free(j);
		j = NULL;
	}
	strbuf_release(&err);
	return j;
}

/* GET url as JSON. */
static struct json *get_json(const struct lava_identity *id, const char *url, struct strbuf *why)
{
	struct request rq = { "GET", url, NULL, "application/json", 0, STRBUF_INIT, NULL, 0 };
	struct json *j = NULL;

	if (!perform(id, &rq, why))
		j = reply_object(&rq, why);
	request_release(&rq);
	return j;
}

static int push_ids(const struct json *ids, struct strvec *out)
{
	size_t i;
	char *s;

	if (!ids || ids->type != JSON_ARRAY || !ids->nr)
		return -1;
	for (i = 0; i < ids->nr; i++)
		if (ids->items[i]->type != JSON_STRING && ids->items[i]->type != JSON_NUMBER)
			return -1;
	for (i = 0; i < ids->nr; i++) {
		s = scalar_dup(ids->items[i]);
		strvec_push(out, s);
		free(s);
	}
	return 0;
}

int lava_submit(const struct lava_identity *id, const char *definition, struct strvec *ids,
		struct strbuf *why)
{
	struct strbuf url = STRBUF_INIT, body = STRBUF_INIT;
	struct request rq = { "POST", NULL, NULL, "application/json", 0, STRBUF_INIT, NULL, 0 };
	struct json *j = NULL;
	int ret = -1;

	strbuf_reset(why);
	if (api_url(id, "jobs/", NULL, "", &url, why))
		goto out;
	strbuf_addstr(&body, "{\"definition\": ");
	json_add_string(&body, definition);
	strbuf_addstr(&body, "}");
	rq.url = url.buf;
	rq.body = body.buf;
	if (perform(id, &rq, why) || !(j = reply_object(&rq, why)))
		goto out;
	if (push_ids(json_get(j, "job_ids"), ids)) {
		strbuf_addf(why, "POST %s: HTTP %ld but the reply names no job (no \"job_ids\")",
			    url.buf, rq.status);
		goto out;
	}
	ret = 0;
out:
	json_free(j);
	request_release(&rq);
	strbuf_release(&url);
	strbuf_release(&body);
	scrub(why, id->token);
	return ret;
}

void lava_job_info_release(struct lava_job_info *j)
{
	free(j->id);
	free(j->state);
	free(j->health);
	free(j->failure_comment);
	free(j->device);
	free(j->device_type);
	free(j->worker);
	free(j->definition);
	free(j->submit_time);
	free(j->end_time);
	memset(j, 0, sizeof(*j));
}

/* The device's worker; a failure is only a note in why. */
static void get_worker(const struct lava_identity *id, struct lava_job_info *j,
		       struct strbuf *why)
{
	struct strbuf url = STRBUF_INIT;
	struct json *d;

	if (!api_url(id, "devices/", j->device, "", &url, why) && (d = get_json(id, url.buf, why))) {
		j->worker = scalar_dup(json_get(d, "worker_host"));
		json_free(d);
	}
	strbuf_release(&url);
}

int lava_job_get(const struct lava_identity *id, const char *job, struct lava_job_info *j,
		 struct strbuf *why)
{
	struct strbuf url = STRBUF_INIT;
	struct json *o;

	memset(j, 0, sizeof(*j));
	strbuf_reset(why);
	if (api_url(id, "jobs/", job, "", &url, why) || !(o = get_json(id, url.buf, why))) {
		strbuf_release(&url);
		scrub(why, id->token);
		return -1;
	}
	j->id = scalar_dup(json_get(o, "id"));
	j->state = scalar_dup(json_get(o, "state"));
	j->health = scalar_dup(json_get(o, "health"));
	j->failure_comment = scalar_dup(json_get(o, "failure_comment"));
	j->device = scalar_dup(json_get(o, "actual_device"));
	j->device_type = scalar_dup(json_get(o, "requested_device_type"));
	j->definition = scalar_dup(json_get(o, "definition"));
	j->submit_time = scalar_dup(json_get(o, "submit_time"));
	j->end_time = scalar_dup(json_get(o, "end_time"));
	json_free(o);
	strbuf_release(&url);
	if (j->device)
		get_worker(id, j, why);
	scrub(why, id->token);
	return 0;
}

int lava_job_log(const struct lava_identity *id, const char *job, struct strbuf *log,
		 struct strbuf *why)
{
	struct strbuf url = STRBUF_INIT;
	struct request rq = { "GET", NULL, NULL, "application/yaml, text/plain, application/json",
			      0, STRBUF_INIT, NULL, 0 };
	int ret = -1;

	strbuf_reset(why);
	if (api_url(id, "jobs/", job, "logs/", &url, why))
		goto out;
	rq.url = url.buf;
	if (perform(id, &rq, why))
		goto out;
	strbuf_add(log, rq.reply.buf, rq.reply.len);
	ret = 0;
out:
	request_release(&rq);
	strbuf_release(&url);
	scrub(why, id->token);
	return ret;
}
