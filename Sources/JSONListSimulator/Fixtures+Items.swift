import SimulatorKit

/// The generic list's items: `{"id", "title", "status", "assignee", "priority", "estimate", "updated_by",
/// "meta": {"color", "labels"}}`. Item n follows fixed rules so that tests can name what they expect.
enum ItemFixtures {
    static let statuses = ["open", "in progress", "blocked", "closed"]
    static let people = ["dana", "lee", "sam"]
    static let colors = ["red", "green", "blue"]
    /// The first titles carry what breaks naive text handling: non-ASCII, markup, quotes, an emoji.
    static let titles = [
        "Crash on save – Müller’s “Straße” report",
        "Login <b>fails</b> & times out",
        "東京 office printer offline",
        "Upgrade to \"v2\" API 🚀",
    ]

    /// Item n (from 1): status `statuses[(n-1) % 4]`, assignee `people[(n-1) % 3]`, priority `(n-1) % 4 + 1`,
    /// estimate `n % 4 + 0.5`, color `colors[(n-1) % 3]`.
    static func item(_ n: Int) -> JSONValue {
        let title = n <= titles.count ? titles[n - 1] : "Item \(n)"
        return [
            "id": .int(n),
            "title": .string(title),
            "status": .string(statuses[(n - 1) % 4]),
            "assignee": .string(people[(n - 1) % 3]),
            "priority": .int((n - 1) % 4 + 1),
            "estimate": .number("\(n % 4).5"),
            "updated_by": .string(people[n % 3]),
            "meta": ["color": .string(colors[(n - 1) % 3]), "labels": n % 2 == 0 ? ["backend"] : ["ui", "triage"]],
        ]
    }

    static func seed(count: Int) -> [JSONValue] { (0..<max(0, count)).map { item($0 + 1) } }
}

/// The device check-out tracker's devices (`shared/seeds/device-tracker.md`), as its mock API spells them.
enum DeviceFixtures {
    static func device(
        _ id: Int, _ name: String, _ os: String, _ maker: String, by: String? = nil, date: String? = nil
    ) -> JSONValue {
        [
            "id": .int(id), "device": .string(name), "os": .string(os), "manufacturer": .string(maker),
            "lastCheckedOutDate": .text(date), "lastCheckedOutBy": .text(by), "isCheckedOut": .bool(by != nil),
        ]
    }

    /// Device 1, the Pixel 8, is checked in; devices 2 and 4 are checked out.
    static func seed() -> [JSONValue] {
        [
            device(1, "Pixel 8", "Android 14", "Google"),
            device(2, "iPhone 15", "iOS 17.4", "Apple", by: "Chris Evans", date: "2024-05-02T09:10:00-05:00"),
            device(3, "Galaxy S23", "Android 14", "Samsung"),
            device(
                4, "iPad Air (5th generation)", "iPadOS 17.4", "Apple", by: "Priya Nair",
                date: "2024-05-06T14:30:00-05:00"),
            device(5, "Moto G Power", "Android 13", "Motorola"),
            device(6, "iPhone SE", "iOS 16.7", "Apple"),
        ]
    }
}
