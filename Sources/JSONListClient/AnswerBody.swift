import TrackerHTTP

/// An answer's body as JSON: a UTF-8 byte order mark dropped, a `charset` other than UTF-8 converted where it
/// is Latin-1, NDJSON read as a list, and everything that is not JSON (an HTML sign-in page with status 200, an
/// empty or cut body) refused with what it was. Its values are counted first (`JSONBudget`), then it streams
/// (`JSONParser.stream`): each item is handed to `each` as it is read, and only the answer's skeleton is kept.
enum AnswerBody {
    /// What was seen besides the JSON, for `probe`.
    struct Traits: Equatable {
        var byteOrderMark = false
        var lines = false
        var charset: String?
    }

    static func decode(
        _ body: [UInt8], contentType: String?, list: String, items: JSONPointer, keeping kept: [JSONPointer],
        each: (JSONValue) -> Void
    ) throws -> (StreamedAnswer, Traits) {
        var traits = Traits()
        var bytes = body
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.removeFirst(3)
            traits.byteOrderMark = true
        }
        let mediaType = contentType.map(Self.mediaType) ?? ""
        traits.charset = contentType.flatMap(Self.charset)
        if let charset = traits.charset {
            switch charset {
            case "utf-8", "utf8", "us-ascii": break
            case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "windows-1252":
                bytes = Array(String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })).utf8)
            default:
                throw JSONListError.badAnswer(
                    "its charset \(charset.prefix(40)) is not one trackwatch reads (UTF-8, "
                        + "Latin-1)", list: list)
            }
        }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw JSONListError.badAnswer("the answer was empty", list: list)
        }
        if mediaType == "text/html" || mediaType == "application/xhtml+xml" || first == UInt8(ascii: "<") {
            throw JSONListError.badAnswer("an HTML page (a sign-in page or an error page?) instead of JSON", list: list)
        }
        if let excess = JSONBudget.excess(in: bytes, maximumDepth: JSONParser.maximumDepth) {
            throw JSONListError.tooLarge(
                reason: "an answer with more values than its size allows",
                detail: "\(list) sent an answer that is not a JSON list trackwatch reads: \(excess). Nothing changed; "
                    + "the next poll retries.")
        }
        do {
            let answer = try JSONParser.stream(bytes, items: items, keeping: kept, each: each)
            traits.lines = answer.lines
            return (answer, traits)
        } catch let failure {
            if failure.tooDeep {
                throw JSONListError.badAnswer("\(failure.message) (the limit), at byte \(failure.offset)", list: list)
            }
            throw JSONListError.badAnswer("not JSON: \(failure)", list: list)
        }
    }

    /// `application/json; charset=UTF-8` → `application/json`.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmingSpaces.lowercased()
    }

    /// `…; charset="UTF-8"` → `utf-8`.
    static func charset(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces.lowercased() == "charset" else { continue }
            var value = parts[1].trimmingSpaces
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.lowercased()
        }
        return nil
    }
}
