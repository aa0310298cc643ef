/// A list's answer read as it streams (issue 27, item 6): the items at the `items` pointer are handed over one by
/// one, each a small tree dropped once it is a record; of the rest only what paging needs (the values at the
/// `next`, `cursor` and `total` pointers) and what a configuration error shows (`AnswerOutline`) is kept, and
/// everything else is checked and dropped without being built. Same grammar, limits and error offsets as `parse`:
/// whatever an answer's bulk is, inside the list or beside it, it never becomes a tree.
extension JSONParser {
    /// Values at a kept pointer larger than this are not built: a link, a cursor or a count is never that long.
    static let largestKeptValue = 65_536

    /// Reads `bytes` — one JSON document, or NDJSON as `parseDocumentOrLines` tells them apart — handing each
    /// element of the array at `items` to `each` in order, and keeping the values at `kept`.
    static func stream(
        _ bytes: [UInt8], items: JSONPointer, keeping kept: [JSONPointer], each: (JSONValue) -> Void
    ) throws(Failure) -> StreamedAnswer {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> StreamedAnswer in
            var parser = Cursor(buffer)
            var walk = StreamWalk(items: items, kept: kept)
            if parser.startsLines() {
                try parser.walkLines(&walk, each)
                walk.answer.lines = true
            } else {
                walk.answer.outline.document = try parser.walk(
                    &walk, each, depth: 0, level: 0, mask: walk.allTargets, outline: "")
                parser.skipSpacesAndTabs()
                if !parser.atEnd {
                    guard parser.consume(UInt8(ascii: "\n")) || parser.consume(UInt8(ascii: "\r")) else {
                        throw parser.failure("more text after the JSON value")
                    }
                    parser.skipWhitespace()
                    // `startsLines` said nothing follows: only a first value that is not JSON gets here, and it threw.
                    guard parser.atEnd else { throw parser.failure("more text after the JSON value") }
                }
            }
            return walk.answer
        }
    }
}

/// What a person calls a kind of value (`JSONValue.kindDescription`), kept without the value.
enum ValueKind: Equatable {
    case null, bool, number, string, object
    case array(count: Int)

    var description: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array(let count): "an array of \(count)"
        case .object: "an object"
        }
    }
}

/// What a streamed answer kept besides its items.
struct StreamedAnswer {
    /// What was at the `items` pointer.
    enum Items: Equatable {
        case absent
        case list(count: Int)
        /// Something other than an array: the configuration's error.
        case other(ValueKind)
        /// A later member of the same name as one on the way to the items, once they were read: a tree would take
        /// the last, but the first were already handed over.
        case repeated
    }

    /// A kept value, or the kind of one too large to keep.
    enum Kept: Equatable {
        case value(JSONValue)
        case large(ValueKind)
    }

    var lines = false
    var items = Items.absent
    var kept: [JSONPointer: Kept] = [:]
    var outline = AnswerOutline()
}

/// Where a streamed read stands: the pointers it looks for (bit 0 of a mask the items, the others kept ones).
struct StreamWalk {
    let targets: [[String]]
    let indexes: [[Int?]]
    let pointers: [JSONPointer]
    var answer = StreamedAnswer()

    init(items: JSONPointer, kept: [JSONPointer]) {
        pointers = [items] + kept.prefix(31)
        targets = pointers.map(\.tokens)
        indexes = targets.map { $0.map(JSONPointer.arrayIndex) }
    }

    var allTargets: UInt32 { UInt32.max >> (32 - targets.count) }

    /// The targets of `mask` whose pointer ends at `level`.
    func ending(at level: Int, in mask: UInt32) -> UInt32 { bits(of: mask) { targets[$0].count == level } }

