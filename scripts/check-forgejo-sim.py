#!/usr/bin/env python3
"""Checks forgejo-sim against the Forgejo client generated from the swagger spec (forgejo-api from PyPI).

    python3 -m venv /tmp/fj-venv && /tmp/fj-venv/bin/pip install forgejo-api
    /tmp/fj-venv/bin/python scripts/check-forgejo-sim.py [.build/debug/forgejo-sim]

Starts the built forgejo-sim and through the client reads the version and the signed-in user, searches the
assigned issues (a limit of 100 cut to 50, X-Total-Count and Link) and the pull requests awaiting a review, reads
an issue, a timeline, comments and reviews after colleagues acted, follows a renamed repository's 307, and sees
the switches it can see (Gitea, a server without a timeline). The generated client always sends Basic auth
(it overwrites `token …`), so it signs in with the token as the user name, as Forgejo allows. Prints
"N passed, N failed" and exits non-zero on a failure.
"""
import json
import sys
import traceback
import urllib.error
import urllib.request

import forgejo_api
from forgejo_api.rest import ApiException
from simcheck import binary, check, starter, summary  # noqa: E402

BINARY = binary("forgejo-sim")
start = starter(BINARY)


def control(origin, path, body):
    request = urllib.request.Request(origin + "/sim/" + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def client(origin, login="engineer"):
    configuration = forgejo_api.Configuration()
    configuration.host = origin + "/api/v1"
    configuration.username = f"fj_sim_{login}"  # Basic auth, the token as the user name
    configuration.password = ""
    return forgejo_api.ApiClient(configuration)


def reads(origin):
    api = client(origin)
    version = forgejo_api.MiscellaneousApi(api).get_version()
    check("version", version.version == "11.0.3+gitea-1.22.0", version)
    me = forgejo_api.UserApi(api).user_get_current()
    check("current user", me.login == "engineer" and me.full_name == "Eve Engineer" and me.id == 1, me)

    issues = forgejo_api.IssueApi(api)
    control(origin, "seed", {"count": 60, "repo": "acme/web"})
    first, status, headers = issues.issue_search_issues_with_http_info(assigned=True, state="open", limit=100)
    check("limit 100 cut to 50, silently", status == 200 and len(first) == 50, (status, len(first)))
    check("X-Total-Count", headers.get("X-Total-Count") == "66", headers.get("X-Total-Count"))
    check("Link has next", 'rel="next"' in headers.get("Link", ""), headers.get("Link"))
    second = issues.issue_search_issues(assigned=True, state="open", limit=100, page=2)
    refs = {f"{i.repository.full_name}#{i.number}" for i in first + second}
    check("two pages hold every assigned item", len(first) + len(second) == 66 and len(refs) == 66,
          (len(first), len(second), len(refs)))

    reviews = issues.issue_search_issues(review_requested=True, type="pulls", state="open")
    refs = sorted(f"{i.repository.full_name}#{i.number}" for i in reviews)
    check("review_requested", refs == ["acme/api#6", "acme/web#6"], refs)
    issue = issues.issue_get_issue("acme", "web", 3)
    check("a pull request as an issue", issue.pull_request is not None and issue.pull_request.merged is False
          and issue.assignees[0].login == "engineer", issue.pull_request)
    try:
        issues.issue_get_issue("acme", "web", 999)
        check("404 for an issue that is not there", False, "no exception")
    except ApiException as error:
        check("404 for an issue that is not there", error.status == 404 and "couldn't be found" in error.body,
              error.status)


def acts(origin):
    api = client(origin)
    issues = forgejo_api.IssueApi(api)
    control(origin, "act", {"as": "alice", "verb": "comment", "item": "acme/web#1", "value": "Looks odd"})
    control(origin, "act", {"as": "lead", "verb": "label", "item": "acme/web#1", "value": "bug"})
    control(origin, "act", {"as": "alice", "verb": "review", "item": "acme/web#6", "value": "APPROVED: fine"})
    timeline = issues.issue_get_comments_and_timeline("acme", "web", 1)
    kinds = [(t.type, t.user.login) for t in timeline]
    check("timeline", kinds == [("comment", "alice"), ("label", "lead")], kinds)
    check("label entry", timeline[1].label.name == "bug" and timeline[1].body == "1", timeline[1])
    comments = issues.issue_get_comments("acme", "web", 1)
    check("comments", [(c.user.login, c.body) for c in comments] == [("alice", "Looks odd")], comments)
    reviews = forgejo_api.RepositoryApi(api).repo_list_pull_reviews("acme", "web", 6)
    check("reviews", [(r.user.login, r.state, r.body) for r in reviews] == [("alice", "APPROVED", "fine")], reviews)
    check("lead shows no full name", timeline[1].user.full_name == "", timeline[1].user)


def switches(origin):
    api = client(origin)
    issues = forgejo_api.IssueApi(api)
    control(origin, "repos", {"rename": "acme/api", "to": "acme/svc"})
    moved = issues.issue_get_issue("acme", "api", 1)  # 307 to /repos/acme/svc/…, followed
    check("renamed repository: 307 followed, id kept", moved.repository.full_name == "acme/svc"
          and moved.id == 100_001, (moved.repository.full_name, moved.id))
    control(origin, "switches", {"gitea": True, "noTimeline": True})
    check("Gitea's version", forgejo_api.MiscellaneousApi(api).get_version().version == "1.22.6")
    try:
        urllib.request.urlopen(origin + "/api/forgejo/v1/version")
        check("Gitea: no /api/forgejo/v1/version", False, "answered")
    except urllib.error.HTTPError as error:
        check("Gitea: no /api/forgejo/v1/version", error.code == 404, error.code)
    try:
        issues.issue_get_comments_and_timeline("acme", "web", 1)
        check("no timeline: the router's 404", False, "answered")
    except ApiException as error:
        check("no timeline: the router's 404", error.status == 404 and error.body.startswith(b"404 page not found")
              if isinstance(error.body, bytes) else error.body.startswith("404 page not found"), error.body)
    check("no timeline: comments still there", len(issues.issue_get_comments("acme", "web", 1)) == 1)


def main():
    process, origin = start()
    try:
        for step in (reads, acts, switches):
            try:
                step(origin)
            except Exception as error:  # a client exception is a failed check, not a crash of the checker
                traceback.print_exc()
                check(f"{step.__name__}: no client exception", False, repr(error))
    finally:
        process.terminate()
        process.wait(timeout=10)
    sys.exit(summary())


if __name__ == "__main__":
    main()
