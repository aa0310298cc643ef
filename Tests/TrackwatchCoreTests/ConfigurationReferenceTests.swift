@testable import CompassClient
import Foundation
import TrackwatchCore
import XCTest

/// The configuration's three descriptions cannot drift apart: the keys the reader accepts (`Config.schema`),
/// the commented example `etc/config.example.toml` and the reference in `docs/configuration.md` name the same
/// keys; the reference shows each value the example writes; and every value the example writes for an optional
/// key is the reader's default. A key added to the reader fails here until both documents have it.
final class ConfigurationReferenceTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private var schema: Set<String> { Set(Config.schema.flatMap { table, keys in keys.map { "\(table).\($0)" } }) }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// `table.key` → the value as first written, for every key in the example, commented out or not.
    private func exampleKeys() throws -> [String: String] {
        var table = "", keys: [String: String] = [:]
        for raw in try text("etc/config.example.toml").split(separator: "\n") {
            var line = Substring(raw)
            if line.hasPrefix("#") { line = line.dropFirst().drop { $0 == " " } }
            if let header = line.firstMatch(of: /^\[\[?([a-z_]+)\]\]?\s*(#.*)?$/) {
                table = String(header.1)
            } else if let entry = line.firstMatch(of: /^([a-z_]+) = (.+)$/) {
                let key = "\(table).\(entry.1)"
                if keys[key] == nil { keys[key] = Self.value(String(entry.2)) }
            }
        }
        return keys
    }

    /// The value at the start of `text`, without a trailing comment: a quoted string, an array, an inline table,
    /// or one word.
    private static func value(_ text: String) -> String {
        if text.hasPrefix("\""), let end = text.dropFirst().firstIndex(of: "\"") { return String(text[...end]) }
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") { return String(text[...end]) }
        if text.hasPrefix("{") {  // to its own closing brace: an inline table may hold inline tables
            var depth = 0
            let end = text.firstIndex { depth += $0 == "{" ? 1 : $0 == "}" ? -1 : 0; return depth == 0 }
            if let end { return String(text[...end]) }
        }
        return String(text.prefix { $0 != " " })
    }

    /// `table.key` → its row in the reference tables of docs/configuration.md.
    private func documentedKeys() throws -> [String: String] {
        var rows: [String: String] = [:]
        for line in try text("docs/configuration.md").split(separator: "\n") {
            if let row = line.firstMatch(of: /^\| `([a-z_]+\.[a-z_]+)` \|(.*)$/) { rows[String(row.1)] = String(row.2) }
        }
        return rows
    }

    func test_readerExampleAndReference_nameTheSameKeys() throws {
        let example = try exampleKeys(), documented = try documentedKeys()
        XCTAssertGreaterThan(schema.count, 20)
        for key in schema.sorted() {
            XCTAssertNotNil(example[key], "etc/config.example.toml lacks \(key): add it with its default (commented if it has none)")
            XCTAssertNotNil(documented[key], "docs/configuration.md lacks a row for \(key): add it with its default and an example")
        }
        for key in Set(example.keys).subtracting(schema).sorted() {
            XCTFail("etc/config.example.toml shows \(key), which the reader refuses as unknown")
        }
        for key in Set(documented.keys).subtracting(schema).sorted() {
            XCTFail("docs/configuration.md documents \(key), which the reader refuses as unknown")
        }
    }

    func test_referenceShowsTheExamplesValues() throws {
        let documented = try documentedKeys()
        for (key, value) in try exampleKeys().sorted(by: { $0.key < $1.key }) {
            guard let row = documented[key] else { continue }  // reported by the test above
            XCTAssertTrue(row.contains("`\(value)`"), "docs/configuration.md's row for \(key) does not show `\(value)`, the example's value")
        }
    }

    /// "Every key is shown with its default": what the example sets beyond [server]'s required keys is what the
    /// reader uses when the key is left out.
    func test_exampleWritesTheDefaults() throws {
        let example = try Config.parse(
            uncommentingMinimalTable("[server]", in: try text("etc/config.example.toml")), file: "config.example.toml")
        let minimal = try Config.parse("""
            [server]
            url = "https://compass.example.com:8190"
            repo = "2.0.0"
            database = "SAMPL"
            username = "engineer"
            """, file: "minimal.toml")
        XCTAssertEqual(example.poll, minimal.poll)
        XCTAssertEqual(example.notify, minimal.notify)
        XCTAssertEqual(example.servers[0].insecure, minimal.servers[0].insecure)
        XCTAssertEqual(example.servers[0].requestTimeout, minimal.servers[0].requestTimeout)
    }
}
