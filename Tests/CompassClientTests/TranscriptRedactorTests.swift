@testable import CompassClient
import Foundation
import TrackerHTTP
import XCTest

/// The allow-list redaction of `probe --save` transcripts: what is kept is known to be harmless, everything else
/// is hashed (with a salt never written) or removed. The whole path runs against compass-sim in ProbeTests.
final class TranscriptRedactorTests: XCTestCase {
    private let redactor = TranscriptRedactor(harmless: ["history.action_timestamp", "Defect"])

    private func text(_ value: TranscriptJSON) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func test_url_keepsSchemeAPIWordsAndPageNumbers_replacesHostNamesAndIDs() {
        let url = redactor.url(
            "https://user:pw@compass.example.com:8190/ccmweb/rest/repos/CQ%20Prod/databases/SAMPL/query/rs-17"
                + "?pageNumber=2&x=secret"
        )
        XCTAssertTrue(url.hasPrefix("https://<server>/ccmweb/rest/repos/#"), url)
        XCTAssertTrue(url.contains("/databases/#"), url)
        XCTAssertTrue(url.contains("/query/#"), url)
        XCTAssertTrue(url.contains("?pageNumber=2&x=#"), url)
        for secret in ["compass.example.com", "user", "pw", "CQ", "SAMPL", "rs-17", "secret", "8190"] {
            XCTAssertFalse(url.contains(secret), "\(secret) in \(url)")
        }
    }

