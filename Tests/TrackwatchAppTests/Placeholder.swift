import XCTest

final class TrackwatchAppTestsPlaceholder: XCTestCase {}
