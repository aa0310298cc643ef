@testable import CompassClient
import SourceKit
@testable import TrackwatchApp
import XCTest

/// What `probe` may honestly conclude about the zone history entries are stored in, from the newest entry and the
/// server's clock: the zone's offset is at least entry − clock (the entry is not in the future), and equal to it only
/// when the entry was made just now.
final class ProbeZoneTests: XCTestCase {
    private let clock = 1_800_000_000

    private func zone(_ difference: Int, namesItsZone: Bool = false) -> ProbeReport.Item {
        ServerProbe.zone(newestEntry: clock + difference, clock: clock, namesItsZone: namesItsZone)
    }

    func test_aFreshEntry_givesTheOffset_roundedToAQuarterHour_asALowerBound() {
        XCTAssertEqual(zone(40).mark, .pass)
        XCTAssertTrue(
            zone(40).text.contains("stored in UTC if the newest was made just now, else in a zone east of it"),
            zone(40).text)
        XCTAssertTrue(zone(-7 * 3_600 + 20).text.contains("stored in UTC−7 if"), zone(-7 * 3_600 + 20).text)
        XCTAssertTrue(zone(5 * 3_600 + 1_800 - 30).text.contains("stored in UTC+5:30 if"))
        XCTAssertTrue(zone(14 * 3_600).text.contains("UTC+14 if"))
    }

    func test_anEntryLaterThanAnyZone_isAWarning_aVeryOldOne_cannotTell() {
        XCTAssertEqual(zone(20 * 3_600).mark, .warn)
        XCTAssertTrue(
            zone(20 * 3_600).text.contains("20 h 0 min ahead of the server's clock, later than any zone allows"))
        XCTAssertEqual(zone(-3 * 86_400).mark, .unknown)
        XCTAssertTrue(zone(-3 * 86_400).text.contains("history zone not told"), zone(-3 * 86_400).text)
    }

    func test_entriesThatNameTheirZone_needNoGuess_butAFutureOneIsAWarning() {
        XCTAssertEqual(zone(-3 * 86_400, namesItsZone: true).mark, .pass)
        XCTAssertTrue(zone(0, namesItsZone: true).text.contains("entries name their zone"))
        XCTAssertEqual(zone(3_600, namesItsZone: true).mark, .warn)
    }
}
