import TrackerHTTP

enum HTTPResponseFixture {
    static func response(_ status: Int, _ headers: [String: String], body: String = "") -> HTTPResponse {
        HTTPResponse(status: status, headers: headers.map { (name: $0.key, value: $0.value) }, body: Array(body.utf8))
    }
}
