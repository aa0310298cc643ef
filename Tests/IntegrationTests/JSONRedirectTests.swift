import Foundation
import XCTest

/// Redirects against json-sim (plain HTTP, HTTPS with a self-signed certificate, and a second listener on
/// 127.0.0.2 as "another host"): followed a few times at most, a loop an error, and credentials never sent to
/// another host or from https down to http.
final class JSONRedirectTests: JSONSimTestCase {
    nonisolated(unsafe) private static var directory: URL?

    private static var certificate: String { directory!.appendingPathComponent("cert.pem").path }

    override class var simulatorArguments: [String] {
        ["--tls-certificate", certificate, "--tls-key", directory!.appendingPathComponent("key.pem").path]
    }

    override class func setUp() {
        super.setUp()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tw-json-tls-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory.appendingPathComponent("key.pem").path,
            "-out", certificate,
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try? openssl.run()
        openssl.waitUntilExit()
    }

    override class func tearDown() {
        super.tearDown()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func test_redirects_followedAFewTimesAtMost_aLoopIsAnError() throws {
        let workspace = try listWorkspace("/redirect/same-host")
        XCTAssertTrue(try workspace.trackwatch(["check"]).stdout.contains("watching 12 items"))
        try workspace.useList(url: sim.url + "/redirect/chain?hops=5")
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "5 redirects are followed")

        try workspace.useList(url: sim.url + "/redirect/chain?hops=6")
        let many = try workspace.trackwatch(["check"])
        XCTAssertEqual(many.status, 76, many.stderr)
        XCTAssertTrue(many.stderr.contains("more than 5 redirects"), many.stderr)

        try workspace.useList(url: sim.url + "/redirect/loop")
        let loop = try workspace.trackwatch(["check"])
        XCTAssertEqual(loop.status, 76, loop.stderr)
        XCTAssertTrue(loop.stderr.contains("a redirect loop"), loop.stderr)
        XCTAssertEqual(try sim.requests(to: "GET /redirect/loop"), 1, "the loop is seen, not run round")
    }

    func test_credentials_neverGoToAnotherHost_norFromHTTPSDownToHTTP() throws {
        let otherURL = try XCTUnwrap(sim.otherURL, "json-sim could not bind 127.0.0.2")
        let httpsURL = try XCTUnwrap(sim.httpsURL)
        let workspace = try Workspace(serverURL: sim.url)
        let token = "token_file = \"\(try workspace.secretFile("token", "list-token"))\""
        try workspace.useList(url: sim.url + "/redirect/same-host?to=/auth/bearer", token)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0, "the same host gets them")

        try sim.reset()
        try workspace.useList(url: sim.url + "/redirect/other-host?to=/auth/bearer", name: "other", token)
        let other = try workspace.trackwatch(["check"])
        XCTAssertEqual(other.status, 77, other.stderr)
        XCTAssertTrue(other.stderr.contains("after a redirect to another host"), other.stderr)
        XCTAssertEqual(
            try credentialsSent(), ["http GET /redirect/other-host bearer", "other GET /auth/bearer none"],
            "\(otherURL) was asked without them")

        try sim.reset()
        try workspace.useList(
            url: httpsURL + "/redirect/https-to-http?to=/auth/bearer", name: "downgrade",
            token + "\nca_file = \"\(Self.certificate)\"")
        let downgrade = try workspace.trackwatch(["check"])
        XCTAssertEqual(downgrade.status, 77, downgrade.stderr)
        XCTAssertEqual(
            try credentialsSent(), ["https GET /redirect/https-to-http bearer", "http GET /auth/bearer none"],
            "never in clear text")
    }

    /// A token in `headers` (GitLab's `PRIVATE-TOKEN`, as its docs show) is a credential like `token_file`: every
    /// configured header goes to the list's own origin only, never to a redirect target on another one.
    func test_configuredHeaders_goToTheListsOwnOriginOnly() throws {
        let otherURL = try XCTUnwrap(sim.otherURL, "json-sim could not bind 127.0.0.2")
        let workspace = try Workspace(serverURL: sim.url)
        let header = "headers = { PRIVATE-TOKEN = \"glpat-list-token\" }"
        try workspace.useList(url: sim.url + "/redirect/same-host", header)
        XCTAssertEqual(try workspace.trackwatch(["check"]).status, 0)
        XCTAssertEqual(
            try credentialsSent(), ["http GET /redirect/same-host private-token", "http GET /list/bare private-token"],
            "the list's own origin gets them, after a redirect too")

        try sim.reset()
        try workspace.useList(url: sim.url + "/redirect/other-host", name: "other", header)
        let other = try workspace.trackwatch(["check"])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertEqual(
            try credentialsSent(), ["http GET /redirect/other-host private-token", "other GET /list/bare none"],
            "\(otherURL) was asked without them")

        try sim.reset()
        try workspace.useList(url: sim.url + "/redirect/other-host?to=/auth/bearer", name: "refused", header)
        let refused = try workspace.trackwatch(["check"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("after a redirect to another host"), refused.stderr)
    }

    /// `listener route credentials` of each request but the control routes, from json-sim's request log.
    private func credentialsSent() throws -> [String] {
        (try sim.control(.get, "requests")["requests"] as? [[String: Any]] ?? []).compactMap { request in
            guard let route = request["route"] as? String, !route.contains("/sim/") else { return nil }
            return "\(request["listener"] as? String ?? "?") \(route) \(request["credentials"] as? String ?? "?")"
        }
    }
}