    /// The targets of `mask` that go on through the member `name` of an object at `level`. The last member of a
    /// name is the one a pointer names: what an earlier one held is forgotten.
    mutating func member(_ name: String, level: Int, in mask: UInt32) -> UInt32 {
        var child = bits(of: mask) { targets[$0].count > level && targets[$0][level] == name }
        if child & 1 != 0 {
            switch answer.items {
            case .list, .repeated:
                answer.items = .repeated
                child &= ~1
            case .other: answer.items = .absent
            case .absent: break
            }
        }
        for target in 1..<targets.count where child & (1 << target) != 0 { answer.kept[pointers[target]] = nil }
        return child
    }

    /// The targets of `mask` that go on through element `position` of an array at `level`.
    func element(_ position: Int, level: Int, in mask: UInt32) -> UInt32 {
        bits(of: mask) { targets[$0].count > level && indexes[$0][level] == position }
    }

    private func bits(of mask: UInt32, where wanted: (Int) -> Bool) -> UInt32 {
        var result: UInt32 = 0
        for target in 0..<targets.count where mask & (1 << target) != 0 && wanted(target) { result |= 1 << target }
        return result
    }

    /// Keeps `value` for `targets`, and for the targets below it the values it holds.
    mutating func keep(_ value: JSONValue, at level: Int, for mask: UInt32) {
        for target in 1..<targets.count where mask & (1 << target) != 0 {
            answer.kept[pointers[target]] = JSONPointer(tokens: Array(targets[target][level...]))
                .resolve(in: value).map(StreamedAnswer.Kept.value)
        }
    }
}

