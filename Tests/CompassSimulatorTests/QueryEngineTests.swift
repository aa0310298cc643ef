@testable import CompassSimulator
import Foundation
import XCTest
import SimulatorKit

final class QueryEngineTests: XCTestCase {
    private let defects = SampleSchema.seed(count: 20, seed: 7, now: 2_000_000_000)

    private func query(_ columns: [String], _ filters: [SimFieldFilter], op: String = "BOOL_OP_AND",
                       children: [SimFilterNode] = [], sort: [String: String] = [:]) -> SimQueryDefinition {
        SimQueryDefinition(
            name: nil, dbId: nil, dbIdParent: nil, primaryEntityDefName: "defect",
            queryFieldDefs: columns.map { SimFieldDefinition(fieldPathName: $0, isShown: true, sortType: sort[$0], sortOrder: 1) },
            filterNode: SimFilterNode(boolOp: op, fieldFilters: filters, childFilterNodes: children))
    }

    private func ids(_ q: SimQueryDefinition, user: String = "engineer") throws -> [String] {
        try QueryEngine.run(q, over: defects, currentUser: user, fullNames: [:]).map { $0.values[0] }
    }

    /// A benchmark's 10,000 or 100,000 records have their history in the past too: an entry dated later than
    /// now is a broken clock to the client, which then reads it again on every poll.
    func test_seededHistory_isInThePast_atAnySize() {
        let now = 2_000_000_000
        for count in [20, 2_880, 10_000] {
            let latest = SampleSchema.seed(count: count, seed: 7, now: now).flatMap(\.history).map(\.timestamp).max()
            XCTAssertLessThanOrEqual(latest ?? .max, now - 86_400 + 3_600, "\(count) records")
        }
    }

    func test_seedRules_ownerStateAndHeadlines() {
        XCTAssertEqual(defects[0].fields["State"], "Opened")
        XCTAssertEqual(defects[0].fields["Owner"], "engineer")
        XCTAssertEqual(defects[4].fields["State"], "Assigned")
        XCTAssertEqual(defects[8].fields["State"], "Submitted")
        XCTAssertEqual(defects[8].fields["Owner"], "")
        XCTAssertEqual(defects[12].fields["State"], "Resolved")
        XCTAssertTrue(defects[0].fields["Headline"]!.contains("&") && defects[0].fields["Headline"]!.contains("<b>"))
        XCTAssertEqual(defects[12].history.map(\.action), ["Submit", "Assign", "Open", "Resolve"])
        XCTAssertEqual(defects[12].history.last?.newState, "Resolved")
    }

    func test_currentUserAndComparisons() throws {
        XCTAssertEqual(try ids(query(["id"], [SimFieldFilter(fieldPath: "Owner", compOp: "COMP_OP_EQ", values: ["[CURRENT_USER]"])])),
                       ["SAMPL00000001", "SAMPL00000005", "SAMPL00000013", "SAMPL00000017"])
        XCTAssertEqual(try ids(query(["id"], [SimFieldFilter(fieldPath: "dbid", compOp: "COMP_OP_LTE", values: ["33554434"])])),
                       ["SAMPL00000001", "SAMPL00000002"], "numbers compare as numbers")
        XCTAssertEqual(try ids(query(["id"], [SimFieldFilter(fieldPath: "State", compOp: "COMP_OP_IN", values: ["Resolved", "Closed"]),
                                              SimFieldFilter(fieldPath: "Owner", compOp: "COMP_OP_IS_NOT_NULL", values: [])])).count, 8)
        XCTAssertEqual(try ids(query(["id"], [SimFieldFilter(fieldPath: "Headline", compOp: "COMP_OP_LIKE", values: ["SAVE AS"])])),
                       ["SAMPL00000003"])
    }

    func test_orAndNestedNodes() throws {
        let nested = query(["id"], [SimFieldFilter(fieldPath: "State", compOp: "COMP_OP_EQ", values: ["Submitted"])], op: "BOOL_OP_OR",
                           children: [SimFilterNode(boolOp: "BOOL_OP_AND", fieldFilters: [
                               SimFieldFilter(fieldPath: "Owner", compOp: "COMP_OP_EQ", values: ["alice"]),
                               SimFieldFilter(fieldPath: "State", compOp: "COMP_OP_EQ", values: ["Opened"]),
                           ], childFilterNodes: nil)])
        XCTAssertEqual(try ids(nested), ["SAMPL00000002", "SAMPL00000009", "SAMPL00000010", "SAMPL00000011", "SAMPL00000012"])
    }

