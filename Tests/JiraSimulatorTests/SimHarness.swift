import XCTest
@testable import JiraSimulator
