import Dispatch
import Foundation
import SourceKit
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A poll's tasks run on a thread of their own, started for the poll and ended with it: the work before an `await`
/// and after it (resumed from another thread, as the event loop resumes a request) run there, never on the caller's
/// thread, and nothing of it is left once `run` has returned.
final class PollThreadTests: XCTestCase {
    private static func threadID() -> Int32 { linuxThreadID() }

    private static func threadExists(_ id: Int32) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/self/task/\(id)")
    }

    /// Resumes the awaiting task from a queue of its own, as an event loop resumes a request with its answer.
    private static func answerFromAnotherThread() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "test.answer").async { continuation.resume(returning: threadID()) }
        }
    }

    func test_theWorkAndItsResumptions_runOnOneThreadOfTheirOwn_whichEndsWithThePoll() async throws {
        let caller = Self.threadID()
        let (before, answeredOn, after) = try await PollThread.run { () async throws -> (Int32, Int32, Int32) in
            let before = Self.threadID()
            let answeredOn = await Self.answerFromAnotherThread()
            let after = Self.threadID()
            return (before, answeredOn, after)
        }
        XCTAssertNotEqual(before, caller, "the poll runs on a thread of its own")
        XCTAssertNotEqual(answeredOn, before, "the answer came from another thread")
        XCTAssertEqual(after, before, "the poll resumed on its own thread, not on the one that answered")
        let deadline = Date().addingTimeInterval(5)
        while Self.threadExists(before) && Date() < deadline { usleep(1_000) }
        XCTAssertFalse(Self.threadExists(before), "the poll's thread ended with the poll")
    }

    func test_anError_endsThePoll_andReachesTheCaller() async {
        struct Refused: Error {}
        do {
            _ = try await PollThread.run { () async throws -> Int in
                _ = await Self.answerFromAnotherThread()
                throw Refused()
            }
            XCTFail("the error was lost")
        } catch {
            XCTAssertTrue(error is Refused, "\(error)")
        }
    }

    func test_eachPoll_hasAThreadOfItsOwn() async throws {
        async let first = PollThread.run { () async -> Int32 in
            _ = await Self.answerFromAnotherThread()
            return Self.threadID()
        }
        async let second = PollThread.run { () async -> Int32 in
            _ = await Self.answerFromAnotherThread()
            return Self.threadID()
        }
        let (a, b) = try await (first, second)
        XCTAssertNotEqual(a, b)
    }
}

/// glibc's `gettid` (2.30), which Swift's Glibc module does not export.
@_silgen_name("gettid")
private func linuxThreadID() -> Int32
