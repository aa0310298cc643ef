@testable import JSONListClient
import Synchronization
import TrackerHTTP
import TrackwatchCore

/// A server in the test process: answers each request with what `answer` says for its URL, and keeps what was
/// asked (URL and headers), so that the client's paging and credential rules can be checked without a socket.
final class ScriptedServer: HTTPTransport, Sendable {
    private let answer: @Sendable (String, [(name: String, value: String)]) -> HTTPResponse
    private let log = Mutex<[HTTPRequest]>([])

    init(_ answer: @escaping @Sendable (String, [(name: String, value: String)]) -> HTTPResponse) {
        self.answer = answer
    }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        log.withLock { $0.append(request) }
        return answer(request.url, request.headers)
    }

    var requests: [HTTPRequest] { log.withLock { $0 } }
    var urls: [String] { requests.map(\.url) }

    /// The value of `header` in request `index`.
    func header(_ name: String, of index: Int) -> String? {
        requests[index].headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A JSON answer.
func json(_ text: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
}

/// `[{"id": from}, …, {"id": to}]` (empty when `from > to`).
func items(_ range: ClosedRange<Int>) -> String {
    "[" + range.map { #"{"id": \#($0), "title": "Item \#($0)"}"# }.joined(separator: ",") + "]"
}

/// A reader of `config` over `server`.
func reader(_ config: JSONListConfig, _ server: ScriptedServer, secret: String? = nil) -> ListReader {
    ListReader(
        config: config,
        fetcher: ListFetcher(
            config: config, transport: server, secret: secret.map(Secret.init),
            wallClock: { 1_700_000_000 }))
}

extension ListReader.Outcome {
    var read: ListRead? { if case .list(let read) = self { read } else { nil } }
}
