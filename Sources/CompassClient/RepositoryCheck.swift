#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import TrackerHTTP

extension CompassClient {
    /// After a 404 where the repository and database are named (the login, the workspace): which of the two the
    /// server lacks, from `GET /repos/{repo}/databases` and `GET /repos` (documented, and answered before login
    /// by the servers HCL's samples talk to). `nil` when the server has both or will not say which it lacks.
    func missingRepositoryOrDatabase() async throws -> CompassError? {
        let databases = try await rawSend(.databases, method: .get, body: nil)
        switch databases.status {
        case 200..<300:
            guard let names = Self.names(in: databases), !names.contains(server.database) else { return nil }
            return .repositoryOrDatabaseNotFound(
                repo: server.repo, database: server.database, missingRepository: false, known: Self.listed(names))
        case 404:
            let repositories = try await rawSend(.repositories, method: .get, body: nil)
            // Only a list of repositories without ours says the repository is missing: a server that answers 404
            // to this too is more likely not Compass's REST API at this URL at all.
            guard (200..<300).contains(repositories.status), let names = Self.names(in: repositories),
                !names.contains(server.repo)
            else { return nil }
            return .repositoryOrDatabaseNotFound(
                repo: server.repo, database: server.database, missingRepository: true, known: Self.listed(names))
        default:
            return nil
        }
    }

    private struct Named: Decodable {
        let name: String
    }

    /// `[{"name": …}, …]`; `nil` for anything else, or a body too large for a list of names.
    private static func names(in response: HTTPResponse) -> [String]? {
        guard response.body.count <= 1_048_576 else { return nil }
        return (try? JSONDecoder().decode([Named].self, from: Data(response.body)))?.map(\.name)
    }

    /// The server's names, fit for a message: made plain, at most 20, each at most 60 characters.
    private static func listed(_ names: [String]) -> [String] {
        names.prefix(20).map { String(serverText($0).prefix(60)) }.filter { !$0.isEmpty }
    }
}
