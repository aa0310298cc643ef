import XCTest
@testable import GitHubClient
