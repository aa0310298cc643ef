#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

/// `page`/`per_page` paging with GitHub's `Link` header of absolute URLs on the server's own origin.
enum Paging {
    /// The page of `count` items the call asks for, and the `Link` header (none when everything fits one page).
    /// `reachable` caps how many items paging can reach (search: 1,000).
    static func window(count: Int, _ call: Call, _ view: View, reachable: Int? = nil)
        -> (range: Range<Int>, link: (String, String)?)
    {
        let size = call.perPage, page = call.page
        let total = min(count, reachable ?? count)
        let start = min(total, (page - 1) * size)
        let range = start..<min(total, start + size)
        let last = max(1, (total + size - 1) / size)
        guard last > 1 else { return (range, nil) }
        var links: [String] = []
        func add(_ number: Int, _ rel: String) { links.append("<\(url(call, view, page: number))>; rel=\"\(rel)\"") }
        if page > 1 { add(min(page - 1, last), "prev") }
        if page < last {
            add(page + 1, "next")
            add(last, "last")
        }
        if page > 1 { add(1, "first") }
        return (range, links.isEmpty ? nil : ("Link", links.joined(separator: ", ")))
    }

    /// The request's own URL with `page` set.
    static func url(_ call: Call, _ view: View, page: Int) -> String {
        var pairs = call.request.queryPairs.filter { $0.name != "page" }
        pairs.append(("page", String(page)))
        let query = pairs.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
        return view.web + call.request.path + "?" + query
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isASCIIHexDigit || ("a"..."z").contains(scalar)
                || ("A"..."Z").contains(scalar) || "-._~:@/".unicodeScalars.contains(scalar)
            {
                out.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}

/// ISO 8601 times as GitHub's `since` takes them: `2026-01-17T12:34:56Z`, with a fraction or a `±hh:mm` offset,
/// or a date alone.
enum ISOTime {
    static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            return Int(String(decoding: bytes[from..<from + count], as: UTF8.self))
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        var offset = 0
        if bytes.count > 10 {
            guard let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return nil }
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = Int32(second)
            var index = 19
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                guard let hours = number(index + 1, 2), let minutes = number(index + 4, 2) else { return nil }
                offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
            } else if index < bytes.count, bytes[index] != UInt8(ascii: "Z") {
                return nil
            }
        }
        return Int(timegm(&parts)) - offset
    }
}
