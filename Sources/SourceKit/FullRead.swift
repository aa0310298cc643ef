/// When a source with an activity log reads every item of mine again instead of what changed since its last poll:
/// at the first poll, after a gap longer than `interval` (a suspended laptop), when the local clock went back, and
/// at least once every `interval` — what keeps a cheap poll honest (items deleted or gone out of sight).
public enum FullRead {
    public static let interval = 3_600.0

    /// - Parameters:
    ///   - sinceLastPoll: seconds since the last committed poll started (`nil` before the first).
    ///   - lastFullRead: when the last full read started (local seconds since 1970), if one is known.
    public static func isDue(hasSnapshot: Bool, sinceLastPoll: Double?, lastFullRead: Double?, now: Double) -> Bool {
        guard hasSnapshot, let sinceLastPoll, sinceLastPoll >= 0, sinceLastPoll <= interval, let lastFullRead,
            lastFullRead <= now
        else { return true }
        return now - lastFullRead >= interval
    }
}
