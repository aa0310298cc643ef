#!/usr/bin/env python3
"""Checks ado-sim against Microsoft's own Python client (azure-devops from PyPI).

    python3 -m venv /tmp/ado-venv && /tmp/ado-venv/bin/pip install azure-devops
    /tmp/ado-venv/bin/python scripts/check-ado-sim.py [.build/debug/ado-sim]

Starts the built ado-sim and through the client (which discovers every route with OPTIONS /_apis and negotiates
its api-version from the answer) reads who the PAT is, the readable projects, the work items assigned to the user
(WIQL, then the batch read with errorPolicy Omit), a work item's updates and comments, adds a comment, lists the
pull requests the user reviews and authored, reads a pull request's threads (system threads with their actor in
the properties) and iterations, and votes; then what goes wrong: a bad PAT, a throttled answer, an old server
without the comments API, a Server 2022 collection that serves only api-version 7.0. Prints "N passed, N failed"
and exits non-zero on a failure.
"""
import json
import os
import sys
import tempfile
import traceback
import urllib.request

# The client caches what OPTIONS /_apis answered under ~/.azure-devops unless told otherwise.
os.environ["AZURE_DEVOPS_CACHE_DIR"] = tempfile.mkdtemp(prefix="ado-check-")

from azure.devops.connection import Connection  # noqa: E402
from azure.devops.exceptions import AzureDevOpsAuthenticationError, AzureDevOpsServiceError  # noqa: E402
from azure.devops.v7_1.git.models import GitPullRequestSearchCriteria, IdentityRefWithVote  # noqa: E402
from azure.devops.v7_1.work_item_tracking.models import CommentCreate, Wiql, WorkItemBatchGetRequest  # noqa: E402
from msrest.authentication import BasicAuthentication  # noqa: E402
from simcheck import binary, check, starter, summary  # noqa: E402

BINARY = binary("ado-sim")
start = starter(BINARY)
ENGINEER = "6c1f0e2a-5b1d-4c7e-9a30-000000000101"
ALICE = "6c1f0e2a-5b1d-4c7e-9a30-000000000102"
TFS = "00000002-0000-8888-8000-000000000000"
MINE = "SELECT [System.Id] FROM WorkItems WHERE [System.AssignedTo] = @Me ORDER BY [System.Id]"


