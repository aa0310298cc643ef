#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import TrackerHTTP

extension APIRequests {
    /// One request to `path` under the base whose answer must be 2xx: any other status is `failure`'s error.
    public func answer(
        _ method: HTTPMethod = .get, _ path: String, _ query: [(String, String)] = [], body: [UInt8]? = nil,
        failure: (HTTPResponse) -> any Error
    ) async throws -> HTTPResponse {
        let response = try await send(method, url(path, query), body: body)
        guard (200..<300).contains(response.status) else { throw failure(response) }
        return response
    }

    /// `value` as a JSON request body: the request types trackwatch sends always encode.
    public static func json(_ value: some Encodable) -> [UInt8] {
        do { return Array(try JSONEncoder().encode(value)) } catch {
            preconditionFailure("a request body that does not encode: \(error)")
        }
    }
}
