#if canImport(Glibc)
import Glibc
#endif
import SimulatorKit

/// The simulator's clock: system time plus an offset (`--clock-offset`, moved by `POST /ccmweb/sim/clock`), printed
/// as Compass does (`yyyy-MM-dd HH:mm:ss`, UTC).
public struct SimClock: Sendable {
    public var offset: Int
    /// The reading the clock stopped at while it is held (`{"hold": 1}`): every history entry written meanwhile
    /// carries the same second, as a script's quick Modify + Modify does.
    public var heldAt: Int?

    public init(offset: Int = 0) { self.offset = offset }

    public var now: Int { heldAt ?? Int(time(nil)) + offset }

    /// Moves the clock by `seconds`, held or not.
    public mutating func advance(_ seconds: Int) {
        offset += seconds
        heldAt = heldAt.map { $0 + seconds }
    }

    /// Stops the clock at its current reading (`true`), or lets it run on from there (`false`).
    public mutating func hold(_ held: Bool) {
        if held, heldAt == nil { heldAt = now }
        if !held, let reading = heldAt {
            offset = reading - Int(time(nil))
            heldAt = nil
        }
    }

    public static func format(_ seconds: Int) -> String { HTTPDate.zoneless(seconds) }

    /// The HTTP `Date` form (IMF-fixdate), e.g. `Tue, 24 Nov 2026 02:40:00 GMT`.
    public static func httpDate(_ seconds: Int) -> String { HTTPDate.format(seconds) }

    /// `yyyy-MM-dd HH:mm:ss` as seconds on the zone-less scale, or `nil`.
    public static func parse(_ text: String) -> Int? { HTTPDate.parseZoneless(text) }
}
