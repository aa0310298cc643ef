import Glibc
import TrackerHTTP
import XCTest

/// `Retry-After` as an HTTP-date (issue 36, item 11): read against the present, never against 1970.
final class RetryAfterDateTests: XCTestCase {
    /// `seconds` since 1970 as an IMF-fixdate, formatted by the C library rather than by the code under test.
    private func imfFixdate(_ seconds: Double) -> String {
        var time = time_t(seconds), parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func test_aDateThirtySecondsAhead_readsThirtySeconds_whenTheCallerPassesNoClock() throws {
        let header = imfFixdate(RetryAfter.wallClock() + 30)
        let wait = try XCTUnwrap(RetryAfter.seconds(header, now: 0))
        XCTAssert((27...31).contains(wait), "\(header) read as a wait of \(wait) s")
    }

    func test_aDateAhead_isCountedFromTheAnswersOwnDate_whateverOurClockSays() {
        let serverNow = 1_900_000_000.0
        let response = HTTPResponse(
            status: 429, headers: [("Date", imfFixdate(serverNow)), ("Retry-After", imfFixdate(serverNow + 120))])
        XCTAssertEqual(RetryAfter.seconds(in: response, now: serverNow - 3_600), 120, "our clock an hour behind")
        XCTAssertEqual(RetryAfter.seconds(in: response, now: serverNow + 3_600), 120, "our clock an hour ahead")
        let undated = HTTPResponse(status: 429, headers: [("Retry-After", imfFixdate(serverNow + 120))])
        XCTAssertEqual(RetryAfter.seconds(in: undated, now: serverNow + 20), 100, "no Date: our clock")
        let seconds = HTTPResponse(status: 429, headers: [("Date", imfFixdate(serverNow)), ("Retry-After", "7")])
        XCTAssertEqual(RetryAfter.seconds(in: seconds, now: 0), 7)
    }

    func test_aDateInThePast_isNow_andOneFarAhead_isBounded() {
        let now = 1_900_000_000.0
        XCTAssertEqual(RetryAfter.seconds(imfFixdate(now - 30), now: now), 0)
        XCTAssertEqual(RetryAfter.seconds(imfFixdate(now + 10 * 86_400), now: now), RetryAfter.longest)
        XCTAssertEqual(RetryAfter.seconds(imfFixdate(now + 30), serverDate: "garbage", now: now), 30)
    }

    func test_theObsoleteForms_readAsTheSameMoment() {
        let now = 1_900_000_000.0  // 2030
        for form in [
            "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
            "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
            "Sun, 06-Nov-1994 08:49:37 GMT",  // RFC 850 with a four-digit year (cookies)
            "Sun Nov 6 08:49:37 1994",  // asctime, its double space already folded by the header reader
        ] {
            XCTAssertEqual(RetryAfter.httpDate(form, now: now), 784_111_777, form)
        }
        XCTAssertEqual(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", now: now), 0, "asctime, as sent")
    }

    func test_aTwoDigitYear_isNeverMoreThanFiftyYearsAhead() {
        let now = 1_798_761_600.0  // 2027-01-01
        XCTAssertEqual(RetryAfter.httpDate("Friday, 01-Jan-77 00:00:00 GMT", now: now), 3_376_684_800, "2077")
        XCTAssertEqual(RetryAfter.httpDate("Sunday, 01-Jan-78 00:00:00 GMT", now: now), 252_460_800, "1978")
        XCTAssertNil(RetryAfter.httpDate("Sunday, 06-Nov-994 08:49:37 GMT", now: now))
        XCTAssertNil(RetryAfter.httpDate("Sun Nov 6 08:49:37", now: now))
    }
}
