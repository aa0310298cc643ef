import TrackwatchCore

extension ListReader {
    /// The next page's URL, or `nil` when this page was the last. In order: the configured `next` pointer or
    /// `cursor`; GitLab's `X-Next-Page` (empty on the last page, where its `Link` has no next either); a
    /// `Link: <…>; rel="next"` header; numbered pages or offsets until an empty or short page or the stated total.
    func nextPage(
        after answer: ListFetcher.Answer, document: JSONValue, url: ListURL, paging: inout PagingState,
        read: inout ListRead
    ) throws -> ListURL? {
        let config = self.config.paging
        if let pointer = config.next {
            return try link(pointer.resolve(in: document), from: answer.url, seen: "the next pointer", read: &read)
        }
        if let pointer = config.cursor, let name = config.cursorParam {
            guard let cursor = pointer.resolve(in: document)?.fieldText, !cursor.isEmpty else { return nil }
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
enum AnswerOutline {
    static func describe(_ document: JSONValue) -> String {
        var text: String
        switch document {
        case .object(let members):
            let shown = members.prefix(12).map {
                "\(SafeText.oneLine($0.name, limit: 40)) (\($0.value.kindDescription))"
            }
            text =
                "The answer is an object with " + (shown.isEmpty ? "no members" : shown.joined(separator: ", "))
                + (members.count > 12 ? ", …" : "")
        case .array:
            text = "The answer is \(document.kindDescription)"
        default:
            text = "The answer is \(document.kindDescription)"
        }
        let lists = listPointers(in: document, at: JSONPointer(""), depth: 0)
        if !lists.isEmpty {
            text +=
                "; its lists are at " + lists.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
                + ": set items to the one you want"
        }
        return text + "."
    }

    /// Pointers to arrays, the document itself included, searched a few levels deep.
    private static func listPointers(in value: JSONValue, at pointer: JSONPointer?, depth: Int) -> [String] {
        guard let pointer, depth <= 4 else { return [] }
        switch value {
        case .array: return [pointer.description]
        case .object(let members):
            return members.prefix(50).flatMap { member in
                listPointers(
                    in: member.value,
                    at: JSONPointer(pointer.description + JSONPointer(member: member.name).description),
                    depth: depth + 1)
            }
        default: return []
        }
    }
}
