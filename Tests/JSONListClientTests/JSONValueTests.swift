import JSONListClient
import XCTest

final class JSONValueTests: XCTestCase {
    func test_numbers_thatMeanTheSame_areSpelledTheSame() {
        let cases: [(String, String)] = [
            ("1", "1"), ("1.0", "1"), ("1.00", "1"), ("10e-1", "1"), ("0.1e1", "1"), ("1.50", "1.5"), ("-0", "0"),
            ("-0.0", "0"), ("100", "100"), ("1e2", "100"), ("0.001", "0.001"), ("1E+3", "1000"), ("-2.5e-3", "-0.0025"),
            ("12345678901234567890", "12345678901234567890"), ("1e50", "1e50"), ("1.5e-60", "1.5e-60"), ("0e5", "0"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONNumber.canonical(Array(text.utf8)), expected, text)
        }
        XCTAssertNil(JSONNumber.canonical(Array("1e9999999".utf8)), "an exponent beyond the bound is refused")
    }
}
