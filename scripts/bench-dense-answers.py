#!/usr/bin/env python3
"""Peak memory of one `trackwatch check` when Jira, GitHub or GitLab sends a dense 15 MB answer (issue 36 item 12):
`python3 scripts/bench-dense-answers.py BIN [FILLER ...]`, BIN the folder holding `trackwatch`.

A small server of its own on loopback plays each tracker as its API documents, just enough for a first check: Jira
Cloud (serverInfo, myself, search/jql), GitHub (/user, /issues, /search/issues), GitLab (/api/v4/user, /issues,
/merge_requests). Its list answer holds one issue of mine; the ordinary answer gives it 3 labels, a dense one
FILLER (default 3000000) two-letter strings — `"l0","l1",…`, 5 bytes a value, 15 MB — as labels (Jira, GitLab)
or in a member the client ignores (GitHub: its labels are objects); FILLER COUNTxWIDTH gives COUNT strings of WIDTH
letters (1500000x6: the densest 13 MB let through). Figures: docs/guarantees.md. Foundation's decoder maps every value of an
answer, ignored or not, before anything is decoded. Prints, per tracker and filler: the answer's size, the check's
exit status, its peak RSS (ru_maxrss) and that peak above the ordinary check, in MB and as a multiple of the size.
"""
import os, subprocess, sys, tempfile, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BIN = sys.argv[1]
# COUNT, or COUNTxWIDTH for strings of WIDTH characters (default 2).
FILLERS = [n for n in sys.argv[2:] if n != "--serve"] or ["3000000"]
UPDATED = "2026-11-29T09:00:00"
filler = {"count": 0, "width": 2}
cache = {}


def labels(count):
    width = filler["width"]
    if (count, width) not in cache:
        cache[(count, width)] = ",".join(f'"{"l" * (width - 1)}{n % 10}"' for n in range(count))
    return cache[(count, width)]


def jira_issue(count):
    return ('{"id":"10001","key":"WEB-1","fields":{"summary":"Dense","status":{"name":"Open",'
            '"statusCategory":{"key":"new"}},"assignee":{"accountId":"me","displayName":"Me"},"project":{"key":"WEB"},'
            f'"created":"{UPDATED}.000+0000","updated":"{UPDATED}.000+0000","labels":[{labels(count)}]}}}}')


def github_issue(count):
    return ('{"id":1,"number":1,"title":"Dense","state":"open","assignees":[{"id":1,"login":"me","type":"User"}],'
            f'"labels":[],"updated_at":"{UPDATED}Z","created_at":"{UPDATED}Z",'
            '"repository_url":"https://api.github.com/repos/acme/web",'
            f'"repository":{{"full_name":"acme/web"}},"filler":[{labels(count)}]}}')


def gitlab_item(count):
    return ('{"id":1,"iid":1,"project_id":1,"title":"Dense","state":"opened","assignees":[{"id":1,"username":"me"}],'
            f'"author":{{"id":2,"username":"bob"}},"updated_at":"{UPDATED}Z","references":{{"full":"acme/web#1"}},'
            f'"labels":[{labels(count)}]}}')


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, body, status=200):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        if self.path.startswith("/filler/"):
            count, _, width = self.path.split("/")[2].partition("x")
            filler["count"], filler["width"] = int(count), int(width or 2)
            return self.answer("{}")
        if self.path.startswith("/jira/rest/api/3/search/jql"):
            return self.answer('{"issues":[' + jira_issue(filler["count"]) + '],"isLast":true}')
        if self.path.startswith("/jira/rest/api/3/changelog/bulkfetch"):
            return self.answer('{"issueChangeLogs":[]}')
        self.unknown()

    def do_GET(self):
        path, _, query = self.path.partition("?")
        count = filler["count"]
        if path == "/jira/rest/api/2/serverInfo":
            return self.answer('{"deploymentType":"Cloud","version":"1001.0.0"}')
        if path == "/jira/rest/api/3/myself":
            return self.answer('{"accountId":"me","displayName":"Me","accountType":"atlassian"}')
        if path == "/github/user":
            return self.answer('{"id":1,"login":"me","type":"User"}')
        if path == "/github/issues":
            return self.answer("[" + github_issue(count) + "]" if "filter=assigned" in query else "[]")
        if path == "/github/search/issues":
            return self.answer('{"total_count":0,"incomplete_results":false,"items":[]}')
        if path == "/gitlab/api/v4/user":
            return self.answer('{"id":1,"username":"me","name":"Me"}')
        if path == "/gitlab/api/v4/issues":
            return self.answer("[" + gitlab_item(count) + "]" if "assigned_to_me" in query else "[]")
        if path == "/gitlab/api/v4/merge_requests":
            return self.answer("[]")
        self.unknown()

    def unknown(self):
        print(f"  (not played: {self.command} {self.path[:120]})", file=sys.stderr)
        self.answer('{"message":"Not Found"}', 404)


def check(config, home):
    env = dict(os.environ, XDG_STATE_HOME=f"{home}/state", XDG_CONFIG_HOME=f"{home}/config",
               DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent", MALLOC_ARENA_MAX="1")
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([f"{BIN}/trackwatch", "check", "--config", config], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024, proc.stderr.read().decode()


def serve():
    """The server, in a process of its own: a check's peak (ru_maxrss) counts what its parent held when it forked, so
    the parent stays small. `POST /filler/N` sets the filler."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


def main():
    server = subprocess.Popen([sys.executable, __file__, "--serve"], stdout=subprocess.PIPE)
    root = f"http://127.0.0.1:{int(server.stdout.readline())}"
    work = tempfile.mkdtemp(prefix="trackwatch-bench-dense-")
    tables = {
        "jira": (f'[[jira]]\nurl = "{root}/jira"\nemail = "me@example.com"\n', jira_issue),
        "github": (f'[[github]]\nurl = "{root}/github"\n', github_issue),
        "gitlab": (f'[[gitlab]]\nurl = "{root}/gitlab"\n', gitlab_item),
    }
    for name, (table, item) in tables.items():
        runs = [("ordinary", "3")] + [(f"filler {spec}", spec) for spec in FILLERS]
        ordinary = None
        for label, count in runs:  # count: a filler spec
            home = os.path.join(work, f"{name}-{count}")
            os.makedirs(home)
            token = os.path.join(home, "token")
            with open(os.open(token, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
                f.write("secret-token\n")
            config = os.path.join(home, "config.toml")
            with open(config, "w") as f:
                f.write(table + f'token_file = "{token}"\n')
            urllib.request.urlopen(urllib.request.Request(f"{root}/filler/{count}", method="POST")).read()
            number, _, width = count.partition("x")
            size = (len(item(3)) + (int(width or 2) + 3) * (int(number) - 3)) / 1048576
            code, peak, stderr = check(config, home)
            ordinary = ordinary or peak
            growth = peak - ordinary
            said = stderr.strip().splitlines()[-1][:150] if code else ""
            print(f"{name:6} {label:20} answer {size:6.1f} MB  exit {code:3}  peak {peak:6.1f} MB  "
                  f"+{growth:6.1f} MB ({growth / size if count != '3' else 0:4.1f}x)  {said}")
    server.kill()


if sys.argv[1:2] == ["--serve"]:
    serve()
else:
    main()
