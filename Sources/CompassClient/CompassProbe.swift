import Logging
import SourceKit
import TrackerHTTP
import TrackwatchCore

/// `trackwatch probe`: is this Compass server supported? Asks the server what the daemon would ask, through the
/// daemon's own client, read-only: the queries it stores are temporary and deleted again, no record is changed,
/// and it logs in once (a second login could count towards an account lock).
public struct ServerProbe {
    /// The names of the stored queries the probe makes (distinct from the daemon's, which it must not touch).
    public static let assignedQueryName = "trackwatch probe assigned to me"
    public static let historyQueryName = "trackwatch probe history"
    /// The page size that makes a handful of records span several pages.
    public static let tinyPageSize = 2
    /// Rows asked for in the paging check: three pages of two.
    public static let pagingCheckRows = 6

    let server: ServerConfig
    let poll: PollConfig
    let client: CompassClient
    let recorder: RecordingTransport
    let environment: [String: String]
    let now: () -> Double

    /// Strings the transcript may keep as they are: what trackwatch itself puts in its queries, and the folder
    /// names it knows.
    public static var harmlessStrings: Set<String> {
        var strings: Set<String> = [
            WatchQueries.currentUser, WatchQueries.entity, assignedQueryName, historyQueryName,
            assignedQueryName + " batch", historyQueryName + " batch",
        ]
        strings.formUnion(WatchQueries.assignedColumns)
        strings.formUnion(WatchQueries.historyColumns)
        strings.formUnion(["Personal Queries", "Public Queries", "Persönliche Abfragen", "Öffentliche Abfragen"])
        return strings
    }

    /// A probe of `server` with its own client, whose exchange `recorder` keeps.
    /// `transcript`: keep the exchange for `transcript()` (`--save`).
    public init(
        server: ServerConfig, poll: PollConfig, credential: Credential, environment: [String: String],
        logger: Logger, transcript: Bool, now: @escaping () -> Double
    ) throws {
        var recorder: RecordingTransport?
        // makeClient calls `wrap` exactly once, before it returns.
        client = try CompassClient.make(
            server: server, credential: credential, environment: environment, logger: logger,
            wrap: { inner in
            let recording = RecordingTransport(inner, harmless: Self.harmlessStrings, keeping: transcript)
            recorder = recording
            return recording
        }, now: now)
        client.probing = true
        self.recorder = recorder!
        self.server = server
        self.poll = poll
        self.environment = environment
        self.now = now
    }

    /// The transcript of everything asked and answered so far, redacted (`RecordingTransport`).
    public func transcript() throws -> [UInt8] {
        try recorder.transcript(note: ["trackwatch": "probe", "server": server.name ?? "[server]"])
    }

    /// Runs every check and returns the report; stops early (with `stoppedBy`) when the server cannot be reached
    /// or refuses the login, since nothing else can be learned then.
    public func run() async -> ProbeReport {
        var report = ProbeReport()
        proxy(&report)
        do {
            try await folders(&report)
            try await queries(&report)
            try await history(&report)
            await sessionEnd(&report)
        } catch {
            report.add(.fail, "\(error)", then: Self.advice(for: error))
            report.stoppedBy = error
            await client.logoff()
        }
        return report
    }

    // MARK: - Checks

    /// How the connection is protected; said once the server answered (a certificate it refused is the ✘ of the
    /// login instead).
    private func transportSecurity(_ report: inout ProbeReport) {
        if server.url.lowercased().hasPrefix("https://") {
            if server.insecure {
                report.add(
                    .warn, "TLS without certificate verification (insecure = true)",
                    then:
                        "anyone on the network path could read your password; "
                        + "set ca_file to the server's certificate instead"
                )
            } else {
                report.add(
                    .pass,
                    "TLS, the server's certificate verified against "
                        + (server.caFile.map { "ca_file \($0)" } ?? "the system's certificate store"))
            }
        } else if ServerURL.isCleartextToAnotherHost(server.url) {
            report.add(.warn, "plain http:// to another host", then: Connection.cleartextWarning)
        } else if let choice = try? server.connection.proxyChoice(
            environment: environment, table: "[server]", label: server.label), let proxy = choice.proxy
        {
            report.add(.warn, "plain http:// through the proxy \(proxy)",
                       then: Connection.cleartextThroughProxyWarning(proxy))
        } else {
            report.add(.pass, "plain http:// on this machine")
        }
    }

