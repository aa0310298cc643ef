#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import TrackerHTTP
import TrackwatchCore

/// A tracker's JSON answer decoded, or why it is not what the API documents: more values than Foundation's decoder
/// may map for its size (`JSONBudget.foundationExcess`, refused before the decoder builds anything), an HTML page, an
/// empty body, another shape.
public enum JSONAnswer {
    /// `body` as `Value`; else the tracker's error for `detail` (`invalid`: its `invalidResponse`). Elements a
    /// `LossyList` in it leaves out are noted in `skipped`.
    public static func decode<Value: Decodable>(
        _ type: Value.Type, _ response: HTTPResponse, skipped: SkippedItems? = nil,
        invalid: (_ detail: String) -> any Error
    ) throws -> Value {
        if let excess = JSONBudget.foundationExcess(in: response.body) { throw invalid(excess) }
        do { return try decodeInPlace(Value.self, response.body, skipped: skipped) } catch {
            throw invalid(describe(response))
        }
    }

    /// An error answer's message (`body` decoded as `Body`, a tracker's error shape), if it has one. Only a body of
    /// at most `largestMessage` bytes is decoded (its map then costs at most 1.6 MB): an error body was decoded
    /// whole, uncounted, so 10 MB of Jira's `errors` became a dictionary, a sorted list and one string, for a
    /// sentence cut to 300 characters.
    public static func message<Body: Decodable>(_ type: Body.Type, _ response: HTTPResponse) -> Body? {
        guard response.body.count <= largestMessage else { return nil }
        return try? decodeInPlace(Body.self, response.body, skipped: nil)
    }

    /// The largest error body read for its message: a tracker's are a few hundred bytes.
    public static let largestMessage = 65_536

    /// Decoded from the answer's own bytes: a `Data` copy of a 16 MB answer was 16 MB more at the peak.
    private static func decodeInPlace<Value: Decodable>(
        _ type: Value.Type, _ body: [UInt8], skipped: SkippedItems?
    ) throws -> Value {
        let decoder = JSONDecoder()
        if let skipped { decoder.userInfo[SkippedItems.key] = skipped }
        return try body.withUnsafeBytes { raw in
            guard let start = raw.baseAddress, raw.count > 0 else {
                return try decoder.decode(Value.self, from: Data())
            }
            let bytes = Data(
                bytesNoCopy: UnsafeMutableRawPointer(mutating: start), count: raw.count, deallocator: .none)
            return try decoder.decode(Value.self, from: bytes)
        }
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

/// The error body most trackers send: `{"message": "…"}` (GitHub, GitLab), or `{"error": "…"}` (GitLab's older
/// routes).
public struct APIErrorBody: Decodable {
    public var message: String?
    public var error: String?
    /// GitHub's explanation of a 422 (`Validation Failed`): what exactly was refused.
    public var errors: [Detail]?

    public struct Detail: Decodable {
        public var message: String?
    }

    /// The message of an error answer, with the first detail's where there is one, one line, bounded; `nil` where
    /// the body is not such JSON.
    public static func text(_ response: HTTPResponse) -> String? {
        JSONAnswer.message(Self.self, response).map { body in
            let detail = body.errors?.lazy.compactMap(\.message).first.map { ": \($0.prefix(300))" } ?? ""
            return SafeText.oneLine((body.message ?? body.error ?? "") + detail, limit: 300)
        }
    }
}
