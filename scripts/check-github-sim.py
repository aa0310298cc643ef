#!/usr/bin/env python3
"""Checks github-sim against GitHub's own Python client (PyGithub from PyPI), at / and under /api/v3.

    python3 -m venv /tmp/gh-venv && /tmp/gh-venv/bin/pip install PyGithub
    /tmp/gh-venv/bin/python scripts/check-github-sim.py [.build/debug/github-sim]

Starts the built github-sim twice (github.com's layout, then Enterprise Server's under /api/v3) and through the
client reads the user, the assigned issues page by page (PyGithub follows the Link header and asserts that its URLs
share host, port and path prefix), searches review requests, reads an issue's timeline, comments, adds an assignee
and requests a review; then reads back what the server recorded. Prints "N passed, N failed" and exits non-zero on
a failure.
"""
import json
import sys
import traceback
import urllib.request

from github import Auth, Github
from simcheck import binary, check, starter, summary  # noqa: E402

BINARY = binary("github-sim")
start = starter(BINARY)


def stats(origin):
    with urllib.request.urlopen(origin + "/sim/stats") as response:
        return json.load(response)


def exercise(layout, origin, base_url):
    """The same steps at either layout; `base_url` is what PyGithub is given."""
    gh = Github(base_url=base_url, auth=Auth.Token("ghp_sim_engineer"), per_page=5, seconds_between_requests=0)
    me = gh.get_user()
    check(f"{layout}: user", me.login == "engineer" and me.id == 1001 and me.name == "Eve Engineer", me.raw_data)

    assigned = list(me.get_issues(filter="assigned", state="open"))
    refs = sorted(f"{i.repository.full_name}#{i.number}" for i in assigned)
    expected = sorted(f"acme/{r}#{n}" for r in ("web", "api") for n in (1, 4, 5, 8, 9, 12))
    check(f"{layout}: assigned issues over 3 pages", refs == expected, refs)
    check(f"{layout}: pull requests marked", {i.number for i in assigned if i.pull_request} == {9, 12},
          [(i.number, i.pull_request) for i in assigned])
    pages = stats(origin)["requestsByRoute"].get("GET /issues", 0)
    check(f"{layout}: Link followed", pages == 3, pages)

    found = gh.search_issues("is:open is:pr review-requested:@me")
    numbers = sorted(f"{i.repository.full_name}#{i.number}" for i in found)
    check(f"{layout}: search review-requested", found.totalCount == 6
          and numbers == sorted(f"acme/{r}#{n}" for r in ("web", "api") for n in (3, 6, 12)), numbers)
    direct = gh.search_issues("is:open is:pr user-review-requested:@me repo:acme/web")
    check(f"{layout}: search user-review-requested", sorted(i.number for i in direct) == [3, 12],
          [i.number for i in direct])

    repo = gh.get_repo("acme/web")
    issue = repo.get_issue(5)
    events = [(e.event, e.actor.login if e.actor else None) for e in issue.get_timeline()]
    check(f"{layout}: timeline", events == [("assigned", "engineer"), ("commented", "alice")], events)

    comment = issue.create_comment("Seen by the PyGithub check.")
    check(f"{layout}: create comment", comment.body == "Seen by the PyGithub check." and comment.user.login
          == "engineer", comment.raw_data)
    issue.add_to_assignees("alice")
    issue = repo.get_issue(5)
    check(f"{layout}: add assignee", sorted(a.login for a in issue.assignees) == ["alice", "engineer"],
          [a.login for a in issue.assignees])

    pull = repo.get_pull(3)
    pull.create_review_request(reviewers=["lead"], team_reviewers=["reviewers"])
    pull = repo.get_pull(3)
    check(f"{layout}: request review", sorted(u.login for u in pull.requested_reviewers) == ["engineer", "lead"]
          and [t.slug for t in pull.requested_teams] == ["reviewers"], pull.raw_data.get("requested_reviewers"))

    timeline = list(repo.get_issue(5).get_timeline())
    last = timeline[-2:]
    check(f"{layout}: writes in the timeline", [e.event for e in last] == ["commented", "assigned"]
          and last[1].raw_data["assignee"]["login"] == "alice" and last[1].actor.login == "engineer",
          [e.raw_data for e in last])
    requests = [e.raw_data for e in repo.get_issue(3).get_timeline() if e.event == "review_requested"]
    check(f"{layout}: review requests in the timeline", [r.get("requested_reviewer", {}).get("login")
          or r.get("requested_team", {}).get("slug") for r in requests] == ["engineer", "lead", "reviewers"], requests)

    limits = gh.get_rate_limit()
    check(f"{layout}: rate limit", limits.resources.search.limit == 30, limits.raw_data)


def main():
    for layout, arguments, suffix in (("github.com", [], ""), ("GHES", ["--base-path", "/api/v3"], "/api/v3")):
        process, origin = start(*arguments)
        try:
            exercise(layout, origin, origin + suffix)
        except Exception as error:  # a client exception is a failed check, not a crash of the checker
            traceback.print_exc()
            check(f"{layout}: no client exception", False, repr(error))
        finally:
            process.terminate()
            process.wait(timeout=10)
    sys.exit(summary())


if __name__ == "__main__":
    main()