    private func proxy(_ report: inout ProbeReport) {
        if let choice = try? server.connection.proxyChoice(environment: environment, table: "[server]", label: server.label),
            let proxy = choice.proxy
        {
            report.add(.pass, "through the proxy \(proxy) (from \(choice.source ?? "the configuration"))")
        } else {
            report.add(.pass, "no proxy")
        }
    }

    private func folders(_ report: inout ProbeReport) async throws {
        let roots = try await client.rootFolders()
        transportSecurity(&report)
        report.add(.pass, "logged in as \(server.username) to \(server.repo)/\(server.database)")
        let quoted = roots.all.map { "\"\($0)\"" }.joined(separator: ", ")
        if roots.personal == WorkspacePath.personalRoot {
            report.add(.pass, "root folders \(quoted); personal: \"\(roots.personal)\"")
        } else {
            report.add(
                .warn, "root folders \(quoted); personal: \"\(roots.personal)\" (not the English name)",
                then: "trackwatch finds the personal folder by what it is; a [[watch]] may name it either way")
        }
    }

    private func queries(_ report: inout ProbeReport) async throws {
        // Paging first, on tiny pages, so that even a few records span pages on whichever path is in use.
        var paging = try await pagingCheck(pageSize: Self.tinyPageSize, maxRows: Self.pagingCheckRows)
        // That read is cut at our own maxResultSetRows; a server whose resultSetIsLimited is a 0/1 flag calls the
        // cut "1". Only the whole query, uncut by us, can tell the server's own limit.
        let limitAtOwnCut = client.resultTraits.rowLimit
        client.resultTraits.rowLimit = nil
        client.resultTraits.limitedRecordCount = nil
        // The query as the daemon runs it: whole, at the configured page size, by whatever route works.
        let rows = try await client.run(
            WatchQueries.assignedToMe, storedAs: Self.assignedQueryName, lifetime: .temporary,
            pageSize: poll.pageSize)
        queryPath(&report)  // known once a query ran whole
        let route = client.resultTraits.lastRoute.map(Self.describe) ?? "page by page"
        report.add(.pass, "query \"assigned to me\": \(rows.count) records, read \(route)")
        if let flag = limitAtOwnCut, client.resultTraits.rowLimit == nil {
            report.add(
                .warn,
                "resultSetIsLimited is a flag here: \(flag) for the probe's own cut at \(Self.pagingCheckRows) rows, "
                    + "while no limit cut the whole query",
                then: "nothing to do while no administrator limits results; under a limit trackwatch would take it "
                    + "for \(flag) rows and read in batches of \(flag) (slow, nothing cut)")
            if rows.count > Self.tinyPageSize {
                // Paging again without a cut of ours: about three pages of the whole result.
                paging = try await pagingCheck(pageSize: max(Self.tinyPageSize, (rows.count + 2) / 3), maxRows: nil)
            }
        }
        pagingVerdict(paging, &report)
        rowLimitVerdict(&report)
    }

    /// The assigned-to-me query read on pages of `pageSize`, at most `maxRows`: how many rows arrived, or why not.
    private func pagingCheck(pageSize: Int, maxRows: Int?) async throws -> (pageSize: Int, rows: Int, error: (any Error)?) {
        do {
            let rows = try await client.run(
                WatchQueries.assignedToMe, storedAs: Self.assignedQueryName, lifetime: .temporary,
                pageSize: pageSize, maxRows: maxRows)
            return (pageSize, rows.count, nil)
        } catch let error as CompassError {
            if case .unreachable = error { throw error }
            if case .loginRejected = error { throw error }
            return (pageSize, 0, error)
        }
    }

