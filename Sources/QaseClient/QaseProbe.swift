#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SourceKit
import Synchronization
import TrackerHTTP

/// `trackwatch probe` of a `[[qase]]` source: the survey as ✔/⚠/✘ lines, and the exchange for `--save`.
struct QaseProbe: SourceProbe {
    let survey: QaseSurvey
    let recorder: QaseTranscript

    func run() -> ProbeReport {
        let outcome = survey.run()
        var report = ProbeReport()
        for finding in outcome.findings { report.add(finding.mark, finding.text, then: finding.then) }
        report.stoppedBy = outcome.stoppedBy
        return report
    }

    func transcript() throws -> [UInt8] { try recorder.json() }
}

/// The exchange of a probe, kept to its shape: method, route (codes, ids and UUIDs replaced by their kind),
/// the names of the query's parameters, status, content type, `Retry-After` and size. No token, no value, no
/// item text: nothing in it identifies a person, a project or an item.
final class QaseTranscript: Sendable {
    struct Entry: Encodable, Sendable {
        let method: String
        let route: String
        let parameters: [String]
        let status: Int?
        let contentType: String?
        let retryAfter: String?
        let bytes: Int
        let error: String?
    }

    private let recording: Bool
    private let entries = Mutex<[Entry]>([])

    init(recording: Bool) { self.recording = recording }

    func wrapping(_ base: any HTTPTransport) -> any HTTPTransport {
        recording ? Recording(base: base, transcript: self) : base
    }

    fileprivate func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(["qase": entries.withLock { $0 }])) + [0x0A]
    }

    /// `/v1/plan/DEMO/3?limit=1` → `/v1/plan/{code}/{id}` and `["limit"]`.
    static func shape(_ url: String) -> (route: String, parameters: [String]) {
        let withoutScheme = url.split(separator: "://", maxSplits: 1).last.map(String.init) ?? url
        let pathAndQuery = withoutScheme.drop { $0 != "/" }
        let parts = pathAndQuery.split(separator: "?", maxSplits: 1)
        let segments = (parts.first ?? "").split(separator: "/").enumerated().map { index, segment -> String in
            if segment.allSatisfy(\.isNumber) { return "{id}" }
            if segment.count >= 32, segment.contains("-") { return "{uuid}" }
            let known = ["v1", "api", "project", "plan", "review", "defect", "case", "search", "author", "user"]
            return known.contains(String(segment)) || index == 0 ? String(segment) : "{code}"
        }
        let names = parts.count > 1 ? parts[1].split(separator: "&").map { String($0.prefix { $0 != "=" }) } : []
        return ("/" + segments.joined(separator: "/"), names)
    }

    private struct Recording: HTTPTransport {
        let base: any HTTPTransport
        let transcript: QaseTranscript

        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            let (route, parameters) = QaseTranscript.shape(request.url)
            do {
                let response = try base.send(request)
                transcript.append(
                    Entry(
                        method: request.method.rawValue, route: route, parameters: parameters, status: response.status,
                        contentType: response.header("Content-Type").map { String($0.prefix(60)) },
                        retryAfter: response.header("Retry-After").map { String($0.prefix(40)) },
                        bytes: response.body.count,
                        error: nil))
                return response
            } catch let error as TransportError {
                transcript.append(
                    Entry(
                        method: request.method.rawValue, route: route, parameters: parameters,
                        status: nil, contentType: nil, retryAfter: nil, bytes: 0, error: "\(error.kind)"))
                throw error
            }
        }

        func closeIdleConnections() { base.closeIdleConnections() }
    }
}
