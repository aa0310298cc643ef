#!/usr/bin/env python3
"""Checks gitlab-sim against GitLab's own Python client (python-gitlab from PyPI).

    python3 -m venv /tmp/gl-venv && /tmp/gl-venv/bin/pip install python-gitlab
    /tmp/gl-venv/bin/python scripts/check-gitlab-sim.py [.build/debug/gitlab-sim]

Starts the built gitlab-sim and through the client authenticates, reads the assigned issues page by page
(python-gitlab follows the Link header and warns when its URLs do not share the configured base URL), lists the
merge requests awaiting the user's review, reads an issue's notes and resource label events, comments, changes
the assignees, approves a merge request, and reads back what the server recorded; then the switches it can see
(a capped total, the repeated-page bug, an old GitLab without reviewers). Prints "N passed, N failed" and exits
non-zero on a failure.
"""
import json
import sys
import traceback
import urllib.request
import warnings

import gitlab
from simcheck import binary, check, starter, summary  # noqa: E402

BINARY = binary("gitlab-sim")
start = starter(BINARY)
PROJECTS = ("web", "api", "ops")


def control(origin, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(origin + "/sim/" + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def client(origin, user="engineer", per_page=5):
    return gitlab.Gitlab(url=origin, private_token=f"glpat-sim-{user}", per_page=per_page, retry_transient_errors=False)


def reads(origin):
    gl = client(origin)
    gl.auth()
    check("auth: gl.user", gl.user.username == "engineer" and gl.user.id == 101 and gl.user.bot is False,
          gl.user.attributes)

    control(origin, "DELETE", "stats")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assigned = gl.issues.list(scope="assigned_to_me", state="opened", get_all=True)
    refs = sorted(i.references["full"] for i in assigned)
    expected = sorted(f"platform/{p}#{n}" for p in PROJECTS for n in (1, 4, 5, 8, 9, 12))
    check("issues assigned_to_me over 4 pages", refs == expected, refs)
    pages = control(origin, "GET", "stats")["requestsByRoute"].get("GET /issues", 0)
    check("Link followed page by page", pages == 4, pages)
    base = [str(w.message) for w in caught if "base URL" in str(w.message)]
    check("Link base URL matches", not base, base)

    mine = gl.issues.list(get_all=True)
    check("default scope created_by_me", len(mine) == 12 and all(i.author["username"] == "engineer" for i in mine),
          [(i.references["full"], i.author["username"]) for i in mine])

    reviews = gl.mergerequests.list(reviewer_id=101, state="opened", scope="all", get_all=True)
    refs = sorted(m.references["full"] for m in reviews)
    check("merge requests by reviewer_id", refs == sorted(f"platform/{p}!{n}" for p in PROJECTS for n in (1, 4, 10))
          and all(any(r["username"] == "engineer" for r in m.reviewers) for m in reviews), refs)

    pager = gl.issues.list(scope="all", iterator=True)
    check("X-Total through the client", pager.total == 36 and pager.total_pages == 8,
          (pager.total, pager.total_pages))

    project = gl.projects.get("platform/web")
    check("project by path", project.id == 11 and project.path_with_namespace == "platform/web", project.attributes)
    issue = project.issues.get(5)
    notes = [(n.author["username"], n.body, n.system) for n in issue.notes.list(sort="asc", get_all=True)]
    check("issue notes", notes == [("engineer", "assigned to @engineer", True), ("alice", "Looks good to me.", False)],
          notes)
    labels = [(e.action, e.label["name"], e.user["username"]) for e in project.issues.get(4).resourcelabelevents.list()]
    check("resource label events", labels == [("add", "bug", "alice")], labels)
    states = [(e.state, e.user["username"]) for e in project.issues.get(7).resourcestateevents.list()]
    check("resource state events", states == [("closed", "lead")], states)
    commits = [c.author_name for c in project.mergerequests.get(3).commits()]
    check("merge request commits", commits == ["Eve Engineer"], commits)


def writes(origin):
    alice = client(origin, "alice")
    project = alice.projects.get(11)
    issue = project.issues.get(5)
    note = issue.notes.create({"body": "Seen by the python-gitlab check."})
    check("create a note", note.author["username"] == "alice" and note.system is False, note.attributes)

    issue.assignee_ids = [101, 102]
    issue.save()
    issue = project.issues.get(5)
    check("update assignees", sorted(a["username"] for a in issue.assignees) == ["alice", "engineer"],
          issue.assignees)
    check("updated_at bumped", issue.updated_at > "2026" and issue.user_notes_count == 2, issue.updated_at)

    issue.labels = ["bug", "urgent"]
    issue.save()
    events = [(e.action, e.label["name"], e.user["username"]) for e in issue.resourcelabelevents.list()]
    check("labels as resource events", events[-2:] == [("add", "bug", "alice"), ("add", "urgent", "alice")], events)

    mr = project.mergerequests.get(4)
    mr.approve()
    approvals = [a["user"]["username"] for a in mr.approvals.get().approved_by]
    check("approve a merge request", approvals == ["alice"], approvals)

    engineer = client(origin)
    notes = [(n.author["username"], n.body) for n in engineer.projects.get(11).issues.get(5).notes.list(
        sort="asc", get_all=True)]
    check("writes recorded as notes", notes[-2:] == [("alice", "Seen by the python-gitlab check."),
                                                    ("alice", "assigned to @alice")], notes)
    mr_notes = [n.body for n in engineer.projects.get(11).mergerequests.get(4).notes.list(sort="asc", get_all=True)]
    check("approval recorded", mr_notes[-1] == "approved this merge request", mr_notes)

    moved = engineer.projects.get(11).issues.get(8)
    moved.move(13)  # python-gitlab takes the server's answer, the new issue, into the object
    old = engineer.projects.get(11).issues.get(8)
    check("move an issue", moved.project_id == 13 and moved.references["full"] == "platform/ops#13"
          and old.moved_to_id == moved.id and old.state == "closed", (moved.references, old.moved_to_id))


def switches(origin):
    gl = client(origin)
    control(origin, "POST", "switches", {"totalCap": 10})
    pager = gl.issues.list(scope="all", iterator=True)
    items = list(pager)
    check("total cap: no X-Total, paging still ends", pager.total is None and len(items) == 37,
          (pager.total, len(items)))
    control(origin, "POST", "switches", {"totalCap": 10000, "noReviewers": True})
    unfiltered = gl.mergerequests.list(reviewer_id=101, scope="all", get_all=True)
    check("no reviewers: reviewer_id ignored", len(unfiltered) == 36
          and not hasattr(unfiltered[0], "reviewers"), len(unfiltered))
    control(origin, "POST", "switches", {"noReviewers": False, "repeatPages": True})
    first = [i.id for i in gl.issues.list(scope="all", page=1)]
    second = [i.id for i in gl.issues.list(scope="all", page=2)]
    check("repeat pages: page 2 is page 1", first == second, (first, second))


def main():
    process, origin = start()
    try:
        for step in (reads, writes, switches):
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
