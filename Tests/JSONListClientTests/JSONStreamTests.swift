@testable import JSONListClient
import XCTest

/// `JSONParser.stream` against the tree it replaces (`parseDocumentOrLines` and `JSONPointer.resolve`): the same
/// items in the same order, the same values at the kept pointers, the same errors at the same bytes.
final class JSONStreamTests: XCTestCase {
    private struct Streamed {
        var items: [JSONValue] = []
        var answer = StreamedAnswer()
    }

    private func stream(_ bytes: [UInt8], items: String = "", kept: [String] = []) throws(JSONParser.Failure)
        -> Streamed
    {
        var result = Streamed()
        result.answer = try JSONParser.stream(
            bytes, items: JSONPointer(items)!, keeping: kept.map { JSONPointer($0)! }
        ) { result.items.append($0) }
        return result
    }

    /// What the tree said of the same answer: its items at `items`, and the values at `kept`.
    private func assertSameAsTree(
        _ text: String, items: String = "", kept: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let bytes = Array(text.utf8)
        let tree = try JSONParser.parseDocumentOrLines(bytes)
        let streamed = try stream(bytes, items: items, kept: kept)
        XCTAssertEqual(streamed.answer.lines, tree.lines, text, file: file, line: line)
        if case .array(let expected)? = JSONPointer(items)!.resolve(in: tree.value) {
            XCTAssertEqual(streamed.items, expected, text, file: file, line: line)
            XCTAssertEqual(streamed.answer.items, .list(count: expected.count), text, file: file, line: line)
        } else {
            XCTAssertEqual(streamed.items, [], text, file: file, line: line)
        }
        for pointer in kept {
            let expected = JSONPointer(pointer)!.resolve(in: tree.value).map(StreamedAnswer.Kept.value)
            XCTAssertEqual(
                streamed.answer.kept[JSONPointer(pointer)!], expected, "\(text) \(pointer)", file: file, line: line)
        }
    }

