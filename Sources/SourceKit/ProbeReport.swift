/// The lines of `trackwatch probe`: each item ✔ (works), ⚠ (works differently; what trackwatch does about it),
/// ✘ (does not work; what to do) or · (could not be checked, and why), with what was seen.
public struct ProbeReport {
    public enum Mark: String, Sendable {
        case pass = "✔", warn = "⚠", fail = "✘", unknown = "·"
    }

    public struct Item: Sendable {
        public let mark: Mark
        public let text: String
        /// For ⚠ and ✘: what trackwatch does about it, or what the user should do.
        public let then: String?

        public init(mark: Mark, text: String, then: String?) {
            self.mark = mark
            self.text = text
            self.then = then
        }
    }

    public private(set) var items: [Item] = []

    public init() {}
    /// The error that ended the probe early (unreachable server, refused login), for the exit status.
    public var stoppedBy: (any Error)?

    public var failed: Bool { items.contains { $0.mark == .fail } }

    public mutating func add(_ mark: Mark, _ text: String, then: String? = nil) {
        items.append(Item(mark: mark, text: text, then: then))
    }

    /// One line per item, and one indented line for its consequence.
    public var lines: [String] {
        items.flatMap { item in
            ["\(item.mark.rawValue) \(item.text)"]
                + (item.then.map { ["    \(item.mark == .fail ? "fix" : "then"): \($0)"] } ?? [])
        }
    }
}
