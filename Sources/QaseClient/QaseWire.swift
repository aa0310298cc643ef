// What Qase's API v1 sends, decoded loosely: only the fields trackwatch uses (unknown ones are ignored), ids and
// enums as integers or as strings (qase-api.md §8: a generated client once broke on that), `null` wherever a
// value may be missing. Every number is bounded here, before anything uses it.

import TrackwatchCore

/// An integer sent as a number or as a string of digits (`7`, `"7"`), within 0…`maximum`.
struct LenientInt: Decodable, Hashable, Sendable {
    static let maximum = 999_999_999_999
    let value: Int

    init(_ value: Int) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let double = try? container.decode(Double.self), double.rounded() == double, abs(double) < 1e15 {
            value = Int(double)
        } else {
            let text = try container.decode(String.self)
            guard let number = Self.digits(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an integer")
            }
            value = number
        }
        guard (0...Self.maximum).contains(value) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "out of range")
        }
    }

    /// The integer a string of digits (spaces ignored) spells, unbounded; `nil` for anything else.
    static func digits(_ text: String) -> Int? {
        guard text.utf8.count <= 15 else { return nil }
        return Int(text.split(separator: " ").joined())
    }
}

/// An enum sent as its slug (`"critical"`), its label (`"In progress"`) or its integer code (`2`, `"2"`): kept as
/// what was sent, lower-cased, so that `QaseEnums` maps every form to one value.
struct LenientEnum: Decodable, Hashable, Sendable {
    let raw: String

    init(_ raw: String) { self.raw = raw }

    /// Text is tried first: it is the usual form, and each failed try is a thrown error (a slug tried as a
    /// number first cost three, for every item's status and severity). A string of digits within `LenientInt`'s
    /// range is that integer, as before.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            if let number = LenientInt.digits(text), (0...LenientInt.maximum).contains(number) {
                raw = String(number)
            } else {
                raw = String(String.UnicodeScalarView(text.unicodeScalars.prefix(64))).lowercased()
            }
        } else {
            raw = String(try container.decode(LenientInt.self).value)
        }
    }
}

/// Text from the server, bounded; a number sent where text is expected is taken as its digits.
struct LenientText: Decodable, Hashable, Sendable {
    static let limit = 2_000
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            // By scalars too: one character may carry any number of combining marks.
            self.text = SafeText.bounded(text, Self.limit)
        } else if let number = try? container.decode(Double.self) {
            text = number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        } else if let flag = try? container.decode(Bool.self) {
            text = String(flag)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not text")
        }
    }
}

/// `{"status": true, "result": …}`.
struct Envelope<Result: Decodable>: Decodable {
    let result: Result
}

/// A list's `result`: `{"total", "filtered", "count", "entities"}`; `/search` has only `total` and `entities`.
struct EntityPage<Entity: Decodable>: Decodable {
    let total: LenientInt?
    let filtered: LenientInt?
    let entities: [Entity]
}

/// The error body Qase's clients read: `errorMessage`, then `error`, then `message` (qase-api.md §1).
struct ErrorBody: Decodable {
    let errorMessage: LenientText?
    let error: LenientText?
    let message: LenientText?

    var text: String? { (errorMessage ?? error ?? message)?.text }
}

struct WireTag: Decodable, Sendable {
    let title: LenientText?
}

struct WireCustomField: Decodable, Sendable {
    let id: LenientInt
    let value: LenientText?
}

struct WireProject: Decodable, Sendable {
    let code: LenientText
    let title: LenientText?
}

struct WireAuthor: Decodable, Sendable {
    let id: LenientInt?
    let uuid: LenientText?
    let entityType: LenientText?
    let entityID: LenientInt?
    let email: LenientText?
    let name: LenientText?

    enum CodingKeys: String, CodingKey {
        case id, uuid, email, name
        case entityType = "entity_type", entityID = "entity_id"
    }
}

struct WireUser: Decodable, Sendable {
    let id: LenientInt
    let email: LenientText?
    let name: LenientText?
}

/// A defect, from `GET /defect/{code}` or QQL (`resolved` there, `resolved_at` here: neither is used).
struct WireDefect: Decodable, Sendable {
    let id: LenientInt
    let title: LenientText?
    let status: LenientEnum?
    let severity: LenientEnum?
    let milestoneID: LenientInt?
    let authorID: LenientInt?
    let tags: [WireTag]?
    let customFields: [WireCustomField]?

    enum CodingKeys: String, CodingKey {
        case id, title, status, severity, tags
        case milestoneID = "milestone_id", authorID = "author_id", customFields = "custom_fields"
    }
}

/// A test case from QQL: the REST fields plus `updated_by`, the author id of its last editor.
struct WireCase: Decodable, Sendable {
    let id: LenientInt
    let title: LenientText?
    let status: LenientEnum?
    let severity: LenientEnum?
    let priority: LenientEnum?
    let type: LenientEnum?
    let behavior: LenientEnum?
    let milestoneID: LenientInt?
    let suiteID: LenientInt?
    let authorID: LenientInt?
    let updatedBy: LenientInt?
    let tags: [WireTag]?
    let customFields: [WireCustomField]?

    enum CodingKeys: String, CodingKey {
        case id, title, status, severity, priority, type, behavior, tags
        case milestoneID = "milestone_id", suiteID = "suite_id", authorID = "author_id", updatedBy = "updated_by"
        case customFields = "custom_fields"
    }
}

/// A plan as `GET /plan/{code}` lists it.
struct WirePlan: Decodable, Sendable {
    let id: LenientInt
    let title: LenientText?
    let casesCount: LenientInt?
    let updatedAt: LenientText?

    enum CodingKeys: String, CodingKey {
        case id, title
        case casesCount = "cases_count", updatedAt = "updated_at"
    }
}

/// `GET /plan/{code}/{id}`: the plan's cases with their assignees (user ids).
struct WirePlanDetail: Decodable, Sendable {
    struct Entry: Decodable, Sendable {
        let caseID: LenientInt
        let assigneeID: LenientInt?

        enum CodingKeys: String, CodingKey {
            case caseID = "case_id", assigneeID = "assignee_id"
        }
    }

    let id: LenientInt
    let title: LenientText?
    let cases: [Entry]?
}

struct WireReview: Decodable, Sendable {
    struct Reviewer: Decodable, Sendable {
        let authorUUID: LenientText
        let status: LenientEnum?

        enum CodingKeys: String, CodingKey {
            case authorUUID = "author_uuid", status
        }
    }

    let id: LenientInt
    let title: LenientText?
    let status: LenientEnum?
    let authorUUID: LenientText?
    let reviewers: [Reviewer]?

    enum CodingKeys: String, CodingKey {
        case id, title, status, reviewers
        case authorUUID = "author_uuid"
    }
}
