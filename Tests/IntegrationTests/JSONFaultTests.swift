import Foundation
import XCTest

/// Real servers' failures against json-sim over real HTTP: each fails the poll with the documented exit status and
/// no output, changes nothing, and the next good poll reports what happened meanwhile, once. Memory is bounded
/// before parsing; credentials and configuration errors say what to fix.
final class JSONFaultTests: JSONSimTestCase {
    func test_faults_failThePoll_changeNothing_andTheNextPollReportsOnce() throws {
        let workspace = try Workspace(serverURL: sim.url)
        workspace.timeout = "1s"
        try workspace.useList(url: sim.url + "/list/bare")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        let faults: [(kind: String, extra: [String: Any], status: Int32, says: String)] = [
            ("status", ["status": 500], 69, "HTTP 500"), ("status", ["status": 502], 69, "HTTP 502"),
            ("html", [:], 76, "an HTML page"), ("garbage", [:], 76, "not JSON"), ("truncate", [:], 69, "Cannot reach"),
            ("empty", [:], 76, "the answer was empty"), ("reset", [:], 69, "Cannot reach"),
            ("hang", [:], 69, "did not answer in time"), ("hang-body", [:], 69, "did not answer in time"),
        ]
        for (index, fault) in faults.enumerated() {
            try sim.fault(fault.kind, on: "GET /list/bare", fault.extra)
            try sim.setItem(index + 1, #"{"title": "changed during \#(fault.kind)"}"#)
            let failed = try workspace.trackwatch(["check", "--json"])
            XCTAssertEqual(failed.status, fault.status, "\(fault.kind): \(failed.stderr)")
            XCTAssertEqual(failed.stdout, "", "\(fault.kind): nothing reported")
            XCTAssertTrue(
                failed.stderr.contains(fault.says) && failed.stderr.contains("Nothing changed; the next poll retries."),
                "\(fault.kind): \(failed.stderr)")
            XCTAssertEqual(
                changeSummaries(try workspace.checkChanges()), ["\(index + 1) changed"], "\(fault.kind): reported after")
            XCTAssertEqual(try workspace.checkChanges().count, 0, "\(fault.kind): once")
        }
    }

    /// 429 and 503 with `Retry-After` in seconds or as a date: the poll fails (retry later), saying how long the
    /// server asked to wait; nothing is reported.
    func test_rateLimits_sayHowLongTheServerAskedToWait() throws {
        let workspace = try listWorkspace("/list/bare")
        XCTAssertEqual(try workspace.checkChanges().count, 0)
        for (status, extra) in [(429, ["retryAfter": 30]), (503, ["retryAfterDate": 120])] {
            try sim.fault("status", on: "GET /list/bare", extra.merging(["status": status]) { $1 })
            let limited = try workspace.trackwatch(["check"])
            XCTAssertEqual(limited.status, 69, limited.stderr)
            XCTAssertEqual(limited.stdout, "")
            let asked = extra.values.first ?? 0
            XCTAssertTrue(
                limited.stderr.contains("HTTP \(status)")
                    && (limited.stderr.contains("wait \(asked) s")
                        || limited.stderr.contains("wait \(asked - 1) s")),
                limited.stderr)
        }
    }

    /// A 50 MB answer (with and without `Content-Length`), a gzip bomb and a 100,000-deep nesting fail with a message
    /// naming the limit, in bounded memory; `max_size` raises the size limit.
    func test_hugeAnswers_failCleanlyNamingTheLimit_inBoundedMemory() throws {
        let cases: [(path: String, says: String)] = [
            ("/fault/huge", "larger than max_size (16 MB)"), ("/fault/huge-chunked", "larger than max_size (16 MB)"),
            ("/fault/gzip-bomb", "larger than max_size (16 MB)"), ("/fault/deep", "deeper than 100 levels (the limit)"),
        ]
        for (path, says) in cases {
            let workspace = try listWorkspace(path)
            let (megabytes, status, stderr) = try workspace.checkPeakMemory()
            XCTAssertEqual(status, 76, "\(path): \(stderr)")
            XCTAssertTrue(stderr.contains(says), "\(path): \(stderr)")
            // 49 MB at most; a gzip bomb inflated without the limit peaked at 79 MB, a 50 MB answer accepted at 205.
            XCTAssertLessThan(megabytes, 64, "\(path): peak \(megabytes) MB")
            print("peak RSS of check with \(path): \(megabytes) MB")
        }
        let raised = try listWorkspace("/fault/huge?size=3000000", "max_size = \"1MB\"")
        XCTAssertTrue(try raised.trackwatch(["check"]).stderr.contains("larger than max_size (1 MB)"))
        try raised.useList(url: sim.url + "/fault/huge?size=3000000", "max_size = \"4MB\"")
        XCTAssertEqual(try raised.trackwatch(["check"]).status, 0, "max_size raises the limit")
    }

    func test_refusedCredentials_areACredentialsError_withTheFix() throws {
        let workspace = try Workspace(serverURL: sim.url)
        let outsider = try workspace.secretFile("outsider", "outsider-pw")
        let cases: [(path: String, lines: String, says: String)] = [
            ("/auth/basic", "", "asks for credentials (HTTP 401"),
            ("/auth/basic", "username = \"outsider\"\npassword_file = \"\(outsider)\"", "HTTP 403"),
            (
                "/auth/bearer", "token_file = \"\(try workspace.secretFile("wrong", "not-the-token"))\"",
                "HTTP 401: Invalid token"
            ),
            (
                "/auth/api-key",
                "header = \"X-API-Key\"\ntoken_file = \"\(try workspace.secretFile("key", "outsider-key"))\"",
                "HTTP 403: Forbidden"
            ),
            ("/entries/all", "key = \"DUID\"", "asks for credentials (HTTP 401"),
        ]
        for (path, lines, says) in cases {
            try workspace.useList(url: sim.url + path, lines)
            let refused = try workspace.trackwatch(["check"])
            XCTAssertEqual(refused.status, 77, "\(path) \(lines): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains(says), "\(path): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("password_file"), "the fix: \(refused.stderr)")
        }
        let accepted: [(path: String, lines: String)] = [
            (
                "/auth/basic",
                "username = \"reader\"\npassword_file = \"\(try workspace.secretFile("reader", "reader-pw"))\""
            ),
            ("/auth/bearer", "token_file = \"\(try workspace.secretFile("token", "list-token"))\""),
            (
                "/auth/api-key",
                "header = \"X-API-Key\"\ntoken_file = \"\(try workspace.secretFile("key", "list-key"))\""
            ),
        ]
        for (path, lines) in accepted {
            try workspace.useList(url: sim.url + path, name: "list\(path.count)", lines)
            let check = try workspace.trackwatch(["check"])
            XCTAssertEqual(check.status, 0, "\(path): \(check.stderr)")
        }
    }

    /// A wrong `items` pointer, or a `key` no item has: a configuration error showing what the answer holds.
    func test_aWrongItemsPointerOrKey_isAConfigurationError_showingTheAnswer() throws {
        let workspace = try listWorkspace("/list/data", "items = \"/items\"")
        let pointer = try workspace.trackwatch(["check"])
        XCTAssertEqual(pointer.status, 78, pointer.stderr)
        XCTAssertTrue(
            pointer.stderr.contains(#"items "/items" in [[json]] items is not in the answer"#), pointer.stderr)
        XCTAssertTrue(pointer.stderr.contains(#"its lists are at "/data""#), pointer.stderr)

        try workspace.useList(url: sim.url + "/list/bare", "key = \"uid\"")
        let key = try workspace.trackwatch(["check"])
        XCTAssertEqual(key.status, 78, key.stderr)
        XCTAssertTrue(key.stderr.contains(#"no item of [[json]] items has the key field "uid""#), key.stderr)
        XCTAssertTrue(key.stderr.contains("the first item has id, title, status, assignee"), key.stderr)

        try workspace.useList(url: sim.url + "/nowhere")
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 78, "404: no list at that url")
    }
}

extension Workspace {
    /// Peak resident memory of one `trackwatch check`, in MB, its exit status and the end of its stderr.
    func checkPeakMemory() throws -> (megabytes: Int, status: Int32, stderr: String) {
        let script = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            sys.stderr.buffer.write(run.stderr[-600:])
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024, run.returncode)
            """
        let result = try runProduct(
            "/usr/bin/python3",
            [
                "-c", script, productsDirectory.appendingPathComponent("trackwatch").path, "check",
                "--config", configPath,
            ], environment: environment, timeout: 120)
        let numbers = result.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        XCTAssertEqual(numbers.count, 2, result.stdout + result.stderr)
        return (numbers.first ?? 0, Int32(numbers.last ?? 0), result.stderr)
    }
}
