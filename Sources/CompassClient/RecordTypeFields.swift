#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import TrackerHTTP
import TrackwatchCore

extension CompassClient {
    /// The field names of `recordType` (`GET …/records/{recordType}`, `fieldDefs[].name`): which fields the built-in
    /// query can show. An object or, as DevOps Plan answers, an array of them; at most 2,000 names of at most 200
    /// characters. `nil` when the server answers something else (an older server without the route).
    public func fieldNames(of recordType: String) async throws -> [String]? {
        let response = try await send(.recordType(recordType), method: .get)
        guard (200..<300).contains(response.status), response.body.count <= 4 << 20 else { return nil }
        let data = Data(response.body)
        let types = (try? JSONDecoder().decode(RecordTypeBody.self, from: data)).map { [$0] }
            ?? (try? JSONDecoder().decode([RecordTypeBody].self, from: data))
        guard let fields = types?.first(where: { $0.name?.lowercased() == recordType.lowercased() }) ?? types?.first
        else { return nil }
        return (fields.fieldDefs ?? []).prefix(2_000).compactMap(\.name)
            .filter { !$0.isEmpty && $0.count <= 200 && !$0.contains("\n") && $0 != "?" }
    }

    private struct RecordTypeBody: Decodable {
        let name: String?
        let fieldDefs: [FieldDefinition]?
    }

    private struct FieldDefinition: Decodable {
        let name: String?
    }
}
