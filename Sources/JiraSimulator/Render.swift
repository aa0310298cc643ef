import SimulatorKit

/// How an answer is rendered for one request: the flavour, the API version (ADF bodies under 3), who asks (for
/// `watches.isWatching`), the base URL of `self` links, and the shape switches.
struct View {
    let flavor: JiraSimulatorOptions.Flavor
    /// "2" or "3" ("latest" reads as "2").
    let version: String
    let caller: Int
    /// `http://HOST:PORT{context}` from the request's `Host` header.
    let base: String
    var switches: JiraSwitches

    var api: String { "\(base)/rest/api/\(version)" }

    /// `2026-01-17T12:34:00.000+0000` (UTC), or without the fraction under `--timestamps plain`.
    func time(_ seconds: Int) -> JSONValue {
        let text = HTTPDate.zoneless(seconds).replacing(" ", with: "T")
        return .string(text + (switches.timestamps == .plain ? "+0000" : ".000+0000"))
    }

    /// A user as Cloud (`accountId`, `accountType`, no e-mail for the app) or Data Center (`name`, `key`) has it.
    func user(_ index: Int?) -> JSONValue {
        guard let index else { return .null }
        let person = Directory.people[index]
        var members: [(key: String, value: JSONValue)]
        switch flavor {
        case .cloud:
            members = [
                ("self", .string("\(api)/user?accountId=\(person.accountId)")),
                ("accountId", .string(person.accountId)), ("accountType", .string(person.accountType)),
                ("displayName", .string(person.displayName)),
            ]
            if person.accountType != "app" { members.append(("emailAddress", .string(person.email))) }
        case .dc:
            members = [
                ("self", .string("\(api)/user?username=\(person.handle)")), ("name", .string(person.handle)),
                ("key", .string(person.key)), ("displayName", .string(person.displayName)),
                ("emailAddress", .string(person.email)),
            ]
        }
        members += [("active", true), ("timeZone", "Europe/Berlin")]
        return .object(members)
    }

    /// What a changelog item's `from`/`to` hold: an accountId (Cloud) or name (Data Center) for people.
    func itemID(_ value: ItemValue) -> JSONValue {
        switch value {
        case .none: return .null
        case .person(let index):
            let person = Directory.people[index]
            return .string(flavor == .cloud ? person.accountId : person.handle)
        case .text(let id, _): return .text(id)
        }
    }

    func itemString(_ value: ItemValue) -> JSONValue {
        switch value {
        case .none: return .null
        case .person(let index): return .string(Directory.people[index].displayName)
        case .text(_, let text): return .string(text)
        }
    }

    /// A changelog history; `epochCreated` for the bulk changelog under `--timestamps epoch`.
    func history(_ history: History, epochCreated: Bool = false) -> JSONValue {
        let items: [JSONValue] = history.items.map { item in
            [
                "field": .string(item.field), "fieldtype": .string(item.fieldtype), "fieldId": .string(item.fieldId),
                "from": itemID(item.from), "fromString": itemString(item.from), "to": itemID(item.to),
                "toString": itemString(item.to),
            ]
        }
        let created = epochCreated && switches.timestamps == .epoch ? .int(history.created) : time(history.created)
        return [
            "id": .string(String(history.id)), "author": user(history.author), "created": created,
            "items": .array(items),
        ]
    }

    func comment(_ comment: Comment, issueID: Int) -> JSONValue {
        [
            "self": .string("\(api)/issue/\(issueID)/comment/\(comment.id)"), "id": .string(String(comment.id)),
            "author": user(comment.author), "body": text(comment.body), "updateAuthor": user(comment.updateAuthor),
            "created": time(comment.created), "updated": time(comment.updated),
        ]
    }

    /// A rich-text value: an ADF document under `/rest/api/3`, the plain string under `/2`.
    func text(_ text: String?) -> JSONValue {
        guard let text else { return .null }
        guard version == "3" else { return .string(text) }
        return [
            "type": "doc", "version": 1,
            "content": [["type": "paragraph", "content": [["type": "text", "text": .string(text)]]]],
        ]
    }

    /// An offset page of an issue's histories or comments as Jira embeds them: the first `embeddedLimit`.
    func embedded(_ name: String, _ values: [JSONValue]) -> JSONValue {
        let shown = Array(values.prefix(switches.embeddedLimit))
        return .object([
            ("startAt", 0), ("maxResults", .int(shown.count)), ("total", .int(values.count)), (name, .array(shown)),
        ])
    }
}

/// Reads rich text from a write body: a string, or the text nodes of an ADF document joined.
enum RichText {
    static func plain(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: return text
        case .object(let object)?:
            if object["type"]?.string == "text" { return object["text"]?.string ?? "" }
            let blocks = (object["content"]?.array ?? []).compactMap { plain($0) }
            return blocks.joined(separator: object["type"]?.string == "doc" ? "\n" : "")
        default: return nil
        }
    }
}