def control(origin, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(origin + "/sim/" + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def connect(url, user="engineer"):
    return Connection(base_url=url, creds=BasicAuthentication("", f"adosim-pat-{user}")).clients_v7_1


def work_items(origin):
    clients = connect(origin + "/acme")
    me = clients.get_location_client().get_connection_data()
    check("connectionData: who the PAT is", me.authenticated_user.id == ENGINEER
          and me.authenticated_user.provider_display_name == "Eve Engineer", me.authenticated_user)
    projects = [p.name for p in clients.get_core_client().get_projects()]
    check("projects the PAT reads", projects == ["Web", "Platform"], projects)

    wit = clients.get_work_item_tracking_client()
    result = wit.query_by_wiql(Wiql(query=MINE))
    ids = [w.id for w in result.work_items]
    check("WIQL @Me: ids only", ids == [1, 5, 9, 13, 17, 21], ids)
    batch = wit.get_work_items_batch(WorkItemBatchGetRequest(
        ids=ids + [25], fields=["System.Id", "System.Title", "System.AssignedTo"], error_policy="omit"))
    check("batch with errorPolicy omit: null for the unreadable", batch[-1] is None
          and all(w.fields["System.AssignedTo"]["id"] == ENGINEER for w in batch[:-1]), batch)
    try:
        wit.get_work_items_batch(WorkItemBatchGetRequest(ids=list(range(1, 202))))
        check("batch over 200 refused", False, "no error")
    except AzureDevOpsServiceError as error:
        check("batch over 200 refused", "VS403474" in str(error), error)

    control(origin, "POST", "clock", {"advance": 1})
    control(origin, "POST", "act", {"as": "alice", "verb": "assign", "workItem": 2, "user": "engineer"})
    since = result.as_of.isoformat()  # the client parsed asOf into a datetime
    later = wit.query_by_wiql(Wiql(query=MINE.replace("ORDER BY", f"AND [System.ChangedDate] > '{since}' "
                                                                  "ORDER BY")), time_precision=True)
    check("WIQL changed since asOf (timePrecision)", [w.id for w in later.work_items] == [2], later.work_items)
    updates = wit.get_updates(2, project="Web")
    last = updates[-1]
    check("updates: revisedBy and old -> new", last.revised_by.id == ALICE
          and last.fields["System.AssignedTo"].old_value["displayName"] == "Alice Example"
          and last.fields["System.AssignedTo"].new_value["id"] == ENGINEER, last.fields)

    comments = wit.get_comments("Web", 5)
    check("comments (7.1-preview.4)", comments.total_count == 1 and comments.comments[0].text == "Looks good to me."
          and comments.comments[0].created_by.display_name == "Alice Example", comments.comments)
    added = wit.add_comment(CommentCreate(text="Seen by the azure-devops check."), "Web", 5)
    history = wit.get_updates(5, project="Web")[-1].fields["System.History"].new_value
    check("add a comment: a revision with System.History", added.created_by.id == ENGINEER
          and history == "Seen by the azure-devops check.", history)
    control(origin, "POST", "act", {"as": "lead", "verb": "delete", "workItem": 4})
    try:
        wit.get_work_item(4)
        check("deleted work item: 404 TF401232", False, "no error")
    except AzureDevOpsServiceError as error:
        check("deleted work item: 404 TF401232", "TF401232" in str(error), error)


def pull_requests(origin):
    git = connect(origin + "/acme").get_git_client()
    reviews = git.get_pull_requests_by_project("Web", GitPullRequestSearchCriteria(reviewer_id=ENGINEER, status="active"))
    check("pull requests I review", [p.pull_request_id for p in reviews] == [6, 2], reviews)
    mine = git.get_pull_requests_by_project("Web", GitPullRequestSearchCriteria(creator_id=ENGINEER))
    check("pull requests I opened, with votes", [p.pull_request_id for p in mine] == [4, 1]
          and [(r.display_name, r.vote) for r in mine[1].reviewers] == [("Alice Example", 5), ("Lena Lead", 0)],
          [(p.pull_request_id, p.reviewers) for p in mine])

    control(origin, "POST", "act", {"as": "lead", "verb": "push", "pullRequest": 1, "text": "Fix the build"})
    threads = git.get_threads("Web", 1, project="Web")
    kinds = [t.properties.get("CodeReviewThreadType", {}).get("$value") for t in threads]
    check("threads: system kinds", kinds == ["ReviewersUpdate", "ReviewersUpdate", "VoteUpdate", "RefUpdate"], kinds)
    vote = threads[2]
    actor = vote.identities[vote.properties["CodeReviewVotedByIdentity"]["$value"]]
    check("system thread: author is the service, actor in properties", vote.comments[0].author.id == TFS
          and vote.comments[0].comment_type == "system" and actor.id == ALICE, (vote.comments[0].author, actor))
    iterations = git.get_pull_request_iterations("Web", 1, project="Web")
    check("iterations: the push", [i.reason for i in iterations] == ["create", "push"]
          and iterations[-1].author.display_name == "Lena Lead", iterations)

    voted = git.create_pull_request_reviewer(IdentityRefWithVote(vote=10), "Web", 2, ENGINEER, project="Web")
    check("vote as myself", voted.vote == 10 and voted.id == ENGINEER, voted)


def failures(origin):
    try:
        connect(origin + "/acme", "nobody").get_location_client().get_connection_data()
        check("bad PAT: 401 (the client suppresses the sign-in redirect)", False, "no error")
    except AzureDevOpsAuthenticationError:
        check("bad PAT: 401 (the client suppresses the sign-in redirect)", True)
    control(origin, "POST", "faults", {"route": "POST wiql", "kind": "throttle", "count": 1, "retryAfter": 5})
    try:
        connect(origin + "/acme").get_work_item_tracking_client().query_by_wiql(Wiql(query=MINE))
        check("throttled: TF400733", False, "no error")
    except AzureDevOpsServiceError as error:
        check("throttled: TF400733", "TF400733" in str(error), error)


def old_servers():
    process, origin = start("--no-comments-api")
    try:
        wit = connect(origin + "/acme").get_work_item_tracking_client()
        try:
            wit.get_comments("Web", 5)
            check("no comments API: the client finds no such resource", False, "no error")
        except ValueError as error:
            check("no comments API: the client finds no such resource", "608aac0a" in str(error), error)
        history = [u.fields["System.History"].new_value for u in wit.get_updates(5, project="Web")
                   if u.fields and "System.History" in u.fields]
        check("no comments API: comments in the updates", history == ["Looks good to me."], history)
    finally:
        process.terminate()
        process.wait(timeout=10)

    process, origin = start("--server", "--max-api-version", "7.0")
    try:
        clients = connect(origin + "/tfs/DefaultCollection")
        me = clients.get_location_client().get_connection_data()
        check("Server 2022: DOMAIN\\user, onPremises", me.authenticated_user.properties["Account"]["$value"]
              == "CONTOSO\\engineer" and me.deployment_type == "onPremises", me.authenticated_user.properties)
        ids = [w.id for w in clients.get_work_item_tracking_client().query_by_wiql(Wiql(query=MINE)).work_items]
        check("Server 2022 RTW: the client negotiates down to 7.0", ids == [1, 5, 9, 13, 17, 21], ids)
    finally:
        process.terminate()
        process.wait(timeout=10)


def main():
    process, origin = start()
    try:
        for step in (work_items, pull_requests, failures):
            try:
                step(origin)
            except Exception as error:  # a client exception is a failed check, not a crash of the checker
                traceback.print_exc()
                check(f"{step.__name__}: no client exception", False, repr(error))
    finally:
        process.terminate()
        process.wait(timeout=10)
    try:
        old_servers()
    except Exception as error:
        traceback.print_exc()
        check("old_servers: no client exception", False, repr(error))
    sys.exit(summary())


if __name__ == "__main__":
    main()
