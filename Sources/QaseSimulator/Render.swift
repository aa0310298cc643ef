/// Entities as the API sends them: the REST shapes of the spec's schemas, and the QQL variants of `/search`.

extension TestCase {
    func rest(includeExternalIssues: Bool = false) -> JSON {
        var json = fields(qql: false)
        json = json.with("deleted", nil).with("created", .string(QaseClock.microsecondsZ(createdAt)))
            .with("updated", .string(QaseClock.microsecondsZ(updatedAt)))
        return includeExternalIssues ? json.with("external_issues", []) : json
    }

    /// TestCaseQuery: the REST fields plus `test_case_id` and `updated_by` (the last editor's author id).
    var qql: JSON { fields(qql: true).with("updated_by", .int(updatedBy)) }

    private func fields(qql: Bool) -> JSON {
        var head: [(key: String, value: JSON)] = [("id", .int(id))]
        if qql { head.append(("test_case_id", .int(id))) }
        return .object(
            head + [
                ("position", .int(id)), ("title", .string(title)), ("description", JSON(description)),
                ("preconditions", nil), ("postconditions", nil), ("severity", .int(severity)),
                ("priority", .int(priority)),
                ("type", .int(type)), ("layer", 0), ("is_flaky", 0), ("behavior", .int(behavior)), ("automation", 0),
                ("isManual", true), ("isToBeAutomated", false), ("status", .int(status)),
                ("milestone_id", JSON(milestoneID)),
                ("suite_id", JSON(suiteID)), ("custom_fields", []), ("attachments", []), ("steps_type", "classic"),
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
    func rest(enumsAsInts: Bool = false) -> JSON {
        .object(
            common(idKey: nil, resolvedKey: "resolved_at", enumsAsInts: enumsAsInts) + [
                ("external_data", ""), ("runs", []), ("results", []), ("tags", Render.tags(tags)),
                ("created_at", .string(QaseClock.iso(createdAt))), ("updated_at", .string(QaseClock.iso(updatedAt))),
                ("created", .string(QaseClock.zoneless(createdAt))),
                ("updated", .string(QaseClock.zoneless(updatedAt))),
            ])
    }

    /// DefectQuery: `defect_id`, and `resolved` in place of `resolved_at`.
    func qql(enumsAsInts: Bool = false) -> JSON {
        .object(
            common(idKey: "defect_id", resolvedKey: "resolved", enumsAsInts: enumsAsInts) + [
                ("external_data", ""), ("tags", Render.tags(tags)), ("created_at", .string(QaseClock.iso(createdAt))),
                ("updated_at", .string(QaseClock.iso(updatedAt))),
            ])
    }

    private func common(idKey: String?, resolvedKey: String, enumsAsInts: Bool) -> [(key: String, value: JSON)] {
        var head: [(key: String, value: JSON)] = [("id", .int(id))]
        if let idKey { head.append((idKey, .int(id))) }
        let statusCode = DefectStatus.allCases.firstIndex(of: status) ?? 0
        return head + [
            ("title", .string(title)), ("actual_result", .string(actualResult)),
            ("severity", enumsAsInts ? .int(severity) : .string(severityName)),
            ("status", enumsAsInts ? .int(statusCode) : .string(status.rawValue)), ("milestone_id", JSON(milestoneID)),
            ("custom_fields", []),
            ("attachments", []), (resolvedKey, JSON(resolvedAt.map(QaseClock.iso))), ("member_id", .int(authorID)),
            ("author_id", .int(authorID)),
        ]
    }
}

extension Plan {
    var rest: JSON {
        summary(qql: false).with("created", .string(QaseClock.zoneless(createdAt)))
            .with("updated", .string(QaseClock.zoneless(updatedAt)))
    }

    /// PlanDetailed: the plan with `average_time` and its cases with their assignees (user ids).
    var detailed: JSON {
        rest.with("average_time", .double(0)).with(
            "cases",
            .array(
                entries.map {
                    ["case_id": .int($0.caseID), "assignee_id": JSON($0.assigneeUserID)]
                }))
    }

    var qql: JSON { summary(qql: true) }

    private func summary(qql: Bool) -> JSON {
        var head: [(key: String, value: JSON)] = [("id", .int(id))]
        if qql { head.append(("plan_id", .int(id))) }
        return .object(
            head + [
                ("title", .string(title)), ("description", JSON(description)), ("cases_count", .int(entries.count)),
                ("created_at", .string(QaseClock.iso(createdAt))), ("updated_at", .string(QaseClock.iso(updatedAt))),
            ])
    }
}

extension Review {
    var rest: JSON {
        [
            "id": .int(id), "title": .string(title), "type": .string(type), "status": .string(status.rawValue),
            "case_id": JSON(caseID), "author_uuid": .string(Directory.uuid(authorID: authorID)),
            "reviewers": .array(
                reviewers.map {
                    [
                        "author_uuid": .string(Directory.uuid(authorID: $0.authorID)),
                        "status": .string($0.status.rawValue),
                    ]
                }),
            "created_at": .string(QaseClock.iso(createdAt)), "updated_at": JSON(updatedAt.map(QaseClock.iso)),
        ]
    }

    /// ReviewDetailed adds the proposal; the simulator keeps none.
    var detailed: JSON { rest.with("proposed_case", nil) }
}

extension Run {
    /// [INF] The integer `status` mapping is not published; `status_text` carries the meaning.
    static let statusCodes = ["in_progress": 0, "passed": 1, "failed": 2, "aborted": 3]

    func statusText(results: [TestResult]) -> String {
        endTime == nil ? "in_progress" : results.contains { $0.status == "failed" } ? "failed" : "passed"
    }

    func rest(results: [TestResult], includeCases: Bool, qql: Bool = false) -> JSON {
        let text = statusText(results: results)
        var head: [(key: String, value: JSON)] = [("id", .int(id))]
        if qql { head.append(("run_id", .int(id))) }
        var json = JSON.object(
            head + [
                ("title", .string(title)), ("description", nil), ("status", .int(Self.statusCodes[text] ?? 0)),
                ("status_text", .string(text)), ("start_time", .string(QaseClock.iso(startTime))),
                ("end_time", JSON(endTime.map(QaseClock.iso))), ("public", false), ("stats", stats(results)),
                ("time_spent", .int(results.reduce(0) { $0 + $1.timeSpentMS })),
                ("elapsed_time", .int(((endTime ?? startTime) - startTime) * 1_000)), ("environment", nil),
                ("milestone", nil), ("custom_fields", []), ("tags", []), ("plan_id", nil), ("configurations", []),
                ("external_issue", nil),
            ])
        if includeCases || qql { json = json.with("cases", .array(caseIDs.map(JSON.int))) }
        return json
    }

    private func stats(_ results: [TestResult]) -> JSON {
        let names = ["passed", "failed", "blocked", "skipped", "retest", "in_progress", "invalid"]
        let counts = Dictionary(grouping: results, by: \.status).mapValues(\.count)
        let statuses = JSON.object(names.map { (key: $0, value: .int(counts[$0] ?? 0)) })
        let untested = caseIDs.count - results.count
        return .object(
            [("total", .int(caseIDs.count)), ("statuses", statuses), ("untested", .int(untested))]
                + names.map { (key: $0, value: .int(counts[$0] ?? 0)) })
    }
}

extension TestResult {
    func rest(qql: Bool = false) -> JSON {
        [
            "hash": .string(hash), "result_hash": .string(hash),
            "comment": JSON(status == "failed" ? "Assertion failed" : nil),
            "stacktrace": nil, "run_id": .int(runID), "case_id": .int(caseID), "steps": nil, "status": .string(status),
            "is_api_result": true, "time_spent_ms": .int(timeSpentMS), "end_time": JSON(endTime.map(QaseClock.iso)),
            "attachments": [],
        ]
    }
}

extension Person {
    var user: JSON {
        [
            "id": .int(userID), "name": .string(name), "email": .string(email), "title": .string(title),
            "status": .int(isActive ? 1 : 0),
        ]
    }

    var author: JSON {
        [
            "id": .int(authorID), "uuid": .string(uuid), "author_id": .int(authorID), "entity_type": "user",
            "entity_id": .int(userID), "email": .string(email), "name": .string(name), "is_active": .bool(isActive),
        ]
    }
}

extension ReporterApp {
    var author: JSON {
        [
            "id": .int(authorID), "uuid": .string(uuid), "author_id": .int(authorID), "entity_type": "app",
            "entity_id": .int(appID), "email": "", "name": .string(name), "is_active": true,
        ]
    }
}

extension Project {
    var rest: JSON {
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
    static func tags(_ titles: [String]) -> JSON {
        .array(
            titles.map { title in
                let id = title.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } % 100_000
                return ["title": .string(title), "internal_id": .int(Int(id) + 1)]
            })
    }
}
