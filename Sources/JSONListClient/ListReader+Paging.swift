import TrackerHTTP
import TrackwatchCore

extension ListReader {
    /// The next page's URL, or `nil` when this page was the last. In order: the configured `next` pointer or
    /// `cursor`; GitLab's `X-Next-Page` (empty on the last page, where its `Link` has no next either); a
    /// `Link: <…>; rel="next"` header; numbered pages or offsets until an empty or short page or the stated total.
    func nextPage(
        after answer: ListFetcher.Answer, skeleton: StreamedAnswer, url: ListURL, paging: inout PagingState,
        read: inout ListRead
    ) throws -> ListURL? {
        let config = self.config.paging
        if let pointer = config.next {
            return try link(
                value(at: pointer, in: skeleton, "next"), from: answer.url, seen: "the next pointer", read: &read)
        }
        if let pointer = config.cursor, let name = config.cursorParam {
            guard let cursor = try value(at: pointer, in: skeleton, "cursor")?.fieldText, !cursor.isEmpty else { return nil }
            guard cursor.utf8.count <= 2_048 else {
                throw JSONListError.badAnswer("a cursor longer than 2048 bytes", list: self.config.name)
            }
            read.pagingSeen = "a cursor"
            return ListURL(self.config.url)?.setting(name, to: cursor)
        }
        if let header = answer.header("X-Next-Page") {
            let next = header.trimmingSpaces
            guard !next.isEmpty else { return nil }
            guard next.count <= 9, next.allSatisfy(\.isNumber), let number = Int(next), number > paging.page else {
                throw JSONListError.badAnswer(
                    "X-Next-Page \"\(SafeText.oneLine(next, limit: 20))\" is no later page",
                    list: self.config.name)
            }
            paging.page = number
            read.pagingSeen = "X-Next-Page headers"
            return url.setting(config.pageParam ?? "page", to: next)
        }
        if let target = LinkHeader.target("next", in: answer.headers("Link")) {
            return try link(.string(target), from: answer.url, seen: "Link headers", read: &read)
        }
        return numbered(url, paging: &paging, read: &read)
    }

    /// A `next` link from the body or a header: absolute, or relative to the page it came with.
    private func link(_ value: JSONValue?, from base: ListURL, seen: String, read: inout ListRead) throws -> ListURL? {
        guard let value, value != .null else { return nil }
        guard case .string(let text) = value else {
            throw JSONListError.badAnswer(
                "the next page's link is \(value.kindDescription), not a URL", list: config.name)
        }
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        guard let next = base.resolving(trimmed) else {
            throw JSONListError.badAnswer(
                "the next page's link \"\(SafeText.oneLine(trimmed, limit: 120))\" is no "
                    + "http(s) URL", list: config.name)
        }
        read.pagingSeen = seen
        return next
    }

    /// `page_param` or `offset_param`: the next page unless this one was empty, short (fewer items than asked for,
    /// or than the first page had), or the stated total is reached. With a total, only the total and an empty page
    /// end the list: servers such as Jira return fewer items than asked for and say so.
    private func numbered(_ url: ListURL, paging: inout PagingState, read: inout ListRead) -> ListURL? {
        let config = self.config.paging
        guard config.pageParam != nil || config.offsetParam != nil, paging.pageItems > 0 else { return nil }
        let itemsSoFar = read.collector.itemCount
        if let total = paging.total {
            guard itemsSoFar < total else { return nil }
        } else {
            let expected = (config.pageParam != nil ? config.perPage : config.limit) ?? paging.firstPageItems
            guard paging.pageItems >= expected else { return nil }
        }
        if let name = config.pageParam {
            paging.page += 1
            read.pagingSeen = "numbered pages"
            return url.setting(name, to: "\(paging.page)")
        }
        guard let name = config.offsetParam else { return nil }
        paging.offset += paging.pageItems
        read.pagingSeen = "offsets"
        return url.setting(name, to: "\(paging.offset)")
    }
}

/// A short description of an answer for a configuration error: what it is, its members, and where lists are in it.
/// Gathered while the answer streams (`JSONParser.stream`), so it holds a few names, never the answer.
struct AnswerOutline {
    /// Members named, of the answer's own.
    static let membersShown = 12
    /// Lists are looked for this deep (the answer itself at 0), among the first `membersSearched` of each object.
    static let deepest = 4
    static let membersSearched = 50
    static let listsShown = 5

    var document = ValueKind.null
    private(set) var members: [(name: String, kind: ValueKind)] = []
    private(set) var memberCount = 0
    /// Pointers to arrays, the answer itself included, in the order they come.
    private(set) var lists: [String] = []

    mutating func add(member name: String?, _ kind: ValueKind) {
        if let name, members.count < Self.membersShown { members.append((name, kind)) }
        memberCount += 1
    }

    mutating func add(list pointer: String) {
        if lists.count < Self.listsShown { lists.append(pointer) }
    }

    mutating func add(lists pointers: [String]) {
        for pointer in pointers { add(list: pointer) }
    }

    var description: String {
        var text: String
        if document == .object {
            let shown = members.map { "\(SafeText.oneLine($0.name, limit: 40)) (\($0.kind.description))" }
            text =
                "The answer is an object with " + (shown.isEmpty ? "no members" : shown.joined(separator: ", "))
                + (memberCount > Self.membersShown ? ", …" : "")
        } else {
            text = "The answer is \(document.description)"
        }
        if !lists.isEmpty {
            text +=
                "; its lists are at " + lists.map { "\"\($0)\"" }.joined(separator: ", ")
                + ": set items to the one you want"
        }
        return text + "."
    }

    /// Pointers to arrays in a value kept whole, `pointer` at `depth`, searched as the stream searches.
    static func listPointers(in value: JSONValue, at pointer: String, _ depth: Int) -> [String] {
        guard depth <= deepest else { return [] }
        switch value {
        case .array: return [pointer]
        case .object(let members):
            return members.prefix(membersSearched).flatMap { member in
                listPointers(in: member.value, at: pointer + JSONPointer(member: member.name).description, depth + 1)
            }
        default: return []
        }
    }
}