extension Cursor {
    /// The value here, as the walk needs it: the items streamed, kept values built, everything else skipped.
    /// `level` is the length of its path; `outline` its pointer while `AnswerOutline` looks for lists there.
    mutating func walk(
        _ walk: inout StreamWalk, _ each: (JSONValue) -> Void, depth: Int, level: Int, mask: UInt32, outline: String?
    ) throws(JSONParser.Failure) -> ValueKind {
        guard mask != 0 || outline != nil || level == 0 else { return try skipValue(depth: depth) }
        skipWhitespace()
        guard index < bytes.count else { throw failure("the JSON ends early") }
        let byte = bytes[index]
        let isItems = mask & 1 != 0 && walk.targets[0].count == level
        if isItems, byte == UInt8(ascii: "[") {
            guard depth < JSONParser.maximumDepth else { throw tooDeep() }
            if let outline { walk.answer.outline.add(list: outline) }
            let count = try streamItems(each, depth: depth + 1)
            walk.answer.items = .list(count: count)
            return .array(count: count)
        }
        let kept = walk.ending(at: level, in: mask) & ~1
        if kept != 0, mask & 1 == 0 { return try keep(&walk, depth: depth, level: level, mask: mask, outline: outline) }
        let kind: ValueKind
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < JSONParser.maximumDepth else { throw tooDeep() }
            kind = try walkObject(&walk, each, depth: depth + 1, level: level, mask: mask & ~kept, outline: outline)
        case UInt8(ascii: "["):
            guard depth < JSONParser.maximumDepth else { throw tooDeep() }
            if let outline { walk.answer.outline.add(list: outline) }
            kind = try walkArray(&walk, each, depth: depth + 1, level: level, mask: mask & ~kept)
        default:
            kind = try skipValue(depth: depth)
        }
        if isItems { walk.answer.items = .other(kind) }
        return kind
    }

    private func tooDeep() -> JSONParser.Failure {
        failure("the answer nests deeper than \(JSONParser.maximumDepth) levels", tooDeep: true)
    }

    /// NDJSON: each line an element of the array the answer stands for.
    mutating func walkLines(_ walk: inout StreamWalk, _ each: (JSONValue) -> Void) throws(JSONParser.Failure) {
        let streamed = walk.targets[0].isEmpty
        var count = 0
        while true {
            // The first line is read as a document would be, the others as elements.
            let depth = count == 0 ? 0 : 1
            if streamed {
                each(try value(depth: depth))
            } else {
                let mask = walk.element(count, level: 0, in: walk.allTargets)
                _ = try self.walk(&walk, each, depth: depth, level: 1, mask: mask, outline: nil)
            }
            count += 1
            skipSpacesAndTabs()
            if count == 1 {
                guard consume(UInt8(ascii: "\n")) || consume(UInt8(ascii: "\r")) else {
                    throw failure("more text after the JSON value")
                }
            } else if !atEnd {
                guard consume(UInt8(ascii: "\n")) || consume(UInt8(ascii: "\r")) else {
                    throw failure("expected one JSON value per line")
                }
            }
            skipWhitespace()
            if atEnd { break }
        }
        walk.answer.items = streamed ? .list(count: count) : walk.answer.items
        walk.answer.outline.document = .array(count: count)
        walk.answer.outline.add(list: "")
    }

    /// The elements of the items array (at its `[`), each handed over as it is read.
    private mutating func streamItems(_ each: (JSONValue) -> Void, depth: Int) throws(JSONParser.Failure) -> Int {
        index += 1
        var count = 0
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return 0 }
        while true {
            each(try value(depth: depth))
            count += 1
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "]")) else { throw failure(atEnd ? "the JSON ends early" : "expected , or ]") }
            return count
        }
    }

    /// A value at a kept pointer: checked first, then built when it is small enough.
    private mutating func keep(
        _ walk: inout StreamWalk, depth: Int, level: Int, mask: UInt32, outline: String?
    ) throws(JSONParser.Failure) -> ValueKind {
        let start = index
        let kind = try skipValue(depth: depth)
        guard index - start <= JSONParser.largestKeptValue else {
            for target in 1..<walk.targets.count where walk.ending(at: level, in: mask) & (1 << target) != 0 {
                walk.answer.kept[walk.pointers[target]] = .large(kind)
            }
            if let outline, case .array = kind { walk.answer.outline.add(list: outline) }
            return kind
        }
        let end = index
        index = start
        let value = try value(depth: depth)
        index = end
        walk.keep(value, at: level, for: mask)
        if let outline { walk.answer.outline.add(lists: AnswerOutline.listPointers(in: value, at: outline, level)) }
        return kind
    }

    private mutating func walkObject(
        _ walk: inout StreamWalk, _ each: (JSONValue) -> Void, depth: Int, level: Int, mask: UInt32, outline: String?
    ) throws(JSONParser.Failure) -> ValueKind {
        index += 1
        var count = 0
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure(atEnd ? "the JSON ends early" : "expected a member name in quotes")
            }
            // Members past the outline's first 50 (12 at the top) and off every pointer's way are only checked.
            let inOutline = outline != nil && level < AnswerOutline.deepest && count < AnswerOutline.membersSearched
            var name: String?
            var childMask: UInt32 = 0
            if mask != 0 || inOutline || (level == 0 && count < AnswerOutline.membersShown) {
                let member = try string()
                childMask = walk.member(member, level: level, in: mask)
                name = member
            } else {
                try skipString()
            }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw failure("expected : after a member name") }
            let childOutline = inOutline ? name.map { outline! + JSONPointer(member: $0).description } : nil
            let kind = try self.walk(&walk, each, depth: depth, level: level + 1, mask: childMask, outline: childOutline)
            if level == 0 { walk.answer.outline.add(member: name, kind) }
            count += 1
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "}")) else { throw failure(atEnd ? "the JSON ends early" : "expected , or }") }
            return .object
        }
    }

    private mutating func walkArray(
        _ walk: inout StreamWalk, _ each: (JSONValue) -> Void, depth: Int, level: Int, mask: UInt32
    ) throws(JSONParser.Failure) -> ValueKind {
        index += 1
        var count = 0
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(count: 0) }
        while true {
            let childMask = walk.element(count, level: level, in: mask)
            _ = try self.walk(&walk, each, depth: depth, level: level + 1, mask: childMask, outline: nil)
            count += 1
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "]")) else { throw failure(atEnd ? "the JSON ends early" : "expected , or ]") }
            return .array(count: count)
        }
    }
}

