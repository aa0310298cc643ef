import Foundation
import TestSupport
import XCTest

/// `trackwatch check` through an HTTP proxy (issue 11, item 11; issue 20, items 1 and 17): the proxy environment
/// variables as curl reads them, the `proxy` key, CONNECT tunnels with TLS end to end for https://, absolute-URI
/// requests for http://, proxy credentials that never show, loopback URLs kept off the environment's proxy.
final class ProxyTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tw-proxy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: directory) }

    /// A self-signed certificate for `name` (an IP address or a DNS name).
    private func certificate(for name: String) throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("\(name).pem").path,
            key = directory.appendingPathComponent("\(name).key").path
        let kind = name.first?.isNumber == true ? "IP" : "DNS"
        let result = try runProduct(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=\(name)",
                "-addext", "subjectAltName=\(kind):\(name)", "-keyout", key, "-out", certificate,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return (certificate, key)
    }

    /// Proxy variables cleared, so that the machine's own never interfere.
    private func environment(_ workspace: Workspace, _ proxies: [String: String]) -> [String: String] {
        var environment = workspace.environment
        for name in [
            "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
        ] {
            environment[name] = ""
        }
        return environment.merging(proxies) { _, new in new }
    }

    private func check(_ workspace: Workspace, _ proxies: [String: String], _ extra: [String] = []) throws -> RunResult
    {
        try runProduct(
            "trackwatch", ["check", "--config", workspace.configPath] + extra,
            environment: environment(workspace, proxies))
    }

    /// `http://0.0.0.0:PORT` reaches compass-sim on 127.0.0.1 (Linux connects 0.0.0.0 to this machine), but is no
    /// loopback address by trackwatch's rule, so the environment's proxy applies to it.
    private func viaAnyAddress(_ url: String) -> String { url.replacingOccurrences(of: "127.0.0.1", with: "0.0.0.0") }

    func test_httpsThroughTheEnvironmentsProxy_tunnelsWithTLSEndToEnd_verifiedAgainstTheServersName() throws {
        let tls = try certificate(for: "compass.test")
        let sim = try Simulator(["--tls-certificate", tls.certificate, "--tls-key", tls.key])
        // A name only the proxy knows: the server is reached through it, or not at all.
        let proxy = try ConnectProxy(hosts: ["compass.test": "127.0.0.1", "impostor.test": "127.0.0.1"])
        let workspace = try Workspace(serverURL: sim.url.replacingOccurrences(of: "127.0.0.1", with: "compass.test"))
        workspace.extraServerLines = ["ca_file = \"\(tls.certificate)\""]
        try workspace.writeConfig()
        let port = sim.url.split(separator: ":").last.map(String.init) ?? ""
        for variable in ["https_proxy", "HTTPS_PROXY", "all_proxy"] {
            let before = proxy.tunnels.count
            let result = try check(workspace, [variable: proxy.url], ["-v"])
            XCTAssertEqual(result.status, 0, "\(variable): \(result.stderr)")
            XCTAssertGreaterThan(proxy.tunnels.count, before, "\(variable): the requests went through the proxy")
            XCTAssertEqual(Set(proxy.tunnels.map(\.target)), ["compass.test:\(port)"], "CONNECT to the server itself")
            XCTAssertTrue(
                result.stderr.contains("proxy_source=\(variable)"), "the proxy in use is logged: \(result.stderr)")
        }
        XCTAssertEqual(proxy.forwarded, [], "https:// is never sent to the proxy in the clear")
        // The certificate is checked against the server's name, through the tunnel: a certificate for another
        // name is refused even though the proxy is happy to connect.
        let other = try certificate(for: "compass.invalid")
        let impostor = try Simulator(["--tls-certificate", other.certificate, "--tls-key", other.key])
        let fooled = try Workspace(serverURL: impostor.url.replacingOccurrences(of: "127.0.0.1", with: "impostor.test"))
        fooled.extraServerLines = ["ca_file = \"\(other.certificate)\""]
        try fooled.writeConfig()
        let refused = try check(fooled, ["https_proxy": proxy.url])
        XCTAssertEqual(refused.status, 69, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("TLS handshake"), refused.stderr)
    }

    /// Plain http:// through a proxy was tunnelled with CONNECT, which a stock Squid refuses for any port but
    /// 443: trackwatch failed ("the proxy did not open a tunnel") where curl worked. Now it sends what curl sends,
    /// an absolute-URI request to the proxy, with `Proxy-Authorization`.
    func test_plainHTTPThroughAProxy_isAnAbsoluteURIRequest_asCurlSendsIt() throws {
        let sim = try Simulator()
        let proxy = try ConnectProxy(credentials: ("me", "s3cr3t-pr0xy"), connectOnlyTo443: true)
        let server = viaAnyAddress(sim.url)
        let workspace = try Workspace(serverURL: server)
        let withCredentials = proxy.url.replacingOccurrences(of: "http://", with: "http://me:s3cr3t-pr0xy@")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") {
            let curl = try runProduct(
                "/usr/bin/curl",
                ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-x", withCredentials, server + "/ccmweb/rest/repos"])
            XCTAssertTrue(["200", "401"].contains(curl.stdout), "curl gets through to the server: \(curl.stdout)")
        }
        let result = try check(workspace, ["http_proxy": withCredentials], ["-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let requests = proxy.forwarded.filter { !($0.headers["user-agent"] ?? "").hasPrefix("curl") }
        XCTAssertGreaterThan(requests.count, 3, "login, queries, pages, logoff: \(proxy.forwarded)")
        for request in requests {
            XCTAssertTrue(request.target.hasPrefix(server + "/ccmweb/rest/"), request.target)
            XCTAssertEqual(request.proxyAuthorization, "Basic " + Data("me:s3cr3t-pr0xy".utf8).base64EncodedString())
            XCTAssertEqual(request.headers["host"], String(server.dropFirst("http://".count)), "Host names the server")
        }
        XCTAssertEqual(proxy.tunnels, [], "no CONNECT for http://")
        XCTAssertFalse(result.stderr.contains("s3cr3t"), "the proxy password is never logged: \(result.stderr)")

        let denied = try check(workspace, ["http_proxy": proxy.url])
        XCTAssertEqual(denied.status, 77, "a credentials error, not 'retry later': \(denied.stderr)")
        XCTAssertTrue(
            denied.stderr.contains("The proxy refused the connection to Compass: it asks for credentials (HTTP 407)"),
            denied.stderr)
    }

    /// A URL on this machine never takes a proxy from the environment (the proxy would see the password in the
    /// clear, and the clear-text warning exempts loopback URLs); the `proxy` key is still obeyed, with a warning.
    func test_loopbackURL_takesNoProxyFromTheEnvironment_theProxyKeyWithAWarning() throws {
        let sim = try Simulator()
        let proxy = try ConnectProxy()
        let workspace = try Workspace(serverURL: sim.url)
        let result = try check(workspace, ["http_proxy": proxy.url, "all_proxy": proxy.url], ["-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(proxy.forwarded, [])
        XCTAssertEqual(proxy.tunnels, [])
        XCTAssertFalse(result.stderr.contains("plain http://"), result.stderr)

        workspace.extraServerLines = ["proxy = \"\(proxy.url)\""]
        try workspace.writeConfig()
        let keyed = try check(workspace, [:])
        XCTAssertEqual(keyed.status, 0, keyed.stderr)
        XCTAssertFalse(proxy.forwarded.isEmpty, "the proxy key decides, for a loopback URL too")
        XCTAssertTrue(keyed.stderr.contains("the url is plain http:// through the proxy \(proxy.url)"), keyed.stderr)
        let doctor = try workspace.trackwatch(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("⚠ \(sim.url): the url is plain http:// through the proxy"), doctor.stdout)
    }

    func test_probe_namesTheProxy_neverItsPassword_notInTheTranscriptEither() throws {
        let sim = try Simulator()
        let proxy = try ConnectProxy(credentials: ("me", "s3cr3t-pr0xy"))
        let workspace = try Workspace(serverURL: sim.url)
        workspace.extraServerLines = [
            "proxy = \"\(proxy.url.replacingOccurrences(of: "http://", with: "http://me:s3cr3t-pr0xy@"))\""
        ]
        try workspace.writeConfig()
        let transcript = directory.appendingPathComponent("transcript.json").path
        let result = try runProduct(
            "trackwatch", ["probe", "--config", workspace.configPath, "--save", transcript, "-v"],
            environment: environment(workspace, [:]))
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertFalse(proxy.forwarded.isEmpty, "the probe went through the proxy")
        XCTAssertTrue(
            result.lines.contains("✔ through the proxy \(proxy.url) (from proxy in [server])"), result.stdout)
        XCTAssertTrue(result.lines.contains("⚠ plain http:// through the proxy \(proxy.url)"), result.stdout)
        let saved = try String(contentsOfFile: transcript, encoding: .utf8)
        for text in [result.stdout, result.stderr, saved] {
            let encoded = Data("me:s3cr3t-pr0xy".utf8).base64EncodedString()
            XCTAssertFalse(text.contains("s3cr3t") || text.contains(encoded), "the proxy's credentials show: \(text)")
        }
    }

    func test_proxyKeyWithCredentials_sendsBasicProxyAuthorization_andNeverShowsThePassword() throws {
        let sim = try Simulator()
        let proxy = try ConnectProxy(credentials: ("me", "s3cr3t-pr0xy"))
        let workspace = try Workspace(serverURL: sim.url)
        let url = proxy.url.replacingOccurrences(of: "http://", with: "http://me:s3cr3t-pr0xy@")
        workspace.extraServerLines = ["proxy = \"\(url)\""]
        try workspace.writeConfig()
        let result = try check(workspace, ["http_proxy": "http://127.0.0.1:9"], ["-v"])  // the key wins
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(proxy.forwarded.isEmpty)
        XCTAssertEqual(
            Set(proxy.forwarded.map(\.proxyAuthorization)),
            ["Basic " + Data("me:s3cr3t-pr0xy".utf8).base64EncodedString()])
        XCTAssertTrue(result.stderr.contains("proxy=\(proxy.url)"), result.stderr)
        XCTAssertFalse(result.stderr.contains("s3cr3t"), "the proxy password is never logged: \(result.stderr)")

        workspace.extraServerLines = ["proxy = \"\(url.replacingOccurrences(of: "s3cr3t-pr0xy", with: "wrong-pw"))\""]
        try workspace.writeConfig()
        let denied = try check(workspace, [:])
        XCTAssertEqual(denied.status, 77, "a credentials error, not 'retry later': \(denied.stderr)")
        XCTAssertTrue(
            denied.stderr.contains("The proxy refused the connection to Compass: it asks for credentials (HTTP 407)"),
            denied.stderr)
        XCTAssertFalse(denied.stderr.contains("wrong-pw"), denied.stderr)
    }

    func test_noProxyAndAnEmptyProxyKey_reachTheServerDirectly() throws {
        let sim = try Simulator()
        let proxy = try ConnectProxy()
        let workspace = try Workspace(serverURL: viaAnyAddress(sim.url))
        for noProxy in [["no_proxy": "0.0.0.0"], ["NO_PROXY": "localhost,0.0.0.0/8"], ["no_proxy": "*"]] {
            let result = try check(workspace, ["http_proxy": proxy.url].merging(noProxy) { $1 })
            XCTAssertEqual(result.status, 0, "\(noProxy): \(result.stderr)")
        }
        XCTAssertEqual(proxy.forwarded, [], "no_proxy lists the host")
        let through = try check(workspace, ["HTTP_PROXY": proxy.url, "no_proxy": "example.com"])
        XCTAssertEqual(through.status, 0, through.stderr)
        XCTAssertFalse(proxy.forwarded.isEmpty, "upper-case HTTP_PROXY is honoured, and no_proxy lists another host")

        let forwarded = proxy.forwarded.count
        workspace.extraServerLines = ["proxy = \"\""]
        try workspace.writeConfig()
        let direct = try check(workspace, ["http_proxy": proxy.url, "all_proxy": proxy.url])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertEqual(proxy.forwarded.count, forwarded, "proxy = \"\" turns the environment's proxy off")
        XCTAssertEqual(proxy.tunnels, [])
    }

    func test_unusableProxySettings_areConfigurationErrorsThatSayWhere() throws {
        let sim = try Simulator()
        let workspace = try Workspace(serverURL: viaAnyAddress(sim.url))
        let socks = try check(workspace, ["http_proxy": "socks5://127.0.0.1:1080"])
        XCTAssertEqual(socks.status, 78, socks.stderr)
        XCTAssertTrue(socks.stderr.contains("the http_proxy environment variable uses socks5://"), socks.stderr)
        XCTAssertTrue(socks.stderr.contains("proxy = \"\""), "says how to go without: \(socks.stderr)")

        workspace.extraServerLines = ["proxy = \"http://proxy.example.com:99999\""]
        try workspace.writeConfig()
        let badPort = try check(workspace, [:])
        XCTAssertEqual(badPort.status, 78, badPort.stderr)
        XCTAssertTrue(badPort.stderr.contains("config.toml:8: server.proxy: has an invalid port"), badPort.stderr)
    }
}
