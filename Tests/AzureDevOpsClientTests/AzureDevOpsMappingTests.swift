@testable import AzureDevOpsClient
import Foundation
import SourceKit
import TrackerHTTP
import TrackwatchCore
import XCTest

/// The pure part of the Azure DevOps source: its table, its references, WIQL, work item updates and pull request
/// threads read as who did what, votes in words, HTML comments as their first line, and its errors.
final class AzureDevOpsMappingTests: XCTestCase {
    static let me = "5f0c3a1e-0000-4000-8000-00000000e001"
    let mapping = AzureDevOpsMapping(me: AzureDevOpsMappingTests.me, web: "https://dev.azure.com/acme")

    private func parse(_ text: String) throws(ConfigError) -> Config {
        try Config.parse(text, file: "/home/me/.config/trackwatch/config.toml", kinds: [AzureDevOpsSourceKind()])
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    func test_config_namesTheSource_linksWorkItemsAndPullRequests_andNamesErrors() throws {
        let text =
            "[[azure_devops]]\nurl = \"https://dev.azure.com/acme/\"\ntoken_file = \"t\"\nprojects = [\"Web\", \"Platform Team\"]\n"
        let settings = try XCTUnwrap(try parse(text).sources.first as? AzureDevOpsSettings)
        XCTAssertEqual(settings.name, "azure_devops")
        XCTAssertEqual(settings.url, "https://dev.azure.com/acme")
        XCTAssertEqual(settings.projects, ["Web", "Platform Team"])
        XCTAssertEqual(
            settings.link(for: Change(record: RecordID("Platform Team#42"), kind: .modified, headline: "")),
            "https://dev.azure.com/acme/Platform%20Team/_workitems/edit/42")
        XCTAssertEqual(
            settings.link(for: Change(record: RecordID("Web/web-app!7"), kind: .modified, headline: "")),
            "https://dev.azure.com/acme/Web/_git/web-app/pullrequest/7")
        for (text, key) in [
            ("[[azure_devops]]\ntoken_file = \"t\"\n", "azure_devops.url"),
            ("[[azure_devops]]\nurl = \"https://dev.azure.com/acme\"\n", "azure_devops.token_file"),
            ("[[azure_devops]]\nurl = \"https://dev.azure.com/acme/_apis\"\ntoken_file = \"t\"\n", "azure_devops.url"),
            (
                "[[azure_devops]]\nurl = \"https://dev.azure.com/acme\"\ntoken_file = \"t\"\nprojects = []\n",
                "azure_devops.projects"
            ),
            (
                "[[azure_devops]]\nurl = \"https://dev.azure.com/acme\"\ntoken_file = \"t\"\nprojects = [\"a/b\"]\n",
                "azure_devops.projects"
            ),
        ] {
            do {
                _ = try parse(text)
                XCTFail("parsed: \(text)")
            } catch {
                XCTAssertEqual(error.key, key, text)
                XCTAssertNotNil(error.line, text)
            }
        }
    }

    func test_references_areCheckedBeforeTheyNameALink() {
        XCTAssertEqual(AzureDevOpsReference("Web#42")?.id, 42)
        XCTAssertEqual(AzureDevOpsReference("Web/api!7")?.repository, "api")
        for bad in [
            "#42", "Web#0", "Web#x", "a/b#1", "Web!7", "Web/!7", "_Web#1", "We:b#1", "W\u{202E}eb#1", "We\u{85}b#1",
        ] {
            XCTAssertNil(AzureDevOpsReference(bad), bad)
        }
    }

    func test_wiql_asksForMine_whatChanged_andWhatIFollow_withQuotedProjects() {
        XCTAssertEqual(
            WIQL.mine(projects: nil),
            "SELECT [System.Id] FROM WorkItems WHERE ([System.AssignedTo] = @Me OR [System.CreatedBy] = @Me OR "
                + "[System.Id] IN (@Follows)) ORDER BY [System.ChangedDate] DESC")
        XCTAssertEqual(
            WIQL.changed(since: Timestamp("2026-11-29 08:58:00"), projects: ["Web", "Bob's"]),
            "SELECT [System.Id] FROM WorkItems WHERE [System.ChangedDate] > '2026-11-29T08:58:00Z' AND "
                + "([System.AssignedTo] EVER @Me OR [System.CreatedBy] = @Me OR [System.Id] IN (@Follows)) AND "
                + "[System.TeamProject] IN ('Web', 'Bob''s') ORDER BY [System.ChangedDate] DESC")
        XCTAssertEqual(
            WIQL.followed([3, 4]),
            "SELECT [System.Id] FROM WorkItems WHERE [System.Id] IN (3, 4) AND [System.Id] IN (@Follows) "
                + "ORDER BY [System.ChangedDate] DESC")
    }

    func test_htmlComment_isItsFirstLineOfText() {
        let cases: [(String?, String)] = [
            ("<div>Can you look at this?</div><div>Details follow.</div>", "Can you look at this?"),
            ("First<br>second", "First"),
            (
                "<p></p><p>&nbsp;</p><p>After blanks &amp; more &lt;tags&gt; &#39;quoted&#39; &#x263A;</p>",
                "After blanks & more <tags> 'quoted' ☺"
            ),
            (
                "<a href=\"#\" data-vss-mention=\"version:2.0,1\">@Engineer</a> please <b>review</b>",
                "@Engineer please review"
            ),
            ("a < b and c &unknown; d", "a < b and c &unknown; d"),
            ("<script>alert(1)</script>", "alert(1)"),
            (nil, ""),
        ]
        for (html, line) in cases { XCTAssertEqual(HTMLText.firstLine(html, limit: 200), line, html ?? "nil") }
        XCTAssertLessThanOrEqual(HTMLText.firstLine(String(repeating: "x", count: 1_000_000), limit: 50).count, 51)
    }

    func test_votes_inPeoplesWords() {
        XCTAssertEqual(
            [10, 5, 0, -5, -10, 7, Int.min].map(AzureDevOpsMapping.vote),
            [
                "approved", "approved with suggestions", "vote reset", "waiting for author", "rejected", "voted 7",
                "voted -99",
            ])
    }

    func test_updates_becomeEvents_byRevisedBy_eachFieldOldToNew_commentsByFirstLine() throws {
        let updates = try decode(
            ValueList<WorkItemUpdate>.self,
            """
            {"count": 4, "value": [
              {"id": 1, "rev": 1, "revisedBy": {"id": "A11CE000-0000-4000-8000-000000000001", "displayName": "Alice Example",
               "uniqueName": "alice@acme.example"}, "revisedDate": "2026-11-29T09:00:00.043Z",
               "fields": {"System.ChangedDate": {"newValue": "2026-11-28T09:00:00.043Z"}, "System.Rev": {"oldValue": 0, "newValue": 1},
                 "System.AssignedTo": {"newValue": {"id": "\(Self.me)", "displayName": "Engineer", "uniqueName": "ACME\\\\engineer"}},
                 "System.State": {"newValue": "New"}, "Microsoft.VSTS.Common.Priority": {"newValue": 2}}},
              {"id": 2, "rev": 2, "revisedBy": {"id": "b0b00000-0000-4000-8000-000000000002", "displayName": "Bob"},
               "revisedDate": "9999-01-01T00:00:00Z",
               "fields": {"System.ChangedDate": {"oldValue": "2026-11-28T09:00:00.043Z", "newValue": "2026-11-29T09:01:02.2966667Z"},
                 "System.History": {"newValue": "<div>Please look &amp; fix</div><div>second line</div>"},
                 "System.Tags": {"oldValue": "b; a", "newValue": "a; b;  urgent"}, "System.CommentCount": {"oldValue": 0, "newValue": 1}}},
              {"id": 3, "rev": 3, "revisedBy": {"id": "b0b00000-0000-4000-8000-000000000002", "displayName": "Bob"},
               "fields": {"System.ChangedDate": {"newValue": "2026-11-29T09:02:00Z"},
                 "System.TeamProject": {"oldValue": "Web", "newValue": "Platform"}, "System.State": {"oldValue": "Active", "newValue": "New"},
                 "System.AreaPath": {"oldValue": "Web", "newValue": "Platform"}, "System.IterationPath": {"oldValue": "Web\\\\S1", "newValue": "Platform"}}},
              {"id": 4, "rev": 4, "revisedBy": {"id": "b0b00000-0000-4000-8000-000000000002"},
               "fields": {"System.ChangedDate": {"newValue": "2026-11-29T09:03:00Z"}, "System.Watermark": {"newValue": 9}}, "relations": {}}
            ]}
            """)
        let events = updates.entries.elements.map { mapping.event($0, item: "w42") }
        XCTAssertEqual(events.count, 4)
        let assigned = try XCTUnwrap(events[0])
        XCTAssertEqual(assigned.id, "u1")
        XCTAssertEqual(assigned.at, Timestamp("2026-11-28 09:00:00.043"), "the change's own time, not revisedDate")
        XCTAssertEqual(
            assigned.actor,
            Actor(id: "a11ce000-0000-4000-8000-000000000001", name: "Alice Example", login: "alice@acme.example"))
        XCTAssertEqual(
            assigned.changes,
            [
                FieldChange(field: "State", old: nil, new: "New"),
                FieldChange(field: "Assigned To", old: nil, new: "Engineer"),
                FieldChange(field: "Priority", old: nil, new: "2"),
            ])
        let comment = try XCTUnwrap(events[1])
        XCTAssertEqual(
            comment.at, Timestamp("2026-11-29 09:01:02.2966667"), "the latest revision's 9999 date is no time")
        XCTAssertEqual(
            comment.changes,
            [
                FieldChange(field: "Tags", old: "a; b", new: "a; b; urgent"),
                FieldChange(field: "Comment", old: nil, new: "Please look & fix"),
            ])
        XCTAssertEqual(
            events[2]?.changes,
            [
                FieldChange(field: "Project", old: "Web", new: "Platform"),
                FieldChange(field: "State", old: "Active", new: "New"),
                FieldChange(field: "Iteration", old: "Web\\S1", new: "Platform"),
                FieldChange(field: "Area", old: "Web", new: "Platform"),
            ], "a move is one event: project, state reset, paths")
        XCTAssertNil(events[3], "noise fields tell nothing")
    }

    func test_workItem_isMineByIdentityId_notByName_keyedByProjectAndId() throws {
        let item = try decode(
            WorkItem.self,
            """
            {"id": 42, "rev": 3, "fields": {"System.Title": "Fix login", "System.State": "Active", "System.TeamProject": "Web",
             "System.WorkItemType": "Bug", "System.ChangedDate": "2026-11-29T09:00:00.68Z",
             "System.AssignedTo": {"id": "\(Self.me.uppercased())", "displayName": "Someone Else", "uniqueName": "ACME\\\\other"},
             "Microsoft.VSTS.Common.Priority": 1.0, "System.Tags": "z; a"}}
            """)
        let mapped = try XCTUnwrap(mapping.workItem(item, isMine: true))
        XCTAssertEqual(mapped.id, "w42")
        XCTAssertEqual(mapped.record.id, RecordID("Web#42"))
        XCTAssertTrue(mapped.isAssignedToMe, "the id decides, whatever the name")
        XCTAssertEqual(mapped.record["Priority"], "1")
        XCTAssertEqual(mapped.record["Tags"], "a; z")
        XCTAssertEqual(mapped.record[ActivityFields.updated], "2026-11-29 09:00:00.68")
        XCTAssertEqual(mapped.facts.link, "https://dev.azure.com/acme/Web/_workitems/edit/42")
        var other = item
        other.fields?.assignedTo = .identity(AzureDevOpsIdentity(id: "x", displayName: "Engineer"))
        XCTAssertEqual(mapping.workItem(other, isMine: true)?.isAssignedToMe, false, "the same name is someone else")
        other.fields?.assignedTo = .text("Engineer <ACME\\engineer>")
        XCTAssertEqual(mapping.workItem(other, isMine: true)?.record["Assigned To"], "Engineer <ACME\\engineer>")
    }

    func test_threads_systemOnesByTheRealActor_commentsByTheirAuthor_unknownLeftOut() throws {
        let service =
            #"{"id": "00000002-0000-8888-8000-000000000000", "displayName": "Microsoft.VisualStudio.Services.TFS"}"#
        func system(_ id: Int, _ kind: String, _ properties: String) -> String {
            """
            {"id": \(id), "publishedDate": "2026-11-29T09:0\(id):00Z", "lastUpdatedDate": "2026-11-29T09:0\(id):00Z",
             "comments": [{"id": 1, "author": \(service), "content": "prose that is never read", "commentType": "system",
               "publishedDate": "2026-11-29T09:0\(id):00Z"}],
             "properties": {"CodeReviewThreadType": {"$type": "System.String", "$value": "\(kind)"}, \(properties)},
             "identities": {"1": {"id": "A11CE000-0000-4000-8000-000000000001", "displayName": "Alice"},
                            "2": {"id": "\(Self.me)", "displayName": "Engineer"}}}
            """
        }
        let threads =
            try decode(
                ValueList<PullRequestThread>.self,
                """
                {"value": [
                  \(system(1, "VoteUpdate", #""CodeReviewVoteResult": {"$value": "-5"}, "CodeReviewVotedByIdentity": {"$value": "1"}"#)),
                  \(system(2, "ReviewersUpdate", #""CodeReviewReviewersUpdatedAddedIdentity": {"$value": "2"}, "CodeReviewReviewersUpdatedByIdentity": {"$value": "1"}"#)),
                  \(system(3, "StatusUpdate", #""CodeReviewStatus": {"$value": "Completed"}, "CodeReviewStatusUpdatedByIdentity": {"$value": "1"}"#)),
                  \(system(4, "RefUpdate", #""CodeReviewRefNewCommitsCount": {"$value": 2}, "CodeReviewRefUpdatedByIdentity": {"$value": "1"}"#)),
                  \(system(5, "PolicyStatusUpdate", #""Extra": {"$value": 1}"#)),
                  \(system(6, "VoteUpdate", #""CodeReviewVoteResult": {"$value": "10"}"#)),
                  {"id": 7, "publishedDate": "2026-11-29T09:07:00Z", "comments": [
                    {"id": 1, "author": {"id": "b0b00000-0000-4000-8000-000000000002", "displayName": "Bob"}, "content": "Why this?\\nmore",
                     "commentType": "text", "publishedDate": "2026-11-29T09:07:00Z"},
                    {"id": 2, "author": {"id": "b0b00000-0000-4000-8000-000000000002"}, "content": "gone", "isDeleted": true,
                     "commentType": "text", "publishedDate": "2026-11-29T09:08:00Z"}]},
                  {"id": 8, "isDeleted": true, "comments": [{"id": 1, "content": "x", "publishedDate": "2026-11-29T09:08:00Z"}]}
                ]}
                """
            ).entries.elements
        let events = threads.flatMap { mapping.events($0, item: "p7") }
        XCTAssertEqual(events.map(\.id), ["t1", "t2", "t3", "t4", "t6", "c7.1"])
        XCTAssertEqual(
            events.map { $0.actor?.name }, ["Alice", "Alice", "Alice", "Alice", nil, "Bob"], "never the service")
        XCTAssertEqual(
            events.map { $0.changes.first?.new },
            [
                "waiting for author", "added Engineer", "completed", "pushed 2 commits", "approved", "Why this?",
            ])
        XCTAssertEqual(events.last?.link, "?discussionId=7")
        XCTAssertTrue(AzureDevOpsMapping.addsReviewer(Self.me, in: threads))
        XCTAssertFalse(AzureDevOpsMapping.addsReviewer("someone", in: threads))
        XCTAssertEqual(
            AzureDevOpsMapping.lastActivity(threads, created: "2026-11-29T08:00:00Z"), Timestamp("2026-11-29 09:08:00"))
    }

    func test_pullRequest_othersVotesAndReviewers_areCompared_mineLeftOut() throws {
        let pull = try decode(
            PullRequest.self,
            """
            {"pullRequestId": 7, "status": "active", "title": "Add login", "creationDate": "2026-11-29T08:00:00Z",
             "repository": {"id": "r1", "name": "web-app", "project": {"id": "p1", "name": "Web"}},
             "createdBy": {"id": "b0b00000-0000-4000-8000-000000000002", "displayName": "Bob"},
             "lastMergeSourceCommit": {"commitId": "ABCDEF0123456789abcdef0123456789abcdef01"},
             "reviewers": [{"id": "\(Self.me)", "displayName": "Engineer", "vote": 10},
                           {"id": "a11ce000-0000-4000-8000-000000000001", "displayName": "Alice", "vote": -10},
                           {"id": "c0000000-0000-4000-8000-000000000003", "displayName": "Carol", "vote": 0}]}
            """)
        let item = try XCTUnwrap(mapping.pullRequest(pull, isMine: true, reviewRequested: true, lastActivity: nil))
        XCTAssertEqual(item.id, "p7")
        XCTAssertEqual(item.record.id, RecordID("Web/web-app!7"))
        XCTAssertEqual(item.record["Votes"], "Alice: rejected")
        XCTAssertEqual(item.record["Reviewers"], "Alice, Carol, Engineer")
        XCTAssertEqual(item.record["Commit"], "abcdef01")
        XCTAssertNil(item.record[ActivityFields.updated], "a list has no time")
        XCTAssertEqual(item.facts.link, "https://dev.azure.com/acme/Web/_git/web-app/pullrequest/7")
        XCTAssertEqual(
            mapping.requestedAtCreation(pull, item: "p7", myName: "Engineer")?.changes,
            [FieldChange(field: "Review request", old: nil, new: "added Engineer")])
        XCTAssertEqual(AzureDevOpsMapping.shortCommit("<script>x</script>"), "")
    }

    func test_errors_signInPage429AndLimits_sayWhatToDo() {
        let page = HTTPResponse(
            status: 203, headers: [("Content-Type", "text/html")], body: Array("<html>Sign in</html>".utf8))
        let refused = AzureDevOpsAPI.failure(page, endpoint: .wiql)
        XCTAssertEqual(refused, .refused(.signInPage))
        XCTAssertEqual(refused.failureKind, .credentials)
        XCTAssertTrue(refused.description.contains("sign-in page (HTTP 203)"), refused.description)
        let throttled = AzureDevOpsAPI.failure(
            HTTPResponse(
                status: 429, headers: [("Retry-After", "10")], body: Array(#"{"message": "TF400733: delayed"}"#.utf8)),
            endpoint: .wiql)
        XCTAssertTrue(throttled.isRateLimited)
        XCTAssertEqual(throttled.retryAfter.map { (11...13).contains($0) }, true)
        let token = AzureDevOpsAPI.failure(HTTPResponse(status: 401), endpoint: .connectionData)
        XCTAssertTrue(token.description.contains("token_file of [[azure_devops]]"), token.description)
        let many = AzureDevOpsAPI.failure(
            HTTPResponse(
                status: 400,
                body: Array(
                    #"{"message": "VS402337: The number of work items returned exceeds the size limit of 20000."}"#.utf8
                )),
            endpoint: .wiql)
        XCTAssertEqual(many.failureKind, .configuration)
        XCTAssertTrue(many.description.contains("Name fewer projects"), many.description)
        XCTAssertEqual(
            AzureDevOpsAPI.rateLimitDelay(HTTPResponse(status: 200, headers: [("X-RateLimit-Delay", "2.5")])), 2.5)
        XCTAssertNil(AzureDevOpsAPI.rateLimitDelay(HTTPResponse(status: 200, headers: [("X-RateLimit-Delay", "nan")])))
    }

    func test_transcriptRoutes_nameNoOrganizationProjectOrRepository() {
        XCTAssertEqual(
            AzureDevOpsTracker.route("/acme/Web/_apis/git/repositories/1f2e/pullRequests/7/threads"),
            "/{base}/_apis/git/repositories/{repository}/pullRequests/{id}/threads")
        XCTAssertEqual(AzureDevOpsTracker.route("/_apis/wit/workItems/42/updates"), "/_apis/wit/workItems/{id}/updates")
    }
}
