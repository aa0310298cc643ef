import SimulatorKit

extension Router {
    /// A simulator-only request header on a Commit (`compass-sim act --at`): the history entry's time, UTC
    /// `yyyy-MM-dd HH:mm:ss`, instead of the clock's.
    static let timestampHeader = "x-compass-sim-timestamp"

    mutating func recordRoute(_ path: [String], user: String, token: String) throws -> SimResponse {
        defer { routeName = routeName.replacing(" /", with: " /records/Defect/") }
        guard let type = path.first, type.lowercased() == "defect" else {
            throw Failure(status: 404, message: "Record type \(path.first ?? "") not found")
        }
        let rest = Array(path.dropFirst())
        if match("GET", "", rest) != nil { return encoded(200, RecordTypeBody()) }
        if match("POST", "", rest) != nil { return try create(user: user, token: token) }
        if let id = match("GET", "{}", rest)?.first { return encoded(200, RecordBody(try record(id), editing: state.edits[try number(id)])) }
        if let ids = match("GET", "{}/fields/{}", rest) {
            let defect = try record(ids[0])
            guard let field = RecordBody(defect, editing: nil).fields.first(where: { $0.name == ids[1] }) else {
                throw Failure(status: 404, message: "Field \(ids[1]) not found")
            }
            return encoded(200, FieldWithChoices(field: field, fieldChoiceList: Self.choices(for: ids[1])))
        }
        if let id = match("PATCH", "{}", rest)?.first { return try patch(id, user: user, token: token) }
        if let id = match("DELETE", "{}", rest)?.first {
            let defect = try record(id)
            guard (request.query["actionName"] ?? "Delete").lowercased() == "delete" else {
                throw Failure(status: 400, message: "DELETE needs actionName=Delete")
            }
            if let edit = state.edits[defect.number], edit.token != token {
                throw Failure(status: 409, message: "\(defect.id) is being edited by another session")
            }
            state.defects[defect.number] = nil
            state.edits[defect.number] = nil
            return SimResponse(status: 204, body: [])
        }
        return error(404, "No endpoint \(request.method) \(request.path)")
    }

    static func choices(for field: String) -> [String] {
        switch field {
        case "Owner", "Submitter": return SampleSchema.users.map(\.login)
        case "Priority": return SampleSchema.priorities
        case "Severity": return SampleSchema.severities
        case "State": return SampleSchema.states
        default: return []
        }
    }

    func number(_ id: String) throws -> Int {
        if request.query["useDbid"] == "true", let dbid = Int(id) { return dbid - Defect.dbidBase }
        guard id.uppercased().hasPrefix("SAMPL"), let number = Int(id.dropFirst(5)) else {
            throw Failure(status: 404, message: "Record \(id) not found")
        }
        return number
    }

    func record(_ id: String) throws -> Defect {
        guard let defect = state.defects[try number(id)] else { throw Failure(status: 404, message: "Record \(id) not found") }
        return defect
    }

    // MARK: - Edit, Commit, Revert

