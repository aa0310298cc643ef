import SimulatorKit

/// Paging and filter parameters, as every list and `/search` take them.
extension QaseState {
    /// A filter's value by its flat name (`status`) or as `filters[status]`, as `--filter-names` allows; nil
    /// when absent or empty.
    func filter(_ call: Call, _ name: String) -> String? {
        let value: String?
        switch switches.filterNames {
        case .both: value = call.query[name] ?? call.query["filters[\(name)]"]
        case .flat: value = call.query[name]
        case .bracketed: value = call.query["filters[\(name)]"]
        }
        return value?.isEmpty == false ? value : nil
    }

    /// A comma-separated filter as a list (`severity=major,critical`).
    func listFilter(_ call: Call, _ name: String) -> [String]? {
        filter(call, name).map { $0.split(separator: ",").map { $0.trimmingSpaces().lowercased() } }
    }

    /// An integer filter; 400 naming it when it is not an integer.
    func intFilter(_ call: Call, _ name: String) throws -> Int? {
        guard let text = filter(call, name) else { return nil }
        guard let value = Int(text) else { throw APIError.invalid(name, "The \(name) must be an integer.") }
        return value
    }

    /// `limit` (default 10, 1…100) and `offset` (default 0, 0…100000). Out of range is 400 with `errorFields`,
    /// unless `--clamp-limit`, which serves the nearest allowed limit instead.
    func paging(_ call: Call) throws -> (limit: Int, offset: Int) {
        var limit = 10, offset = 0
        if let text = call.query["limit"] {
            guard let value = Int(text) else { throw APIError.invalid("limit", "The limit must be an integer.") }
            limit = value
        }
        if !(1...100).contains(limit) {
            guard switches.clampLimit else { throw APIError.invalid("limit", "The limit must be between 1 and 100.") }
            limit = min(max(limit, 1), 100)
        }
        if let text = call.query["offset"] {
            guard let value = Int(text) else { throw APIError.invalid("offset", "The offset must be an integer.") }
            offset = value
        }
        guard (0...100_000).contains(offset) else {
            throw APIError.invalid("offset", "The offset must be between 0 and 100000.")
        }
        return (limit, offset)
    }

    /// One page of a list: `{total, filtered, count, entities}`, `items` already filtered and ordered by id.
    func list<Item>(_ call: Call, _ items: [Item], total: Int, render: (Item) -> JSONValue) throws -> JSONValue {
        let (limit, offset) = try paging(call)
        var entities: [JSONValue]
        var (total, filtered) = (total, items.count)
        switch switches.endlessLists {
        case .off:
            entities = items.dropFirst(offset).prefix(limit).map(render)
        case .lyingTotal:
            (total, filtered) = (Self.endlessTotal, Self.endlessTotal)
            // One item a page, under an id no page had before.
            entities = items.isEmpty ? [] : [render(items[offset % items.count]).with("id", .int(offset + 1))]
        case .alternating:
            (total, filtered) = (Self.endlessTotal, Self.endlessTotal)
            // Page A is the first page; page B the same items under ids a million higher: never the page before.
            let size = min(limit, items.count)
            entities = items.prefix(size).map(render)
            if size > 0, (offset / size) % 2 == 1 {
                entities = entities.map { $0.with("id", .int(($0["id"]?.int ?? 0) + 1_000_000)) }
            }
        }
        return ok([
            "total": .int(total), "filtered": .int(filtered), "count": .int(entities.count),
            "entities": .array(entities),
        ])
    }

    /// What an endless list's `total` says (`endlessLists`).
    static let endlessTotal = 2_000_000

    /// A path id that must be an integer.
    func pathID(_ text: String) throws -> Int {
        guard let id = Int(text) else { throw APIError.invalid("id", "The id must be an integer.") }
        return id
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
