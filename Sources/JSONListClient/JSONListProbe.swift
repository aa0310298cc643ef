import SourceKit
import TrackerHTTP
import TrackwatchCore

/// `trackwatch probe` for a JSON list: what the server answers — status and redirects, encoding, the shape and
/// where the items are, the key, how it pages, whether it answers conditional requests — read-only, with the
/// same client a poll uses.
struct JSONListProbe: SourceProbe {
    let config: JSONListConfig
    let transport: any HTTPTransport
    let fetcher: ListFetcher
    let reader: ListReader
    /// The exchange, kept to its shape for `--save`: each request's path and parameter names, each answer's status,
    /// type and size — no host, no credential, no value.
    let recorder: ExchangeTranscript

    init(
        config: JSONListConfig, transport: any HTTPTransport, secret: Secret?, wallClock: @escaping () -> Double,
        recording: Bool = false
    ) {
        self.config = config
        recorder = ExchangeTranscript(label: "json", recording: recording, shape: { $0.isEmpty ? "/" : $0 })
        self.transport = recorder.wrapping(transport)
        fetcher = ListFetcher(config: config, transport: self.transport, secret: secret, wallClock: wallClock)
        reader = ListReader(config: config, fetcher: fetcher)
    }

    func transcript() throws -> [UInt8] { try recorder.json() }

    func run() async -> ProbeReport {
        var report = ProbeReport()
        defer { transport.closeIdleConnections() }
        do {
            let first = try await reader.read(validators: nil)
            guard case .list(let read) = first, let answer = read.first else { return report }
            describeAnswer(answer, read.traits, &report)
            describeItems(read, &report)
            describePaging(read, &report)
            try await describeConditional(answer, pages: read.pages, &report)
        } catch {
            let fix = (error as? JSONListError)?.fix ?? "run trackwatch doctor, with -v"
            report.add(.fail, "[[json]] \(config.name): \(error)", then: fix)
            report.stoppedBy = error
        }
        return report
    }

    private func describeAnswer(_ answer: FirstAnswer, _ traits: AnswerBody.Traits, _ report: inout ProbeReport) {
        let moved = answer.redirects > 0 ? " after \(answer.redirects) redirect\(answer.redirects == 1 ? "" : "s")" : ""
        report.add(
            .pass,
            "\(config.url) answered HTTP \(answer.status)\(moved): \(answer.bytes) bytes of "
                + "\(answer.contentType ?? "no Content-Type")")
        var encoding: [String] = []
        if let coding = answer.contentEncoding { encoding.append("Content-Encoding \(coding), inflated") }
        if answer.chunked { encoding.append("chunked") }
        if traits.byteOrderMark { encoding.append("a UTF-8 byte order mark, skipped") }
        encoding.append(traits.charset.map { "charset \($0)" } ?? "no charset (read as UTF-8)")
        if traits.lines { encoding.append("NDJSON, one item per line") }
        report.add(.pass, "encoding: " + encoding.joined(separator: ", "))
    }

    private func describeItems(_ read: ListRead, _ report: inout ProbeReport) {
        let collector = read.collector
        report.add(
            .pass,
            "\(collector.itemCount) items at items \"\(config.items)\"; \(collector.keyedCount) keys in "
                + "\"\(config.key)\"")
        if collector.keylessCount > 0 || !collector.conflicting.isEmpty {
            report.add(
                .warn,
                "\(collector.keylessCount) items without a key, \(collector.conflicting.count) keys shared "
                    + "by items that differ",
                then: "they are left out of the comparison and named in a warning each poll")
        }
    }

    private func describePaging(_ read: ListRead, _ report: inout ProbeReport) {
        if let seen = read.pagingSeen {
            report.add(.pass, "paging: \(read.pages) pages, found through \(seen)")
        } else {
            report.add(.pass, "paging: one page (configured: \(config.paging.summary))")
        }
    }

    /// Asks the first page again with its validators: a 304 means an unchanged list costs nothing.
    private func describeConditional(_ answer: FirstAnswer, pages: Int, _ report: inout ProbeReport) async throws {
        guard let validators = answer.validators else {
            report.add(
                .warn, "no ETag or Last-Modified: conditional requests are not possible",
                then: "each poll reads the whole list")
            return
        }
        let named = [validators.etag.map { _ in "ETag" }, validators.lastModified.map { _ in "Last-Modified" }]
            .compactMap { $0 }.joined(separator: " and ")
        guard let url = ListURL(config.url), pages == 1 else {
            report.add(.pass, "\(named) sent; the list has several pages, so each poll reads them all")
            return
        }
        switch try await fetcher.get(url, validators: validators) {
        case .notModified: report.add(.pass, "conditional requests: \(named) answered with 304 Not Modified")
        case .answer(let again):
            report.add(
                .warn, "\(named) sent, but asked again with them the server answered HTTP \(again.status)",
                then: "each poll reads the whole list")
        }
    }
}