/// Checking without building: `value(depth:)`'s grammar, limits and error offsets, nothing allocated.
extension Cursor {
    mutating func skipValue(depth: Int) throws(JSONParser.Failure) -> ValueKind {
        skipWhitespace()
        guard index < bytes.count else { throw failure("the JSON ends early") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < JSONParser.maximumDepth else { throw tooDeep() }
            return bytes[index] == UInt8(ascii: "{") ? try skipObject(depth: depth + 1) : try skipArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            try skipString()
            return .string
        case UInt8(ascii: "t"):
            _ = try literal("true", .bool(true))
            return .bool
        case UInt8(ascii: "f"):
            _ = try literal("false", .bool(false))
            return .bool
        case UInt8(ascii: "n"):
            _ = try literal("null", .null)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
            return .number
        default: throw failure("unexpected character '\(Self.printable(bytes[index]))'")
        }
    }

    private mutating func skipArray(depth: Int) throws(JSONParser.Failure) -> ValueKind {
        index += 1
        var count = 0
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(count: 0) }
        while true {
            _ = try skipValue(depth: depth)
            count += 1
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "]")) else { throw failure(atEnd ? "the JSON ends early" : "expected , or ]") }
            return .array(count: count)
        }
    }

    private mutating func skipObject(depth: Int) throws(JSONParser.Failure) -> ValueKind {
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure(atEnd ? "the JSON ends early" : "expected a member name in quotes")
            }
            try skipString()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw failure("expected : after a member name") }
            _ = try skipValue(depth: depth)
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            guard consume(UInt8(ascii: "}")) else { throw failure(atEnd ? "the JSON ends early" : "expected , or }") }
            return .object
        }
    }

    /// `number()` without its spelling: the exponent is bounded as `JSONNumber.canonical` bounds it.
    private mutating func skipNumber() throws(JSONParser.Failure) {
        _ = consume(UInt8(ascii: "-"))
        guard digits() > 0 else { throw failure("expected a digit") }
        if consume(UInt8(ascii: ".")) {
            guard digits() > 0 else { throw failure("expected a digit after the decimal point") }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            let start = index
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
            var exponent = 0
            for position in start..<index {
                exponent = exponent * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                guard exponent <= 1_000_000 else { throw failure("a number with an exponent beyond ±1000000") }
            }
        }
    }

    /// `string()` without its text: the same two passes, so that an error is found at the same byte.
    mutating func skipString() throws(JSONParser.Failure) {
        index += 1
        if try plainRun() { return }
        while true {
            guard index < bytes.count else { throw failure("the JSON ends inside a string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"): _ = try escape()
            case 0..<0x20: throw failure("a control character inside a string")
            default: break
            }
        }
    }

    /// Whether the answer is NDJSON: a first value, then a line break, then more. Found by matching brackets
    /// outside strings, without checking the grammar: where the first value is JSON its end is the same as the
    /// parser's, and where it is not, the parser's error comes first either way.
    func startsLines() -> Bool {
        // Most answers are one line, or end in their only line break: no need to match their brackets.
        var last = bytes.count - 1
        while last >= index, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[last]) { last -= 1 }
        var breaks = false
        var position = index
        while position < last, !breaks {
            breaks = bytes[position] == 0x0A || bytes[position] == 0x0D
            position += 1
        }
        guard breaks else { return false }
        var scan = self
        scan.skipWhitespace()
        guard scan.skipRoughly() else { return false }
        scan.skipSpacesAndTabs()
        guard scan.consume(UInt8(ascii: "\n")) || scan.consume(UInt8(ascii: "\r")) else { return false }
        scan.skipWhitespace()
        return !scan.atEnd
    }

    private mutating func skipRoughly() -> Bool {
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth <= 0 {
                    index += 1
                    return depth == 0
                }
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return false }
                if depth == 0 {
                    index += 1
                    return true
                }
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"):
                if depth == 0 { return true }
            default: break
            }
            index += 1
        }
        return depth == 0
    }
}
