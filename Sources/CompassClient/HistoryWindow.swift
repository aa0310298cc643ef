import TrackwatchCore

/// How far back the history query looks, so that finding colleagues' changes does not depend on the server's time
/// zone.
///
/// Compass stores history timestamps in the database server's local time (older databases) or in UTC (newer ones)
/// and returns them as stored; in which zone it reads a filter value is undocumented. So the checkpoint, the
/// newest timestamp seen, and the filter the server applies may be apart by any zone offset: up to 14 hours
/// either way (UTC−12 … UTC+14). With daylight saving time the offset also changes twice a year, and when the
/// clocks fall back, local timestamps repeat an hour, so an entry written after a checkpoint can carry an earlier
/// timestamp than it by up to an hour. A window reaching back `zoneMargin` (15 h) plus the configured `overlap`
/// from the checkpoint therefore returns every entry written since the last poll in any zone and across both
/// changes, without estimating the offset (an estimate taken once does not survive the next change).
///
/// Entries the window returns again are recognised by their `HistoryKey`; the keys are kept as long as a later
/// window can return them (`pruneBoundary`).
public enum HistoryWindow {
    /// 14 hours for any zone, 1 for the hour the clocks repeat in autumn.
    public static let zoneMargin = 15 * 3_600

    /// How far before the checkpoint the query looks: `zoneMargin` + `overlap` (late commits, skewed clocks).
    public static func reach(overlap: Int) -> Int { zoneMargin + max(0, overlap) }

    /// The filter value for the history query: `checkpoint − reach`; `nil` without a checkpoint.
    public static func since(checkpoint: Timestamp?, overlap: Int) -> Timestamp? {
        checkpoint?.adding(seconds: -reach(overlap: overlap))
    }

    /// Seen keys older than this can never be returned again and may be forgotten: a later window reaches back
    /// `reach` from a checkpoint no earlier than this one, and the server's reading of it may lie up to another
    /// `zoneMargin` further back.
    public static func pruneBoundary(checkpoint: Timestamp?, overlap: Int) -> Timestamp? {
        checkpoint?.adding(seconds: -(reach(overlap: overlap) + zoneMargin))
    }

    /// The zone furthest ahead of UTC (UTC+14, the Line Islands).
    public static let furthestZoneAhead = 14 * 3_600
    /// Slack for the clocks involved: the database server's, which stamps history, and the web server's `Date`
    /// header (or, without one, this computer's clock) need not agree to the second.
    public static let clockSlack = 3_600

    /// The latest timestamp a history entry written by `now` (seconds since 1970, UTC: the server's `Date` header,
    /// else the local clock) can honestly carry in any zone: `now` + 14 h + 1 h. A later entry (a broken server
    /// clock, a hand-edited entry, a hostile answer dated 2099) must not move the checkpoint: every later window
    /// would start after every real entry, and colleagues' changes would lose their names, history-only actions
    /// vanish, for good. `nil` for a `now` that is not a time.
    public static func latestPlausible(now: Double) -> Timestamp? {
        guard now.isFinite, now > 0, now < 253_402_300_800 else { return nil }  // before year 10000
        return Timestamp(secondsSinceEpoch: Int(now) + furthestZoneAhead + clockSlack)
    }

    /// `checkpoint` if it is not later than `latest`, else `nil`: a checkpoint stored from an implausible entry
    /// (by a version without this bound) is dropped, and the window is measured again from the newest plausible
    /// entry.
    public static func plausible(_ checkpoint: Timestamp?, latest: Timestamp?) -> Timestamp? {
        guard let checkpoint, let latest else { return checkpoint }
        return checkpoint <= latest ? checkpoint : nil
    }
}
