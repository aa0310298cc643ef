import XCTest

final class TrackwatchCoreTestsPlaceholder: XCTestCase {}
