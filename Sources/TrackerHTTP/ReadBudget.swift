import Synchronization

/// The bytes all answers of one read may come to, in sum: each answer is bounded by the transport, but a read that
/// keeps its pages (a search, a timeline) would otherwise hold as many as a hostile server links. Reset when a read
/// starts; past the budget, every further answer is refused as too large.
public final class ReadBudget: Sendable {
    public let bytes: Int
    private let used = Mutex(0)

    /// What one poll of a tracker with an activity log may read in all: 64 MB, some 20,000 issues with their
    /// comments, or a hundred long timelines.
    public static let activityPoll = 64_000_000

    public init(bytes: Int) { self.bytes = bytes }

    /// A read starts.
    public func reset() { used.withLock { $0 = 0 } }

    /// Counts an answer of `count` bytes; throws once the read's answers exceed the budget.
    func spend(_ count: Int) throws {
        let total = used.withLock { used -> Int in
            used += count
            return used
        }
        guard total > bytes else { return }
        throw TransportError(
            .responseTooLarge,
            "the answers of one poll came to more than \(bytes / 1_000_000) MB in all, the most one poll reads")
    }
}

/// A transport whose answers are counted against a `ReadBudget`.
public struct BudgetTransport: HTTPTransport {
    let base: any HTTPTransport
    let budget: ReadBudget

    public init(_ base: any HTTPTransport, budget: ReadBudget) {
        self.base = base
        self.budget = budget
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        try budget.spend(response.body.count)
        return response
    }

    public func closeIdleConnections() { base.closeIdleConnections() }
}
