import TrackwatchCore

/// Reads a list whole, page by page, or fails: the next page is found the way the configuration says (or by a
/// `Link` or `X-Next-Page` header, without configuration), and a server that ignores paging or never ends is
/// caught — a page already read, a page of items already seen, more pages than `max_pages`, fewer items than
/// the stated total — so that nothing is read twice and no partial list is ever compared.
struct ListReader {
    /// More items than this in one list are refused: every one is held in memory while the poll compares.
    static let maximumItems = 200_000

    let config: JSONListConfig
    let fetcher: ListFetcher
    let shape: ItemShape

    init(config: JSONListConfig, fetcher: ListFetcher) {
        self.config = config
        self.fetcher = fetcher
        shape = ItemShape(config)
    }

    enum Outcome {
        /// 304 to the conditional first request.
        case notModified
        case list(ListRead)
    }

    /// Reads every page; `validators` (stored from the last committed answer) make the first request conditional.
    func read(validators: Validators? = nil) async throws -> Outcome {
        guard var url = ListURL(config.url).map(firstPage) else {
            throw JSONListError.configuration(
                "url in [[json]] \(config.name) is not an http(s) URL trackwatch can read")
        }
        var read = ListRead()
        var visited: Set<String> = []
        var bodies: Set<UInt64> = []
        var paging = PagingState()
        while true {
            visited.insert(url.description)
            let outcome = try await fetcher.get(url, validators: read.pages == 0 ? validators : nil)
            guard case .answer(let answer) = outcome else {
                if read.pages == 0 { return .notModified }
                throw JSONListError.badAnswer("HTTP 304 to a request that was not conditional", list: config.name)
            }
            read.pages += 1
            read.bytes += answer.body.count
            guard read.bytes <= config.maxSize else { throw tooLarge(read) }
            if read.pages == 1 { read.first = FirstAnswer(answer) }
            // Each item becomes a record as it is read; past the limit they are only counted.
            var page = PageTally()
            let (skeleton, traits) = try AnswerBody.decode(
                answer.body, contentType: answer.header("Content-Type"), list: config.name, items: config.items,
                keeping: keptPointers
            ) { item in
                page.items += 1
                guard read.collector.itemCount < Self.maximumItems else {
                    page.overflowed = true
                    return
                }
                let added = read.collector.add(item, shape: shape)
                if added.keyed { page.keyed += 1 }
                if added.fresh { page.fresh += 1 }
            }
            if read.pages == 1 { read.traits = traits }
            try checkItems(in: skeleton)
            if read.pages == 1 { paging.total = try total(in: skeleton) }
            guard bodies.insert(Self.digest(answer.body)).inserted || page.items == 0 else {
                throw repeated(page: read.pages)
            }
            if read.pages > 1, page.keyed > 0, page.fresh == 0 { throw repeated(page: read.pages) }
            guard !page.overflowed else {
                throw JSONListError.badAnswer("more than \(Self.maximumItems) items (the limit)", list: config.name)
            }
            paging.pageItems = page.items
            if read.pages == 1 { paging.firstPageItems = page.items }
            guard let next = try nextPage(after: answer, skeleton: skeleton, url: url, paging: &paging, read: &read)
            else {
                break
            }
            guard !visited.contains(next.description) else {
                throw JSONListError.paging(
                    "\(config.name): the next page's link points back to a page already read "
                        + "(\(SafeText.oneLine(next.description, limit: 120))); the server's paging never ends, so "
                        + "nothing was compared.")
            }
            guard read.pages < config.maxPages else {
                throw JSONListError.paging(
                    "\(config.name): the list did not end after \(config.maxPages) pages "
                        + "(max_pages): the server's paging may never end. If the list is really that long, raise "
                        + "max_pages "
                        + "in [[json]] \(config.name); nothing was compared.")
            }
            url = next
        }
        if let total = paging.total, read.collector.itemCount < total {
            throw JSONListError.badAnswer(
                "the answer stated \(total) items, but its pages held "
                    + "\(read.collector.itemCount) (did the list change while it was read?)", list: config.name)
        }
        try checkKey(read.collector)
        return .list(read)
    }

    /// The pages read so far are together larger than `max_size`: every item is held until the poll compares.
    private func tooLarge(_ read: ListRead) -> JSONListError {
        let limit = JSONListError.size(config.maxSize)
        return .tooLarge(
            reason: "a list larger than max_size (\(limit))",
            detail: "\(config.name): the list's pages together are larger than max_size (\(limit)): its first "
                + "\(read.pages) pages held \(JSONListError.size(read.bytes)). trackwatch holds a whole list to "
                + "compare it; if the list is really that large, raise max_size in [[json]] \(config.name). Nothing "
                + "was compared or stored.")
    }

    private func repeated(page: Int) -> JSONListError {
        .paging(
            "\(config.name): page \(page) repeats the items of an earlier page: the server ignores the page "
                + "parameter (check the paging keys in [[json]] \(config.name)); nothing was compared.")
    }

