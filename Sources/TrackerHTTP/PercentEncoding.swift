/// Percent-encoding for paths and queries that every tracker client builds (RFC 3986): everything but the
/// unreserved characters becomes `%XX`, so no server or configuration text can add a segment, a parameter or a
/// fragment to a request.
public enum PercentEncoding {
    /// `text` encoded; `keeping` are extra bytes left as they are (Qase's `filters[status]` keeps `[` and `]`).
    public static func encode(_ text: String, keeping: Set<UInt8> = []) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in text.utf8 {
            let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E || keeping.contains(byte)
            if unreserved { out.append(Character(Unicode.Scalar(byte))) } else {
                out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
            }
        }
        return out
    }

    /// `?name=value&…`, both sides encoded; `""` for no items.
    public static func query(_ items: [(String, String)]) -> String {
        items.isEmpty ? "" : "?" + items.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
    }
}
