import SimulatorKit

/// Rewrites of a whole answer for the server variants that change shapes: ids and enums as strings, and fields
/// the spec does not know.
enum Variants {
    /// Keys whose integer values are ids or integer enums (with any key ending in `_id`).
    static let idLikeKeys: Set<String> = [
        "id", "updated_by", "severity", "priority", "type", "layer", "behavior", "status", "is_flaky", "automation",
        "runs", "cases", "configurations",
    ]
    /// Objects that are maps, not entities: no extra field goes into them.
    static let maps: Set<String> = ["statuses"]

    static func apply(_ json: JSONValue, _ switches: QaseSwitches) -> JSONValue {
        var json = json
        if switches.numbers != .int { json = numbers(json, mode: switches.numbers, inherited: false) }
        if switches.extraFields { json = extras(json) }
        return json
    }

    /// `string`: every id-like integer becomes a string. `mixed`: so do those of an object with an odd `id` and of
    /// the objects inside it; the others stay integers.
    static func numbers(_ json: JSONValue, mode: QaseSwitches.Numbers, inherited: Bool) -> JSONValue {
        switch json {
        case .object(let object):
            var stringify = mode == .string || inherited
            if mode == .mixed, let id = json["id"]?.plainInt { stringify = id % 2 != 0 }
            return .object(
                object.members.map { field in
                    let idLike = idLikeKeys.contains(field.key) || field.key.hasSuffix("_id")
                    switch field.value {
                    case .number(let text) where idLike && stringify && Int(text) != nil:
                        return (field.key, .string(text))
                    case .array(let items) where idLike && stringify:
                        return (
                            field.key,
                            .array(items.map { item in item.plainInt.map { .string(String($0)) } ?? item })
                                .mapObjects { numbers($0, mode: mode, inherited: stringify) }
                        )
                    default: return (field.key, numbers(field.value, mode: mode, inherited: stringify))
                    }
                })
        case .array(let items): return .array(items.map { numbers($0, mode: mode, inherited: inherited) })
        default: return json
        }
    }

    /// Adds unknown fields (a flag, a text, a nested object with an array) to every object but maps.
    static func extras(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let object):
            let inner = object.members.map { field in
                (key: field.key, value: maps.contains(field.key) ? field.value : extras(field.value))
            }
            return .object(
                inner + [
                    ("sim_future_flag", false), ("sim_future_text", "a field this client has never seen"),
                    ("sim_future_object", ["nested": [1, "two", .null, ["deep": true]], "count": 3]),
                ])
        case .array(let items): return .array(items.map(extras))
        default: return json
        }
    }
}

extension JSONValue {
    /// Applies `transform` to the objects of an array, leaving other values alone.
    fileprivate func mapObjects(_ transform: (JSONValue) -> JSONValue) -> JSONValue {
        guard case .array(let items) = self else { return self }
        return .array(items.map { item in if case .object = item { return transform(item) } else { return item } })
    }

    /// The integer of a number written as one (`7`; not `7.0`, not `"7"`): what an id or an integer enum is
    /// before a variant turns it into a string.
    fileprivate var plainInt: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }
}
