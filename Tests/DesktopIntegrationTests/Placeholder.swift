import XCTest

final class DesktopIntegrationTestsPlaceholder: XCTestCase {}