    func test_historyJoin_givesOneRowPerEntry_andFiltersTheEntry() throws {
        let rows = try QueryEngine.run(query(["id", "history.action_name", "history.user_name"], [
            SimFieldFilter(fieldPath: "id", compOp: "COMP_OP_EQ", values: ["SAMPL00000013"]),
        ]), over: defects, currentUser: "engineer", fullNames: [:])
        XCTAssertEqual(rows.map { $0.values[1] }, ["Submit", "Assign", "Open", "Resolve"])
        let byOthers = try QueryEngine.run(query(["id", "history.action_name"], [
            SimFieldFilter(fieldPath: "Owner", compOp: "COMP_OP_EQ", values: ["[CURRENT_USER]"]),
            SimFieldFilter(fieldPath: "history.user_name", compOp: "COMP_OP_NEQ", values: ["[CURRENT_USER]"]),
        ], sort: ["history.action_name": "SORT_DESC"]), over: defects, currentUser: "engineer", fullNames: [:])
        XCTAssertFalse(byOthers.isEmpty)
        XCTAssertFalse(byOthers.contains { $0.values[1] == "Open" }, "engineer opened them: filtered out per entry")
        XCTAssertEqual(byOthers.map { $0.values[1] }, byOthers.map { $0.values[1] }.sorted(by: >))
    }

    func test_unknownFieldOrOperator_isRejected() {
        XCTAssertThrowsError(try ids(query(["Nope"], [])))
        XCTAssertThrowsError(try ids(query(["id"], [SimFieldFilter(fieldPath: "id", compOp: "COMP_OP_ROUGHLY", values: [])])))
    }

    func test_overTheAPI_pagingDuplicateNamesAndStateModel() throws {
        var options = SimulatorOptions()
        options.records = 12
        let simulator = Simulator(options: options)
        func call(_ method: String, _ target: String, token: String? = nil, _ body: String = "") -> (Int, [String: Any]) {
            let response = simulator.handle(SimRequest(method: method, target: "/ccmweb/rest" + target,
                                                       authorization: token.map { "Bearer \($0)" }, body: Array(body.utf8)))
            return (response.status, (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:])
        }
        let (status, login) = call("POST", "/authenticate", #"{"username":"lead","password":"lead","repo":"2.0.0","db":"SAMPL"}"#)
        XCTAssertEqual(status, 201)
        let token = login["token"] as! String
        let db = "/repos/2.0.0/databases/SAMPL"
        let (created, resultSet) = call("POST", db + "/query", token: token,
            #"{"queryDef":{"primaryEntityDefName":"Defect","queryFieldDefs":[{"fieldPathName":"id"}]},"resultSetOptions":{"pageSize":5}}"#)
        XCTAssertEqual(created, 201)
        XCTAssertEqual(resultSet["recordCount"] as? Int, 12)
        let id = resultSet["result_set_id"] as! String
        XCTAssertEqual((call("GET", db + "/query/\(id)?pageNumber=3", token: token).1["rows"] as? [Any])?.count, 2)
        XCTAssertEqual((call("GET", db + "/query/\(id)?pageNumber=4", token: token).1["rows"] as? [Any])?.count, 0)
        XCTAssertEqual(call("GET", db + "/query/\(id)?pageNumber=1").0, 401, "no token")

        let stored = #"{"name":"mine","dbIdParent":"33554457","primaryEntityDefName":"Defect","queryFieldDefs":[{"fieldPathName":"id"}]}"#
        XCTAssertEqual(call("POST", db + "/workspace/queryDefs", token: token, stored).0, 201)
        XCTAssertEqual(call("POST", db + "/workspace/queryDefs", token: token, stored).0, 400, "duplicate name")

        XCTAssertEqual(call("PATCH", db + "/records/Defect/SAMPL00000001?operation=Edit&actionName=Close", token: token, "{}").0, 400,
                       "Close is not legal in Opened")
        XCTAssertEqual(call("PATCH", db + "/records/Defect/SAMPL00000001?operation=Edit&actionName=Resolve", token: token, "{}").0, 200)
        XCTAssertEqual(call("PATCH", db + "/records/Defect/SAMPL00000001?operation=Commit", token: token, #"{"fields":[]}"#).0, 200)
        let (_, record) = call("GET", db + "/records/Defect/SAMPL00000001", token: token)
        let state = (record["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "State" }?["value"] as? String
        XCTAssertEqual(state, "Resolved")

        XCTAssertEqual(call("POST", "/authenticate/logoff", token: token).0, 200)
        XCTAssertEqual(call("GET", db + "/workspace/folders", token: token).0, 401, "logged off")
    }
}
