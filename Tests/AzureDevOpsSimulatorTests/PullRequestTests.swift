import Foundation
import XCTest

/// Pull request lists, threads, iterations and reviewers over HTTP (6 pull requests per project: Web 1–6 by
/// engineer (1, 4), lead (2, 5), alice (3, 6); engineer reviews 2 and 6, the Web Team group 3 and 5).
final class PullRequestTests: XCTestCase {
    func testListsPerProjectByReviewerAndCreator() async throws {
        let sim = try LiveServer()
        let review = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.reviewerId=\(Fixture.engineer)"
            + "&searchCriteria.status=active")
        XCTAssertEqual(review.status, 200, review.text)
        XCTAssertEqual(review.values.compactMap { $0["pullRequestId"] as? Int }, [6, 2])
        let mine = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.creatorId=\(Fixture.engineer)")
        XCTAssertEqual(mine.values.compactMap { $0["pullRequestId"] as? Int }, [4, 1])
        let first = try XCTUnwrap(mine.values.last)
        let reviewers = first["reviewers"] as? [[String: Any]] ?? []
        XCTAssertEqual(reviewers.compactMap { $0["id"] as? String }, [Fixture.alice, Fixture.lead])
        XCTAssertEqual(reviewers.compactMap { $0["vote"] as? Int }, [5, 0])
        XCTAssertEqual(first.at("repository.project.name") as? String, "Web")
        XCTAssertNil(first["lastUpdatedDate"], "a pull request has no last-updated time")
        let group = try await sim.call("GET", "/Web/_apis/git/pullrequests/3")
        XCTAssertEqual((group.json["reviewers"] as? [[String: Any]])?.first?["isContainer"] as? Bool, true)
        let byRepository = try await sim.call("GET", "/Web/_apis/git/repositories/Web/pullrequests"
            + "?searchCriteria.creatorId=\(Fixture.engineer)")
        XCTAssertEqual(byRepository.values.count, 2)
        let notGUID = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.reviewerId=engineer")
        XCTAssertEqual(notGUID.status, 400)
        let secret = try await sim.call("GET", "/Secret/_apis/git/pullrequests")
        XCTAssertEqual(secret.status, 404)
    }

    func testDefaultTopIs101() async throws {
        let sim = try LiveServer { $0.pullRequests = 120 }
        let page = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.status=all")
        XCTAssertEqual(page.values.count, 101)
        let all = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.status=all&$top=1000")
        XCTAssertEqual(all.values.count, 120)
        let rest = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.status=all&$top=101&$skip=101")
        XCTAssertEqual(rest.values.count, 19)
    }

    func testSystemThreadsNameTheRealActor() async throws {
        let sim = try LiveServer()
        try await sim.act("alice", "vote", ["pullRequest": 1, "vote": 10])
        try await sim.act("lead", "push", ["pullRequest": 1, "text": "Fix the build"])
        try await sim.act("alice", "comment", ["pullRequest": 1, "text": "Nice"])
        let threads = try await sim.call("GET", "/Web/_apis/git/repositories/Web/pullRequests/1/threads").values
        let kinds = threads.map { $0.at("properties.CodeReviewThreadType.$value") as? String ?? "text" }
        XCTAssertEqual(kinds, ["ReviewersUpdate", "ReviewersUpdate", "VoteUpdate", "VoteUpdate", "RefUpdate", "text"])
        let vote = threads[3]
        let comment = (vote["comments"] as? [[String: Any]])?.first
        XCTAssertEqual(comment?.at("author.id") as? String, Fixture.tfs)
        XCTAssertEqual(comment?["commentType"] as? String, "system")
        XCTAssertEqual(vote.at("properties.CodeReviewVoteResult.$value") as? String, "10")
        let key = try XCTUnwrap(vote.at("properties.CodeReviewVotedByIdentity.$value") as? String)
        XCTAssertEqual((vote["identities"] as? [String: Any]).flatMap { ($0[key] as? [String: Any])?["id"] as? String },
            Fixture.alice)
        XCTAssertEqual(threads[4].at("properties.CodeReviewRefUpdatedByIdentity.$value") as? String, "1")
        XCTAssertNil(threads[5].at("properties.CodeReviewThreadType"))
        XCTAssertEqual((threads[5]["comments"] as? [[String: Any]])?.first?.at("author.id") as? String, Fixture.alice)
        let iterations = try await sim.call("GET", "/Web/_apis/git/repositories/Web/pullRequests/1/iterations").values
        XCTAssertEqual(iterations.compactMap { $0["reason"] as? String }, ["create", "push"])
        XCTAssertEqual(iterations.last?.at("author.id") as? String, Fixture.lead)
        let reviewers = try await sim.call("GET", "/Web/_apis/git/repositories/Web/pullRequests/1/reviewers").values
        XCTAssertEqual(reviewers.first?["vote"] as? Int, 10)
    }

    func testCompletedAndAbandonedLeaveTheActiveList() async throws {
        let sim = try LiveServer()
        try await sim.act("lead", "complete", ["pullRequest": 2])
        try await sim.act("alice", "abandon", ["pullRequest": 6])
        let active = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.reviewerId=\(Fixture.engineer)")
        XCTAssertEqual(active.values.count, 0)
        let done = try await sim.call("GET", "/Web/_apis/git/pullrequests/2")
        XCTAssertEqual(done.json["status"] as? String, "completed")
        XCTAssertEqual(done.json.at("closedBy.id") as? String, Fixture.lead)
        XCTAssertNotNil(done.json["closedDate"] as? String)
        let byID = try await sim.call("GET", "/_apis/git/pullrequests/6")
        XCTAssertEqual(byID.json["status"] as? String, "abandoned")
        let threads = try await sim.call("GET", "/Web/_apis/git/repositories/Web/pullRequests/6/threads").values
        XCTAssertEqual(threads.last?.at("properties.CodeReviewStatus.$value") as? String, "Abandoned")
        let missing = try await sim.call("GET", "/_apis/git/pullrequests/13")
        XCTAssertEqual(missing.status, 404, "Secret's pull requests are not readable")
    }

    func testAGroupMembersVoteCountsForTheGroup() async throws {
        let sim = try LiveServer()
        let voted = try await sim.call("PUT", "/Web/_apis/git/repositories/Web/pullRequests/3/reviewers/\(Fixture.engineer)",
            body: ["vote": -5])
        XCTAssertEqual(voted.status, 200, voted.text)
        let pull = try await sim.call("GET", "/Web/_apis/git/pullrequests/3")
        let reviewers = pull.json["reviewers"] as? [[String: Any]] ?? []
        XCTAssertEqual(reviewers.compactMap { $0["id"] as? String }, [Fixture.webTeam, Fixture.engineer])
        XCTAssertEqual(reviewers.compactMap { $0["vote"] as? Int }, [-5, -5])
        XCTAssertEqual((reviewers[1]["votedFor"] as? [[String: Any]])?.first?["id"] as? String, Fixture.webTeam)
        let others = try await sim.call("PUT", "/Web/_apis/git/repositories/Web/pullRequests/3/reviewers/\(Fixture.alice)",
            body: ["vote": 10])
        XCTAssertEqual(others.status, 400)
        try await sim.act("alice", "request-review", ["pullRequest": 4, "user": "engineer"])
        let requested = try await sim.call("GET", "/Web/_apis/git/pullrequests?searchCriteria.reviewerId=\(Fixture.engineer)")
        XCTAssertEqual(requested.values.compactMap { $0["pullRequestId"] as? Int }, [6, 4, 3, 2], "3: engineer voted")
    }
}
