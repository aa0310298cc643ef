import Foundation
@testable import StateStore
import XCTest

final class FieldsJSONTests: XCTestCase {
    func test_encode_sortsKeysAndEscapes() {
        XCTAssertEqual(encode(["b": "2", "a": "x\"y\\z\n\u{1}"]), #"{"a":"x\"y\\z\n\u0001","b":"2"}"#)
        XCTAssertEqual(encode([:]), "{}")
    }

    func test_encode_isReadByJSONDecoder() throws {
        let fields = ["Héadline": "🚀 \"quoted\"\t\u{7F}", "State": "", "x": "\u{0}"]
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(encode(fields).utf8))
        XCTAssertEqual(decoded, fields)
    }

    func test_decode_acceptsWhatOtherWritersProduce() {
        let cases: [(String, [String: String]?)] = [
            (#"{ "a" : "1" , "b":"\u00e9\ud83d\ude80\/" }"#, ["a": "1", "b": "é🚀/"]),
            (#"{}"#, [:]),
            (#"{"a":"1""#, nil),
            (#"["a"]"#, nil),
            (#"{"a":1}"#, nil),  // not a string value: neither parser accepts it as [String: String]
            (#"{"a":"\ud83d"}"#, nil),  // lone surrogate
        ]
        for (json, expected) in cases {
            let decoded = Array(json.utf8).withUnsafeBufferPointer { FieldsJSON.decode($0) }
            XCTAssertEqual(decoded, expected, json)
        }
    }

    private func encode(_ fields: [String: String]) -> String {
        var buffer: [UInt8] = []
        FieldsJSON.encode(fields, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