    private mutating func patch(_ id: String, user: String, token: String) throws -> SimResponse {
        let defect = try record(id)
        let fields = try bodyFields()
        switch request.query["operation"]?.lowercased() {
        case "edit":
            guard let name = request.query["actionName"], let action = SampleSchema.action(named: name) else {
                throw Failure(status: 400, message: "operation=Edit needs a known actionName")
            }
            if let edit = state.edits[defect.number], edit.token != token {
                throw Failure(status: 409, message: "\(defect.id) is being edited by another session")
            }
            let current = defect.fields["State"] ?? ""
            guard action.type != "_SUBMIT", action.type != "_DELETE", action.sources?.contains(current) ?? true else {
                throw Failure(status: 400, message: "Action \(action.name) is not legal in state \(current)")
            }
            state.edits[defect.number] = SimulatorState.Edit(token: token, action: action, fields: fields)
            return encoded(200, RecordBody(defect, editing: state.edits[defect.number]))
        case "commit":
            guard var edit = state.edits[defect.number], edit.token == token else {
                throw Failure(status: 400, message: "\(defect.id) is not in an edit session of yours; start one with operation=Edit")
            }
            edit.fields.merge(fields) { _, new in new }
            try validate(edit.fields)
            var updated = defect
            let oldState = defect.fields["State"] ?? ""
            updated.fields.merge(edit.fields) { _, new in new }
            updated.fields["State"] = edit.action.destination ?? oldState
            // `compass-sim act --at`: an entry dated otherwise, as a hand-edited one or a broken clock's.
            let at = request.headers[Self.timestampHeader].flatMap(SimClock.parse) ?? state.clock.now
            if let note = updated.fields["Note_Entry"], !note.isEmpty {
                // What ClearQuest's notes package does on commit: the entry goes to the end of the log, under a
                // header naming the state, the user and the time, and the entry field is emptied.
                let header = "==== State: \(updated.fields["State"] ?? "") by: \(user) on \(SimClock.format(at)) ===="
                let log = updated.fields["Notes_Log"] ?? ""
                updated.fields["Notes_Log"] = (log.isEmpty ? "" : log + "\n\n") + header + "\n\n" + note
                updated.fields["Note_Entry"] = ""
            }
            updated.history.append(HistoryRow(action: edit.action.name, timestamp: at,
                                              user: user, oldState: oldState, newState: updated.fields["State"] ?? ""))
            state.defects[defect.number] = updated
            state.edits[defect.number] = nil
            return encoded(200, RecordBody(updated, editing: nil))
        case "revert":
            guard state.edits[defect.number]?.token == token else {
                throw Failure(status: 400, message: "\(defect.id) is not in an edit session of yours")
            }
            state.edits[defect.number] = nil
            return encoded(200, RecordBody(defect, editing: nil))
        default:
            throw Failure(status: 400, message: "operation must be Edit, Commit or Revert")
        }
    }

    private mutating func create(user: String, token: String) throws -> SimResponse {
        let fields = try bodyFields()
        let operation = request.query["operation"]?.lowercased() ?? "commit"
        guard operation == "commit" || operation == "edit" else { throw Failure(status: 400, message: "operation must be Commit or Edit") }
        if operation == "commit" { guard !(fields["Headline"] ?? "").isEmpty else { throw Failure(status: 400, message: "Headline is mandatory") } }
        try validate(fields)
        let number = state.nextRecord
        state.nextRecord += 1
        let now = SimClock.format(state.clock.now)
        var defect = Defect(number: number, fields: [
            "Headline": "", "Description": "", "State": "Submitted", "Owner": "", "Submitter": user, "Submit_Date": now,
            "Priority": "3-Normal Queue", "Severity": "3-Average", "Project": "Sample", "Resolution": "", "Keywords": "",
            "Note_Entry": "", "Notes_Log": "",
        ], history: [])
        defect.fields.merge(fields) { _, new in new }
        defect.fields["State"] = "Submitted"
        if operation == "commit" {
            defect.history.append(HistoryRow(action: "Submit", timestamp: state.clock.now, user: user, oldState: "", newState: "Submitted"))
            state.defects[number] = defect
            return encoded(201, RecordBody(defect, editing: nil))
        }
        // An interactive submit: the record exists in edit; Commit writes its Submit history entry.
        state.defects[number] = defect
        state.edits[number] = SimulatorState.Edit(
            token: token, action: ActionDefinition(name: "Submit", type: "_SUBMIT", sources: nil, destination: "Submitted"), fields: fields)
        return encoded(200, RecordBody(defect, editing: state.edits[number]))
    }

    private func bodyFields() throws -> [String: String] {
        guard !request.body.isEmpty else { return [:] }
        let body = try decode(FieldsBody.self)
        var fields: [String: String] = [:]
        for field in body.fields ?? [] {
            guard SampleSchema.fieldNames.contains(field.name), !["id", "dbid", "State"].contains(field.name) else {
                throw Failure(status: 400, message: "Field \(field.name) cannot be set")
            }
            fields[field.name] = field.value ?? field.valueAsList?.joined(separator: "\n") ?? ""
        }
        return fields
    }

