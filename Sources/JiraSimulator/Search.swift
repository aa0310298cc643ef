#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import SimulatorKit

/// A search's parameters, from the query string (GET) or the JSON body (POST), named as Jira names them.
struct SearchParameters {
    var jql = ""
    var fields: [String] = []
    var expand: [String] = []
    var maxResults: Int?
    var startAt: Int?
    var nextPageToken: String?
    var reconcileIssues: [Int] = []

    init(_ call: Call) throws {
        guard call.request.method == "POST" else {
            jql = call.query("jql") ?? ""
            fields = call.queryAll("fields")
            expand = call.queryAll("expand").flatMap { $0.split(separator: ",").map(String.init) }
            maxResults = try call.query("maxResults").map { try Self.number($0, "maxResults") }
            startAt = try call.query("startAt").map { try Self.number($0, "startAt") }
            nextPageToken = call.query("nextPageToken")
            reconcileIssues = try call.queryAll("reconcileIssues").flatMap { $0.split(separator: ",") }
                .map { try Self.number(String($0), "reconcileIssues") }
            return
        }
        guard let body = try? JSONValue.parse(call.request.body), body.object != nil else {
            throw JiraError(400, "The request body is not valid JSON.")
        }
        jql = body["jql"]?.string ?? ""
        fields = body["fields"]?.array?.compactMap(\.string) ?? body["fields"]?.string.map { [$0] } ?? []
        expand = (body["expand"]?.array?.compactMap(\.string) ?? body["expand"]?.string.map { [$0] } ?? [])
            .flatMap { $0.split(separator: ",").map(String.init) }
        maxResults = body["maxResults"]?.int
        startAt = body["startAt"]?.int
        nextPageToken = body["nextPageToken"]?.string
        reconcileIssues = body["reconcileIssues"]?.array?.compactMap(\.int) ?? []
    }

    var changelog: Bool { expand.contains("changelog") }

    private static func number(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text) else { throw JiraError(400, "The value '\(text)' is not valid for '\(name)'.") }
        return value
    }
}

extension JiraState {
    /// The issues `jql` finds for `caller`, in its order; `include` drops more (the search lag).
    func matching(_ query: JQLQuery, caller: Int, include: (Issue) -> Bool = { _ in true }) throws -> [Issue] {
        let compiler = JQLCompiler(state: self, caller: caller)
        let predicate = try query.condition.map { try compiler.compile($0) } ?? { _ in true }
        let order = try compiler.order(query.order)
        let visible = projects.map { canSee(caller, project: $0.index) }
        var found: [Issue] = []
        for case let issue? in issues where visible[issue.projectIndex] && include(issue) && predicate(issue) {
            found.append(issue)
        }
        return found.sorted(by: order)
    }

    /// Cloud's `search/jql`: token paging, no `total`, `id` only by default, unbounded JQL refused, and the
    /// search lag that `reconcileIssues` overrides.
    func searchJQL(_ call: Call, _ view: View) throws -> JSONValue {
        let parameters = try SearchParameters(call)
        let query = try JQLParser.parse(parameters.jql)
        guard query.condition != nil else {
            throw JiraError(
                400, "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.")
        }
        guard parameters.reconcileIssues.count <= 50 else {
            throw JiraError(400, "The number of issues to reconcile cannot exceed 50.")
        }
        let fields = FieldSelection(parameters.fields, default: ["id"])
        let limit = clamp(fields.idOnly && !parameters.changelog ? 5000 : 100)
        let size = min(max(parameters.maxResults ?? 50, 1), limit)
        let offset = try parameters.nextPageToken.map { try PageToken.offset($0, jql: parameters.jql) } ?? 0
        let reconciled = Set(parameters.reconcileIssues)
        let cutoff = now - switches.searchLag
        let found = try matching(query, caller: view.caller) { issue in
            switches.searchLag == 0 || issue.updated <= cutoff || reconciled.contains(issue.id)
        }
        let page = found.dropFirst(offset).prefix(size)
        var members: [(key: String, value: JSONValue)] = [
            ("issues", .array(page.map { issueJSON($0, fields: fields, changelog: parameters.changelog, view: view) }))
        ]
        let isLast = offset + page.count >= found.count
        if !isLast { members.append(("nextPageToken", .string(PageToken.make(offset + page.count, jql: parameters.jql)))) }
        members.append(("isLast", .bool(isLast)))
        return .object(members)
    }

