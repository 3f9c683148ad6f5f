#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbench's LAVA machinery (kbench/lab/) by lab-test: lavacli's identity
# file, the lab's URLs, the REST client against a stand-in LAVA (python3's
# http.server: it records each request and answers in LAVA's shapes; the
# real LAVA is another test's), the file server fetched by curl.
#   lab-test.sh CASE   (LAB_TEST=path/to/lab-test)
set -u
: "${LAB_TEST:?LAB_TEST must name the lab-test binary}"
export LC_ALL=C
. "$(dirname "$0")/../lib/check.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX") || exit 1
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$W"' EXIT
cd "$W" || exit 1
has() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks: $2"; }; }
lacks() { ! grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 has: $2"; }; }
# The tokens of this test: none may ever reach stderr.
TOKEN=Tk-5ecret-0f-the-1ab-a7c9e
# private FILE: the identity file mode lavacli gives it
private() { chmod 600 "$1"; }
# no_token: nothing printed so far names a token
no_token() { for t in "$TOKEN" tok-flow s3cr wrong-token-x; do lacks err.txt "$t"; done; }
# wait_port FILE: the port a server wrote to FILE ("port=N" or N)
wait_port() {
	local _
	for _ in $(seq 100); do
		[ -s "$1" ] && grep -q '[0-9]' "$1" && { sed 's/^port=//' "$1"; return 0; }
		sleep 0.1
	done
	fail "no server port in $1"
}

case_identity() {
	cat >lavacli.yaml <<-EOF
	---
	# lavacli identities add writes block mappings, keys sorted
	admin:
	  token: other-token
	  uri: https://admin.example.org/RPC2
	default:
	  proxy: http://proxy.example.org:3128/   # not ours: ignored
	  timeout: 30
	  token: $TOKEN
	  uri: https://lava.example.org/RPC2
	  username: alice
	quoted:
	  uri: "https://q.example.org:8443/lava/RPC2"
	  username: 'o''brien'
	  token: "a\\"b\\\\c\\x41"
	digits:
	  token: '0123456789'
	  uri: http://d.example.org/RPC2
	folded:
	  uri:
	    https://f.example.org/RPC2
	  token: $TOKEN
	flow: {uri: 'https://flow.example.com/RPC2', username: bob, token: tok-flow}   # by hand
	flow2: {uri: "https://flow2.example.com/RPC2",
	    token: tok-flow2}
	creds:
	  uri: http://carol:s3cr%40t@lab3.example.org:8000/RPC2
	odd: &anchor
	  - a list lavacli would not write
	  - [x, y]
	EOF
	private lavacli.yaml
	expect 0 "$LAB_TEST" identity lavacli.yaml -
	has out.txt "name=default"
	has out.txt "uri=https://lava.example.org/RPC2"
	has out.txt "username=alice"
	has out.txt "token=$TOKEN"
	expect 0 "$LAB_TEST" identity lavacli.yaml quoted
	has out.txt "uri=https://q.example.org:8443/lava/RPC2"
	has out.txt "username=o'brien"
	has out.txt 'token=a"b\cA'
	expect 0 "$LAB_TEST" identity lavacli.yaml digits
	has out.txt "token=0123456789"
	expect 0 "$LAB_TEST" identity lavacli.yaml folded
	has out.txt "uri=https://f.example.org/RPC2"
	expect 0 "$LAB_TEST" identity lavacli.yaml flow
	has out.txt "uri=https://flow.example.com/RPC2"
	has out.txt "username=bob"
	has out.txt "token=tok-flow"
	expect 0 "$LAB_TEST" identity lavacli.yaml flow2
	has out.txt "uri=https://flow2.example.com/RPC2"
	has out.txt "token=tok-flow2"
	has out.txt "username=(null)"
	# Credentials in the uri (lavacli takes them): out of the uri, into the fields.
	expect 0 "$LAB_TEST" identity lavacli.yaml creds
	has out.txt "uri=http://lab3.example.org:8000/RPC2"
	has out.txt "username=carol"
	has out.txt "token=s3cr@t"
	pass "block, quoted, folded, flow and uri-credential identities read"

	# Where lavacli looks: $XDG_CONFIG_HOME, else ~/.config.
	mkdir -p xdg home/.config
	cp -p lavacli.yaml xdg/
	sed 's/alice/alice-home/' lavacli.yaml >home/.config/lavacli.yaml
	private home/.config/lavacli.yaml
	XDG_CONFIG_HOME=$W/xdg HOME=$W/home expect 0 "$LAB_TEST" identity - -
	has out.txt "username=alice"
	XDG_CONFIG_HOME='' HOME=$W/home expect 0 "$LAB_TEST" identity - -
	has out.txt "username=alice-home"
	pass "the default file and identity"

	# Refused, each named, the token never printed.
	chmod 644 lavacli.yaml
	expect 3 "$LAB_TEST" identity lavacli.yaml -
	has err.txt "identity file lavacli.yaml is readable by others: chmod 600 lavacli.yaml"
	no_token
	chmod 620 lavacli.yaml
	expect 3 "$LAB_TEST" identity lavacli.yaml -
	has err.txt "identity file lavacli.yaml is writable by others: chmod 600 lavacli.yaml"
	private lavacli.yaml
	expect 3 "$LAB_TEST" identity lavacli.yaml nope
	has err.txt "no identity 'nope' in lavacli.yaml"
	no_token
	expect 3 "$LAB_TEST" identity no-such.yaml -
	has err.txt "no identity file no-such.yaml"
	printf 'default:\n  uri: https://x.example.org/RPC2\n  username: alice\n' >notoken.yaml
	private notoken.yaml
	expect 3 "$LAB_TEST" identity notoken.yaml -
	has err.txt "identity 'default' in notoken.yaml has no token"
	printf 'default:\n  token: %s\n  username: alice\n' "$TOKEN" >nouri.yaml
	private nouri.yaml
	expect 3 "$LAB_TEST" identity nouri.yaml -
	has err.txt "identity 'default' in nouri.yaml has no uri"
	no_token
	printf 'default:\n  uri: ftp://x.example.org/RPC2\n  token: %s\n' "$TOKEN" >ftp.yaml
	private ftp.yaml
	expect 3 "$LAB_TEST" identity ftp.yaml -
	has err.txt "is not http:// or https://"
	pass "group-readable, missing identity, token, uri refused"

	# Bad lines: file:line, and never the line's text (it may be the token).
	printf '# lab\ndefault:\n  uri: https://x.example.org/RPC2\n  %s\n' "$TOKEN" >bad1.yaml
	private bad1.yaml
	expect 3 "$LAB_TEST" identity bad1.yaml -
	has err.txt "bad1.yaml:4: expected 'key: value'"
	no_token
	printf 'default:\n  uri: https://x.example.org/RPC2\n  token: "%s\n' "$TOKEN" >bad2.yaml
	private bad2.yaml
	expect 3 "$LAB_TEST" identity bad2.yaml -
	has err.txt "bad2.yaml:3: unterminated quoted string"
	no_token
	printf 'default:\n  uri: https://x.example.org/RPC2\n\ttoken: %s\n' "$TOKEN" >bad3.yaml
	private bad3.yaml
	expect 3 "$LAB_TEST" identity bad3.yaml -
	has err.txt "bad3.yaml:3: a tab in the indentation"
	no_token
	printf 'default:\n  token: %s\n  uri: https://x.example.org/RPC2\n  token: %s\n' \
		"$TOKEN" "$TOKEN" >bad4.yaml
	private bad4.yaml
	expect 3 "$LAB_TEST" identity bad4.yaml -
	has err.txt "bad4.yaml:4: 'token' given twice in identity 'default' (also line 2)"
	no_token
	printf 'default:\n  uri: https://x.example.org/RPC2\n  token: %s\n   x: y\n' "$TOKEN" >bad5.yaml
	private bad5.yaml
	expect 3 "$LAB_TEST" identity bad5.yaml -
	has err.txt "bad5.yaml:4: a nested mapping where a scalar was expected"
	printf 'default: {uri: https://x.example.org/RPC2, token: %s\n' "$TOKEN" >bad6.yaml
	private bad6.yaml
	expect 3 "$LAB_TEST" identity bad6.yaml -
	has err.txt "bad6.yaml:1: unterminated flow mapping"
	no_token
	printf 'default:\n  uri: https://x.example.org/RPC2\n  token: *tok\n' >bad7.yaml
	private bad7.yaml
	expect 3 "$LAB_TEST" identity bad7.yaml -
	has err.txt "bad7.yaml:3: anchors, aliases"
	printf 'default:\n  token: %s\n  uri: https://x.example.org/RPC2\nstray\n' "$TOKEN" >bad8.yaml
	private bad8.yaml
	expect 3 "$LAB_TEST" identity bad8.yaml -
	has err.txt "bad8.yaml:4: expected 'key: value'"
	no_token
	pass "unparsable lines named by file:line, without their text"
}

case_url() {
	local u
	for u in https://lava.example.org/RPC2 https://lava.example.org/RPC2/ https://lava.example.org \
		https://lava.example.org/; do
		expect 0 "$LAB_TEST" url "$u" api/v0.2/
		has out.txt "https://lava.example.org/api/v0.2/"
		[ "$(cat out.txt)" = https://lava.example.org/api/v0.2/ ] || fail "$u: $(cat out.txt)"
	done
	expect 0 "$LAB_TEST" url http://127.0.0.1:8000/lab/RPC2 scheduler/job/42
	[ "$(cat out.txt)" = http://127.0.0.1:8000/lab/scheduler/job/42 ] || fail "prefix: $(cat out.txt)"
	for u in ftp://x/RPC2 https:///RPC2 'https://x/RPC2?a=b' 'https://u:p@x/RPC2'; do
		expect 3 "$LAB_TEST" url "$u" api/v0.2/
		has err.txt "is not http(s)://HOST[:PORT][/PREFIX]/RPC2"
		lacks err.txt "u:p"
	done
	pass "the API's base from a uri, /RPC2 dropped, a prefix kept"
}

# A stand-in LAVA: records every request (method, path, Authorization,
# Accept, Content-Type, body) in requests.log, answers in LAVA's shapes.
fake_lava() {
	cat >fake-lava.py <<-'EOF'
	import http.server, json, os, sys

	TOKEN = os.environ["FAKE_TOKEN"]
	LOG = open("requests.log", "a")
	JOB = {"id": 42, "submitter": "alice", "actual_device": "qemu-01",
	       "requested_device_type": "qemu", "state": "Finished", "health": "Incomplete",
	       "failure_comment": "kernel panic", "definition": "job_name: k\n",
	       "submit_time": "2025-01-02T03:04:05.678Z", "end_time": None, "tags": []}

	class Lava(http.server.BaseHTTPRequestHandler):
	    def answer(self, code, obj=None, text=None, ctype="application/json"):
	        body = (json.dumps(obj) if obj is not None else text).encode()
	        self.send_response(code)
	        self.send_header("Content-Type", ctype)
	        self.send_header("Content-Length", str(len(body)))
	        self.end_headers()
	        self.wfile.write(body)

	    def handle_one(self, body):
	        h = self.headers
	        LOG.write(json.dumps({"method": self.command, "path": self.path,
	                              "auth": h.get("Authorization"), "accept": h.get("Accept"),
	                              "ctype": h.get("Content-Type"), "body": body}) + "\n")
	        LOG.flush()
	        p = self.path
	        if p.startswith("/moved/"):
	            self.send_response(301)
	            self.send_header("Location", p[len("/moved"):])
	            self.send_header("Content-Length", "0")
	            self.end_headers()
	            return
	        if h.get("Authorization") != "Token " + TOKEN:
	            return self.answer(401, {"detail": "Invalid token."})
	        if p == "/api/v0.2/jobs/" and self.command == "POST":
	            d = json.loads(body)["definition"]
	            open("received.yaml", "w").write(d)
	            if "broken" in d:   # a server that echoes what it was sent
	                return self.answer(400, {"message": "Problem with submitted job data:\n"
	                                         + "  bad job from " + h.get("Authorization")})
	            if "empty" in d:
	                return self.answer(400, {"definition": ["This field may not be blank."]})
	            if "multinode" in d:
	                return self.answer(201, {"message": "job(s) successfully submitted",
	                                         "job_ids": ["43.0", "43.1"]})
	            return self.answer(201, {"message": "job(s) successfully submitted", "job_ids": [42]})
	        if p == "/api/v0.2/jobs/42/":
	            return self.answer(200, JOB)
	        if p == "/api/v0.2/jobs/7/":
	            return self.answer(200, dict(JOB, id=7, actual_device="gone-01"))
	        if p == "/api/v0.2/jobs/8/":
	            return self.answer(200, dict(JOB, id=8, actual_device=None, state="Submitted",
	                                         health="Unknown", failure_comment=None))
	        if p == "/api/v0.2/devices/qemu-01/":
	            return self.answer(200, {"hostname": "qemu-01", "worker_host": "worker-a",
	                                     "device_type": "qemu", "state": "Idle"})
	        if p == "/api/v0.2/jobs/42/logs/":
	            return self.answer(200, text=open("job.log").read(), ctype="application/yaml")
	        if p == "/api/v0.2/jobs/500/":
	            return self.answer(500, text="<html><title>oops</title></html>", ctype="text/html")
	        return self.answer(404, {"detail": "Not found."})

	    def do_GET(self):
	        self.handle_one(None)

	    def do_POST(self):
	        n = int(self.headers.get("Content-Length", 0))
	        self.handle_one(self.rfile.read(n).decode("utf-8"))

	    def log_message(self, *args):
	        pass

	srv = http.server.HTTPServer(("127.0.0.1", 0), Lava)
	with open("fake.port.tmp", "w") as f:
	    f.write(str(srv.server_address[1]))
	os.rename("fake.port.tmp", "fake.port")
	srv.serve_forever()
	EOF
	FAKE_TOKEN=$TOKEN python3 fake-lava.py 2>fake.err &
	pids="$pids $!"
	wait_port fake.port >/dev/null
}

# identity FILE URI [TOKEN]: an identity file for the stand-in
identity() {
	printf 'default:\n  uri: %s\n  username: alice\n  token: %s\n' "$2" "${3:-$TOKEN}" >"$1"
	private "$1"
}

case_api() {
	command -v python3 >/dev/null || skip "no python3"
	local port base
	printf 'log text 1\n- {"dt": "2025", "lvl": "info", "msg": "b\\u00e9"}\n' >job.log
	fake_lava
	port=$(cat fake.port)
	base=http://127.0.0.1:$port
	identity id.yaml "$base/RPC2"
	printf 'job_name: "kbench \\"q\\""\npath: C:\\\\x\n\ttab: é\nactions: []\n' >job.yaml
	expect 0 "$LAB_TEST" submit id.yaml job.yaml
	[ "$(cat out.txt)" = 42 ] || fail "submit: job id '$(cat out.txt)', expected 42"
	cmp -s job.yaml received.yaml || fail "the definition the server received differs"
	python3 - "$TOKEN" <<-'EOF' || fail "the submit request: $(tail -1 requests.log)"
	import json, sys
	r = json.loads(open("requests.log").readlines()[-1])
	assert r["method"] == "POST" and r["path"] == "/api/v0.2/jobs/", r
	assert r["auth"] == "Token " + sys.argv[1], "auth"
	assert r["ctype"] == "application/json", r["ctype"]
	assert json.loads(r["body"]) == {"definition": open("job.yaml").read()}, "body"
	EOF
	pass "submit: the id, the token in Authorization, the definition whole"
	echo multinode >mn.yaml
	expect 0 "$LAB_TEST" submit id.yaml mn.yaml
	[ "$(tr '\n' ' ' <out.txt)" = "43.0 43.1 " ] || fail "multinode ids: $(cat out.txt)"
	pass "a multinode job's ids"

	# The server's message surfaces; the token it echoed does not.
	echo broken >broken.yaml
	expect 3 "$LAB_TEST" submit id.yaml broken.yaml
	has err.txt "POST $base/api/v0.2/jobs/: HTTP 400: Problem with submitted job data: bad job from Token ***"
	no_token
	[ "$(wc -l <err.txt)" = 1 ] || fail "why is more than one line: $(cat err.txt)"
	echo empty >empty.yaml
	expect 3 "$LAB_TEST" submit id.yaml empty.yaml
	has err.txt "HTTP 400: definition: This field may not be blank."
	identity wrong.yaml "$base/RPC2" wrong-token-x
	expect 3 "$LAB_TEST" submit wrong.yaml job.yaml
	has err.txt "POST $base/api/v0.2/jobs/: HTTP 401: Invalid token."
	no_token
	[ "$(wc -l <err.txt)" = 1 ] || fail "why is more than one line: $(cat err.txt)"
	pass "400 and 401: the server's message in why, one line, no token"

	expect 0 "$LAB_TEST" job id.yaml 42
	for f in id=42 state=Finished health=Incomplete "failure_comment=kernel panic" \
		device=qemu-01 device_type=qemu worker=worker-a "definition=job_name: k" \
		submit_time=2025-01-02T03:04:05.678Z "end_time=(null)"; do
		has out.txt "$f"
	done
	grep -q '"path": "/api/v0.2/devices/qemu-01/"' requests.log || fail "no device request"
	expect 0 "$LAB_TEST" job id.yaml 8
	has out.txt "device=(null)"
	has out.txt "failure_comment=(null)"
	has out.txt "worker=(null)"
	expect 0 "$LAB_TEST" job id.yaml 7
	has out.txt "worker=(null)"
	has err.txt "GET $base/api/v0.2/devices/gone-01/: HTTP 404: Not found."
	expect 3 "$LAB_TEST" job id.yaml 9999
	has err.txt "GET $base/api/v0.2/jobs/9999/: HTTP 404: Not found."
	expect 3 "$LAB_TEST" job id.yaml 500
	has err.txt "GET $base/api/v0.2/jobs/500/: HTTP 500"
	lacks err.txt "<html>"
	expect 3 "$LAB_TEST" job id.yaml '../x y'
	has err.txt "GET $base/api/v0.2/jobs/..%2Fx%20y/: HTTP 404"
	pass "job_get: fields, nulls, the worker, a device or job not found"

	expect 0 "$LAB_TEST" log id.yaml 42
	cmp -s out.txt job.log || fail "the log differs from the server's"
	tail -1 requests.log | grep -q '"path": "/api/v0.2/jobs/42/logs/"' || fail "log path"
	expect 3 "$LAB_TEST" log id.yaml 9999
	has err.txt "GET $base/api/v0.2/jobs/9999/logs/: HTTP 404: Not found."
	pass "the log, byte for byte"

	# A lab behind a redirect (same host): followed, POST kept a POST, token kept.
	identity moved.yaml "$base/moved/RPC2"
	expect 0 "$LAB_TEST" submit moved.yaml job.yaml
	[ "$(cat out.txt)" = 42 ] || fail "submit through a redirect: '$(cat out.txt)'"
	pass "a redirect followed"

	# No server: curl's reason, the URL, no token.
	# shellcheck disable=SC2086  # one pid or several
	kill $pids 2>/dev/null
	wait 2>/dev/null
	pids=
	expect 3 "$LAB_TEST" job id.yaml 42
	has err.txt "GET $base/api/v0.2/jobs/42/: "
	no_token
	pass "a lab that is down: curl's reason"
	grep -F "$TOKEN" requests.log | grep -qv '"auth": "Token' && fail "the token went somewhere but the header"
	pass "the token only ever in the Authorization header"
}

# serve_start DIR [SECS]: lab-test serve in the background; $port, $spid
serve_start() {
	rm -f port.out
	"$LAB_TEST" serve "$1" 127.0.0.1 0 "${2:-30}" >port.out 2>serve.err &
	spid=$!
	pids="$pids $spid"
	port=$(wait_port port.out)
}

# stop_server SIG: send SIG, give it 10 s to end, its exit status in $s
stop_server() {
	local _
	kill -"$1" "$spid"
	for _ in $(seq 100); do
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$spid" 2>/dev/null && { kill -KILL "$spid"; fail "still serving 10 s after SIG$1"; }
	wait "$spid"
	s=$?
}

# get PATH [CURL-OPTIONS]: the status of GET PATH, the body in body.out
get() {
	local path=$1
	shift
	curl -sS --max-time 20 --path-as-is -o body.out -w '%{http_code}' "$@" \
		"http://127.0.0.1:$port$path" 2>curl.err
}

case_serve() {
	command -v curl >/dev/null || skip "no curl"
	local s t0 t1
	mkdir -p srv/sub out
	head -c 3000000 /dev/urandom >srv/bzImage
	echo initrd >"srv/a b.cpio"
	echo hidden >srv/.secret
	echo nested >srv/sub/file
	echo outside >outside.txt
	ln -s bzImage srv/link-in
	ln -s ../outside.txt srv/link-out
	ln -s /etc/passwd srv/link-abs
	mkfifo srv/fifo
	serve_start srv 3

	s=$(get /bzImage)
	[ "$s" = 200 ] || fail "GET /bzImage: $s $(cat curl.err)"
	cmp -s body.out srv/bzImage || fail "the bytes fetched differ"
	s=$(get /a%20b.cpio)
XX
	curl -sS --max-time 20 -I "http://127.0.0.1:$port/bzImage" >head.out 2>curl.err ||
		fail "HEAD: $(cat curl.err)"
	tr -d '\r' <head.out >head.txt
	has head.txt "HTTP/1.1 200 OK"
	has head.txt "Content-Length: 3000000"
	# HEAD: the headers and not a byte more (raw, as curl -I would not tell).
	exec 6<>"/dev/tcp/127.0.0.1/$port" || fail "cannot connect"
	printf 'HEAD /bzImage HTTP/1.1\r\nHost: lab\r\n\r\n' >&6
	timeout 20 cat <&6 >raw.out
	exec 6<&-
	[ "$(wc -c <raw.out)" -lt 1000 ] || fail "HEAD sent $(wc -c <raw.out) bytes: a body"
	has raw.out "Content-Length: 3000000"
	pass "GET (bytes equal), HEAD, a %-escaped name, a symlink inside"

	for p in /missing /.secret / /link-out /link-abs /fifo /sub; do
		s=$(get "$p")
		[ "$s" = 404 ] || fail "GET $p: $s, expected 404"
	done
	for p in /../outside.txt /%2e%2e/outside.txt /..%2foutside.txt /sub/file /.. /bad%zz; do
		s=$(get "$p")
		[ "$s" = 400 ] || fail "GET $p: $s, expected 400"
		lacks body.out outside
	done
	s=$(get /bzImage -X POST -d x=1)
	[ "$s" = 405 ] || fail "POST: $s, expected 405"
	s=$(get /bzImage -X DELETE -D hdr.out)
	[ "$s" = 405 ] || fail "DELETE: $s, expected 405"
	has hdr.out "Allow: GET, HEAD"
	pass "404 missing, dotfile, symlinks out, FIFO, directory; 400 ../ and subdirectories; 405"

	# A client that connects and says nothing holds the server only so long.
	exec 5<>"/dev/tcp/127.0.0.1/$port" || fail "cannot connect"
	t0=$(date +%s)
	s=$(get /a%20b.cpio)
	t1=$(date +%s)
	exec 5<&-
	[ "$s" = 200 ] || fail "GET behind a silent client: $s"
	[ $((t1 - t0)) -le 10 ] || fail "a silent client held the server $((t1 - t0)) s"
	pass "a silent client is dropped after the timeout"

	has serve.err "kbench: serving srv"
	has serve.err "kbench: served bzImage (3000000 bytes) to 127.0.0.1:"
	has serve.err "kbench: served bzImage (HEAD, 3000000 bytes) to 127.0.0.1:"
	has serve.err "kbench: refused /../outside.txt to 127.0.0.1:"
	[ "$(grep -c . serve.err)" -ge 20 ] || fail "not a line a request: $(cat serve.err)"
	stop_server TERM
	[ "$s" = 0 ] || fail "after SIGTERM lava_serve's program exited $s"
	pass "one log line a request; SIGTERM ends it with 0"

	# SIGINT (a job-controlled shell: the background job does not ignore it).
	set -m
	serve_start srv
	set +m
	stop_server INT
	[ "$s" = 0 ] || fail "after SIGINT lava_serve's program exited $s"
	expect 3 "$LAB_TEST" serve no-such-dir 127.0.0.1 0
	has err.txt "cannot open directory no-such-dir"
	expect 3 "$LAB_TEST" serve srv no.such.host.invalid 0
	has err.txt "cannot serve on no.such.host.invalid"
	pass "SIGINT ends it with 0; a missing directory or host refused"
}

case "${1:-}" in
identity | url | api | serve) "case_$1" ;;
*) fail "unknown case '${1:-}'" ;;
esac
finish
