#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization
import TrackerHTTP

/// The exchange of a probe, kept to its shape: method, route (ids, keys and codes replaced by their kind, as the
/// source's `shape` says), the names of the query's parameters, status, content type, `Retry-After` and size. No
/// credential, no value, no item text: nothing in it identifies a person, a project or an item. What
/// `probe --save` writes for the sources that record one.
public final class ExchangeTranscript: Sendable {
    public struct Entry: Encodable, Sendable {
        let method: String
        let route: String
        let parameters: [String]
        let status: Int?
        let contentType: String?
        let retryAfter: String?
        let bytes: Int
        let error: String?
    }

    /// The key the entries are written under: the kind of source.
    private let label: String
    private let recording: Bool
    private let shape: @Sendable (String) -> String
    private let entries = Mutex<[Entry]>([])

    /// - Parameter shape: a request's path (no query) as a route: `/v1/plan/DEMO/3` → `/v1/plan/{code}/{id}`.
    public init(label: String, recording: Bool, shape: @escaping @Sendable (String) -> String) {
        self.label = label
        self.recording = recording
        self.shape = shape
    }

    /// `base`, recording each exchange when the probe keeps a transcript.
    public func wrapping(_ base: any HTTPTransport) -> any HTTPTransport {
        recording ? Recording(base: base, transcript: self) : base
    }

    public func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode([label: entries.withLock { $0 }])) + [0x0A]
    }

    /// `https://host/v1/plan/DEMO/3?limit=1` → its route as `shape` names it, and `["limit"]`.
    func route(_ url: String) -> (route: String, parameters: [String]) {
        let withoutScheme = url.split(separator: "://", maxSplits: 1).last.map(String.init) ?? url
        let parts = withoutScheme.drop { $0 != "/" }.split(separator: "?", maxSplits: 1)
        let names = parts.count > 1 ? parts[1].split(separator: "&").map { String($0.prefix { $0 != "=" }) } : []
        return (shape(String(parts.first ?? "")), names)
    }

    private struct Recording: HTTPTransport {
        let base: any HTTPTransport
        let transcript: ExchangeTranscript

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let (route, parameters) = transcript.route(request.url)
            let entry = { (status: Int?, type: String?, retry: String?, bytes: Int, error: String?) in
                Entry(
                    method: request.method.rawValue, route: route, parameters: parameters, status: status,
                    contentType: type.map { String($0.prefix(60)) }, retryAfter: retry.map { String($0.prefix(40)) },
                    bytes: bytes, error: error)
            }
            do {
                let response = try await base.send(request)
                let recorded = entry(
                    response.status, response.header("Content-Type"), response.header("Retry-After"),
                    response.body.count, nil)
                transcript.entries.withLock { $0.append(recorded) }
                return response
            } catch let error as TransportError {
                let recorded = entry(nil, nil, nil, 0, "\(error.kind)")
                transcript.entries.withLock { $0.append(recorded) }
                throw error
            }
        }

        func closeIdleConnections() { base.closeIdleConnections() }
    }
}

/// `trackwatch probe` of a source whose survey is a function: its ✔/⚠/✘ lines, and the exchange for `--save`.
public struct SurveyProbe: SourceProbe {
    let survey: () async -> ProbeReport
    let recorder: ExchangeTranscript

    public init(survey: @escaping () async -> ProbeReport, recorder: ExchangeTranscript) {
        self.survey = survey
        self.recorder = recorder
    }

    public func run() async -> ProbeReport { await survey() }
    public func transcript() throws -> [UInt8] { try recorder.json() }
}

extension DoctorReport {
    /// A survey's findings as `doctor` lines: ✔, ⚠ (with what trackwatch does about it), ✘ with its fix (or
    /// `fix` where the finding names none), · skipped.
    public mutating func append(survey: ProbeReport, fix: String) {
        for item in survey.items {
            switch item.mark {
            case .pass: pass(item.text)
            case .warn: warn(item.then.map { "\(item.text); \($0)" } ?? item.text)
            case .fail: fail(item.text, fix: item.then ?? fix)
            case .unknown: skip(item.text)
            }
        }
    }
}
