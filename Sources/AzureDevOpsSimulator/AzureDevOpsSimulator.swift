#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Synchronization
import SimulatorKit

/// ado-sim's request handling, independent of the HTTP plumbing so that tests can call it directly: Azure DevOps'
/// REST API under `/ORG` (Services) and `/tfs/COLLECTION` (Server), control routes under `/sim/`
/// (docs/azure-devops-sim.md).
public final class AzureDevOpsSimulator: SimHandler {
    let state: Mutex<AzureDevOpsState>

    public init(options: AzureDevOpsSimulatorOptions) {
        state = Mutex(AzureDevOpsState(options: options))
    }

    public func handle(_ request: SimRequest) -> SimResponse {
        state.withLock { state in
            let call = Call(request)
            var response = call.segments.first == "sim" ? state.simRoute(call) : state.apiRoute(call)
            response.headers.append(("Date", HTTPDate.format(state.now / 1000)))
            return response
        }
    }
}

/// One request as the routes see it: where it points (organization or collection, project, the segments after
/// `_apis`), its query, headers and body.
struct Call {
    let request: SimRequest
    let segments: [String]

    init(_ request: SimRequest) {
        self.request = request
        segments = request.path.split(separator: "/").map(String.init)
    }

    /// The last value of a query parameter (names compared without case, as ASP.NET does).
    func query(_ name: String) -> String? {
        request.queryPairs.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    var method: String { request.method }
    func header(_ name: String) -> String? { request.headers[name.lowercased()] }
}

/// A request matched to a route: its name (as in stats and faults), the project named in the path, the
/// parameters after `_apis`, and the base URL it came in on.
struct Routed {
    let name: String
    let project: String?
    let parameters: [String]
    let base: String
}

/// An error answer in Azure DevOps' envelope.
struct AzureDevOpsError: Error {
    let status: Int
    let message: String
    let typeKey: String

    init(_ status: Int, _ message: String, _ typeKey: String) {
        (self.status, self.message, self.typeKey) = (status, message, typeKey)
    }

    var body: JSONValue {
        [
            "$id": "1", "innerException": .null, "message": .string(message),
            "typeName": .string("Microsoft.VisualStudio.Services.Common.\(typeKey), Microsoft.VisualStudio.Services.Common"),
            "typeKey": .string(typeKey), "errorCode": 0, "eventId": 3000,
        ]
    }

    static func workItemNotFound(_ id: Int) -> AzureDevOpsError {
        AzureDevOpsError(404, "TF401232: Work item \(id) does not exist, or you do not have permissions to read it.",
            "WorkItemUnauthorizedAccessException")
    }

    static func projectNotFound(_ name: String) -> AzureDevOpsError {
        AzureDevOpsError(404, "TF200016: The following project does not exist: \(name). Verify that the name of the "
            + "project is correct and that the project exists on the specified Azure DevOps Server.",
            "ProjectDoesNotExistWithNameException")
    }

    static func pullRequestNotFound(_ id: Int) -> AzureDevOpsError {
        AzureDevOpsError(404, "TF401180: The requested pull request was not found.", "GitPullRequestNotFoundException")
    }

    static func noRoute(_ path: String) -> AzureDevOpsError {
        AzureDevOpsError(404, "VS800040: No API resource is registered for \(path).", "VssResourceNotFoundException")
    }

    static func badRequest(_ message: String) -> AzureDevOpsError {
        AzureDevOpsError(400, message, "InvalidArgumentValueException")
    }
}

/// An answer before headers: JSON and status.
struct Answer {
    var body: JSONValue
    var status = 200
    var headers: [(String, String)] = []

    init(_ body: JSONValue, status: Int = 200) {
        self.body = body
        self.status = status
    }

