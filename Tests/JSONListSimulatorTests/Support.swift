import Foundation
import JSONListSimulator
import SimulatorKit
import Synchronization
import XCTest

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let seconds = Mutex(1_700_000_000)

    var now: Int { seconds.withLock { $0 } }
    func advance(_ by: Int) { seconds.withLock { $0 += by } }
}

/// One answer, with its JSON when it is JSON.
struct Answer {
    let response: SimResponse

    var status: Int { response.status }
    var body: [UInt8] { response.body }
    var text: String { String(decoding: response.body, as: UTF8.self) }
    var json: JSONValue? { try? JSONValue.parse(response.body) }

    func header(_ name: String) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The ids of a list answer, as text (`1`, `"1"` and `1.0` all read 1).
    var ids: [Int] { (json?.array ?? []).compactMap { $0["id"]?.int } }
}

/// The simulator behind its handler, as if listening on 127.0.0.1:8192 (https on :8443, the other host on
/// 127.0.0.2:9000).
struct TestServer {
    static let http = "127.0.0.1:8192"
    static let https = "127.0.0.1:8443"
    static let other = "127.0.0.2:9000"

    let simulator: JSONListSimulator
    let clock = TestClock()

    init(items: Int = 12, pageSize: Int = 5) {
        var options = JSONSimOptions()
        options.items = items
        options.pageSize = pageSize
        let clock = clock
        options.clock = { clock.now }
        simulator = JSONListSimulator(options: options)
        simulator.setListeners(Listeners(http: Self.http, https: Self.https, other: Self.other))
    }

    @discardableResult
    func call(
        _ method: String = "GET", _ target: String, host: String = TestServer.http, headers: [String: String] = [:],
        body: JSONValue? = nil, authorization: String? = nil
    ) -> Answer {
        var all = headers
        all["host"] = host
        if let authorization { all["authorization"] = authorization }
        let request = SimRequest(
            method: method, target: target, authorization: authorization,
            body: body?.bytes ?? [], headers: all)
        return Answer(response: simulator.handle(request))
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// `GET /sim/stats`.
    var stats: JSONValue { call("GET", "/sim/stats").json ?? .null }
}

/// Runs `gzip -dc` on `bytes`: a decoder that is not ours.
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-dc"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
    return Array(data)
}

/// Sends `GET target` over a plain socket and reads until the server closes (error 0), resets (`ECONNRESET`) or
/// stays silent for `patience` seconds (`EAGAIN`): what a client reads on the wire, unparsed.
func rawGET(address: String, port: Int, target: String, patience: Int = 5) throws -> (bytes: [UInt8], error: Int32) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var timeout = timeval(tv_sec: patience, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var peer = sockaddr_in()
    peer.sin_family = sa_family_t(AF_INET)
    peer.sin_port = in_port_t(UInt16(port).bigEndian)
    peer.sin_addr.s_addr = inet_addr(address)
    let connected = withUnsafePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED) }
    let request = "GET \(target) HTTP/1.1\r\nHost: \(address):\(port)\r\nConnection: close\r\n\r\n"
    _ = request.withCString { send(socket, $0, strlen($0), 0) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = recv(socket, &buffer, buffer.count, 0)
        guard count > 0 else { return (received, count == 0 ? 0 : errno) }
        received += buffer[0..<count]
    }
}

/// The body of a raw HTTP/1.1 answer (everything after the blank line).
func body(of answer: [UInt8]) -> [UInt8] {
    let separator = Array("\r\n\r\n".utf8)
    var index = 0
    while index + separator.count <= answer.count {
        if Array(answer[index..<index + separator.count]) == separator { return Array(answer[(index + 4)...]) }
        index += 1
    }
    return []
}
