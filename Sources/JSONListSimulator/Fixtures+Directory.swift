import SimulatorKit

/// The ECE 564 class directory (`shared/seeds/class-directory.md`): people keyed by `DUID`, each with a `netid`
/// that logs in (HTTP Basic, password `pw-NETID`), and the bad data students push.
enum DirectoryFixtures {
    static func password(of netid: String) -> String { "pw-\(netid)" }

    /// Roster members with a password but no entry yet: the colleagues who join (`json-sim act join`).
    static let newcomers = ["nj901", "nj902", "nj903"]

    static func person(
        _ duid: Int, _ netid: String, _ first: String, _ last: String, role: String, gender: String, team: String,
        program: String = "ECE", plan: String = "MEng", from: String
    ) -> JSONValue {
        [
            "DUID": .int(duid), "netid": .string(netid), "fName": .string(first), "lName": .string(last),
            "email": .string("\(netid)@duke.edu"), "from": .string(from), "gender": .string(gender),
            "role": .string(role), "program": .string(program), "plan": .string(plan), "team": .string(team),
            "hobby": "hiking", "languages": ["Swift", "Python"], "picture": .string(picture(seed: duid, bytes: 96)),
        ]
    }

    static let good: [JSONValue] = [
        person(
            1_000_001, "rt113", "Ric", "Telford", role: "Professor", gender: "Male", team: "", program: "NA",
            plan: "NA", from: "Chatham County, NC"),
        person(
            1_000_002, "ab456", "Anjali", "Bose", role: "TA", gender: "Female", team: "", plan: "MS",
            from: "Pune, India"),
        person(
            1_000_003, "dl123", "Dana", "Lee", role: "Student", gender: "Female", team: "Team Kestrel",
            from: "Raleigh, NC"),
        person(
            1_000_004, "jp220", "Jonas", "Petersen", role: "Student", gender: "Male", team: "Team Kestrel",
            from: "Aarhus, Denmark"),
        person(
            1_000_005, "mg310", "María", "García", role: "Student", gender: "Female", team: "Team Heron",
            from: "Sevilla, España"),
        person(
            1_000_006, "wz88", "Wei", "Zhang", role: "Student", gender: "Male", team: "Team Heron",
            from: "成都, 中国"),
        person(1_000_007, "km77", "Kofi", "Mensah", role: "Student", gender: "Male", team: "", from: "Accra, Ghana"),
        person(
            1_000_008, "za12", "Zoë", "Åberg", role: "Student", gender: "Other", team: "Team Osprey",
            from: "Umeå, Sweden"),
    ]

    /// What people push: see docs/json-sim.md for each entry's fault.
    static func bad() -> [JSONValue] {
        var typo = person(
            1_000_009, "bb901", "Brandon", "Brooks", role: "Teaching Asistant", gender: "M",
            team: "Team Osprey", from: "Durham, NC")
        typo["hobby"] = "<b>Chess</b> &amp; go"
        typo["languages"] = "Swift, Kotlin"
        var nulls = person(
            1_000_011, "nl34", "Nadia", "Lopez", role: "Student", gender: "Female", team: "",
            from: "Miami, FL")
        for field in ["lName", "email", "role", "team", "picture"] { nulls[field] = .null }
        var stringKey = person(
            1_000_012, "sk45", "Sven", "Karlsson", role: "Student", gender: "Male",
            team: "Team Heron", from: "Malmö, Sweden")
        stringKey["DUID"] = "1000012"
        var large = person(
            1_000_013, "bp56", "Beatriz", "Pinto", role: "Student", gender: "Female",
            team: "Team Kestrel", from: "Porto, Portugal")
        large["picture"] = .string(bigPicture)
        let twice = person(
            1_000_014, "jc78", "Jordan", "Casey", role: "Student", gender: "Other", team: "Team Heron",
            from: "Boise, ID")
        var again = twice
        again["team"] = "Team Osprey"
        let keyless: JSONValue = ["fName": "Guest", "lName": "User", "role": "Student", "team": "Team Osprey"]
        let sparse: JSONValue = ["DUID": .int(1_000_010), "netid": "mf12", "fName": "Mei"]
        return [typo, sparse, nulls, stringKey, large, twice, again, keyless]
    }

    static func seed() -> [JSONValue] { good + bad() }

    /// Every netid of `entries` or on the roster, with its password.
    static func accounts(of entries: [JSONValue]) -> [String: String] {
        let netids = entries.compactMap { $0["netid"]?.string } + newcomers
        return Dictionary(netids.map { ($0, password(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// 1,500,000 characters of base64 (a JPEG's first bytes, then a repeated block), built by copying rather than
    /// encoding, and once per process: a debug build seeds many servers.
    static let bigPicture =
        picture(seed: 13, bytes: 12)
        + String(repeating: Base64.encode(Array("fakejpegdata".utf8)), count: (1_500_000 - 16) / 16)

    /// Base64 of `bytes` bytes that start like a JPEG file; the rest is a fixed pseudo-random sequence.
    static func picture(seed: Int, bytes count: Int) -> String {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]
        var state = UInt64(truncatingIfNeeded: seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return Base64.encode(bytes)
    }
}

enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | (Int($1.element) << (16 - 8 * $1.offset)) }
            for index in 0..<4 {
                out.append(index <= chunk.count ? alphabet[(value >> (18 - 6 * index)) & 63] : UInt8(ascii: "="))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
