import SimulatorKit

/// Entities as the API sends them: the REST shapes of the spec's schemas, and the QQL variants of `/search`.

extension TestCase {
    func rest(includeExternalIssues: Bool = false) -> JSONValue {
        var json = fields(qql: false)
        json = json.with("deleted", .null).with("created", .string(QaseClock.microsecondsZ(createdAt)))
            .with("updated", .string(QaseClock.microsecondsZ(updatedAt)))
        return includeExternalIssues ? json.with("external_issues", []) : json
    }

    /// TestCaseQuery: the REST fields plus `test_case_id` and `updated_by` (the last editor's author id).
    var qql: JSONValue { fields(qql: true).with("updated_by", .int(updatedBy)) }

    private func fields(qql: Bool) -> JSONValue {
        var head: [(key: String, value: JSONValue)] = [("id", .int(id))]
        if qql { head.append(("test_case_id", .int(id))) }
        return .object(
            head + [
                ("position", .int(id)), ("title", .string(title)), ("description", .text(description)),
                ("preconditions", .null), ("postconditions", .null), ("severity", .int(severity)),
                ("priority", .int(priority)),
                ("type", .int(type)), ("layer", 0), ("is_flaky", 0), ("behavior", .int(behavior)), ("automation", 0),
                ("isManual", true), ("isToBeAutomated", false), ("status", .int(status)),
                ("milestone_id", .int(milestoneID)),
                ("suite_id", .int(suiteID)), ("custom_fields", []), ("attachments", []), ("steps_type", "classic"),
                ("steps", []), ("params", []), ("parameters", []), ("tags", Render.tags(tags)),
                ("member_id", .int(authorID)),
                ("author_id", .int(authorID)), ("created_at", .string(QaseClock.iso(createdAt))),
                ("updated_at", .string(QaseClock.iso(updatedAt))),
            ])
    }
}

extension Defect {
    var severityName: String {
        CaseEnums.severity.indices.contains(severity) ? CaseEnums.severity[severity] : "undefined"
    }

    /// `enumsAsInts`: `severity` and `status` as integer codes (severity as on create, status by
    /// [open, in_progress, resolved, invalid]), the "int where a string is expected" of a server variant.
    func rest(enumsAsInts: Bool = false) -> JSONValue {
        .object(
            common(idKey: nil, resolvedKey: "resolved_at", enumsAsInts: enumsAsInts) + [
                ("external_data", ""), ("runs", []), ("results", []), ("tags", Render.tags(tags)),
                ("created_at", .string(QaseClock.iso(createdAt))), ("updated_at", .string(QaseClock.iso(updatedAt))),
                ("created", .string(QaseClock.zoneless(createdAt))),
                ("updated", .string(QaseClock.zoneless(updatedAt))),
            ])
    }

    /// DefectQuery: `defect_id`, and `resolved` in place of `resolved_at`.
    func qql(enumsAsInts: Bool = false) -> JSONValue {
        .object(
            common(idKey: "defect_id", resolvedKey: "resolved", enumsAsInts: enumsAsInts) + [
                ("external_data", ""), ("tags", Render.tags(tags)), ("created_at", .string(QaseClock.iso(createdAt))),
                ("updated_at", .string(QaseClock.iso(updatedAt))),
            ])
    }

    private func common(idKey: String?, resolvedKey: String, enumsAsInts: Bool) -> [(key: String, value: JSONValue)] {
        var head: [(key: String, value: JSONValue)] = [("id", .int(id))]
        if let idKey { head.append((idKey, .int(id))) }
        let statusCode = DefectStatus.allCases.firstIndex(of: status) ?? 0
        return head + [
            ("title", .string(title)), ("actual_result", .string(actualResult)),
            ("severity", enumsAsInts ? .int(severity) : .string(severityName)),
            ("status", enumsAsInts ? .int(statusCode) : .string(status.rawValue)), ("milestone_id", .int(milestoneID)),
            ("custom_fields", []),
            ("attachments", []), (resolvedKey, .text(resolvedAt.map(QaseClock.iso))), ("member_id", .int(authorID)),
            ("author_id", .int(authorID)),
        ]
    }
}

extension Plan {
    var rest: JSONValue {
        summary(qql: false).with("created", .string(QaseClock.zoneless(createdAt)))
            .with("updated", .string(QaseClock.zoneless(updatedAt)))
    }

    /// PlanDetailed: the plan with `average_time` and its cases with their assignees (user ids).
    var detailed: JSONValue {
        rest.with("average_time", 0.0).with(
            "cases",
            .array(
                entries.map {
                    ["case_id": .int($0.caseID), "assignee_id": .int($0.assigneeUserID)]
                }))
    }

    var qql: JSONValue { summary(qql: true) }

    private func summary(qql: Bool) -> JSONValue {
        var head: [(key: String, value: JSONValue)] = [("id", .int(id))]
        if qql { head.append(("plan_id", .int(id))) }
        return .object(
            head + [
                ("title", .string(title)), ("description", .text(description)), ("cases_count", .int(entries.count)),
                ("created_at", .string(QaseClock.iso(createdAt))), ("updated_at", .string(QaseClock.iso(updatedAt))),
            ])
    }
}