    private func pagingVerdict(_ paging: (pageSize: Int, rows: Int, error: (any Error)?), _ report: inout ProbeReport) {
        let traits = client.resultTraits
        let path = client.queryPath ?? .adHoc
        if traits.pagingIgnored.contains(path) {
            report.add(
                .warn, "page 2 repeated page 1: the server ignores pageNumber on the \(path.rawValue) path",
                then: traits.csvRoute == true
                    ? "trackwatch reads results of more than one page as one CSV file (…/file?fileType=csv), "
                        + "which works here"
                    : "trackwatch reads results of more than one page on one large page or in id-ordered batches "
                        + "(the CSV file route does not work here)")
        } else if let error = paging.error, traits.rowLimit == nil {
            report.add(
                .fail, "paging on pages of \(paging.pageSize): \(error)",
                then: "send the transcript (probe --save) to the trackwatch developers")
        } else if paging.rows > paging.pageSize {
            report.add(.pass, "paging: \(paging.rows) records on pages of \(paging.pageSize), no page repeated")
        } else if traits.rowLimit == nil {
            report.add(
                .unknown,
                "paging not checked: only \(paging.rows) records assigned to you (it takes \(paging.pageSize + 1))")
        }
    }

    private func rowLimitVerdict(_ report: inout ProbeReport) {
        let traits = client.resultTraits
        if let limit = traits.rowLimit {
            let count =
                traits.limitedRecordCount.map {
                    $0 > limit
                        ? "; its recordCount (\($0)) counts the rows before the cut"
                        : "; its recordCount counts the rows after the cut"
                } ?? "; no recordCount"
            report.add(
                .warn, "the server limits query results to \(limit) rows (resultSetIsLimited)\(count)",
                then: "trackwatch reads larger results in id-ordered batches of at most \(limit) rows, so none is cut")
        } else {
            report.add(.pass, "no row limit reported (resultSetIsLimited)")
        }
    }

    private func queryPath(_ report: inout ProbeReport) {
        switch (client.queryPath, client.adHocRefusal) {
        case (.adHoc?, _):
            report.add(.pass, "ad-hoc queries (POST …/query) run")
        case (.stored?, let refusal?):
            let folder = client.personalFolderName ?? WorkspacePath.personalRoot
            let what = "POST …/query refused with \(refusal): no ad-hoc queries"
            let then =
                "trackwatch stores its two queries in \"\(folder)\" (a history query only for the moment it runs)"
            if [AdHocRefusal.status(404), .status(405), .status(501)].contains(refusal) {
                report.add(.pass, what + "; \(then)")
            } else {
                report.add(.warn, what + " (or a passing fault)", then: then + "; it asks for /query again every hour")
            }
        default:
            report.add(.unknown, "query path not found out")
        }
    }

    private func history(_ report: inout ProbeReport) async throws {
        let rows: [[String]]
        do {
            rows = try await client.run(
                WatchQueries.historyOfMyRecords(since: nil), storedAs: Self.historyQueryName,
                lifetime: .temporary, pageSize: 1, maxRows: 1)
        } catch let error as CompassError {
            if case .unreachable = error { throw error }
            report.add(
                .fail, "query \"history of my records\": \(error)",
                then: "colleagues' changes cannot be told apart from yours; send the transcript (probe --save)")
            return
        }
        let history: WatchQueries.HistoryRows
        do {
            history = try WatchQueries.historyRows(rows)
        } catch {
            report.add(
                .fail, "history: \(error)", then: "send the transcript (probe --save) to the trackwatch developers")
            return
        }
        guard let newest = history.entries.first, let format = history.formats.first else {
            report.add(.unknown, "no history entries on your records: timestamp format and zone not checked")
            return
        }
        report.add(.pass, "history timestamps: \(format) (\"\(Self.quoteable(rows[0][3]))\")")
        // The server's own clock when it sends one; else this machine's, which may differ from it.
        let serverClock = recorder.lastServerDate.flatMap(CompassClient.serverClock)
        guard let seconds = newest.timestamp.secondsSinceEpoch, let clock = serverClock ?? Optional(now()),
            clock.isFinite, abs(clock) < 1e12
        else { return }
        let item = Self.zone(
            newestEntry: seconds, clock: Int(clock), namesItsZone: format.namesItsZone,
            clockName: serverClock == nil
                ? "this machine's clock (the server sent no Date header)"
                : "the server's clock")
        report.add(item.mark, item.text, then: item.then)
    }

