import XCTest

final class CompassSimulatorTestsPlaceholder: XCTestCase {}
