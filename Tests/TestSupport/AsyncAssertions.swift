#if canImport(XCTest)  // built for the tests only: a plain `swift build` builds this target too, without XCTest
import XCTest

// XCTest's assertions take synchronous autoclosures; these take `async` ones, for the clients' `async` calls
// (`await XCTAssertThrowsErrorAsync(try await api.read())`). Each evaluates its expressions once, in order, and
// fails with the error when one throws, as XCTest's own do.

private func failed(_ name: String, _ error: any Error, _ message: String, file: StaticString, line: UInt) {
    XCTFail("\(name) threw error \"\(error)\"\(message.isEmpty ? "" : " - \(message)")", file: file, line: line)
}

public func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line, _ handler: (_ error: any Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        let text = message()
        XCTFail("XCTAssertThrowsError failed: did not throw an error\(text.isEmpty ? "" : " - \(text)")", file: file, line: line)
    } catch {
        handler(error)
    }
}

public func XCTAssertNoThrowAsync<T>(
    _ expression: @autoclosure () async throws -> T, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    do { _ = try await expression() } catch { failed("XCTAssertNoThrow", error, message(), file: file, line: line) }
}

public func XCTUnwrapAsync<T>(
    _ expression: @autoclosure () async throws -> T?, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, message(), file: file, line: line)
}

public func XCTAssertEqualAsync<T: Equatable>(
    _ first: @autoclosure () async throws -> T, _ second: @autoclosure () async throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let (a, b) = (try await first(), try await second())
        XCTAssertEqual(a, b, message(), file: file, line: line)
    } catch { failed("XCTAssertEqual", error, message(), file: file, line: line) }
}

public func XCTAssertFalseAsync(
    _ expression: @autoclosure () async throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let value = try await expression()
        XCTAssertFalse(value, message(), file: file, line: line)
    } catch {
        failed("XCTAssertFalse", error, message(), file: file, line: line)
    }
}
#endif
