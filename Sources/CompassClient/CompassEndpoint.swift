/// The Compass REST resources trackwatch uses, relative to `…/ccmweb/rest`. No endpoint is built from a
/// free-form string: each is a case, and path segments are percent-encoded here.
public enum CompassEndpoint: Equatable, Sendable {
    case authenticate
    case logoff
    /// `GET /repos`: the schema repositories (answered before login on the documented servers).
    case repositories
    /// `GET /repos/{repo}/databases`: the repository's user databases.
    case databases
    case adHocQuery
    case adHocResultPage(resultSetID: String, page: Int)
    case folders
    case folder(id: String)
    case folderQueryDefinitions(folderID: String)
    case queryDefinitions
    case queryDefinition(id: String)
    case resultSets(queryID: String)
    case resultSetPage(queryID: String, resultSetID: String, page: Int)
    /// The whole result set as CSV, without paging (HCL's Node-RED client reads rows this way).
    case resultSetFile(queryID: String, resultSetID: String)
    /// A record type's definition: its fields, actions and states (`GET …/records/{recordType}`).
    case recordType(String)

    /// The path and query below the API root, for the given repo and database.
    public func path(repo: String, database: String) -> String {
        let db = "/repos/\(Self.encode(repo))/databases/\(Self.encode(database))"
        switch self {
        case .authenticate: return "/authenticate"
        case .logoff: return "/authenticate/logoff"
        case .repositories: return "/repos"
        case .databases: return "/repos/\(Self.encode(repo))/databases"
        case .adHocQuery: return "\(db)/query"
        case .adHocResultPage(let id, let page): return "\(db)/query/\(Self.encode(id))?pageNumber=\(page)"
        case .folders: return "\(db)/workspace/folders"
        case .folder(let id): return "\(db)/workspace/folders/\(Self.encode(id))"
        case .folderQueryDefinitions(let id): return "\(db)/workspace/folders/\(Self.encode(id))/queryDefs"
        case .queryDefinitions: return "\(db)/workspace/queryDefs"
        case .queryDefinition(let id): return "\(db)/workspace/queryDefs/\(Self.encode(id))"
        case .resultSets(let id): return "\(db)/workspace/queryDefs/\(Self.encode(id))/resultsets"
        case .resultSetPage(let queryID, let resultSetID, let page):
            return "\(db)/workspace/queryDefs/\(Self.encode(queryID))/resultsets/\(Self.encode(resultSetID))?pageNumber=\(page)"
        case .resultSetFile(let queryID, let resultSetID):
            return "\(db)/workspace/queryDefs/\(Self.encode(queryID))/resultsets/\(Self.encode(resultSetID))/file?fileType=csv"
        case .recordType(let name): return "\(db)/records/\(Self.encode(name))"
        }
    }

    /// A short name for logs and errors, free of ids.
    public var name: String {
        switch self {
        case .authenticate: return "login"
        case .logoff: return "logoff"
        case .repositories: return "repositories"
        case .databases: return "databases"
        case .adHocQuery: return "ad-hoc query"
        case .adHocResultPage: return "result page"
        case .folders: return "workspace folders"
        case .folder: return "workspace folder"
        case .folderQueryDefinitions: return "folder queries"
        case .queryDefinitions: return "stored query"
        case .queryDefinition: return "stored query"
        case .resultSets: return "result set"
        case .resultSetPage: return "result page"
        case .recordType: return "record type"
        case .resultSetFile: return "result file"
        }
    }

    /// RFC 3986 unreserved characters pass; everything else is percent-encoded as UTF-8.
    static func encode(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return out
    }
}

/// The API root from the URL people know: `https://compass.example.com:8190` → `…:8190/ccmweb/rest`.
/// Deployments that already put the API under a prefix (`https://host/plan/ccmweb/rest`) are kept as given.
public func compassAPIRoot(fromBaseURL url: String) throws -> String {
    var root = url.trimmingSuffix("/")
    let lower = root.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), root.split(separator: "/").count >= 2 else {
        throw CompassError.invalidConfiguration("the server URL \(url) must start with https:// (or http://) and name a host")
    }
    if !lower.hasSuffix("/ccmweb/rest") { root += "/ccmweb/rest" }
    return root
}

extension String {
    func trimmingSuffix(_ character: Character) -> String {
        var text = Substring(self)
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
