import TrackwatchCore

/// How an item of the list becomes a `Record`: its key, its compared fields and the fields that describe it, each
/// as one text (`JSONValue.fieldText`), long values cut so that the store and the page stay small: a changed
/// 1.5 MB picture is still a change, but it is never stored, compared twice or shown whole. Compared without a
/// `fields` list, an item's members are bounded as they arrive too (`Record.bounded(fields:)`): long names cut,
/// and past `Record.fieldLimit` members the rest one field with their count and fingerprint.
struct ItemShape {
    /// A longer key identifies nothing a person could read; such an item counts as one without a key.
    static let longestKey = 256

    let key: FieldPath
    let compared: [FieldPath]?
    let ignore: [FieldPath]
    let describing: [FieldPath]
    let title: Template?
    /// The `ignore`d members of an object item, when every ignored field is one and nothing else read from the item
    /// lies inside one: then they are passed over as the members are read, and the item is not copied without them.
    private let ignoredMembers: [String]?

    init(_ config: JSONListConfig) {
        key = config.key
        compared = config.fields
        ignore = config.ignore
        describing = config.describingFields
        title = config.title
        let names = ignore.compactMap { $0.pointer.tokens.count == 1 ? $0.pointer.tokens[0] : nil }
        let inside = ((compared ?? []) + describing).contains { $0.pointer.tokens.first.map(names.contains) ?? true }
        ignoredMembers = names.count == ignore.count && !inside ? names : nil
    }

    /// The item's key in one spelling (`42` and `"42"` alike), or `nil` when it has none a person could use.
    func key(of item: JSONValue) -> String? {
        switch key.value(in: item) {
        case .string(let text)?:
            let trimmed = text.trimmingSpaces
            return trimmed.isEmpty || trimmed.utf8.count > Self.longestKey ? nil : trimmed
        case .number(let number)?: return number.utf8.count > Self.longestKey ? nil : number
        default: return nil
        }
    }

    /// The record of an item whose key is `key`.
    func record(of item: JSONValue, key: String) -> Record {
        var scratch = RecordScratch()
        return record(of: item, key: key, scratch: &scratch)
    }

    /// The same, reusing `scratch` from the items before: an object item's fields are written straight into the
    /// record's canonical form (`Record(id:ascendingFields:buffer:)`), in the name order of the item before when
    /// its members have the same names in the same order (nearly every item of a list), else sorted anew.
    func record(of item: JSONValue, key: String, scratch: inout RecordScratch) -> Record {
        if compared == nil, case .object(let members) = item, let passedOver = ignoredMembers,
            let record = ascendingRecord(item, members, key: key, passedOver: passedOver, scratch: &scratch)
        {
            return record
        }
        var item = item
        let passedOver: [String]
        if case .object = item, let ignoredMembers {
            passedOver = ignoredMembers
        } else {
            passedOver = []
            for field in ignore { item = item.removing(field.pointer) }
        }
        var fields: [String: String] = [:]
        if let compared {
            for field in compared { fields[field.name] = field.value(in: item)?.fieldText.map(Self.bounded) }
        } else if case .object(let members) = item {
            fields.reserveCapacity(members.count + describing.count)
            // Members that describe the item (its title's) are added whole below, never folded away.
            for member in members
            where !(self.key.isMemberName && member.name == self.key.name) && !isDescribingMember(member.name)
                && !passedOver.contains(member.name)
            {
                fields[member.name] = member.value.fieldText
            }
            // Within the limits bounding changes nothing that the record does not do itself (it cuts each value):
            // a second dictionary an item only where a name or the count is past them.
            if fields.count > Record.fieldLimit || fields.keys.contains(where: { $0.utf8.count > Record.nameLimit }) {
                fields = Record.bounded(fields: fields)
            }
        }
        for field in describing where fields[field.name] == nil {
            fields[field.name] = field.value(in: item)?.fieldText.map(Self.bounded)
        }
        return Record(id: RecordID(key), fields: fields)
    }

    /// What `record` makes of an object's members without a dictionary, or `nil` where only the dictionary does
    /// the same: a name twice (the last wins, a later null removes it), names or a count past the record's bounds.
    private func ascendingRecord(
        _ item: JSONValue, _ members: [JSONMember], key: String, passedOver: [String], scratch: inout RecordScratch
    ) -> Record? {
        // Which members are fields depends on their names alone: decided once for each order of names.
        guard let order = scratch.fieldOrder(of: members, isField: { name in
            !(self.key.isMemberName && name == self.key.name) && !isDescribingMember(name) && !passedOver.contains(name)
        }) else { return nil }
        // Taken out of the scratch while written, so that appending never copies it.
        var fields = scratch.fields
        scratch.fields = []
        fields.removeAll(keepingCapacity: true)
        defer { scratch.fields = fields }
        for index in order {
            guard let text = members[index].value.fieldText else { continue }
            fields.append((members[index].name, text))
        }
        guard fields.count <= Record.fieldLimit else { return nil }
        // As in `record`: a field that describes the item is added when no member of its name is there already.
        for field in describing {
            let position = fields.partitionPoint { $0.name < field.name }
            guard position == fields.count || fields[position].name != field.name,
                let text = field.value(in: item)?.fieldText
            else { continue }
            fields.insert((field.name, text), at: position)
        }
        return Record(id: RecordID(key), ascendingFields: fields, buffer: &scratch.buffer)
    }

