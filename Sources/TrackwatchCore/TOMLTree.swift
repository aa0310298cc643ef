// How headers and keys build the table tree (see TOML.swift).
extension Parser {
    /// `[a.b]`: defines table a.b (creating a implicitly); a table may be defined once.
    mutating func defineTable(at path: [String], line: Int) throws {
        let arrays = tableArrays
        try Self.descend(&root, path[...], prefix: [], line: line, arrays: arrays) { table, key in
            switch table.values[key]?.kind {
            case nil:
                var fresh = TOMLTable(line: line)
                fresh.explicit = true
                table.keys.append(key)
                table.values[key] = TOMLValue(kind: .table(fresh), line: line)
            case .table(var existing):
                guard !existing.explicit else { throw TOMLError(line: line, message: "table [\(path.joined(separator: "."))] is defined twice") }
                existing.explicit = true
                table.values[key] = TOMLValue(kind: .table(existing), line: line)
            default:
                throw TOMLError(line: line, message: "\(path.joined(separator: ".")) is already a value, not a table")
            }
        }
    }

    /// `[[a.b]]`: appends a new table to the array a.b.
    mutating func appendTableArrayElement(at path: [String], line: Int) throws {
        let arrays = tableArrays
        try Self.descend(&root, path[...], prefix: [], line: line, arrays: arrays) { table, key in
            var items: [TOMLValue] = []
            if let existing = table.values[key] {
                guard case .array(let current) = existing.kind, arrays.contains(path) else {
                    throw TOMLError(line: line, message: "\(path.joined(separator: ".")) is already defined and is not an array of tables")
                }
                items = current
            } else {
                table.keys.append(key)
            }
            items.append(TOMLValue(kind: .table(TOMLTable(line: line)), line: line))
            table.values[key] = TOMLValue(kind: .array(items), line: table.values[key]?.line ?? line)
        }
        tableArrays.insert(path)
    }

    /// `a.b = value` inside the current table.
    mutating func insert(_ value: TOMLValue, at tablePath: [String], keyPath: [String], line: Int) throws {
        if tablePath.isEmpty {
            try Self.insert(value, into: &root, keyPath: keyPath[...], line: line)
            return
        }
        let arrays = tableArrays
        try Self.descend(&root, tablePath[...], prefix: [], line: line, arrays: arrays) { table, key in
            guard let target = table.values[key] else { return }
            switch target.kind {
            case .table(var inner):
                try Self.insert(value, into: &inner, keyPath: keyPath[...], line: line)
                table.values[key] = TOMLValue(kind: .table(inner), line: target.line)
            case .array(var items):
                guard case .table(var last)? = items.last?.kind else { return }
                try Self.insert(value, into: &last, keyPath: keyPath[...], line: line)
                items[items.count - 1] = TOMLValue(kind: .table(last), line: items[items.count - 1].line)
                table.values[key] = TOMLValue(kind: .array(items), line: target.line)
            default:
                return
            }
        }
    }

    static func insert(_ value: TOMLValue, into table: inout TOMLTable, keyPath: ArraySlice<String>, line: Int) throws {
        guard let key = keyPath.first else { return }
        if keyPath.count == 1 {
            guard table.values[key] == nil else { throw TOMLError(line: line, message: "duplicate key \(key)") }
            table.keys.append(key)
            table.values[key] = value
            return
        }
        var inner: TOMLTable
        switch table.values[key]?.kind {
        case nil:
            inner = TOMLTable(line: line)
            table.keys.append(key)
        case .table(let existing) where !existing.explicit:
            inner = existing
        default:
            throw TOMLError(line: line, message: "\(key) is already defined")
        }
        try insert(value, into: &inner, keyPath: keyPath.dropFirst(), line: line)
        table.values[key] = TOMLValue(kind: .table(inner), line: table.values[key]?.line ?? line)
    }

    /// Walks to the table that holds `path.last`, creating implicit tables and entering the last element of
    /// arrays of tables on the way, then runs `body` on it with the final key.
    static func descend(
        _ table: inout TOMLTable, _ path: ArraySlice<String>, prefix: [String], line: Int, arrays: Set<[String]>,
        _ body: (inout TOMLTable, String) throws -> Void
    ) throws {
        guard let key = path.first else { return }
        if path.count == 1 { return try body(&table, key) }
        let here = prefix + [key]
        switch table.values[key]?.kind {
        case nil:
            var inner = TOMLTable(line: line)
            try descend(&inner, path.dropFirst(), prefix: here, line: line, arrays: arrays, body)
            table.keys.append(key)
            table.values[key] = TOMLValue(kind: .table(inner), line: line)
        case .table(var inner):
            try descend(&inner, path.dropFirst(), prefix: here, line: line, arrays: arrays, body)
            table.values[key] = TOMLValue(kind: .table(inner), line: table.values[key]!.line)
        case .array(var items) where arrays.contains(here):
            guard case .table(var last)? = items.last?.kind else { return }
            try descend(&last, path.dropFirst(), prefix: here, line: line, arrays: arrays, body)
            items[items.count - 1] = TOMLValue(kind: .table(last), line: items[items.count - 1].line)
            table.values[key] = TOMLValue(kind: .array(items), line: table.values[key]!.line)
        default:
            throw TOMLError(line: line, message: "\(here.joined(separator: ".")) is already a value, not a table")
        }
    }
}