    /// `{count, value}`, Azure DevOps' list wrapper.
    static func list(_ values: [JSONValue]) -> Answer { Answer(["count": .int(values.count), "value": .array(values)]) }
}

extension AzureDevOpsState {
    /// The routes and the resources `OPTIONS /_apis` lists: name, method, `_apis` path pattern (`*` one segment),
    /// the resource's location id, area, resource name, route template, resource version and preview-only.
    static let routes: [(name: String, method: String, pattern: [String], location: String, area: String,
        resource: String, template: String, resourceVersion: Int, preview: Bool)] = [
        ("GET connectionData", "GET", ["connectiondata"], "00d9565f-ed9c-4a06-9a50-00e7896ccab4", "Location",
            "ConnectionData", "_apis/connectionData", 1, false),
        ("GET resourceAreas", "GET", ["resourceareas"], "e81700f7-3be2-46de-8624-2eb35882fcaa", "Location",
            "ResourceAreas", "_apis/resourceAreas/{areaId}", 1, false),
        ("GET projects", "GET", ["projects"], "603fe2ac-9723-48b9-88ad-09305aa6c6e1", "core", "projects",
            "_apis/projects/{*projectId}", 4, false),
        ("GET project", "GET", ["projects", "*"], "", "", "", "", 0, false),
        ("POST wiql", "POST", ["wit", "wiql"], "1a9c53f7-f243-4447-b110-35ef023636e4", "wit", "wiql",
            "{project}/{team}/_apis/wit/wiql/{id}", 2, false),
        ("POST workitemsbatch", "POST", ["wit", "workitemsbatch"], "908509b6-4248-4475-a1cd-829139ba419f", "wit",
            "workItemsBatch", "{project}/_apis/wit/workitemsbatch", 1, false),
        ("GET workitems", "GET", ["wit", "workitems"], "72c7ddf8-2cdc-4f60-90cd-ab71c14a399b", "wit", "workItems",
            "{project}/_apis/wit/workitems/{id}", 3, false),
        ("GET workitem", "GET", ["wit", "workitems", "*"], "", "", "", "", 0, false),
        ("GET updates", "GET", ["wit", "workitems", "*", "updates"], "6570bf97-d02c-4a91-8d93-3abe9895b1a9", "wit",
            "updates", "{project}/_apis/wit/workItems/{id}/updates/{updateNumber}", 3, false),
        ("GET comments", "GET", ["wit", "workitems", "*", "comments"], "608aac0a-32e1-4493-a863-b9cf4566d257", "wit",
            "comments", "{project}/_apis/wit/workItems/{workItemId}/comments/{commentId}", 4, true),
        ("POST comments", "POST", ["wit", "workitems", "*", "comments"], "", "", "", "", 0, true),
        ("GET repositories", "GET", ["git", "repositories"], "225f7195-f9c7-4d14-ab28-a83f7ff77e1f", "git",
            "repositories", "{project}/_apis/git/repositories/{repositoryId}", 1, false),
        ("GET pullrequests", "GET", ["git", "pullrequests"], "a5d28130-9cd2-40fa-9f08-902e7daa9efb", "git",
            "pullRequests", "{project}/_apis/git/pullrequests", 1, false),
        ("GET pullrequest", "GET", ["git", "pullrequests", "*"], "01a46dea-7d46-4d40-bc84-319e7c260d99", "git",
            "pullRequestsByProject", "{project}/_apis/git/pullRequests/{pullRequestId}", 1, false),
        ("GET pullrequests", "GET", ["git", "repositories", "*", "pullrequests"], "9946fd70-0d40-406e-b686-b4744cbbcc37",
            "git", "pullRequests", "{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}", 1,
            false),
        ("GET pullrequest", "GET", ["git", "repositories", "*", "pullrequests", "*"], "", "", "", "", 0, false),
        ("GET threads", "GET", ["git", "repositories", "*", "pullrequests", "*", "threads"],
            "ab6e2e5d-a0b7-4153-b64a-a4efe0d49449", "git", "threads",
            "{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/threads/{threadId}", 1, false),
        ("POST threads", "POST", ["git", "repositories", "*", "pullrequests", "*", "threads"], "", "", "", "", 0,
            false),
        ("GET iterations", "GET", ["git", "repositories", "*", "pullrequests", "*", "iterations"],
            "d43911ee-6958-46b0-a42b-8445b8a0d004", "git", "pullRequestIterations",
            "{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/iterations/{iterationId}", 2,
            false),
        ("GET reviewers", "GET", ["git", "repositories", "*", "pullrequests", "*", "reviewers"],
            "4b6702c7-aa35-4b89-9c96-b9abf6d3e540", "git", "pullRequestReviewers",
            "{project}/_apis/git/repositories/{repositoryId}/pullRequests/{pullRequestId}/reviewers/{reviewerId}", 1,
            false),
        ("PUT reviewer", "PUT", ["git", "repositories", "*", "pullrequests", "*", "reviewers", "*"], "", "", "", "",
            0, false),
    ]