    func test_items_areHandedOverInOrder_andTheSkeletonKeepsWhatPagingReads() throws {
        let page = #"""
            {"meta": {"total": 3, "cursor": {"after": "c2", "n": [1, 2.50]}}, "links": {"next": "/items?page=2",
             "self": null}, "data": {"items": [{"id": 1, "t": "a\u00e9"}, {"id": 2, "sub": [[1], {"x": []}]}, 3]},
             "junk": [0, 0, {"deep": [[[]]]}]}
            """#
        try assertSameAsTree(page, items: "/data/items", kept: ["/meta/total", "/meta/cursor", "/links/next"])
        let streamed = try stream(Array(page.utf8), items: "/data/items", kept: ["/meta/total", "/links/next"])
        XCTAssertEqual(streamed.items.map(\.kindDescription), ["an object", "an object", "a number"])
        XCTAssertEqual(streamed.answer.kept[JSONPointer("/meta/total")!], .value(.number("3")))
        XCTAssertEqual(streamed.answer.kept[JSONPointer("/links/next")!], .value(.string("/items?page=2")))

        try assertSameAsTree(#"[{"id": 1}, {"id": 2}]"#)
        try assertSameAsTree(#"{"a": [[1, 2], [3]]}"#, items: "/a/1")
        try assertSameAsTree(#"[[0], [1, 2]]"#, items: "/1")
        // A later member of a name on the way to a kept value is the one a pointer names.
        try assertSameAsTree(
            #"{"m": {"next": "x"}, "items": [], "m": {"other": 1}}"#, items: "/items", kept: ["/m/next"])
        try assertSameAsTree(#"{"next": 1, "items": [], "next": "y"}"#, items: "/items", kept: ["/next"])
        try assertSameAsTree(#"{"items": null, "items": [1]}"#, items: "/items")
    }

    func test_ndjson_streamsEachLine_oneDocumentIsNotLines() throws {
        try assertSameAsTree("{\"id\":1}\n{\"id\":2}\r\n\n{\"id\":3}\n")
        try assertSameAsTree("[1,2]\n[3]\n")
        try assertSameAsTree("1\n2\n3")
        try assertSameAsTree("{\"items\":[1]}\n{\"items\":[2]}", items: "/1/items")
        try assertSameAsTree("[1,\n2]\n")
        try assertSameAsTree("  \"a\"  \n")
        let lines = try stream(Array("{\"id\":1}\n{\"id\":2}\n".utf8))
        XCTAssertTrue(lines.answer.lines)
        XCTAssertEqual(lines.items.count, 2)
        XCTAssertEqual(
            lines.answer.outline.description,
            #"The answer is an array of 2; its lists are at "": set items to the one you want."#)
    }

    /// Every cut of an answer, and every byte of it replaced by a few others, fails as the tree failed: the same
    /// message at the same byte, whether the fault lies in the items, on the way to a kept value, or in what is
    /// skipped.
    func test_errors_areTheTreesErrors_atTheSameBytes() {
        let samples = [
            #"{"meta": {"total": 2, "e": 1.5e3}, "junk": [true, false, null, "x\n\u00e9\ud83d\ude80", -0.5], "items": [{"id": 1}, {"id": "\\2"}]}"#,
            "{\"id\":1}\n{\"id\":2}\n",
            #"[{"a": [1e1000001]}]"#,
            #"{"junk": [1e1000001], "items": []}"#,
            #"{"junk": "a\u0001", "items": []}"#,
        ]
        let replacements: [UInt8] = Array(#"x"\{}[],: 1e-\#n"#.utf8) + [0x01]
        for sample in samples {
            let bytes = Array(sample.utf8)
            var variants = (0...bytes.count).map { Array(bytes.prefix($0)) }
            for position in bytes.indices {
                for byte in replacements {
                    var changed = bytes
                    changed[position] = byte
                    variants.append(changed)
                }
            }
            for variant in variants {
                let tree = Result { () throws(JSONParser.Failure) in try JSONParser.parseDocumentOrLines(variant) }
                let streamed = Result { () throws(JSONParser.Failure) in
                    try stream(variant, items: "/items", kept: ["/meta/total"])
                }
                let text = String(decoding: variant, as: UTF8.self)
                switch (tree, streamed) {
                case (.failure(let expected), .failure(let found)): XCTAssertEqual(found, expected, text)
                case (.success, .success): break
                case (.failure(let expected), .success): XCTFail("\(text): the tree failed, \(expected)")
                case (.success, .failure(let found)): XCTFail("\(text): the tree read it, the stream failed, \(found)")
                }
            }
        }
    }

    func test_nesting_isBoundedInTheItemsAndInWhatIsSkipped() {
        let deep = String(repeating: "[", count: 101) + String(repeating: "]", count: 101)
        for text in ["[\(deep)]", #"{"junk": \#(deep), "items": []}"#, #"{"items": [], "junk": {"a": \#(deep)}}"#] {
            let bytes = Array(text.utf8)
            XCTAssertThrowsError(try stream(bytes, items: "/items")) { error in
                XCTAssertEqual((error as? JSONParser.Failure)?.tooDeep, true, text)
                XCTAssertEqual(
                    error as? JSONParser.Failure,
                    Result { () throws(JSONParser.Failure) in try JSONParser.parse(bytes) }.failure, text)
            }
        }
        // The object holding them counts one level, as in the tree.
        let fine = String(repeating: "[", count: 98) + String(repeating: "]", count: 98)
        let deepest = Array(#"{"junk": [\#(fine)], "items": [\#(fine)]}"#.utf8)
        XCTAssertNoThrow(try JSONParser.parse(deepest))
        XCTAssertEqual(try stream(deepest, items: "/items").items.count, 1)
    }

    func test_itemsAbsentOrNoList_areSaid_withTheAnswersOutline() throws {
        let answer = #"{"status": "ok", "result": {"count": 2, "list": {"items": [{"id": 1}, {"id": 2}]}}, "n": [1]}"#
        let absent = try stream(Array(answer.utf8), items: "/items").answer
        XCTAssertEqual(absent.items, .absent)
        XCTAssertEqual(
            absent.outline.description,
            #"The answer is an object with status (a string), result (an object), n (an array of 1); its lists are "#
                + #"at "/result/list/items", "/n": set items to the one you want."#)
        XCTAssertEqual(try stream(Array(answer.utf8), items: "/result").answer.items, .other(.object))
        XCTAssertEqual(try stream(Array(answer.utf8), items: "/status").answer.items, .other(.string))
        // Items already read, then a later member of the same name: a tree would have taken the later one.
        XCTAssertEqual(try stream(Array(#"{"items": [1], "items": 2}"#.utf8), items: "/items").answer.items, .repeated)
    }

    func test_aLargeValueAtAKeptPointer_isNotBuilt() throws {
        let large = "[" + Array(repeating: "0", count: 40_000).joined(separator: ",") + "]"
        let answer = try stream(Array(#"{"next": \#(large), "items": []}"#.utf8), items: "/items", kept: ["/next"])
        XCTAssertEqual(answer.answer.kept[JSONPointer("/next")!], .large(.array(count: 40_000)))
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
