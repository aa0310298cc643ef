import SimulatorKit

/// A write's parameters as Grape reads them: the query string, then a JSON object or a form body
/// (`assignee_ids[]=1&assignee_ids[]=2`); 400 when a JSON body is not an object.
struct Params {
    var values: [String: JSONValue] = [:]

    init(_ call: Call) throws {
        add(call.request.queryPairs)
        let body = call.request.body
        guard !body.isEmpty else { return }
        let type = call.header("content-type") ?? ""
        if type.contains("application/x-www-form-urlencoded") {
            let form = SimRequest(method: "POST", target: "/?" + String(decoding: body, as: UTF8.self),
                authorization: nil, body: [])
            add(form.queryPairs)
            return
        }
        guard let object = (try? JSONValue.parse(body))?.object else {
            throw GitLabError(400, "400 Bad request - The provided content-type '\(type)' is not supported.")
        }
        for member in object.members { values[member.key] = member.value }
    }

    private mutating func add(_ pairs: [(name: String, value: String)]) {
        for (name, value) in pairs {
            guard name.hasSuffix("[]") else {
                values[name] = .string(value)
                continue
            }
            let key = String(name.dropLast(2))
            values[key] = .array((values[key]?.array ?? []) + [.string(value)])
        }
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    func string(_ key: String) -> String? { values[key]?.string }

    /// An integer, a string of digits; `.some(nil)` for null or an empty string; nil when absent.
    func int(_ key: String) -> Int?? {
        guard let value = values[key] else { return nil }
        if value == .null || value.string == "" { return .some(nil) }
        return .some(value.int)
    }

    /// A list of ids: a JSON array, a comma list, or one id; nil when absent.
    func ints(_ key: String) -> [Int]? {
        guard let value = values[key] else { return nil }
        if let array = value.array { return array.compactMap(\.int) }
        if let text = value.string { return text.split(separator: ",").compactMap { Int($0.trimmingSpaces) } }
        return value.int.map { [$0] } ?? []
    }

    /// A list of names: a JSON array or a comma list; nil when absent.
    func strings(_ key: String) -> [String]? {
        guard let value = values[key] else { return nil }
        if let array = value.array { return array.compactMap(\.string) }
        return (value.string ?? "").split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
    }
}

extension Substring {
    var trimmingSpaces: String { String(self).trimmed }
}
