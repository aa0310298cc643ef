@testable import CompassClient
import TrackwatchCore
import XCTest

/// The proxy a server is reached through: the `proxy` key, and the environment as curl reads it.
final class ProxyTests: XCTestCase {
    private func choose(_ url: String, _ environment: [String: String], _ setting: ProxySetting = .environment) throws
        -> String?
    {
        try ProxyChoice.choose(for: url, setting: setting, environment: environment).proxy?.description
    }

    func test_proxyURLs() throws {
        let full = try ProxyURL(parsing: "http://me:p%40ss@Proxy.Example.com:3128/")
        XCTAssertEqual(full.host, "proxy.example.com")
        XCTAssertEqual(full.port, 3128)
        XCTAssertEqual(full.username, "me")
        XCTAssertEqual(full.password?.value, "p@ss")
        XCTAssertEqual("\(full)", "http://proxy.example.com:3128", "never the credentials")
        XCTAssertEqual(try ProxyURL(parsing: "proxy:8080").description, "http://proxy:8080", "no scheme: http, as curl")
        XCTAssertEqual(try ProxyURL(parsing: "HTTP://proxy").port, 1080, "curl's default port")
        XCTAssertEqual(try ProxyURL(parsing: "http://[fd00::1]:3128").description, "http://[fd00::1]:3128")
        let refused: [(String, String)] = [
            ("socks5://proxy:1080", "uses socks5://"), ("https://proxy:443", "uses https://"),
            ("http://proxy:0", "invalid port"),
            ("http://proxy:70000", "invalid port"), ("http://proxy:80/path", "must not have a path"),
            ("http://:8080", "names no host"),
            ("http://pro xy:8080", "without spaces"), ("http://a:%zz@proxy:1", "percent-encoded"), ("", "is empty"),
        ]
        for (text, says) in refused {
            XCTAssertThrowsError(try ProxyURL(parsing: text), text) { error in
                XCTAssertTrue((error as? ProxyURL.ParseError)?.message.contains(says) == true, "\(text): \(error)")
            }
        }
    }

    func test_environment_asCurlReadsIt() throws {
        XCTAssertNil(try choose("https://compass:8190", [:]))
        XCTAssertEqual(
            try choose("https://compass:8190", ["https_proxy": "http://s:1", "http_proxy": "http://h:2"]), "http://s:1")
        XCTAssertEqual(
            try choose("http://compass:8190", ["https_proxy": "http://s:1", "http_proxy": "http://h:2"]), "http://h:2")
        XCTAssertEqual(
            try choose("https://compass", ["HTTPS_PROXY": "http://upper:1", "https_proxy": "http://lower:2"]),
            "http://lower:2")
        XCTAssertEqual(try choose("http://compass", ["HTTP_PROXY": "http://upper:1"]), "http://upper:1")
        XCTAssertEqual(
            try choose("https://compass", ["https_proxy": "", "ALL_PROXY": "http://all:3"]), "http://all:3",
            "empty is unset")
        XCTAssertEqual(try choose("https://compass", ["https_proxy": "http://s:1"], .direct), nil)
        let configured = try ProxyURL(parsing: "http://key:9")
        XCTAssertEqual(
            try choose("https://compass", ["https_proxy": "http://s:1", "no_proxy": "*"], .proxy(configured)),
            "http://key:9",
            "the key is per server: no_proxy does not apply to it")
        XCTAssertThrowsError(try choose("https://compass", ["https_proxy": "socks5://s:1"])) { error in
            XCTAssertTrue(
                (error as? ProxyURL.ParseError)?.message.hasPrefix(
                    "the https_proxy environment variable uses socks5://") == true, "\(error)")
        }
        let decided = try ProxyChoice.choose(
            for: "https://compass", setting: .environment, environment: ["all_proxy": "p:1"])
        XCTAssertEqual(decided.source, "all_proxy")
    }

