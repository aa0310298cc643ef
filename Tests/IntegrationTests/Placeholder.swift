import XCTest

final class IntegrationTestsPlaceholder: XCTestCase {}
