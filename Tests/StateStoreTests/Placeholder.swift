import XCTest

final class StateStoreTestsPlaceholder: XCTestCase {}