    /// Through a proxy a password leaves the machine even for a loopback URL: the environment's proxy never
    /// carries one; the `proxy` key still decides, and then the clear-text rule no longer exempts it.
    func test_loopbackURLs_takeNoProxyFromTheEnvironment_theKeyStillDecides() throws {
        let environment = ["http_proxy": "http://p:1", "https_proxy": "http://p:1", "all_proxy": "http://p:1"]
        for url in ["http://127.0.0.1:8190", "http://localhost/ccmweb", "https://[::1]:8190", "http://127.1.2.3"] {
            let choice = try ProxyChoice.choose(for: url, setting: .environment, environment: environment)
            XCTAssertNil(choice.proxy, url)
            XCTAssertEqual(choice.source, "a url on this machine", url)
        }
        XCTAssertEqual(try choose("http://0.0.0.0:9", environment), "http://p:1", "not a loopback address by the rule")
        XCTAssertEqual(try choose("http://127.0.0.1", environment, .proxy(ProxyURL(host: "q", port: 2))), "http://q:2")

        XCTAssertEqual(ServerURL.cleartextRisk("http://127.0.0.1:8190", proxied: false), nil)
        XCTAssertEqual(ServerURL.cleartextRisk("http://127.0.0.1:8190", proxied: true), .throughAProxy)
        XCTAssertEqual(ServerURL.cleartextRisk("http://compass.example.com", proxied: true), .toAnotherHost)
        XCTAssertEqual(ServerURL.cleartextRisk("https://127.0.0.1:8190", proxied: true), nil, "TLS runs end to end")
    }

    func test_noProxy_hostsDomainsAddressesAndRanges() throws {
        let proxy = ["https_proxy": "http://p:1"]
        func direct(_ url: String, _ list: String, upper: Bool = false) throws -> Bool {
            try choose(url, proxy.merging([upper ? "NO_PROXY" : "no_proxy": list]) { $1 }) == nil
        }
        XCTAssertTrue(try direct("https://compass.example.com:8190", "example.com"))
        XCTAssertTrue(try direct("https://compass.example.com", ".example.com"))
        XCTAssertTrue(try direct("https://example.com", ".example.com"))
        XCTAssertFalse(try direct("https://badexample.com", "example.com"), "a suffix must end at a dot")
        XCTAssertTrue(try direct("https://COMPASS.example.com.", " other.org , example.com "))
        XCTAssertTrue(try direct("https://10.1.2.3:8190", "10.0.0.0/8"))
        XCTAssertFalse(try direct("https://11.1.2.3", "10.0.0.0/8"))
        XCTAssertTrue(try direct("https://192.168.1.7", "192.168.1.7"))
        XCTAssertFalse(try direct("https://192.168.1.70", "192.168.1.7"))
        XCTAssertTrue(try direct("https://[fd00::42]:8190", "fd00::/8"))
        XCTAssertTrue(try direct("https://[::1]:8190", "[::1]"))
        XCTAssertTrue(try direct("https://anything", "*"))
        XCTAssertTrue(try direct("https://compass.example.com", "example.com", upper: true))
        XCTAssertFalse(try direct("https://compass", "10.0.0.0/99"), "a malformed range matches nothing")
        let both = proxy.merging(["no_proxy": "other.org", "NO_PROXY": "compass"]) { $1 }
        XCTAssertNotNil(try choose("https://compass", both), "the lower-case form, when set, hides the upper-case one")
    }

    func test_proxyKey_isReadWithLineAndKeyErrors() throws {
        let server = "[server]\nurl = \"https://c\"\nrepo = \"r\"\ndatabase = \"d\"\nusername = \"u\"\n"
        XCTAssertEqual(try Config.parse(server, file: "c.toml").servers[0].proxy, .environment)
        XCTAssertEqual(try Config.parse(server + "proxy = \"\"\n", file: "c.toml").servers[0].proxy, .direct)
        XCTAssertEqual(
            try Config.parse(server + "proxy = \"http://p:3128\"\n", file: "c.toml").servers[0].proxy,
            .proxy(ProxyURL(host: "p", port: 3128)))
        for (value, says) in [
            ("\"socks5://p:1\"", "uses socks5://"), ("3128", "expected a string"), ("\"http://p:x\"", "invalid port"),
        ] {
            XCTAssertThrowsError(try Config.parse(server + "proxy = \(value)\n", file: "c.toml")) { error in
                guard let error = error as? ConfigError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.line, 6)
                XCTAssertEqual(error.key, "server.proxy")
                XCTAssertTrue(error.message.contains(says), "\(error)")
            }
        }
    }
}
