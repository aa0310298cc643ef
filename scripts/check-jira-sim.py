#!/usr/bin/env python3
"""Checks jira-sim against Jira's own Python client (pycontribs `jira` from PyPI), in both flavours.

    python3 -m venv /tmp/jira-venv && /tmp/jira-venv/bin/pip install jira
    /tmp/jira-venv/bin/python scripts/check-jira-sim.py [.build/debug/jira-sim]

Starts the built jira-sim as Cloud and as Data Center (under /jira), and through the client reads myself, searches
the assigned issues, reads an issue with its changelog, adds a comment, assigns and transitions; then reads back
what the server recorded. Prints "N passed, N failed" and exits non-zero on a failure.
"""
import os
import sys
import traceback

from jira import JIRA
from simcheck import binary, check, starter, summary  # noqa: E402

BINARY = binary("jira-sim")
start = starter(BINARY)


def exercise(flavor, jira, me_id, alice_id):
    """The same steps on either flavour; `*_id` is how the flavour names people (accountId or name)."""
    me = jira.myself()
    check(f"{flavor}: myself", me.get("displayName") == "Eve Engineer" and me_id in me.values(), me)

    assigned = jira.search_issues("assignee = currentUser() AND project = WEB ORDER BY key ASC", maxResults=50)
    keys = [issue.key for issue in assigned]
    check(f"{flavor}: search assigned", keys == ["WEB-1", "WEB-5", "WEB-9"], keys)
    check(f"{flavor}: search fields", assigned[0].fields.summary == "Issue 1 of WEB"
          and assigned[0].fields.status.name == "To Do", assigned[0].raw.get("fields"))

    issue = jira.issue("WEB-3", expand="changelog")
    histories = issue.changelog.histories
    check(f"{flavor}: issue with changelog", len(histories) == 1 and histories[0].items[0].toString == "Done",
          [h.id for h in histories])

    comment = jira.add_comment("WEB-3", "Seen by the client check.")
    check(f"{flavor}: add comment", comment.body == "Seen by the client check." and comment.id, comment.raw)
    check(f"{flavor}: comment listed", jira.comments("WEB-3")[-1].body == "Seen by the client check.")

    jira.assign_issue("WEB-3", alice_id)
    issue = jira.issue("WEB-3", expand="changelog")
    last = issue.changelog.histories[-1]
    check(f"{flavor}: assign", issue.fields.assignee.displayName == "Alice Example"
          and last.author.displayName == "Eve Engineer" and last.items[0].field == "assignee"
          and last.items[0].to == alice_id and last.items[0].toString == "Alice Example", last.id)

    names = [t["name"] for t in jira.transitions("WEB-3")]
    check(f"{flavor}: transitions", sorted(names) == ["In Progress", "To Do"], names)
    jira.transition_issue("WEB-3", "In Progress")
    issue = jira.issue("WEB-3", expand="changelog")
    last = issue.changelog.histories[-1]
    check(f"{flavor}: transition", issue.fields.status.name == "In Progress"
          and any(i.field == "status" and i.toString == "In Progress" for i in last.items), last.id)

    moved_away = jira.search_issues("assignee CHANGED BY currentUser() AFTER -5m")
    check(f"{flavor}: CHANGED BY", [i.key for i in moved_away] == ["WEB-3"], [i.key for i in moved_away])
    check(f"{flavor}: updated bumped", "WEB-3" in [i.key for i in jira.search_issues("updated >= -5m")])


def main():
    runs = [
        ("cloud", [], lambda url: JIRA(server=url, basic_auth=("engineer@example.com", "jira-sim-engineer-token")),
         "acc-engineer", "acc-alice"),
        ("dc", ["--flavor", "dc", "--context-path", "/jira"],
         lambda url: JIRA(server=url + "/jira", token_auth="jira-sim-engineer-pat"), "engineer", "alice"),
    ]
    for flavor, arguments, connect, me_id, alice_id in runs:
        process, url = start(*arguments)
        try:
            jira = connect(url)
            check(f"{flavor}: deployment type", jira._is_cloud == (flavor == "cloud"), jira.deploymentType)
            exercise(flavor, jira, me_id, alice_id)
            try:
                JIRA(server=url + ("" if flavor == "cloud" else "/jira"),
                     basic_auth=("engineer@example.com", "wrong"), max_retries=0).myself()
                check(f"{flavor}: wrong credentials refused", False, "no error")
            except Exception as error:  # JIRAError with status 401
                check(f"{flavor}: wrong credentials refused", getattr(error, "status_code", None) == 401, error)
        except Exception:
            traceback.print_exc()
            check(f"{flavor}: ran to the end", False, "exception above")
        finally:
            process.terminate()
            process.wait()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
