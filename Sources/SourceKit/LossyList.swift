import Logging
import Synchronization
import TrackwatchCore

/// A tracker's list of items (or of log entries) decoded element by element: an element that does not decode — an id
/// of 10^30, a number past Int64, a number sent as text — is left out and noted (`SkippedItems`), the others kept, so
/// that one broken item never silences the rest. What is not a list at all (HTML, a cut body, an object) still fails
/// the read whole. An item left out is not "gone": the poller keeps it as stored.
public struct LossyList<Element: Decodable>: Decodable {
    public var elements: [Element]
    /// Elements left out: a page of them is not an empty page (the end of a list).
    public var skipped = 0

    /// Elements the tracker sent, read or left out: what its totals count, and where its next page starts.
    public var sent: Int { elements.count + skipped }

    /// A list read in parts: the pages of one are added to it (`+=`).
    public init(elements: [Element] = [], skipped: Int = 0) {
        self.elements = elements
        self.skipped = skipped
    }

    /// The pages of one list, in the order given, as one list.
    public init(merging pages: some Sequence<LossyList>) {
        self.init()
        for page in pages { self += page }
    }

    /// `page` read after what `list` holds.
    public static func += (list: inout LossyList, page: LossyList) {
        list.elements += page.elements
        list.skipped += page.skipped
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = [], skipped = 0
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                // A failed decode leaves the container where it was: the hint reads the same element and moves on.
                var item = try container.decode(SkippedItem.self)
                item.name(of: error, below: decoder.codingPath.count + 1)
                SkippedItems.note(item, in: decoder)
                skipped += 1
                guard container.currentIndex > index else { break }
            }
        }
        self.elements = elements
        self.skipped = skipped
    }
}

/// One item read from an answer of its own (an issue asked for by id): `value` is `nil` where the object does not
/// decode as the item (noted as `LossyList` notes it). An answer that is not a JSON object still fails the read.
public struct LossyItem<Value: Decodable>: Decodable {
    public var value: Value?

    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: SkippedItem.Key.self)
        do {
            value = try Value(from: decoder)
        } catch {
            var skipped = try SkippedItem(from: decoder)
            skipped.name(of: error, below: decoder.codingPath.count)
            SkippedItems.note(skipped, in: decoder)
            value = nil
        }
    }
}

/// What can be said of an element that was left out: what names it, and the member that could not be used.
struct SkippedItem: Decodable, Hashable, Sendable {
    /// Its web address, key or title as far as one reads as text (one line, bounded), else its API address (`self`,
    /// a Jira comment's); empty where none does.
    var name: String
    /// The member that could not be used (`number`, `assignees.0.id`); empty where the element is no object.
    var member = ""
    /// Its first member holding a whole number past Int64, which Foundation's decoder reports without a path.
    private var numberOutOfRange = ""

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Never fails: an element of any shape is read as far as it goes.
    init(from decoder: any Decoder) throws {
        let object = try? decoder.container(keyedBy: Key.self)
        let names = ["html_url", "web_url", "url", "key", "title", "name", "self"].lazy.compactMap { key in
            (try? object?.decodeIfPresent(String.self, forKey: Key(stringValue: key))) ?? nil
        }
        name = names.first.map { SafeText.oneLine($0, limit: 120) } ?? ""
        for key in (object?.allKeys ?? []).prefix(200) where (try? object?.decode(Int64.self, forKey: key)) == nil {
            guard let number = try? object?.decode(Double.self, forKey: key), number == number.rounded(),
                abs(number) >= 9.2e18
            else { continue }
            numberOutOfRange = SafeText.oneLine(key.stringValue, limit: 60)
            break
        }
    }

    /// Sets `member` to the path of the member `error` names, below the element's own (`depth` components from the
    /// answer's root), or else to the member holding a number out of range.
    mutating func name(of error: any Error, below depth: Int) {
        let path: [any CodingKey]
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        default: path = []
        }
        let words = path.dropFirst(depth).map { $0.intValue.map(String.init) ?? $0.stringValue }
        member = words.isEmpty ? numberOutOfRange : SafeText.oneLine(words.joined(separator: "."), limit: 60)
    }
}

/// Where a tracker's decoders note the elements they left out, and the journal line for each: once per item and
/// member while the process runs (a broken item is sent again every poll).
public final class SkippedItems: Sendable {
    /// The decoder's `userInfo` key under which `JSONAnswer` hands these to `LossyList`.
    static let key = CodingUserInfoKey(rawValue: "trackwatch.skippedItems")!
    /// The most items remembered as told; past it, an item may be told again.
    static let mostTold = 1_000

    private let tracker: String
    private let logger: Logger
    private let told = Mutex<Set<SkippedItem>>([])

    public init(tracker: String, logger: Logger) {
        self.tracker = tracker
        self.logger = logger
    }

    static func note(_ item: SkippedItem, in decoder: any Decoder) {
        (decoder.userInfo[key] as? SkippedItems)?.note(item)
    }

    func note(_ item: SkippedItem) {
        let new = told.withLock { told in
            if told.count >= Self.mostTold { told.removeAll() }
            return told.insert(item).inserted
        }
        guard new else { return }
        let what = item.member.isEmpty ? "an item that cannot be read" : "an item with an unusable \(item.member)"
        logger.warning(
            "\(tracker) sent \(what); it is skipped, the rest is watched",
            metadata: item.name.isEmpty ? [:] : ["item": "\(item.name)"])
    }
}
