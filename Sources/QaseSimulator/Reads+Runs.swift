import SimulatorKit

/// Test runs and their results.
extension QaseState {
    /// Deprecated status names still accepted by `GET /run?status=`.
    static let runStatusAliases = ["active": "in_progress", "complete": "passed", "abort": "aborted"]

    func listRuns(_ call: Call, _ index: Int) throws -> JSONValue {
        let project = projects[index]
        var runs = project.runs
        if let search = filter(call, "search")?.lowercased() {
            runs = runs.filter { $0.title.lowercased().contains(search) }
        }
        if let statuses = listFilter(call, "status") {
            let wanted = Set(statuses.map { Self.runStatusAliases[$0] ?? $0 })
            runs = runs.filter { wanted.contains($0.statusText(results: results(of: $0, in: project))) }
        }
        if try intFilter(call, "milestone") != nil || intFilter(call, "environment") != nil { runs = [] }
        if let from = try intFilter(call, "from_start_time") { runs = runs.filter { $0.startTime >= from } }
        if let to = try intFilter(call, "to_start_time") { runs = runs.filter { $0.startTime <= to } }
        let cases = call.query["include"]?.contains("cases") == true
        return try list(call, runs, total: project.runs.count) { run in
            run.rest(results: results(of: run, in: project), includeCases: cases)
        }
    }

    func getRun(_ call: Call, _ index: Int, _ id: String) throws -> JSONValue {
        let id = try pathID(id)
        let project = projects[index]
        guard let run = project.runs.first(where: { $0.id == id }) else { throw APIError(404, "Run not found") }
        let cases = call.query["include"]?.contains("cases") == true
        return ok(run.rest(results: results(of: run, in: project), includeCases: cases))
    }

    /// Filters: `status` (one), `run` and `case_id` (comma lists of ids), `member` (user ids of the reporters),
    /// `api`, `from_end_time`/`to_end_time` (`Y-m-d H:i:s`, UTC).
    func listResults(_ call: Call, _ index: Int) throws -> JSONValue {
        let all = projects[index].results
        var results = all
        if let status = filter(call, "status") { results = results.filter { $0.status == status } }
        if let runs = try idList(call, "run") { results = results.filter { runs.contains($0.runID) } }
        if let cases = try idList(call, "case_id") { results = results.filter { cases.contains($0.caseID) } }
        if let members = try idList(call, "member") {
            results = results.filter {
                Directory.person(authorID: $0.authorID).map { members.contains($0.userID) } ?? false
            }
        }
        if let api = filter(call, "api"), api == "false" || api == "0" { results = [] }
        if let from = try time(call, "from_end_time") { results = results.filter { ($0.endTime ?? .min) >= from } }
        if let to = try time(call, "to_end_time") { results = results.filter { ($0.endTime ?? .max) <= to } }
        return try list(call, results, total: all.count) { $0.rest() }
    }

    func getResult(_ index: Int, _ hash: String) throws -> JSONValue {
        guard let result = projects[index].results.first(where: { $0.hash == hash }) else {
            throw APIError(404, "Result not found")
        }
        return ok(result.rest())
    }

    func results(of run: Run, in project: Project) -> [TestResult] { project.results.filter { $0.runID == run.id } }

    private func idList(_ call: Call, _ name: String) throws -> Set<Int>? {
        guard let values = listFilter(call, name) else { return nil }
        let ids = values.compactMap { Int($0) }
        guard ids.count == values.count else { throw APIError.invalid(name, "The \(name) must be a list of integers.") }
        return Set(ids)
    }

    private func time(_ call: Call, _ name: String) throws -> Int? {
        guard let text = filter(call, name) else { return nil }
        guard let seconds = QaseClock.parseZoneless(text) else {
            throw APIError.invalid(name, "The \(name) does not match the format Y-m-d H:i:s.")
        }
        return seconds
    }
}