    private func validate(_ fields: [String: String]) throws {
        for field in ["Owner", "Priority", "Severity"] {
            guard let value = fields[field], !(value.isEmpty && field == "Owner") else { continue }
            guard Self.choices(for: field).contains(value) else {
                throw Failure(status: 400, message: "\(value) is not a valid value for \(field)")
            }
        }
    }
}

struct FieldsBody: Decodable {
    struct Field: Decodable {
        let name: String
        let value: String?
        let valueAsList: [String]?
    }

    let fields: [Field]?
}

struct FieldBody: Encodable {
    let name: String
    let value: String
    let valueStatus: String
    let validationStatus = "_KNOWN_VALID"
    let requiredness: String
    let requirednessForUser: String
    let type: String
    let valueAsList: [String]
    let messageText = ""
    let maxLength: Int
}

struct FieldWithChoices: Encodable {
    let field: FieldBody
    let fieldChoiceList: [String]

    func encode(to encoder: any Encoder) throws {
        try field.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(fieldChoiceList, forKey: Key(stringValue: "fieldChoiceList"))
    }

    struct Key: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

struct RecordBody: Encodable {
    struct LegalAction: Encodable {
        let actionName: String
        let formDefName = "Defect_Base"
    }

    let dbId: String
    let displayName: String
    let entityDefName = "Defect"
    let fields: [FieldBody]
    let legalActions: [LegalAction]
    let isEditable = true
    let isDuplicate: Bool
    let isOriginal = false
    let hasDuplicates = false
    let errorMessage = ""

    init(_ defect: Defect, editing: SimulatorState.Edit?) {
        dbId = defect.dbid
        displayName = defect.id
        var values = defect.fields
        values["id"] = defect.id
        values["dbid"] = defect.dbid
        if let editing { values.merge(editing.fields) { _, new in new } }
        let types = ["Description": "MULTILINE_STRING", "Notes_Log": "MULTILINE_STRING", "Note_Entry": "MULTILINE_STRING",
                     "Owner": "REFERENCE", "Submitter": "REFERENCE", "Submit_Date": "DATE_TIME", "State": "STATE",
                     "id": "ID", "dbid": "DBID"]
        fields = SampleSchema.fieldNames.sorted { $0.lowercased() < $1.lowercased() }.map { name in
            let value = values[name] ?? ""
            let requiredness = ["id", "dbid", "State", "Submitter", "Submit_Date"].contains(name) ? "READONLY"
                : name == "Headline" ? "MANDATORY" : "OPTIONAL"
            return FieldBody(name: name, value: value, valueStatus: value.isEmpty ? "HAS_NO_VALUE" : "HAS_VALUE",
                             requiredness: requiredness, requirednessForUser: requiredness, type: types[name] ?? "SHORT_STRING",
                             valueAsList: value.isEmpty ? [] : [value], maxLength: name == "Headline" ? 125 : 0)
        }
        let state = defect.fields["State"] ?? ""
        legalActions = SampleSchema.actions.filter { action in
            action.type != "_SUBMIT" && (action.sources?.contains(state) ?? true)
        }.map { LegalAction(actionName: $0.name) }
        isDuplicate = state == "Duplicate"
    }
}

struct RecordTypeBody: Encodable {
    struct FieldDefinition: Encodable {
        let name: String
        let type: String
        let helpText = ""
        let requiredness: String
    }

    struct Action: Encodable {
        let name: String
        let actionType: String
        let actionSourceStateNames: [String]
        let actionDestStateName: String
    }

    let name = "Defect"
    let dbId = "16777224"
    let type = "_REQ_ENTITY"
    let isFamily = false
    let fieldDefs = SampleSchema.fieldNames.map {
        FieldDefinition(name: $0, type: $0 == "id" ? "ID" : "SHORT_STRING", requiredness: $0 == "Headline" ? "MANDATORY" : "OPTIONAL")
    }
    let actions = SampleSchema.actions.map {
        Action(name: $0.name, actionType: $0.type, actionSourceStateNames: $0.sources ?? SampleSchema.states,
               actionDestStateName: $0.destination ?? "")
    }
}