    /// What the newest history entry and the server's clock honestly tell about the zone entries are stored in.
    /// The newest entry is not in the future, so entry − clock = offset − age: the offset is at least that
    /// difference, and equal to it only when the entry was made just now.
    static func zone(newestEntry entry: Int, clock: Int, namesItsZone: Bool, clockName: String = "the server's clock")
        -> ProbeReport.Item
    {
        let difference = entry - clock
        let slack = 5 * 60
        let latestZone = 14 * 3_600
        if namesItsZone {
            if difference > slack {
                return .init(
                    mark: .warn,
                    text: "history zone: entries name their zone; the newest is "
                        + "\(duration(difference)) ahead of \(clockName)",
                    then:
                        "the server's clock or that entry is wrong; trackwatch still reads it, "
                        + "but tell the administrator"
                )
            }
            return .init(mark: .pass, text: "history zone: entries name their zone (converted to UTC)", then: nil)
        }
        if difference > latestZone + slack {
            return .init(
                mark: .warn,
                text: "history zone: the newest entry is \(duration(difference)) ahead of "
                    + "\(clockName), later than any zone allows",
                then: "the server's clock or that entry is wrong; tell the administrator")
        }
        if difference < -12 * 3_600 - slack {
            return .init(
                mark: .unknown,
                text: "history zone not told: the newest entry is \(duration(-difference)) behind "
                    + "\(clockName), more than any zone explains (change a record and probe again to tell)",
                then: nil)
        }
        let quarterHours = Int((Double(difference) / 900).rounded())
        let zone = quarterHours == 0 ? "UTC" : "UTC\(utcOffset(quarterHours * 900))"
        return .init(
            mark: .pass,
            text: "history zone: entries are stored in \(zone) if the newest was made just now, "
                + "else in a zone east of it (change a record and probe again to tell); "
                + "trackwatch does not depend on it"
                + (clockName == "the server's clock" ? "" : "; compared with \(clockName)"), then: nil)
    }

    private func sessionEnd(_ report: inout ProbeReport) async {
        let cookies = client.cookieNames
        report.add(
            .pass,
            cookies.isEmpty
                ? "no cookies set"
                : "cookies set: \(cookies.map { CompassClient.plainServerText($0) }.joined(separator: ", "))"
                    + " (kept for the session; values not shown)"
        )
        do {
            guard let (logoff, refusal) = try await client.refusalOfLoggedOffToken() else {
                report.add(.unknown, "token refusal not checked: a personal access token has no session to log off")
                return
            }
            if !(200..<300).contains(logoff) {
                report.add(
                    .warn, "logoff answered HTTP \(logoff)",
                    then: "trackwatch logs off on exit regardless; nothing to do")
            }
            switch refusal {
            case 401:
                report.add(.pass, "a logged-off token is refused with HTTP 401")
            case 403, 500:
                report.add(
                    .warn, "a logged-off token is refused with HTTP \(refusal), not 401",
                    then: "trackwatch logs in again once when a new login cures a \(refusal); a \(refusal) it "
                        + "does not cure is reported as the error it is")
            case 200..<300:
                report.add(
                    .warn, "a logged-off token still works (HTTP \(refusal)): logoff does not end sessions here",
                    then: "nothing for trackwatch to do; tokens still expire")
            default:
                report.add(
                    .warn, "a logged-off token is refused with HTTP \(refusal)",
                    then: "trackwatch takes it for an error, not an expired token; send the transcript (probe --save)")
            }
        } catch {
            report.add(.unknown, "token refusal not checked: \(error)")
        }
    }

    // MARK: - Words

    static func describe(_ route: ResultRoute) -> String {
        switch route {
        case .pages: return "page by page"
        case .csv: return "as one CSV file (…/file?fileType=csv)"
        case .batches: return "in id-ordered batches"
        }
    }

    static func advice(for error: any Error) -> String {
        switch error {
        case CompassError.loginRejected:
            return "check username and the password source in [server]; doctor checks them too"
        case CompassError.unreachable: return "check url, proxy and the network; `trackwatch doctor` says more"
        case CompassError.repositoryOrDatabaseNotFound: return "correct repo and database in [server]"
        default: return "send the transcript (probe --save FILE) to the trackwatch developers"
        }
    }

    /// A server value shown in the report: one plain line, at most 40 characters.
    static func quoteable(_ text: String) -> String { String(CompassClient.plainServerText(text).prefix(40)) }

    static func duration(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return minutes >= 120 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }

    static func utcOffset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let sign = seconds < 0 ? "−" : "+"
        return minutes % 60 == 0
            ? "\(sign)\(minutes / 60)" : "\(sign)\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
    }
}
