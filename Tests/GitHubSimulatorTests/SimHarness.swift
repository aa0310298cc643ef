import XCTest
@testable import GitHubSimulator