    private func isDescribingMember(_ name: String) -> Bool {
        describing.contains { $0.isMemberName && $0.name == name }
    }

    /// The fields compared between polls, for a record: the configured ones, or every field it has but those only
    /// kept to describe it (a `title` pointer such as `/meta/color` beside the compared `meta`).
    func isCompared(_ name: String) -> Bool {
        if let compared { return compared.contains { $0.name == name } }
        return !describing.contains { $0.name == name && !$0.isMemberName }
    }

    /// How a warning names an item without a usable key: its title, else its position.
    func describe(_ item: JSONValue, position: Int) -> String {
        let title = title?.render { $0.value(in: item)?.fieldText } ?? ""
        let shown = SafeText.oneLine(title, limit: 60)
        return shown.isEmpty ? "item \(position)" : "item \(position) (\(shown))"
    }

    /// `value`, or for a long one its start, its length and a digest of the whole, as every source keeps it
    /// (`Record.stored`).
    static func bounded(_ value: String) -> String { Record.stored(value) }
}

/// What `ItemShape.record` reuses from one item to the next: the members' names in the order of the item before and
/// the indices of its fields in name order (`nil` when a name repeats or one is past `Record.nameLimit`), the fields
/// and the canonical form being written. One scratch serves one `ItemShape`.
struct RecordScratch {
    private var names: [String] = []
    private var fieldOrder: [Int]? = []
    fileprivate var fields: [(name: String, value: String)] = []
    fileprivate var buffer: [UInt8] = []

    /// The indices of the members that `isField` keeps, in ascending name order; `nil` when two members have the
    /// same name or a kept name is longer than a record keeps.
    fileprivate mutating func fieldOrder(of members: [JSONMember], isField: (String) -> Bool) -> [Int]? {
        if members.count == names.count, members.indices.allSatisfy({ members[$0].name == names[$0] }) {
            return fieldOrder
        }
        names = members.map(\.name)
        let order = members.indices.sorted { members[$0].name < members[$1].name }
        let unique = order.indices.dropFirst().allSatisfy { members[order[$0 - 1]].name < members[order[$0]].name }
        let kept = order.filter { isField(members[$0].name) }
        let short = kept.allSatisfy { members[$0].name.utf8.count <= Record.nameLimit }
        fieldOrder = unique && short ? kept : nil
        return fieldOrder
    }
}

extension Array {
    /// The index of the first element for which `isBefore` is false, in an array partitioned by it.
    fileprivate func partitionPoint(_ isBefore: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The items of every page read so far, each key once: an item seen again with the same fields (a page that
/// shifted while the list was read) counts once; with other fields its key is ambiguous and set aside.
struct ItemCollector {
    private(set) var records: [String: Record] = [:]
    /// Keys that named items with different fields, and how many items each named.
    private(set) var conflicting: [String: Int] = [:]
    /// The first item of each such key: what a baseline keeps for it, silently.
    private(set) var firstOfConflicting: [String: Record] = [:]
    /// Items without a usable key, described (the first few), and how many there were.
    private(set) var keyless: [String] = []
    private(set) var keylessCount = 0
    /// Items read, pages together.
    private(set) var itemCount = 0
    /// The members of the first item that is an object: what a configuration error shows.
    private(set) var sampleMembers: [String]?

    static let describedKeyless = 5
    private var scratch = RecordScratch()

    /// Adds one item; returns whether it had a key, and whether a key not seen before.
    mutating func add(_ item: JSONValue, shape: ItemShape) -> (keyed: Bool, fresh: Bool) {
        itemCount += 1
        if sampleMembers == nil, case .object(let members) = item { sampleMembers = members.map(\.name) }
        guard let key = shape.key(of: item) else {
            keylessCount += 1
            if keyless.count < Self.describedKeyless { keyless.append(shape.describe(item, position: itemCount)) }
            return (false, false)
        }
        let record = shape.record(of: item, key: key, scratch: &scratch)
        if let count = conflicting[key] {
            conflicting[key] = count + 1
        } else if let earlier = records[key] {
            if earlier != record {
                records[key] = nil
                conflicting[key] = 2
                firstOfConflicting[key] = earlier
            }
        } else {
            records[key] = record
            return (true, true)
        }
        return (true, false)
    }

    /// Keys with items, ambiguous ones included.
    var keyedCount: Int { records.count + conflicting.count }
}