    /// The route of a call, or nil: the base is `/ORG`, `/tfs/COLLECTION` or `/COLLECTION`, then an optional project
    /// (and team), then `_apis`.
    func route(_ call: Call, origin: String) -> Routed? {
        var rest = call.segments[...]
        // The deployment (the host without an organization): resources no organization has; none of ours.
        if call.method == "OPTIONS", rest.map({ $0.lowercased() }) == ["_apis"] {
            return Routed(name: "OPTIONS deployment", project: nil, parameters: [], base: origin)
        }
        let base: String
        if rest.count >= 2, rest.first?.lowercased() == "tfs", rest.dropFirst().first?.lowercased() == options.collection.lowercased() {
            base = "\(origin)/tfs/\(options.collection)"
            rest = rest.dropFirst(2)
        } else if rest.first?.lowercased() == options.organization.lowercased() {
            base = "\(origin)/\(options.organization)"
            rest = rest.dropFirst()
        } else if rest.first?.lowercased() == options.collection.lowercased() {
            // A Server installed without the /tfs virtual directory.
            base = "\(origin)/\(options.collection)"
            rest = rest.dropFirst()
        } else {
            return nil
        }
        var project: String?
        if rest.first?.lowercased() != "_apis" {
            project = rest.first
            rest = rest.dropFirst()
            // A team after the project (WIQL's context): ignored.
            if rest.first?.lowercased() != "_apis" { rest = rest.dropFirst() }
        }
        guard rest.first?.lowercased() == "_apis" else { return nil }
        let inner = Array(rest.dropFirst())
        if call.method == "OPTIONS", inner.isEmpty { return Routed(name: "OPTIONS", project: nil, parameters: [], base: base) }
        for route in Self.routes where route.method == call.method && route.pattern.count == inner.count {
            var parameters: [String] = []
            let fits = zip(route.pattern, inner).allSatisfy { pattern, segment in
                if pattern == "*" {
                    parameters.append(segment)
                    return true
                }
                return pattern == segment.lowercased()
            }
            if fits { return Routed(name: route.name, project: project, parameters: parameters, base: base) }
        }
        return nil
    }

    /// Finds the route, counts it, authenticates, checks the api-version, answers, then applies the switches and an
    /// armed fault.
    mutating func apiRoute(_ call: Call) -> SimResponse {
        let origin = (options.https ? "https://" : "http://") + (call.header("host") ?? "127.0.0.1")
        let routed = route(call, origin: origin)
        let name = routed?.name ?? "unknown"
        stats.requests += 1
        stats.requestsByRoute[name, default: 0] += 1
        var response: SimResponse
        var version = switches.maxApiVersion
        do {
            guard let person = authenticate(call) else {
                stats.unauthorized += 1
                return signIn(call, origin: origin)
            }
            stats.requestsByUser[Directory.people[person].username, default: 0] += 1
            guard let routed else { throw AzureDevOpsError.noRoute(call.request.path) }
            if !routed.name.hasPrefix("OPTIONS") { version = try checkVersion(call, routed) }
            let view = View(base: routed.base, me: person, server: switches.server)
            let answer = try answer(routed, call, view)
            response = SimResponse(status: answer.status, body: answer.body.bytes)
            response.headers = answer.headers
        } catch let error as AzureDevOpsError {
            response = SimResponse(status: error.status, body: error.body.bytes)
        } catch let problem as WiqlQuery.Problem {
            let error = AzureDevOpsError(400, problem.message, "WorkItemTrackingQueryException")
            response = SimResponse(status: 400, body: error.body.bytes)
        } catch {
            response = SimResponse(status: 400, body: AzureDevOpsError.badRequest("\(error)").body.bytes)
        }
        response.headers += [
            ("Content-Type", "application/json; charset=utf-8; api-version=\(version)"),
            ("ActivityId", "5ad0c1e0-0000-4000-8000-\(String(100_000_000_000 + stats.requests))"),
            ("X-TFS-ProcessId", "0f1e2d3c-0000-4000-8000-000000000001"),
            ("X-VSS-E2EID", "5ad0c1e0-0000-4000-8000-\(String(100_000_000_000 + stats.requests))"),
        ]
        if let session = call.header("x-tfs-session") { response.headers.append(("X-TFS-Session", session)) }
        if switches.rateLimitHeaders { response.headers += rateLimitHeaders(delay: max(switches.delay, 0.5)) }
        response.delay = switches.delay
        applyFault(to: &response, route: name)
        return response
    }

    /// The person whose PAT the Basic credentials carry (any user name; the PAT is the password), or nil.
    func authenticate(_ call: Call) -> Int? {
        guard let header = call.request.authorization, header.lowercased().hasPrefix("basic "),
            let data = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(" "))
        else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let pat = String(text[text.index(after: colon)...])
        guard let person = Directory.people.indices.first(where: { Directory.pat($0) == pat }),
            !Directory.people[person].isService, !revoked.contains(person)
        else { return nil }
        return person
    }

