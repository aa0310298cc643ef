#if canImport(Glibc)
    import Glibc
#endif
import SimulatorKit

/// GitLab's offset paging: `X-Page`, `X-Per-Page`, `X-Next-Page`, `X-Prev-Page`, `X-Total`, `X-Total-Pages` and
/// `Link` with absolute URLs on the server's own origin; no totals and no `rel="last"` above `totalCap` items.
enum Paging {
    /// The items of the page the call asks for (the first page's with `repeatPages`) and the paging headers.
    static func window(count: Int, _ call: Call, _ view: View, path: String)
        -> (range: Range<Int>, headers: [(String, String)])
    {
        let size = call.perPage, page = call.page
        let counted = count <= view.switches.totalCap
        let last = max(1, (count + size - 1) / size)
        let served = view.switches.repeatPages ? 1 : page
        let start = min(count, (served - 1) * size)
        let range = start..<min(count, start + size)
        let next = page < last ? page + 1 : nil, prev = page > 1 ? min(page - 1, last) : nil
        var links: [String] = []
        func add(_ number: Int, _ rel: String) {
            links.append("<\(url(call, view, path: path, page: number, perPage: size))>; rel=\"\(rel)\"")
        }
        if let prev { add(prev, "prev") }
        if let next { add(next, "next") }
        add(1, "first")
        if counted { add(last, "last") }
        var headers: [(String, String)] = [
            ("Link", links.joined(separator: ", ")), ("X-Next-Page", next.map(String.init) ?? ""),
            ("X-Page", String(page)), ("X-Per-Page", String(size)), ("X-Prev-Page", prev.map(String.init) ?? ""),
        ]
        if counted { headers += [("X-Total", String(count)), ("X-Total-Pages", String(last))] }
        return (range, headers)
    }

    /// The request's URL with `page` and `per_page` set, parameters in alphabetical order (Rails' `to_query`).
    static func url(_ call: Call, _ view: View, path: String, page: Int, perPage: Int) -> String {
        var pairs = call.request.queryPairs.filter { $0.name != "page" && $0.name != "per_page" }
        pairs += [("page", String(page)), ("per_page", String(perPage))]
        pairs.sort { $0.name < $1.name }
        return view.web + path + "?" + pairs.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
    }

    /// Percent-encodes all but unreserved characters (and `[]` in names such as `labels[]`).
    static func encode(_ text: String, keep: String = "-._~[]") -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || keep.unicodeScalars.contains(scalar)
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

/// ISO 8601 times as `updated_after` takes them: `2026-01-17T12:34:56Z`, with a fraction or a `±hh:mm` offset, or
/// a date alone; the result in milliseconds.
enum ISOTime {
    static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            return Int(String(decoding: bytes[from..<from + count], as: UTF8.self))
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2) else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        var offset = 0, millis = 0
        if bytes.count > 10 {
            guard let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return nil }
            (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
            var index = 19
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                var digits = 0
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    if digits < 3 { millis = millis * 10 + Int(bytes[index] - 48) }
                    digits += 1
                    index += 1
                }
                for _ in digits..<max(digits, 3) { millis *= 10 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                guard let hours = number(index + 1, 2), let minutes = number(index + 4, 2) else { return nil }
                offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
            } else if index < bytes.count, bytes[index] != UInt8(ascii: "Z") {
                return nil
            }
        }
        return (Int(timegm(&parts)) - offset) * 1000 + millis
    }
}
