import SourceKit
import TrackerHTTP

/// How a probe's transcript names Qase's routes: `/v1/plan/DEMO/3` → `/v1/plan/{code}/{id}`.
enum QaseTranscript {
    static func recorder(recording: Bool) -> ExchangeTranscript {
        ExchangeTranscript(label: "qase", recording: recording, shape: shape)
    }

    @Sendable static func shape(_ path: String) -> String {
        let segments = path.split(separator: "/").enumerated().map { index, segment -> String in
            if segment.allSatisfy(\.isNumber) { return "{id}" }
            if segment.count >= 32, segment.contains("-") { return "{uuid}" }
            let known = ["v1", "api", "project", "plan", "review", "defect", "case", "search", "author", "user"]
            return known.contains(String(segment)) || index == 0 ? String(segment) : "{code}"
        }
        return "/" + segments.joined(separator: "/")
    }
}