    /// What a bad or missing PAT gets: 401 when the request says `X-TFS-FedAuthRedirect: Suppress`, else 203 with
    /// the HTML sign-in page.
    func signIn(_ call: Call, origin: String) -> SimResponse {
        if call.header("x-tfs-fedauthredirect")?.lowercased() == "suppress" {
            // An IIS-style page, not the JSON error envelope: the status is the whole message.
            let page = "<html><head><title>Access Denied</title></head><body>TF400813: Resource not available for "
                + "anonymous access. Client authentication required.</body></html>\n"
            var response = SimResponse(status: 401, body: Array(page.utf8))
            response.headers = [
                ("Content-Type", "text/html; charset=utf-8"), ("WWW-Authenticate", "Bearer authorization_uri="
                    + "https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000"),
                ("WWW-Authenticate", "Basic realm=\"\(origin)/\""), ("X-TFS-FedAuthRealm", origin + "/"),
                ("X-TFS-FedAuthIssuer", origin + "/"),
            ]
            return response
        }
        let page = """
            <!DOCTYPE html>
            <html><head><title>Azure DevOps Services | Sign In</title></head>
            <body><form action="https://login.microsoftonline.com/" method="post">
            <p>Sign in to your account</p><input type="email" name="loginfmt"></form></body></html>

            """
        var response = SimResponse(status: 203, body: Array(page.utf8))
        response.headers = [("Content-Type", "text/html; charset=utf-8"), ("X-TFS-FedAuthRedirect",
            "https://spsprodweu5.vssps.visualstudio.com/_signin?realm=\(origin)")]
        return response
    }

    /// The api-version of the call (query, else the Accept header's `api-version=`): 400 when missing, malformed,
    /// newer than the server serves, or without `-preview` on a preview resource.
    func checkVersion(_ call: Call, _ routed: Routed) throws -> String {
        var text = call.query("api-version")
        if text == nil, let accept = call.header("accept") {
            for part in accept.split(separator: ";") where part.trimmingCharacters(" ").lowercased().hasPrefix("api-version=") {
                text = String(part.trimmingCharacters(" ").dropFirst(12))
            }
        }
        guard let text, !text.isEmpty else {
            throw AzureDevOpsError(400, "No api-version was supplied for the \"\(call.method)\" request. The version "
                + "must be supplied either as part of the Accept header (e.g. \"application/json; api-version=1.0\") or "
                + "as a query parameter (e.g. \"?api-version=1.0\").", "VssVersionNotSpecifiedException")
        }
        guard let version = ApiVersion(text) else {
            throw AzureDevOpsError(400, "The api-version '\(text)' is not valid.", "VssInvalidApiVersionException")
        }
        let newest = ApiVersion(switches.maxApiVersion) ?? version
        if version > newest {
            throw AzureDevOpsError(400, "The requested REST API version of \(version.number) is out of range for this "
                + "server. The latest REST API version this server supports is \(newest.number).",
                "VssVersionOutOfRangeException")
        }
        if Self.routes.contains(where: { $0.name == routed.name && $0.preview }), !version.preview {
            throw AzureDevOpsError(400, "The requested version \"\(text)\" of the resource is under preview. The "
                + "-preview flag must be supplied in the api-version for such requests. For example: "
                + "\"\(text)-preview\"", "VssInvalidPreviewVersionException")
        }
        return text
    }

    func rateLimitHeaders(delay: Double) -> [(String, String)] {
        [
            ("X-RateLimit-Resource", "Core"), ("X-RateLimit-Delay", String(Double(Int(delay * 1000)) / 1000)),
            ("X-RateLimit-Limit", "200"), ("X-RateLimit-Remaining", "0"),
            ("X-RateLimit-Reset", String(now / 1000 + 300)), ("Retry-After", String(Int(delay.rounded(.up)))),
        ]
    }

    // MARK: Dispatch

