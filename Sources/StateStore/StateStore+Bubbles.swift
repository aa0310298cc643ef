import TrackwatchCore

/// Muted records and bubbles held back during quiet hours.
extension StateStore {
    /// Mutes `record` (again): its changes are journaled but not shown until one lifts the mute.
    public func mute(_ record: RecordID, at: Double) throws {
        try withDatabase("mute \(record)") { database in
            try database.execute(
                "INSERT INTO mutes (record_id, muted_at) VALUES (?, ?) ON CONFLICT (record_id) DO UPDATE SET muted_at = excluded.muted_at",
                [.text(record.rawValue), .real(at)])
        }
    }

    /// Unmutes `record`; false when it was not muted.
    @discardableResult
    public func unmute(_ record: RecordID) throws -> Bool {
        try withDatabase("unmute \(record)") { database in
            let was = try database.queryFirst("SELECT 1 FROM mutes WHERE record_id = ?", [.text(record.rawValue)]) { _ in true } ?? false
            try database.execute("DELETE FROM mutes WHERE record_id = ?", [.text(record.rawValue)])
            return was
        }
    }

    /// Whether any change of `record` was ever detected here: with several servers, the one a bubble's
    /// button refers to.
    public func hasChanges(of record: RecordID) throws -> Bool {
        try withDatabase("look up \(record)") { database in
            try database.queryFirst("SELECT 1 FROM changes WHERE record_id = ? LIMIT 1", [.text(record.rawValue)]) { _ in true } ?? false
        }
    }

    /// Every muted record and when it was muted (seconds since 1970).
    public func mutedRecords() throws -> [RecordID: Double] {
        try withDatabase("read the muted records") { database in
            var muted: [RecordID: Double] = [:]
            try database.forEachRow("SELECT record_id, muted_at FROM mutes", []) { row in
                muted[RecordID(row.string(at: 0) ?? "")] = row.double(at: 1)
            }
            return muted
        }
    }

    /// Marks the changes `ids` delivered and, of them, `held` as waiting for the quiet-hours summary and `muted` as
    /// kept off the desktop by a mute, in one transaction; lifts the mutes of `unmuted`.
    public func markDelivered(
        _ ids: [Int64], held: Set<Int64>, muted: Set<Int64> = [], unmuted: [RecordID], at: Double
    ) throws {
        try withDatabase("mark \(ids.count) changes delivered") { database in
            try database.transaction {
                // `held`: 1 waits for the quiet-hours summary, 2 was kept off the desktop by a mute (Schema.swift).
                let sql = "UPDATE changes SET delivered_at = ?, held = ? WHERE id = ? AND delivered_at IS NULL"
                for id in ids {
                    let bubble: Int64 = held.contains(id) ? 1 : muted.contains(id) ? 2 : 0
                    try database.execute(sql, [.real(at), .integer(bubble), .integer(id)])
                }
                for record in unmuted { try database.execute("DELETE FROM mutes WHERE record_id = ?", [.text(record.rawValue)]) }
            }
        }
    }

    /// Changes whose bubble waits for the end of quiet hours, oldest first.
    public func heldChanges() throws -> [StoredChange] {
        let operation = "read the changes held for quiet hours"
        return try withDatabase(operation) { database in
            try database.query("\(Self.changeColumns) WHERE held = 1 ORDER BY id") { try storedChange($0, operation: operation) }
        }
    }

    /// The quiet-hours summary was shown: nothing is held any more.
    public func releaseHeld() throws {
        try withDatabase("release the changes held for quiet hours") { database in
            try database.execute("UPDATE changes SET held = 0 WHERE held = 1")
        }
    }
}