    func test_headers_credentialsRemoved_cookieNamesKept_unknownValuesHashed() throws {
        let headers = try text(
            redactor.headers([
                ("Authorization", "Bearer eyJhbGciOi.payload.signature"), ("Cookie", "JSESSIONID=abc123; route=r1"),
                ("Set-Cookie", "JSESSIONID=abc123; Path=/ccmweb; HttpOnly; Secure"),
                ("Date", "Tue, 24 Nov 2026 02:00:00 GMT"),
                ("X-Backend", "node7.corp.example"), ("Proxy-Authorization", "Basic dXNlcjpwdw=="),
            ]))
        XCTAssertTrue(headers.contains(#"["Authorization","Bearer <removed>"]"#), headers)
        XCTAssertTrue(headers.contains(#"["Cookie","JSESSIONID=<removed>; route=<removed>"]"#), headers)
        XCTAssertTrue(headers.contains(#"["Set-Cookie","JSESSIONID=<removed>; Path; HttpOnly; Secure"]"#), headers)
        XCTAssertTrue(headers.contains(#"["Date","Tue, 24 Nov 2026 02:00:00 GMT"]"#), headers)
        XCTAssertTrue(headers.contains(#"["Proxy-Authorization","Basic <removed>"]"#), headers)
        for secret in ["eyJhbGciOi", "abc123", "r1", "/ccmweb", "node7", "dXNlcjpwdw"] {
            XCTAssertFalse(headers.contains(secret), "\(secret) in \(headers)")
        }
    }

    /// A server may plant what it received (the password) in a header or a JSON key: only values and names on
    /// the allow-list, in the shape their header allows, are kept; everything else is hashed like any value.
    func test_plantedText_inHeaderValuesNamesAndJSONKeys_isHashed() throws {
        let planted = "Pa55-planted"
        let headers = try text(
            redactor.headers([
                ("Server", "Apache/2.4.57 (\(planted))"), ("Server", "nginx/1.22.1"), ("Server", planted),
                ("Content-Type", "application/json; charset=UTF-8"), ("Content-Type", "application/json; x=\(planted)"),
                ("Content-Length", "120"), ("Content-Length", planted), ("Retry-After", "2"),
                ("Cache-Control", "no-cache, max-age=0"), ("Connection", planted), (planted, "1"),
                ("Expires", "Tue, 24 Nov 2026 02:00:00 GMT"), ("WWW-Authenticate", "Basic realm=\"\(planted)\""),
            ]))
        XCTAssertFalse(headers.contains(planted), headers)
        for kept in [
            #"["Server","nginx/1.22.1"]"#, #"["Content-Type","application/json; charset=UTF-8"]"#,
            #"["Content-Length","120"]"#, #"["Retry-After","2"]"#, #"["Cache-Control","no-cache, max-age=0"]"#,
            #"["Expires","Tue, 24 Nov 2026 02:00:00 GMT"]"#, #"["WWW-Authenticate","Basic #"#,
        ] {
            XCTAssertTrue(headers.contains(kept), "\(kept) in \(headers)")
        }
        XCTAssertTrue(headers.contains(##"["Server","#"##), "an unknown server's name is hashed: \(headers)")

        let body = #"{"\#(planted)":1,"message":"x","result_set_id":"r","rows":[{"values":["a"]}],"recordCount":1}"#
        let redacted = try text(redactor.body(Array(body.utf8), contentType: "application/json"))
        XCTAssertFalse(redacted.contains(planted), redacted)
        for key in ["message", "result_set_id", "rows", "values", "recordCount"] {
            XCTAssertTrue(redacted.contains("\"\(key)\":"), "the API's key \(key) is kept: \(redacted)")
        }
        let claims = #"{"sub":"engineer","\#(planted)":1,"exp":1700003600,"iat":1700000000}"#
        let payload = Data(claims.utf8).base64EncodedString().replacing("=", with: "").replacing("+", with: "-")
            .replacing("/", with: "_")
        let token = try text(XCTUnwrap(TranscriptRedactor.jwtSummary("eyJhbGciOiJIUzI1NiJ9.\(payload).c2ln")))
        XCTAssertEqual(token, #"{"claims":["<other>","exp","iat","sub"],"lifetimeSeconds":3600}"#)
    }

    func test_json_keepsShapeKeysNumbersTimestampsAndHarmless_hashesTheRest_removesSecrets() throws {
        let claims = #"{"sub":"engineer","iat":1700000000,"exp":1700003600,"jti":"x"}"#
        let payload = Data(claims.utf8).base64EncodedString().replacing("=", with: "").replacing("+", with: "-")
            .replacing("/", with: "_")
        let body = #"""
            {"password":"hunter2","username":"engineer","token":"eyJhbGciOiJIUzI1NiJ9.\#(payload).c2ln",
             "rows":[["SAMPL00000001","Crash on save","2024-01-31 10:15:00",3,2.5,true,null,"Defect"]],
             "history.action_timestamp":"01/31/2024 10:15:00 AM","we ird key":1}
            """#
        let redacted = try text(redactor.body(Array(body.utf8), contentType: "application/json"))
        for secret in ["hunter2", "engineer", "SAMPL", "Crash", "c2ln", payload, "we ird"] {
            XCTAssertFalse(redacted.contains(secret), "\(secret) in \(redacted)")
        }
        XCTAssertTrue(redacted.contains(#""password":"<removed>""#), redacted)
        XCTAssertTrue(
            redacted.contains(#""token":{"jwt":{"claims":["exp","iat","jti","sub"],"lifetimeSeconds":3600}}"#), redacted
        )
        XCTAssertTrue(redacted.contains(#""2024-01-31 10:15:00",3,2.5,true,null,"Defect"]"#), redacted)
        XCTAssertTrue(redacted.contains(#""history.action_timestamp":"01/31/2024 10:15:00 AM""#), redacted)
        XCTAssertTrue(redacted.contains("\"bytes\":\(body.utf8.count)"), redacted)
    }

    func test_hashes_equalWithinATranscript_differentAcrossTranscripts_withLength() {
        let other = TranscriptRedactor(harmless: [])
        XCTAssertEqual(redactor.hashed("engineer"), redactor.hashed("engineer"))
        XCTAssertNotEqual(redactor.hashed("engineer"), redactor.hashed("alice"))
        XCTAssertNotEqual(redactor.hashed("engineer"), other.hashed("engineer"), "a random salt per transcript")
        XCTAssertTrue(redactor.hashed("engineer").hasSuffix("/8"))
    }

    func test_nonJSONBodies_summarised() throws {
        let html = try text(
            redactor.body(Array("<html><body>Welcome, engineer</body></html>\n".utf8), contentType: "text/html"))
        XCTAssertFalse(html.contains("engineer"), html)
        XCTAssertTrue(html.contains(#""notJSON":true"#) && html.contains(#""startsWith":"<""#), html)
        let csv = try text(redactor.body(Array("id,Headline\r\nSAMPL1,Crash\r\n".utf8), contentType: "text/csv"))
        XCTAssertFalse(csv.contains("SAMPL1") || csv.contains("Crash"), csv)
        XCTAssertTrue(csv.contains(#""lines":2"#), csv)
    }

    /// Answers every request with the next of `bodies` and a `Date` header.
    private final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
        var bodies: [[UInt8]]
        init(_ bodies: [[UInt8]]) { self.bodies = bodies }
        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: [("Date", "Tue, 24 Nov 2026 02:00:00 GMT")], body: bodies.removeFirst())
        }
    }

    func test_recording_isBounded_andOffUnlessAsked() async throws {
        let large = Array("[".utf8) + Array(repeating: UInt8(ascii: "1"), count: 5 << 20) + Array("]".utf8)
        let inner = ScriptedTransport([large, large, large, large, Array("[1]".utf8)])
        let recording = RecordingTransport(inner, harmless: [])
        for _ in 0..<5 {
            _ = try await recording.send(HTTPRequest(method: .get, url: "http://h/ccmweb/rest/repos", timeout: 5))
        }
        let document = try JSONSerialization.jsonObject(with: Data(recording.transcript())) as? [String: Any]
        let bodies = (document?["exchanges"] as? [[String: Any]] ?? []).map {
            ($0["response"] as? [String: Any])?["body"] as? [String: Any] ?? [:]
        }
        XCTAssertEqual(bodies.count, 5)
        XCTAssertEqual(bodies[0]["omitted"] as? String, "larger than 4 MiB")
        XCTAssertEqual(bodies[4]["omitted"] as? String, "transcript size limit", "past 16 MiB only sizes are kept")
        XCTAssertEqual(bodies[4]["bytes"] as? Int, 3)

        let quiet = RecordingTransport(ScriptedTransport([Array("[1]".utf8)]), harmless: [], keeping: false)
        _ = try await quiet.send(HTTPRequest(method: .get, url: "http://h/", timeout: 5))
        XCTAssertEqual(quiet.exchangeCount, 0, "nothing kept without --save")
        XCTAssertEqual(quiet.lastServerDate, "Tue, 24 Nov 2026 02:00:00 GMT", "the server's clock noted either way")
    }
}
