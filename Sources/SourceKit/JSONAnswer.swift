#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import TrackerHTTP

/// A tracker's JSON answer decoded, or why it is not what the API documents: too many values for its size
/// (`JSONBudget`, refused before the decoder builds them), an HTML page, an empty body, another shape.
public enum JSONAnswer {
    /// `body` as `Value`; else the tracker's error for `detail` (`invalid`: its `invalidResponse`).
    public static func decode<Value: Decodable>(
        _ type: Value.Type, _ response: HTTPResponse, invalid: (_ detail: String) -> any Error
    ) throws -> Value {
        if let excess = JSONBudget.excess(in: response.body) { throw invalid(excess) }
        do { return try JSONDecoder().decode(Value.self, from: Data(response.body)) } catch {
            throw invalid(describe(response))
        }
    }

    /// An error answer's message (`body` decoded as `Body`, a tracker's error shape), if it has one.
    public static func message<Body: Decodable>(_ type: Body.Type, _ response: HTTPResponse) -> Body? {
        try? JSONDecoder().decode(Body.self, from: Data(response.body))
    }

    /// What a 2xx answer that does not decode is: an HTML page, an empty body, or JSON of another shape.
    public static func describe(_ response: HTTPResponse) -> String {
        let first = response.body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if response.header("Content-Type")?.lowercased().contains("html") == true || first == UInt8(ascii: "<") {
            return "an HTML page instead of JSON (a proxy's or a login page?)"
        }
        return response.body.isEmpty ? "an empty body" : "JSON of an unexpected shape, or cut short"
    }
}
