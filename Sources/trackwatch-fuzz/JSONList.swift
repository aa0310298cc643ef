import JSONListClient

/// What reads a JSON list's answers: the bounded JSON reader (a document or NDJSON), its streamed read held against
/// the tree, and what is made of a value.
/// Never a trap; an accepted value's canonical JSON is a fixed point (read again, it is itself), and its numbers
/// are already in their one spelling. The same text as a pointer and a template is refused or read, never a trap.
func fuzzJSONList(_ bytes: UnsafeRawBufferPointer) {
    let input = Array(bytes)
    if let value = try? JSONParser.parseDocumentOrLines(input).value {
        let canonical = value.canonicalJSON
        guard let again = try? JSONParser.parse(Array(canonical.utf8)), again.canonicalJSON == canonical else {
            fatalError("canonical JSON that does not read back as itself: \(canonical.prefix(200))")
        }
        checkNumbers(value, depth: 0)
    }
    // The streamed read (what a poll uses) agrees with the tree, wherever the items and the paging values are.
    for (items, kept) in streamedReadings {
        if let difference = JSONParser.streamDisagreement(input, items: items, keeping: kept) {
            fatalError("the streamed read of an answer differs from the tree: \(difference)")
        }
    }
    let text = String(decoding: input.prefix(512), as: UTF8.self)
    if let pointer = JSONPointer(text) { _ = pointer.description }
    _ = try? Template(parsing: text)
}

/// Where a list's items and its paging values are looked for: the answer itself; beside each other in an object;
/// nested in arrays and objects.
private let streamedReadings: [(JSONPointer, [JSONPointer])] = [
    ("", []),
    ("/items", ["/next", "/meta/total", "/links/next", "/0"]),
    ("/data/1", ["/data/0/x", "/0", "/cursor/after"]),
].map { (JSONPointer($0)!, $1.map { JSONPointer($0)! }) }

private func checkNumbers(_ value: JSONValue, depth: Int) {
    switch value {
    case .number(let number):
        guard JSONNumber.canonical(Array(number.utf8)) == number else { fatalError("\(number) is not canonical") }
    case .array(let items): for item in items.prefix(100) { checkNumbers(item, depth: depth + 1) }
    case .object(let members): for member in members.prefix(100) { checkNumbers(member.value, depth: depth + 1) }
    default: break
    }
}
