@testable import JSONListClient
import SourceKit
import TrackerHTTP
import TrackwatchCore
import TestSupport
import XCTest

/// Paging, repeats, limits, redirects and credentials over a scripted server.
final class ListReaderTests: XCTestCase {
    private func config(
        _ url: String = "https://api.example.com/items", _ change: (inout JSONListConfig) -> Void = { _ in }
    )
        -> JSONListConfig
    {
        var config = JSONListConfig(name: "l", url: url)
        change(&config)
        return config
    }

    private static func page(of url: String) -> Int {
        Int(url.split(separator: "page=").last?.prefix { $0.isNumber } ?? "1") ?? 1
    }

    func test_numberedPages_endAtAShortPage_orAtTheTotal() async throws {
        let server = ScriptedServer { url, _ in
            let page = Int(url.split(separator: "page=").last?.prefix { $0.isNumber } ?? "1") ?? 1
            return json(items((page - 1) * 5 + 1...min(page * 5, 12)))
        }
        let read = try await XCTUnwrapAsync(try await reader(config { $0.paging.pageParam = "page" }, server).read().read)
        XCTAssertEqual(read.collector.itemCount, 12)
        XCTAssertEqual(server.urls, (1...3).map { "https://api.example.com/items?page=\($0)" })

        let total = ScriptedServer { url, _ in
            let page = Int(url.split(separator: "startAt=").last?.prefix { $0.isNumber } ?? "0") ?? 0
            // Fewer than asked for on every page, as Jira does: only the total ends the list.
            let list = items(page + 1...min(page + 2, 7))
            return json(#"{"total": 7, "issues": \#(list)}"#)
        }
        let jira = config {
            $0.items = JSONPointer("/issues")!; $0.paging.offsetParam = "startAt"; $0.paging.limitParam = "maxResults";
            $0.paging.limit = 50; $0.paging.total = JSONPointer("/total")
        }
        await XCTAssertEqualAsync(try await XCTUnwrapAsync(try await reader(jira, total).read().read).collector.itemCount, 7)
        XCTAssertEqual(total.requests.count, 4)
    }

    func test_aTotalNotReached_failsThePoll() async {
        let server = ScriptedServer { url, _ in
            json(url.contains("page=1") ? #"{"total": 9, "items": \#(items(1...5))}"# : #"{"total": 9, "items": []}"#)
        }
        let config = config {
            $0.items = JSONPointer("/items")!; $0.paging.pageParam = "page"; $0.paging.total = JSONPointer("/total")
        }
        await XCTAssertThrowsErrorAsync(try await reader(config, server).read()) { error in
            XCTAssertTrue("\(error)".contains("stated 9 items, but its pages held 5"), "\(error)")
        }
    }

    func test_repeatsAndEndlessLinks_failWithoutLooping() async {
        let repeating = ScriptedServer { url, _ in
            json(
                items(1...5),
                headers: [("Link", "<https://api.example.com/items?page=\(Self.page(of: url) + 1)>; rel=\"next\"")])
        }
        await XCTAssertThrowsErrorAsync(try await reader(config(), repeating).read()) {
            XCTAssertTrue("\($0)".contains("page 2 repeats"))
        }
        XCTAssertEqual(repeating.requests.count, 2)

        let backwards = ScriptedServer { url, _ in
            json(
                items(Self.page(of: url) * 10...Self.page(of: url) * 10 + 1),
                headers: [("Link", "</items?page=\(Self.page(of: url) == 2 ? 1 : 2)>; rel=\"next\"")])
        }
        await XCTAssertThrowsErrorAsync(try await reader(config("https://api.example.com/items?page=1"), backwards).read()) {
            XCTAssertTrue("\($0)".contains("points back to a page already read"), "\($0)")
        }

        let fresh = ScriptedServer { url, _ in
            let page = Self.page(of: url)
            return json(items(page * 10...page * 10 + 1), headers: [("Link", "<?page=\(page + 1)>; rel=\"next\"")])
        }
        await XCTAssertThrowsErrorAsync(try await reader(config { $0.maxPages = 4 }, fresh).read()) {
            XCTAssertTrue("\($0)".contains("did not end after 4 pages (max_pages)"), "\($0)")
        }
        XCTAssertEqual(fresh.requests.count, 4)
    }

    func test_duplicatedKeys_sameFieldsCountOnce_differentOnesAreSetAside_keylessAreNamed() async throws {
        let server = ScriptedServer { _, _ in
            json(
                #"[{"id": 1, "t": "a"}, {"id": "1", "t": "a"}, {"id": 2, "t": "x"}, {"id": 2.0, "t": "y"}, {"t": "none"}, {"id": null}, {"id": {"a": 1}}]"#
            )
        }
        let read = try await XCTUnwrapAsync(try await reader(config { $0.title = try? Template(parsing: "{t}") }, server).read().read)
        XCTAssertEqual(Array(read.collector.records.keys), ["1"])
        XCTAssertEqual(read.collector.conflicting, ["2": 2])
        XCTAssertEqual(read.collector.keylessCount, 3)
        XCTAssertEqual(read.collector.keyless, ["item 5 (none)", "item 6", "item 7"])
    }

    /// The configuration's errors read the same since the answer streams: what the answer holds, from its outline.
    func test_itemsOrTotalNotFound_sayWhatTheAnswerHolds() async {
        let server = ScriptedServer { _, _ in json(#"{"meta": {"count": "many"}, "items": \#(items(1...2))}"#) }
        let cases: [(JSONListConfig, String)] = [
            (
                config { $0.items = JSONPointer("/data")! },
                #"items "/data" in [[json]] l is not in the answer. The answer is an object with meta (an object), "#
                    + #"items (an array of 2); its lists are at "/items": set items to the one you want."#
            ),
            (
                config { $0.items = JSONPointer("/meta")! },
                #"items "/meta" in [[json]] l is an object, not a list. The answer is an object with"#
            ),
            (
                config { $0.items = JSONPointer("/items")!; $0.paging.total = JSONPointer("/meta/count") },
                #"total "/meta/count" in [[json]] l is not a count in the answer. The answer is an object with meta"#
            ),
        ]
        for (config, says) in cases {
            await XCTAssertThrowsErrorAsync(try await reader(config, server).read()) { error in
                XCTAssertTrue("\(error)".contains(says), "\(error)")
            }
        }
        let twice = ScriptedServer { _, _ in json(#"{"items": \#(items(1...2)), "items": []}"#) }
        await XCTAssertThrowsErrorAsync(try await reader(config { $0.items = JSONPointer("/items")! }, twice).read()) { error in
            XCTAssertTrue("\(error)".contains("names the member that holds its items"), "\(error)")
        }
    }

    func test_redirects_keepCredentialsOnTheirOrigin_andAreBounded() async throws {
        let server = ScriptedServer { url, _ in
            switch url {
            case "https://api.example.com/items": HTTPResponse(status: 302, headers: [("Location", "/v2/items")])
            case "https://api.example.com/v2/items":
                HTTPResponse(status: 307, headers: [("Location", "https://cdn.example.com/items")])
            case "https://cdn.example.com/items":
                HTTPResponse(status: 301, headers: [("Location", "http://api.example.com/final")])
            default: json(items(1...2))
            }
        }
        _ = try await reader(config { $0.credentials = .bearer(.tokenFile(path: "/t")) }, server, secret: "s3cret").read()
        XCTAssertEqual(server.urls.count, 4)
        XCTAssertEqual(
            (0..<4).map { server.header("Authorization", of: $0) }, ["Bearer s3cret", "Bearer s3cret", nil, nil])
    }

    func test_statuses_becomeTheirErrors() async {
        let cases: [(HTTPResponse, FailureKind, String)] = [
            (json("{}", status: 401), .credentials, "HTTP 401"),
            (json(#"{"message": "no"}"#, status: 403), .credentials, "HTTP 403: no"),
            (json("{}", status: 404), .configuration, "no list there"),
            (json("{}", status: 429, headers: [("Retry-After", "120")]), .server(status: 429), "wait 120 s"),
            (json(#"{"errorMessages": ["down"]}"#, status: 503), .server(status: 503), "HTTP 503: down"),
            (
                HTTPResponse(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>".utf8)),
                .badAnswer, "HTML page"
            ),
            (HTTPResponse(status: 200, body: []), .badAnswer, "empty"),
            (HTTPResponse(status: 304), .server(status: 304), "HTTP 304"),
        ]
        for (response, kind, says) in cases {
            await XCTAssertThrowsErrorAsync(try await reader(config(), ScriptedServer { _, _ in response }).read()) { error in
                XCTAssertEqual((error as? JSONListError)?.failureKind, kind, says)
                XCTAssertTrue("\(error)".contains(says), "\(error)")
            }
        }
        let limited = JSONListError.status(429, message: "", list: "l", retryAfter: 30)
        XCTAssertTrue(limited.isRateLimited)
        XCTAssertEqual(limited.retryAfter, 30)
        XCTAssertFalse(JSONListError.status(503, message: "", list: "l", retryAfter: nil).isRateLimited)
    }

    func test_conditionalRequest_sendsTheValidators_a304IsNotModified() async throws {
        let server = ScriptedServer { _, headers in
            headers.contains { $0.name == "If-None-Match" && $0.value == #"W/"abc""# }
                ? HTTPResponse(status: 304) : json(items(1...2), headers: [("ETag", #"W/"abc""#)])
        }
        let first = try await XCTUnwrapAsync(try await reader(config(), server).read().read)
        let validators = try XCTUnwrap(first.first?.validators)
        guard case .notModified = try await reader(config(), server).read(validators: validators) else {
            return XCTFail("a 304")
        }
    }

    func test_answerBody_bomCharsetAndLatin1() throws {
        let latin1: [UInt8] = Array(#"[{"id": 1, "t": "M"#.utf8) + [0xFC] + Array(#"ller"}]"#.utf8)
        var items: [JSONValue] = []
        let (_, traits) = try AnswerBody.decode(
            latin1, contentType: "application/json; charset=\"ISO-8859-1\"", list: "l", items: JSONPointer(tokens: []),
            keeping: []
        ) { items.append($0) }
        XCTAssertEqual(
            items,
            [.object([JSONMember(name: "id", value: .number("1")), JSONMember(name: "t", value: .string("Müller"))])])
        XCTAssertEqual(traits.charset, "iso-8859-1")
        let bom = try AnswerBody.decode(
            [0xEF, 0xBB, 0xBF] + Array("[]".utf8), contentType: "text/plain", list: "l", items: JSONPointer(tokens: []),
            keeping: [], each: { _ in })
        XCTAssertTrue(bom.1.byteOrderMark)
        XCTAssertThrowsError(
            try AnswerBody.decode(
                Array("[]".utf8), contentType: "application/json; charset=utf-16", list: "l", items: JSONPointer(tokens: []),
                keeping: [], each: { _ in }))
    }

    /// A record is bounded as `Record.bounded(fields:)` bounds it, whether or not the item is past a limit.
    func test_itemShape_boundsAsTheRecordDoes_withinTheLimitsAndPastThem() throws {
        let shape = ItemShape(config())
        let long = String(repeating: "v", count: 2_000), longName = String(repeating: "n", count: 300)
        let wide = (0..<250).map { #""f\#($0)": \#($0)"# }.joined(separator: ", ")
        for text in [
            #"{"id": 1, "a": "x", "b": {"c": [1, 2]}, "d": null}"#, #"{"id": 1, "long": "\#(long)"}"#,
            #"{"id": 1, "\#(longName)": 1, "b": 2}"#, #"{"id": 1, \#(wide)}"#,
        ] {
            let item = try JSONParser.parse(Array(text.utf8))
            guard case .object(let members) = item else { return XCTFail(text) }
            var fields: [String: String] = [:]
            for member in members where member.name != "id" { fields[member.name] = member.value.fieldText }
            let expected = Record(id: RecordID("1"), fields: Record.bounded(fields: fields))
            XCTAssertEqual(shape.record(of: item, key: "1"), expected, String(text.prefix(60)))
        }
    }

    /// Items written straight into their records (one scratch for the whole list, the name order of the item before
    /// reused) make the record that a dictionary of their fields makes, item after item: names in another order, a
    /// name twice (the last wins, a later null removes it), two spellings of one name, describing members and
    /// pointers, names and counts past the record's bounds.
    func test_itemShape_recordsWrittenStraight_equalTheDictionarysOneItemAfterItem() throws {
        let longName = String(repeating: "n", count: 300)
        let wide = (0..<250).map { #""f\#($0)": \#($0)"# }.joined(separator: ", ")
        let items = try [
            #"{"id": 1, "title": "A", "b": "x", "a": {"z": 1, "y": [1, 2]}, "updated_by": "dana", "n": null}"#,
            #"{"id": 2, "title": "B", "b": "y", "a": 2, "updated_by": "eli", "n": 3}"#,
            #"{"id": 3, "title": "C", "b": "y", "a": 2, "updated_by": "eli", "n": 3, "b": "z"}"#,
            #"{"id": 4, "title": "D", "b": "y", "a": 2, "updated_by": "eli", "n": 3, "b": null}"#,
            #"{"id": 5, "title": "E", "b": "y", "a": 2, "updated_by": "eli", "n": 3}"#,
            #"{"id": 6, "b": "y", "title": "F", "a": 2, "updated_by": null, "n": 3, "meta": {"color": "red"}}"#,
            #"{"id": 7, "\u00e9": "1", "e\u0301": "2", "title": "G"}"#, #"{"id": 8, "Z": "1", "a": "2", "é": "3"}"#,
            #"{"id": 9, "\#(longName)": 1, "b": 2}"#, #"{"id": 10, \#(wide)}"#, #"{"id": 11, "title": null}"#,
            #"{"id": 12, "title": "L", "meta": {"color": "blue"}, "/meta/color": "x", "by": "not the by"}"#,
        ].map { try JSONParser.parse(Array($0.utf8)) }
        for (title, ignore) in [("{title}", ["meta"]), ("{title} {/meta/color}", []), ("{b}", ["n", "title"])] {
            let config = config {
                $0.title = try? Template(parsing: title)
                $0.by = FieldPath("updated_by")
                $0.ignore = ignore.compactMap(FieldPath.init)
            }
            let shape = ItemShape(config)
            var scratch = RecordScratch()
            for (index, item) in (items + items.reversed()).enumerated() {
                guard case .object(let members) = item else { return XCTFail("\(index)") }
                var fields: [String: String] = [:]
                for member in members
                where member.name != "id" && !ignore.contains(member.name)
                    && !config.describingFields.contains(where: { $0.isMemberName && $0.name == member.name })
                {
                    fields[member.name] = member.value.fieldText
                }
                fields = Record.bounded(fields: fields)
                for field in config.describingFields where fields[field.name] == nil {
                    fields[field.name] = field.value(in: item)?.fieldText.map(Record.stored)
                }
                let expected = Record(id: RecordID("k"), fields: fields)
                let record = shape.record(of: item, key: "k", scratch: &scratch)
                XCTAssertEqual(record.canonicalFields, expected.canonicalFields, "\(title), item \(index)")
            }
        }
    }

    /// Ignored members passed over as they are read make the record the item without them makes.
    func test_itemShape_ignoredFields_areLeftOut_passedOverOrRemoved() throws {
        let item = try JSONParser.parse(
            Array(#"{"id": 1, "t": "x", "meta": {"color": "red", "n": 2}, "meta": 3, "by": "dana", "list": [1, 2]}"#.utf8))
        let cases: [(ignore: [String], title: String?, fields: [String]?)] = [
            (["meta"], "{t}", nil), (["meta", "by"], "{t} {/meta/color}", nil), (["/meta/color"], nil, nil),
            (["meta"], nil, ["t", "/meta/n"]), ([], "{t}", nil),
        ]
        for (ignore, title, fields) in cases {
            let shape = ItemShape(
                config {
                    $0.ignore = ignore.compactMap(FieldPath.init)
                    $0.title = title.flatMap { try? Template(parsing: $0) }
                    $0.fields = fields?.compactMap(FieldPath.init)
                })
            var without = item
            for field in ignore.compactMap(FieldPath.init) { without = without.removing(field.pointer) }
            XCTAssertEqual(shape.record(of: item, key: "1"), shape.record(of: without, key: "1"), "\(ignore)")
            for name in ignore where !name.hasPrefix("/") {
                XCTAssertNil(shape.record(of: item, key: "1")[name], "\(ignore)")
            }
        }
    }

    func test_itemShape_cutsLongValues_keepingLengthAndADigest() throws {
        let long = String(repeating: "A", count: 1_500_000)
        let cut = ItemShape.bounded(long)
        XCTAssertLessThan(cut.utf8.count, 1_100)
        XCTAssertTrue(
            cut.hasPrefix(String(repeating: "A", count: 900)) && cut.contains("… (1500000 characters, #"), cut)
        XCTAssertEqual(ItemShape.bounded(cut), cut, "a stored value stays itself")
        XCTAssertNotEqual(
            cut, ItemShape.bounded(String(long.dropLast()) + "B"), "a change at the end is still a change")
        XCTAssertEqual(ItemShape.bounded("short"), "short")
    }
}
