/// The streamed read held against the tree it replaced, for the fuzzer (`trackwatch-fuzz json`): whatever the bytes,
/// `stream` and `parseDocumentOrLines` + `JSONPointer.resolve` agree — both refuse them with the same message at the
/// same byte, or both read them, with the same items in the same order and the same values at the kept pointers.
extension JSONParser {
    /// `nil` when the two readings agree, else how they differ. Where the stream is allowed to differ it is not
    /// asked to agree: items named twice on their way (`repeated`: the tree keeps the last copy, the stream already
    /// handed over the first), a kept pointer inside the items (absent to the stream), a kept value over
    /// `largestKeptValue`.
    public static func streamDisagreement(_ bytes: [UInt8], items: JSONPointer, keeping kept: [JSONPointer]) -> String? {
        var streamedItems: [JSONValue] = []
        let streamed: Result<StreamedAnswer, Failure>
        do throws(Failure) {
            streamed = .success(try stream(bytes, items: items, keeping: kept) { streamedItems.append($0) })
        } catch {
            streamed = .failure(error)
        }
        let tree: Result<(value: JSONValue, lines: Bool), Failure>
        do throws(Failure) {
            tree = .success(try parseDocumentOrLines(bytes))
        } catch {
            tree = .failure(error)
        }
        switch (tree, streamed) {
        case (.failure(let expected), .failure(let found)):
            return expected == found ? nil : "the tree refused with \(expected), the stream with \(found)"
        case (.failure(let expected), .success):
            return "the tree refused with \(expected), the stream read it"
        case (.success, .failure(let found)):
            return "the tree read it, the stream refused with \(found)"
        case (.success(let document), .success(let answer)):
            if answer.lines != document.lines { return "lines: the tree \(document.lines), the stream \(answer.lines)" }
            if answer.items == .repeated { return nil }
            if case .array(let expected)? = items.resolve(in: document.value) {
                if streamedItems != expected || answer.items != .list(count: expected.count) {
                    return "the items: the tree \(expected.count), the stream \(streamedItems.count) (\(answer.items))"
                }
            } else if !streamedItems.isEmpty {
                return "the stream handed over \(streamedItems.count) items where the tree has no list"
            }
            for pointer in kept where !pointer.tokens.starts(with: items.tokens) {
                let expected = pointer.resolve(in: document.value)
                switch answer.kept[pointer] {
                case .value(let value)?: if value != expected { return "the value at \(pointer) differs" }
                case .large?: break
                case nil: if expected != nil { return "the stream lost the value at \(pointer)" }
                }
            }
            return nil
        }
    }
}
