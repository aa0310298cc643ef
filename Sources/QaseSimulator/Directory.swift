/// The workspace's people and its reporter app: users (`GET /user`) and authors (`GET /author`), two id
/// namespaces. Author ids are chosen so that a client confusing them fails visibly: engineer's user id (2) is
/// alice's author id, and engineer's author id (3) is alice's user id (author id = 5 − user id for people).
public struct Person: Sendable, Equatable {
    /// The short name used on the command line and in control routes (`engineer`).
    public let handle: String
    public let userID: Int
    public let authorID: Int
    public let name: String
    public let title: String
    public let isActive: Bool

    public var email: String { "\(handle)@example.com" }
    public var uuid: String { Directory.uuid(authorID: authorID) }
    /// The personal API token a fresh server accepts for this person (inactive people have none).
    public var defaultToken: String? { isActive ? "qase-sim-\(handle)-token" : nil }
}

/// A reporter app: an author without a user (`entity_type` "app"), named `<name>-reporter` in QQL.
public struct ReporterApp: Sendable {
    public let handle: String
    public let appID: Int
    public let authorID: Int
    public let name: String

    public var uuid: String { Directory.uuid(authorID: authorID) }
    public var defaultToken: String { "qase-sim-\(handle)-app-token" }
}

/// Who acts: a person, or the reporter app (an app token acts as the app, not as a person).
public enum Actor: Sendable, Equatable {
    case person(Person)
    case app

    var authorID: Int {
        switch self {
        case .person(let person): return person.authorID
        case .app: return Directory.app.authorID
        }
    }

    /// The user behind the actor; an app has none, so `currentUser()` matches no assignee for it.
    var userID: Int? {
        if case .person(let person) = self { return person.userID }
        return nil
    }

    var handle: String {
        switch self {
        case .person(let person): return person.handle
        case .app: return Directory.app.handle
        }
    }
}

public enum Directory {
    public static let lead = Person(
        handle: "lead", userID: 1, authorID: 4, name: "Lena Lead", title: "QA Lead", isActive: true)
    public static let engineer = Person(
        handle: "engineer", userID: 2, authorID: 3, name: "Eve Engineer", title: "QA Engineer", isActive: true)
    public static let alice = Person(
        handle: "alice", userID: 3, authorID: 2, name: "Alice Example", title: "Developer", isActive: true)
    public static let bob = Person(
        handle: "bob", userID: 4, authorID: 1, name: "Bob Former", title: "Developer", isActive: false)
    public static let people = [lead, engineer, alice, bob]
    public static let app = ReporterApp(handle: "jenkins", appID: 1, authorID: 5, name: "Jenkins")

    /// `5a5e0000-0000-4000-8000-00000000000N` with N the author id: recognisable in logs.
    static func uuid(authorID: Int) -> String {
        let digits = String(authorID)
        return "5a5e0000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    public static func person(handle: String) -> Person? { people.first { $0.handle == handle } }
    static func person(userID: Int) -> Person? { people.first { $0.userID == userID } }
    static func person(authorID: Int) -> Person? { people.first { $0.authorID == authorID } }
    static func authorID(uuid: String) -> Int? {
        if app.uuid == uuid.lowercased() { return app.authorID }
        return people.first { $0.uuid == uuid.lowercased() }?.authorID
    }

    /// The fixture tokens, with `overrides` (handle → token) replacing a person's or the app's default.
    static func tokens(overrides: [String: String]) -> [String: Actor] {
        var tokens: [String: Actor] = [:]
        for person in people {
            if let token = overrides[person.handle] ?? person.defaultToken { tokens[token] = .person(person) }
        }
        tokens[overrides[app.handle] ?? app.defaultToken] = .app
        return tokens
    }
}
