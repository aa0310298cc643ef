/// Reads a result set as CSV (`GET …/resultsets/{id}/file?fileType=csv`, the route HCL's own Node-RED client uses):
/// RFC 4180 records separated by CRLF or LF, fields separated by commas, quoted fields with `""` for a quote and
/// with line breaks inside. An optional UTF-8 byte-order mark is skipped.
///
/// Hostile input, like a result page: strict (an unterminated quote, text after a closing quote, a field that is
/// not valid UTF-8 or a record with another number of fields is an error, never a partial table), and bounded by
/// what was asked for: it stops at the first record beyond `maxRows` and the first field beyond `columns`, so that
/// millions of tiny records in a large body cannot multiply into gigabytes.
public enum CSVTable {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let message: String
        /// 1-based line of the record.
        public let line: Int
        public var description: String { "\(message) (line \(line))" }
    }

    /// Every record of `body` (a header line too, if there is one: see `dropHeader`), each with exactly `columns`
    /// fields; at most `maxRows` records.
    public static func rows(in body: [UInt8], columns: Int, maxRows: Int) throws -> [[String]] {
        var reader = Reader(bytes: body, columns: columns)
        var rows: [[String]] = []
        while let row = try reader.record() {
            guard rows.count < maxRows else {
                throw Failure(message: "more than the \(maxRows) records expected", line: reader.line)
            }
            rows.append(row)
        }
        return rows
    }

    /// `rows` without its first record if that is the column names (case-insensitive): whether a server writes a
    /// header line is not documented.
    public static func dropHeader(_ rows: [[String]], columns names: [String]) -> [[String]] {
        guard let first = rows.first, first.count == names.count,
            zip(first, names).allSatisfy({ $0.lowercased() == $1.lowercased() })
        else { return rows }
        return Array(rows.dropFirst())
    }

    private struct Reader {
        let bytes: [UInt8]
        let columns: Int
        var index = 0
        /// The line the current record starts on.
        private(set) var line = 1
        private var nextLine = 1

        init(bytes: [UInt8], columns: Int) {
            self.bytes = bytes
            self.columns = columns
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        /// The next record, `nil` at the end (a final line break ends the last record, it does not start one).
        mutating func record() throws -> [String]? {
            guard index < bytes.count else { return nil }
            line = nextLine
            var fields: [String] = []
            fields.reserveCapacity(columns)
            while true {
                guard fields.count < columns else {
                    throw Failure(message: "a record with more than the query's \(columns) columns", line: line)
                }
                fields.append(try field())
                if index == bytes.count { break }
                let separator = bytes[index]
                index += 1
                if separator == UInt8(ascii: ",") { continue }
                // A line break: CRLF or LF.
                if separator == 0x0D {
                    guard index < bytes.count, bytes[index] == 0x0A else {
                        throw Failure(message: "a carriage return without a line feed", line: nextLine)
                    }
                    index += 1
                }
                nextLine += 1
                break
            }
            guard fields.count == columns else {
                throw Failure(message: "a record with \(fields.count) fields for \(columns) columns", line: line)
            }
            return fields
        }

        /// One field, leaving `index` on the separator after it (or the end).
        private mutating func field() throws -> String {
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { return try quoted() }
            let start = index
            while index < bytes.count, ![UInt8(ascii: ","), 0x0A, 0x0D].contains(bytes[index]) {
                guard bytes[index] != UInt8(ascii: "\"") else {
                    throw Failure(message: "a quote inside an unquoted field", line: nextLine)
                }
                index += 1
            }
            return try text(bytes[start..<index])
        }

        private mutating func quoted() throws -> String {
            index += 1
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == 0x0A { nextLine += 1 }
                guard byte == UInt8(ascii: "\"") else {
                    text.append(byte)
                    continue
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    text.append(byte)
                    index += 1
                    continue
                }
                guard index == bytes.count || [UInt8(ascii: ","), 0x0A, 0x0D].contains(bytes[index]) else {
                    throw Failure(message: "text after a closing quote", line: nextLine)
                }
                return try self.text(text[...])
            }
            throw Failure(message: "a quoted field that never ends", line: line)
        }

        private func text(_ bytes: ArraySlice<UInt8>) throws -> String {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Failure(message: "a field that is not valid UTF-8", line: nextLine)
            }
            return text
        }
    }
}
