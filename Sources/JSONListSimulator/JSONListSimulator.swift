import SimulatorKit
import Synchronization

/// json-sim's request handling, independent of the HTTP plumbing so that tests can call it directly.
public final class JSONListSimulator: SimHandler {
    let state: Mutex<ServerState>
    private let clock: @Sendable () -> Int

    public init(options: JSONSimOptions = JSONSimOptions()) {
        state = Mutex(ServerState(options: options))
        clock = options.clock
    }

    /// Tells the routes where the other listeners are (for redirects to https, http or another host).
    public func setListeners(_ listeners: Listeners) {
        state.withLock { $0.listeners = listeners }
    }

    public func handle(_ request: SimRequest) -> SimResponse {
        state.withLock { state in
            let call = Call(request: request, listeners: state.listeners, now: clock())
            var routed = state.route(call)
            var entry = RequestLog.entry(for: call, route: routed.name, number: state.stats.requests + 1)
            if call.segments.first != "sim" {
                entry.fault = state.applyFault(to: &routed.response, route: routed.name, call: call)
            }
            entry.status = routed.response.status
            entry.gzipped = routed.response.headers.contains {
                $0.0.lowercased() == "content-encoding" && $0.1 == "gzip"
            }
            state.stats.record(entry)
            state.log.append(entry)
            // Every origin server with a clock sends one (RFC 9110 §6.6.1).
            if !routed.response.headers.contains(where: { $0.0.lowercased() == "date" }) {
                routed.response.headers.append(("Date", HTTPDate.format(call.now)))
            }
            return routed.response
        }
    }
}
