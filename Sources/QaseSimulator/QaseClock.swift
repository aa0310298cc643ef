#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

/// The server's clock: system time plus an offset that `--clock-offset` sets and `POST /sim/clock` moves, so
/// that tests reach "a day later" without waiting. Seconds since 1970, UTC.
public struct QaseClock: Sendable {
    public var offset: Int

    public init(offset: Int = 0) { self.offset = offset }

    public var now: Int { Int(time(nil)) + offset }

    public mutating func advance(_ seconds: Int) { offset += seconds }

    /// `2026-08-01T09:10:11+00:00`, the documented form of `created_at`, `updated_at` and the like.
    public static func iso(_ seconds: Int) -> String { HTTPDate.zoneless(seconds).replacing(" ", with: "T") + "+00:00" }

    /// `2026-08-01 09:10:11`, the deprecated zone-less `created`/`updated` of defects and plans.
    public static func zoneless(_ seconds: Int) -> String { HTTPDate.zoneless(seconds) }

    /// `2026-08-01T09:10:11.000000Z`, the deprecated `created`/`updated` of a test case as the spec shows it.
    public static func microsecondsZ(_ seconds: Int) -> String {
        HTTPDate.zoneless(seconds).replacing(" ", with: "T") + ".000000Z"
    }

    /// The HTTP `Date` form (IMF-fixdate).
    public static func httpDate(_ seconds: Int) -> String { HTTPDate.format(seconds) }

    /// `Y-m-d H:i:s` (UTC) as seconds, or nil: the form of the result filters `from_end_time`/`to_end_time`.
    public static func parseZoneless(_ text: String) -> Int? { HTTPDate.parseZoneless(text) }
}