    /// The configured URL with the first page's parameters.
    private func firstPage(_ url: ListURL) -> ListURL {
        var url = url
        let paging = config.paging
        if let pageParam = paging.pageParam {
            url = url.setting(pageParam, to: "1")
            if let name = paging.perPageParam, let size = paging.perPage { url = url.setting(name, to: "\(size)") }
        } else if let offsetParam = paging.offsetParam {
            url = url.setting(offsetParam, to: "0")
            if let name = paging.limitParam, let size = paging.limit { url = url.setting(name, to: "\(size)") }
        }
        return url
    }

    /// The values an answer keeps besides its items: where paging looks.
    private var keptPointers: [JSONPointer] {
        [config.paging.next, config.paging.cursor, config.paging.total].compactMap { $0 }
    }

    /// A pointer that found no list at `items` is the configuration's error, with what the answer holds instead.
    func checkItems(in answer: StreamedAnswer) throws {
        switch answer.items {
        case .list: return
        case .other(let kind):
            throw JSONListError.configuration(
                "items \"\(config.items)\" in [[json]] \(config.name) is "
                    + "\(kind.description), not a list. \(answer.outline.description)")
        case .absent:
            throw JSONListError.configuration(
                "items \"\(config.items)\" in [[json]] \(config.name) is not in the "
                    + "answer. \(answer.outline.description)")
        case .repeated:
            throw JSONListError.badAnswer(
                "the answer names the member that holds its items (items \"\(config.items)\") twice", list: config.name)
        }
    }

    /// The value an answer has at one of `keptPointers` (`key` names it for an error).
    func value(at pointer: JSONPointer, in answer: StreamedAnswer, _ key: String) throws -> JSONValue? {
        switch answer.kept[pointer] {
        case .value(let value)?: return value
        case .large(let kind)?:
            throw JSONListError.badAnswer(
                "\(key) \"\(pointer)\" holds \(kind.description) larger than "
                    + "\(JSONListError.size(JSONParser.largestKeptValue)), not a \(key)", list: config.name)
        case nil: return nil
        }
    }

    /// A key field that no item has is the configuration's error, with the fields the items have.
    private func checkKey(_ collector: ItemCollector) throws {
        guard collector.itemCount > 0, collector.keyedCount == 0 else { return }
        let members = (collector.sampleMembers ?? []).prefix(15).map { SafeText.oneLine($0, limit: 40) }
        let have =
            members.isEmpty ? "the items are not objects" : "the first item has " + members.joined(separator: ", ")
        throw JSONListError.configuration(
            "no item of [[json]] \(config.name) has the key field \"\(config.key)\" "
                + "(a string or number): \(have). Set key to the field that identifies an item.")
    }

    /// The total the first answer states (`total`), bounded.
    private func total(in answer: StreamedAnswer) throws -> Int? {
        guard let pointer = config.paging.total else { return nil }
        guard let text = try value(at: pointer, in: answer, "total")?.fieldText, text.count <= 9, let total = Int(text),
            total >= 0
        else {
            throw JSONListError.configuration(
                "total \"\(pointer)\" in [[json]] \(config.name) is not a count in the "
                    + "answer. \(answer.outline.description)")
        }
        return total
    }

    /// FNV-1a over the body's 8-byte words (and its last few bytes): a page's identity within one read.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var offset = 0
            while offset + 8 <= raw.count {
                hash ^= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                hash &*= 0x100_0000_01b3
                offset += 8
            }
            for byte in raw[offset...] {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            return hash ^ UInt64(raw.count)
        }
    }
}

/// Where paging stands between two pages.
struct PagingState {
    var total: Int?
    var pageItems = 0
    var firstPageItems = 0
    var page = 1
    var offset = 0
}

/// One page's items, as they streamed.
struct PageTally {
    var items = 0
    var keyed = 0
    var fresh = 0
    /// Items past `ListReader.maximumItems`, counted and dropped.
    var overflowed = false
}

/// What reading a list found.
struct ListRead {
    var collector = ItemCollector()
    var pages = 0
    /// The bytes of every page so far (inflated), held to `max_size`.
    var bytes = 0
    var first: FirstAnswer?
    var traits = AnswerBody.Traits()
    /// How the pages were found (`Link headers`, `the next pointer`, …), once there was a second page.
    var pagingSeen: String?
}

/// What `probe` and the conditional requests need of the first answer.
struct FirstAnswer {
    var status: Int
    var validators: Validators?
    var contentType: String?
    var contentEncoding: String?
    var chunked: Bool
    var redirects: Int
    var bytes: Int

    init(_ answer: ListFetcher.Answer) {
        status = answer.status
        validators = Validators(headers: answer)
        contentType = answer.header("Content-Type").map { SafeText.oneLine($0, limit: 80) }
        contentEncoding = answer.header("Content-Encoding").map { SafeText.oneLine($0, limit: 40) }
        chunked = answer.header("Transfer-Encoding")?.lowercased().contains("chunked") ?? false
        redirects = answer.redirects
        bytes = answer.body.count
    }
}
