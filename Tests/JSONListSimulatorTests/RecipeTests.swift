import JSONListSimulator
import XCTest

final class RecipeTests: XCTestCase {
    private var server: TestServer!

    /// A fresh server per test, made when it runs (XCTest creates every test case up front).
    override func setUp() { server = TestServer() }
    private let github = ["user-agent": "trackwatch-test"]
    private let githubToken = "Bearer " + TrackerCredentials.githubToken
    private let jira = TestServer.basic(TrackerCredentials.jiraUser, TrackerCredentials.jiraAPIToken)

    private func numbers(_ answer: Answer, _ key: String) -> [Int] {
        (answer.json?.array ?? []).compactMap { $0[key]?.int }
    }

    func test_github_needsAUserAgentAndAToken() {
        XCTAssertEqual(server.call("GET", "/github/issues", authorization: githubToken).status, 403)
        XCTAssertEqual(
            server.call("GET", "/github/issues", headers: github).json?["message"]?.string,
            "Requires authentication")
        XCTAssertEqual(server.call("GET", "/github/issues", headers: github, authorization: "token nope").status, 401)
        let older = "token " + TrackerCredentials.githubToken
        XCTAssertEqual(server.call("GET", "/github/issues", headers: github, authorization: older).status, 200)
    }

    func test_github_assignedToMe_pagesByLink_andAssigningBetweenPollsShows() throws {
        let first = server.call(
            "GET", "/github/issues?filter=assigned&per_page=4", headers: github,
            authorization: githubToken)
        XCTAssertEqual(numbers(first, "number"), [10, 7, 5, 4], "newest first")
        let link = try XCTUnwrap(first.header("Link"))
        XCTAssertTrue(
            link.contains(
                "<http://\(TestServer.http)/github/issues?filter=assigned&page=2&per_page=4>; "
                    + "rel=\"next\""), link)
        let second = server.call(
            "GET", "/github/issues?filter=assigned&page=2&per_page=4", headers: github,
            authorization: githubToken)
        XCTAssertEqual(numbers(second, "number"), [2, 1])
        XCTAssertNotNil(second.json?.array?.first?["assignee"]?["login"])
        server.call("PATCH", "/sim/issues/github/3", body: ["assignee": "dana"])
        let after = server.call(
            "GET", "/github/issues?filter=assigned&per_page=100", headers: github,
            authorization: githubToken)
        XCTAssertEqual(numbers(after, "number"), [10, 7, 5, 4, 3, 2, 1])
        XCTAssertNotNil(after.json?.array?[2]["pull_request"], "5 is a pull request")
    }

    func test_github_notModified_costsNoRateLimit() throws {
        let first = server.call("GET", "/github/issues", headers: github, authorization: githubToken)
        let etag = try XCTUnwrap(first.header("ETag"))
        XCTAssertEqual(first.header("X-RateLimit-Remaining"), "4999")
        var headers = github
        headers["if-none-match"] = etag
        let again = server.call("GET", "/github/issues", headers: headers, authorization: githubToken)
        XCTAssertEqual(again.status, 304)
        XCTAssertEqual(again.header("X-RateLimit-Remaining"), "4999")
    }

    func test_gitlab_assignedToMe_withPrivateTokenAndPagingHeaders() {
        XCTAssertEqual(server.call("GET", "/gitlab/api/v4/issues").json?["message"]?.string, "401 Unauthorized")
        let token = ["private-token": TrackerCredentials.gitlabToken]
        let first = server.call(
            "GET", "/gitlab/api/v4/issues?scope=assigned_to_me&state=opened&per_page=4",
            headers: token)
        XCTAssertEqual(numbers(first, "iid"), [10, 7, 5, 4])
        XCTAssertEqual(first.header("X-Next-Page"), "2")
        XCTAssertEqual(first.header("X-Total"), "6")
        XCTAssertEqual(first.header("X-Total-Pages"), "2")
        let last = server.call(
            "GET", "/gitlab/api/v4/issues?scope=assigned_to_me&state=opened&per_page=4&page=2",
            authorization: "Bearer " + TrackerCredentials.gitlabToken)
        XCTAssertEqual(numbers(last, "iid"), [2, 1])
        XCTAssertEqual(last.header("X-Next-Page"), "")
        XCTAssertEqual(
            numbers(server.call("GET", "/gitlab/api/v4/issues", headers: token), "iid"), [9, 6, 2],
            "created_by_me unless told")
    }

    func test_jira_searchesByJQL_andPagesByStartAt() throws {
        let unauthenticated = server.call("GET", "/jira/rest/api/2/search?jql=assignee%3DcurrentUser()")
        XCTAssertEqual(unauthenticated.status, 401)
        XCTAssertNotNil(unauthenticated.json?["errorMessages"])
        let mine = server.call(
            "GET", "/jira/rest/api/2/search?jql=assignee=currentUser()&maxResults=3",
            authorization: jira)
        XCTAssertEqual(mine.json?["total"]?.int, 7)
        XCTAssertEqual(mine.json?["maxResults"]?.int, 3)
        XCTAssertEqual(mine.json?["issues"]?.array?.compactMap { $0["key"]?.string }, ["WID-10", "WID-8", "WID-7"])
        let jql = "assignee%20%3D%20currentUser()%20AND%20resolution%20%3D%20Unresolved%20ORDER%20BY%20key%20ASC"
        let open = server.call(
            "GET", "/jira/rest/api/2/search?jql=\(jql)&startAt=4&fields=summary,status",
            authorization: "Bearer " + TrackerCredentials.jiraPAT)
        XCTAssertEqual(open.json?["total"]?.int, 6)
        XCTAssertEqual(open.json?["issues"]?.array?.compactMap { $0["key"]?.string }, ["WID-7", "WID-10"])
        XCTAssertEqual(open.json?["issues"]?.array?.first?["fields"]?.object?.keys, ["summary", "status"])
        XCTAssertEqual(
            server.call(
                "GET", "/jira/rest/api/2/search?jql=assignee=dana%20OR%20assignee=lee",
                authorization: jira
            ).status, 400)
        XCTAssertEqual(
            server.call("GET", "/jira/rest/api/2/search?maxResults=500", authorization: jira)
                .json?["maxResults"]?.int, 50, "the server's cap")
    }
}