    func approximateCount(_ call: Call, _ view: View) throws -> JSONValue {
        let query = try JQLParser.parse(try SearchParameters(call).jql)
        guard query.condition != nil else {
            throw JiraError(
                400, "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.")
        }
        return ["count": .int(try matching(query, caller: view.caller).count)]
    }

    /// Data Center's `search`: offset paging with `total`; on Cloud, 410 since CHANGE-2046.
    func searchDC(_ call: Call, _ view: View) throws -> JSONValue {
        guard flavor == .dc else {
            throw JiraError(
                410, "The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. A full "
                    + "migration guideline is available at https://developer.atlassian.com/changelog/#CHANGE-2046")
        }
        let parameters = try SearchParameters(call)
        let startAt = max(parameters.startAt ?? 0, 0)
        guard startAt <= 10_000 else { throw JiraError(500, "Search limit exceeded.") }
        let size = min(max(parameters.maxResults ?? 50, 0), clamp(1000))
        let fields = FieldSelection(parameters.fields, default: ["*navigable"])
        let found = try matching(try JQLParser.parse(parameters.jql), caller: view.caller)
        let page = found.dropFirst(startAt).prefix(size)
        return [
            "expand": "schema,names", "startAt": .int(startAt), "maxResults": .int(size), "total": .int(found.count),
            "issues": .array(page.map { issueJSON($0, fields: fields, changelog: parameters.changelog, view: view) }),
        ]
    }

    /// An endpoint's page-size limit, lowered by `--max-results`.
    func clamp(_ limit: Int) -> Int { switches.maxResults > 0 ? min(limit, switches.maxResults) : limit }

    func getIssue(_ key: String, _ call: Call, _ view: View) throws -> JSONValue {
        let issue = issues[try slot(key, for: view.caller)]!
        let fields = FieldSelection(call.queryAll("fields"), default: ["*all"])
        let expand = call.queryAll("expand").flatMap { $0.split(separator: ",") }
        // Data Center's issue carries its whole changelog (it has no changelog route to page it); Cloud's is cut
        // like a search's, and `/issue/{id}/changelog` pages the rest.
        var view = view
        if view.flavor == .dc { view.switches.embeddedLimit = Int.max }
        return issueJSON(issue, fields: fields, changelog: expand.contains("changelog"), view: view)
    }

    /// `GET /user/search?query=` (Cloud) or `?username=` (Data Center): people whose name, e-mail or id contain it.
    func userSearch(_ call: Call, _ view: View) -> JSONValue {
        let needle = (call.query("query") ?? call.query("username") ?? "").lowercased()
        let found = Directory.people.indices.filter { index in
            let person = Directory.people[index]
            return [person.displayName, person.email, person.accountId, person.handle].contains {
                $0.lowercased().contains(needle)
            }
        }
        return .array(found.map { view.user($0) })
    }
}

/// `nextPageToken`: opaque to clients, bound to its query, so a token from another query is refused.
enum PageToken {
    static func make(_ offset: Int, jql: String) -> String {
        Data("\(offset):\(fingerprint(jql))".utf8).base64EncodedString()
    }

    static func offset(_ token: String, jql: String) throws -> Int {
        let invalid = JiraError(400, "The provided next page token is invalid or expired.")
        guard let data = Data(base64Encoded: token), let text = String(data: data, encoding: .utf8) else {
            throw invalid
        }
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count == 2, let offset = Int(parts[0]), offset >= 0, parts[1] == fingerprint(jql) else {
            throw invalid
        }
        return offset
    }

    /// FNV-1a, stable across runs (Swift's `hashValue` is seeded per process).
    static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 36)
    }
}