extension Review {
    var rest: JSONValue {
        [
            "id": .int(id), "title": .string(title), "type": .string(type), "status": .string(status.rawValue),
            "case_id": .int(caseID), "author_uuid": .string(Directory.uuid(authorID: authorID)),
            "reviewers": .array(
                reviewers.map {
                    [
                        "author_uuid": .string(Directory.uuid(authorID: $0.authorID)),
                        "status": .string($0.status.rawValue),
                    ]
                }),
            "created_at": .string(QaseClock.iso(createdAt)), "updated_at": .text(updatedAt.map(QaseClock.iso)),
        ]
    }

    /// ReviewDetailed adds the proposal; the simulator keeps none.
    var detailed: JSONValue { rest.with("proposed_case", .null) }
}

extension Run {
    /// [INF] The integer `status` mapping is not published; `status_text` carries the meaning.
    static let statusCodes = ["in_progress": 0, "passed": 1, "failed": 2, "aborted": 3]

    func statusText(results: [TestResult]) -> String {
        endTime == nil ? "in_progress" : results.contains { $0.status == "failed" } ? "failed" : "passed"
    }

    func rest(results: [TestResult], includeCases: Bool, qql: Bool = false) -> JSONValue {
        let text = statusText(results: results)
        var head: [(key: String, value: JSONValue)] = [("id", .int(id))]
        if qql { head.append(("run_id", .int(id))) }
        var json = JSONValue.object(
            head + [
                ("title", .string(title)), ("description", .null), ("status", .int(Self.statusCodes[text] ?? 0)),
                ("status_text", .string(text)), ("start_time", .string(QaseClock.iso(startTime))),
                ("end_time", .text(endTime.map(QaseClock.iso))), ("public", false), ("stats", stats(results)),
                ("time_spent", .int(results.reduce(0) { $0 + $1.timeSpentMS })),
                ("elapsed_time", .int(((endTime ?? startTime) - startTime) * 1_000)), ("environment", .null),
                ("milestone", .null), ("custom_fields", []), ("tags", []), ("plan_id", .null), ("configurations", []),
                ("external_issue", .null),
            ])
        if includeCases || qql { json = json.with("cases", .array(caseIDs.map(JSONValue.int))) }
        return json
    }

    private func stats(_ results: [TestResult]) -> JSONValue {
        let names = ["passed", "failed", "blocked", "skipped", "retest", "in_progress", "invalid"]
        let counts = Dictionary(grouping: results, by: \.status).mapValues(\.count)
        let statuses = JSONValue.object(names.map { (key: $0, value: .int(counts[$0] ?? 0)) })
        let untested = caseIDs.count - results.count
        return .object(
            [("total", .int(caseIDs.count)), ("statuses", statuses), ("untested", .int(untested))]
                + names.map { (key: $0, value: .int(counts[$0] ?? 0)) })
    }
}

extension TestResult {
    func rest(qql: Bool = false) -> JSONValue {
        [
            "hash": .string(hash), "result_hash": .string(hash),
            "comment": .text(status == "failed" ? "Assertion failed" : nil),
            "stacktrace": .null, "run_id": .int(runID), "case_id": .int(caseID), "steps": .null,
            "status": .string(status), "is_api_result": true, "time_spent_ms": .int(timeSpentMS),
            "end_time": .text(endTime.map(QaseClock.iso)), "attachments": [],
        ]
    }
}

extension Person {
    var user: JSONValue {
        [
            "id": .int(userID), "name": .string(name), "email": .string(email), "title": .string(title),
            "status": .int(isActive ? 1 : 0),
        ]
    }

    var author: JSONValue {
        [
            "id": .int(authorID), "uuid": .string(uuid), "author_id": .int(authorID), "entity_type": "user",
            "entity_id": .int(userID), "email": .string(email), "name": .string(name), "is_active": .bool(isActive),
        ]
    }
}

extension ReporterApp {
    var author: JSONValue {
        [
            "id": .int(authorID), "uuid": .string(uuid), "author_id": .int(authorID), "entity_type": "app",
            "entity_id": .int(appID), "email": "", "name": .string(name), "is_active": true,
        ]
    }
}

extension Project {
    var rest: JSONValue {
        [
            "title": .string(title), "code": .string(code),
            "counts": [
                "cases": .int(cases.count), "suites": 4, "milestones": 3,
                "runs": ["total": .int(runs.count), "active": .int(runs.filter { $0.endTime == nil }.count)],
                "defects": [
                    "total": .int(defects.count),
                    "open": .int(defects.filter { $0.status == .open || $0.status == .inProgress }.count),
                ],
            ],
        ]
    }
}

enum Render {
    /// `[{title, internal_id}]`, the id derived from the title so that it is the same everywhere.
    static func tags(_ titles: [String]) -> JSONValue {
        .array(
            titles.map { title in
                let id = title.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } % 100_000
                return ["title": .string(title), "internal_id": .int(Int(id) + 1)]
            })
    }
}