    mutating func answer(_ routed: Routed, _ call: Call, _ view: View) throws -> Answer {
        let p = routed.parameters
        let project = try routed.project.map { try readableProject($0, view) }
        switch routed.name {
        case "OPTIONS": return Answer.list(locations())
        case "OPTIONS deployment": return Answer.list([])
        case "GET connectionData": return Answer(connectionData(view))
        case "GET resourceAreas":
            // Services names where each area lives (here: the organization URL); Server answers an empty list.
            let areas = [("core", "79134c72-4a58-4b42-976c-04e7115f32bf"), ("git", "4e080c62-fa21-4fbc-8fef-2a10a2b38049"),
                ("wit", "5264459e-e5e0-4bd8-b118-0985e68a4ec5")]
            return Answer.list(switches.server ? [] : areas.map { area in
                ["id": .string(area.1), "name": .string(area.0), "locationUrl": .string(view.base + "/")]
            })
        case "GET projects":
            let readable = Directory.projectNames.indices.filter { reads(view.me, project: $0) }
            let top = max(1, min(call.query("$top").flatMap { Int($0) } ?? 100, 1000))
            let skip = max(0, call.query("$skip").flatMap { Int($0) } ?? 0)
            return Answer.list(readable.dropFirst(skip).prefix(top).map(view.project))
        case "GET project": return Answer(view.project(try readableProject(p[0], view)))
        case "POST wiql": return try wiql(call, project: project, view)
        case "POST workitemsbatch": return try batch(call, view)
        case "GET workitems": return try workItemsByIDs(call, view)
        case "GET workitem":
            return Answer(view.workItem(workItems[try workItemSlot(p[0], view)], fields: fieldList(call.query("fields"))))
        case "GET updates": return try updates(try workItemSlot(p[0], view), call, view)
        case "GET comments", "POST comments":
            guard project != nil else {
                throw AzureDevOpsError.badRequest("The comments API needs a project in the URL.")
            }
            if switches.noCommentsAPI { throw AzureDevOpsError.noRoute(call.request.path) }
            return try comments(try workItemSlot(p[0], view), call, view)
        case "GET repositories":
            let projects = project.map { [$0] } ?? Directory.projectNames.indices.filter { reads(view.me, project: $0) }
            return Answer.list(projects.map(view.repository))
        default: return try pullRequestRoute(routed, call, project: project, view)
        }
    }

    /// The project a path names (name or id), if the caller reads it: 404 `TF200016` otherwise.
    func readableProject(_ text: String, _ view: View) throws -> Int {
        guard let project = Directory.project(named: text), reads(view.me, project: project) else {
            throw AzureDevOpsError.projectNotFound(text)
        }
        return project
    }

    func connectionData(_ view: View) -> JSONValue {
        var user = view.identity(view.me)
        user["providerDisplayName"] = user["displayName"]
        user["isActive"] = true
        user["properties"] = ["Account": ["$type": "System.String", "$value": .string(view.uniqueName(view.me))]]
        user["resourceVersion"] = 2
        user["metaTypeId"] = 0
        return [
            "authenticatedUser": user, "authorizedUser": user,
            "instanceId": "c1d2e3f4-0000-4000-8000-000000000001", "deploymentId": "c1d2e3f4-0000-4000-8000-000000000002",
            "deploymentType": .string(switches.server ? "onPremises" : "hosted"),
            "locationServiceData": [
                "serviceOwner": "00025394-6065-48ca-87d9-7f5672854ef7", "defaultAccessMappingMoniker": "PublicAccessMapping",
                "lastChangeId": 1, "lastChangeId64": 1,
            ],
        ]
    }

    /// `OPTIONS /_apis`: the resource locations the official clients negotiate against.
    func locations() -> [JSONValue] {
        let newest = ApiVersion(switches.maxApiVersion).map(\.number) ?? "7.1"
        return Self.routes.filter { !$0.location.isEmpty && !(switches.noCommentsAPI && $0.resource == "comments") }
            .map { route in
                [
                    "id": .string(route.location), "area": .string(route.area), "resourceName": .string(route.resource),
                    "routeTemplate": .string(route.template), "resourceVersion": .int(route.resourceVersion),
                    "minVersion": .number("1.0"), "maxVersion": .number(newest),
                    "releasedVersion": .string(route.preview ? "0.0" : newest),
                ]
            }
    }

    /// A work item's slot from a path parameter: 404 `TF401232` when missing, deleted or unreadable.
    func workItemSlot(_ text: String, _ view: View) throws -> Int {
        guard let id = Int(text) else { throw AzureDevOpsError.badRequest("The work item id \(text) is not a number.") }
        guard let slot = visibleWorkItem(id, by: view.me) else { throw AzureDevOpsError.workItemNotFound(id) }
        return slot
    }

    func fieldList(_ text: String?) -> [String]? {
        text.map { $0.split(separator: ",").map { $0.trimmingCharacters(" ") } }
    }
}
