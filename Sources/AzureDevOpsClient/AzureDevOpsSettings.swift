import SourceKit
import TrackerHTTP
import TrackwatchCore

// Azure DevOps's configuration: one `[[azure_devops]]` table per organization (Services) or collection (Server),
// each a source of its own with its own personal access token and its own state folder.

/// One `[[azure_devops]]` table.
public struct AzureDevOpsSettings: TrackerSettings {
    public static let table = "azure_devops"
    /// `url`: the organization (`https://dev.azure.com/acme`) or the collection
    /// (`https://tfs.example.com/tfs/DefaultCollection`): every API path is under it. Default name `azure_devops`.
    public var account: TrackerAccount
    /// Project names to watch, as written; `nil`: every project the token can read.
    public var projects: [String]?

    public static let defaultName = "azure_devops"

    /// The other keys as when left out; the reader sets them.
    public init(account: TrackerAccount) { self.account = account }

    public var trackerName: String { "Azure DevOps" }
    /// `Web#42` → the work item's page; `Web/web-app!7` → the pull request's.
    public func link(for change: Change) -> String? {
        if let link = change.link { return link }
        return AzureDevOpsReference(change.record.rawValue)?.link(web: url)
    }
    public var ownerAndStateFields: [String] {
        [AzureDevOpsFields.state, AzureDevOpsFields.assignedTo, AzureDevOpsFields.reviewers]
    }
}

/// A work item (`Web#42`: project and id) or a pull request (`Web/web-app!7`: project, repository and id), as the
/// records are keyed: checked before it names a link.
struct AzureDevOpsReference: Equatable {
    let project: String
    /// The pull request's repository; `nil` for a work item.
    let repository: String?
    let id: Int

    init?(_ text: String) {
        guard let mark = text.lastIndex(where: { $0 == "#" || $0 == "!" }),
            let id = Int(text[text.index(after: mark)...]),
            (1..<Int(Int32.max)).contains(id)
        else { return nil }
        let place = text[..<mark]
        if text[mark] == "#" {
            guard AzureDevOpsProject.isValid(String(place)) else { return nil }
            (project, repository) = (String(place), nil)
        } else {
            guard let slash = place.firstIndex(of: "/"), AzureDevOpsProject.isValid(String(place[..<slash])),
                AzureDevOpsProject.isValid(String(place[place.index(after: slash)...]))
            else { return nil }
            (project, repository) = (String(place[..<slash]), String(place[place.index(after: slash)...]))
        }
        self.id = id
    }

    /// The page of the item under the organization or collection `web`.
    func link(web: String) -> String {
        let project = PercentEncoding.encode(project)
        guard let repository else { return "\(web)/\(project)/_workitems/edit/\(id)" }
        return "\(web)/\(project)/_git/\(PercentEncoding.encode(repository))/pullrequest/\(id)"
    }
}

/// A project's (or a repository's) name as Azure DevOps allows it: 1 to 64 characters, none of the ones it forbids
/// (`\ / : * ? " < > | ; # $ { } , + = [ ]`, controls and direction marks), not starting with `_` or `.`, not ending
/// with `.`.
enum AzureDevOpsProject {
    static func isValid(_ name: String) -> Bool {
        let forbidden = Set("\\/:*?\"<>|;#${},+=[]")
        return (1...64).contains(name.count) && !name.hasPrefix("_") && !name.hasPrefix(".") && !name.hasSuffix(".")
            && name.first != " " && name.last != " " && SafeText.oneLine(name, limit: 64) == name
            && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && !forbidden.contains(Character($0)) }
    }
}

/// `[[azure_devops]]` tables.
public struct AzureDevOpsSourceKind: TrackerSourceKind {
    public init() {}

    public var ownKeys: [String] { ["projects"] }

    public func read(_ table: TOMLTable, line: Int?, reader: ConfigReader) throws(ConfigError) -> AzureDevOpsSettings {
        try reader.azureDevOps(table, line: line)
    }
}

extension ConfigReader {
    func azureDevOps(_ table: TOMLTable, line: Int?) throws(ConfigError) -> AzureDevOpsSettings {
        let kind = AzureDevOpsSettings.table
        var settings = AzureDevOpsSettings(
            account: try tokenAccount(
                table, kind, defaultName: AzureDevOpsSettings.defaultName, line: line,
                token: "a personal access token with Work Items (Read) and Code (Read): User settings, "
                    + "Personal access tokens"
            ) { (table) throws(ConfigError) in
                try trackerURL(
                    table, kind,
                    expected: "your organization, https://dev.azure.com/ORG, or a collection, "
                        + "https://server/tfs/COLLECTION",
                    missing: "missing; add url = \"https://dev.azure.com/ORG\" (or https://server/tfs/COLLECTION)",
                    line: line, apiPath: "/_apis",
                    withoutAPI: "give the organization or collection without /_apis, e.g. https://dev.azure.com/acme")
            })
        if let projects = try stringArray(table, kind, "projects") {
            guard !projects.isEmpty else {
                throw error(
                    table["projects"], "\(kind).projects",
                    "expected project names such as [\"Web\"]; leave projects out to watch every project")
            }
            if let bad = projects.first(where: { !AzureDevOpsProject.isValid($0) }) {
                throw error(
                    table["projects"], "\(kind).projects",
                    "expected a project's name such as \"Web\", found \"\(SafeText.oneLine(bad, limit: 60))\"")
            }
            settings.projects = projects
        }
        return settings
    }
}
