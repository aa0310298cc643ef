import SimulatorKit

/// `GET /mess/{variant}`: the generic list (a bare array) changing between answers in ways that are no change.
/// Answers alternate: the first, third, … are as `/list/bare`; the second, fourth, … are altered.
/// - spelling: altered answers spell ids as strings (`"42"`) and numbers with a fraction (`1` → `1.0`,
///   `2.5` → `2.50`)
/// - order: altered answers list the items in reverse and every object's members in reverse
/// - timestamp: every answer's items carry `updated_at`, a different time each answer (milliseconds count the
///   answers), which is what `ignore` is for
/// - mix: all three at once
/// - wide, long-name: hostile, a real change every answer: item 1 gains `wideMembers` members (`f000001`, …) or
///   one member whose name is `longName` bytes, each valued `answer N, one of 100,000 members` (~50 bytes a
///   member: not so dense that the answer is refused before it is read, as bare numbers are)
enum MessRoutes {
    static let variants = ["spelling", "order", "timestamp", "mix", "wide", "long-name"]
    static let wideMembers = 100_000
    static let longName = 5_000_000

    static func render(_ variant: String, _ items: [JSONValue], answer: Int, now: Int) -> [JSONValue] {
        let altered = answer % 2 == 1
        var result = items
        if altered && (variant == "spelling" || variant == "mix") { result = result.map(respelled) }
        if variant == "timestamp" || variant == "mix" {
            let stamp = String(HTTPDate.iso8601(now).dropLast()) + "." + threeDigits(answer % 1000) + "Z"
            result = result.map { item in
                var item = item
                item["updated_at"] = .string(stamp)
                return item
            }
        }
        if altered && (variant == "order" || variant == "mix") { result = result.reversed().map(reordered) }
        if variant == "wide" || variant == "long-name", case .object(var first)? = result.first {
            let value = JSONValue.string("answer \(answer), one of 100,000 members")
            first.members += variant == "wide"
                ? (1...wideMembers).map { JSONObject.Member("f" + sixDigits($0), value) }
                : [JSONObject.Member(String(repeating: "n", count: longName), value)]
            result[0] = .object(first)
        }
        return result
    }

    private static func sixDigits(_ value: Int) -> String {
        String(repeating: "0", count: max(0, 6 - String(value).count)) + String(value)
    }

    /// The same value spelled otherwise: a numeric `id` as a string, every other number with (more of) a fraction.
    static func respelled(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let text): return .number(text.contains(".") ? text + "0" : text + ".0")
        case .array(let values): return .array(values.map(respelled))
        case .object(var object):
            for index in object.members.indices {
                let member = object.members[index]
                if member.key == "id", case .number(let text) = member.value {
                    object.members[index].value = .string(text)
                } else {
                    object.members[index].value = respelled(member.value)
                }
            }
            return .object(object)
        default: return value
        }
    }

    /// The same value with every object's members in reverse order.
    static func reordered(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let values): return .array(values.map(reordered))
        case .object(let object):
            return .object(JSONObject(object.members.reversed().map { JSONObject.Member($0.key, reordered($0.value)) }))
        default: return value
        }
    }

    private static func threeDigits(_ value: Int) -> String {
        String(repeating: "0", count: max(0, 3 - String(value).count)) + String(value)
    }
}

extension ServerState {
    mutating func mess(_ call: Call) -> Routed {
        variant(call, MessRoutes.variants) { state, variant in
            let answer = state.answerNumber("mess/" + variant)
            return Reply.json(200, .array(MessRoutes.render(variant, state.items, answer: answer, now: call.now)))
        }
    }
}
