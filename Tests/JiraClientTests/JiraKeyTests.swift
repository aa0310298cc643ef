import XCTest
@testable import JiraClient
