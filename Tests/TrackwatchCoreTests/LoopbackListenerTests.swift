import TrackwatchCore
import XCTest

/// Who listens on a port of this machine (`/proc/net/tcp`, `/proc/net/tcp6`), and who would receive a plain
/// http:// request to it (issue 36.15).
final class LoopbackListenerTests: XCTestCase {
    // Written as a little-endian host writes them (x86-64, arm64): each 32-bit word of the address reversed.
    private let tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1FFE 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 11 1 0 100 0 0 10 0
           1: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 12 1 0 100 0 0 10 0
           2: 0100007F:1FFE 0100007F:A2C4 01 00000000:00000000 00:00000000 00000000  1000        0 13 1 0 20 4 30 10 -1
           3: 0101007F:2328 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 14 1 0 100 0 0 10 0
           4: garbage
        """
    private let tcp6 = """
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:1F40 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1002        0 15 1 0 100 0 0 10 0
           1: 00000000000000000000000000000000:2710 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1003        0 16 1 0 100 0 0 10 0
           2: 0000000000000000FFFF00000100007F:2AF8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1004        0 17 1 0 100 0 0 10 0
        """

    private var listeners: [LoopbackListener] {
        LoopbackListener.listening(inProcNetTCP: tcp) + LoopbackListener.listening(inProcNetTCP: tcp6)
    }

    func test_listening_readsListeningSockets_theirAddressPortAndOwner() throws {
        try XCTSkipUnless(UInt32(1).littleEndian == 1, "the sample is a little-endian host's")
        let loopback6 = [UInt8](repeating: 0, count: 15) + [1]
        XCTAssertEqual(LoopbackListener.listening(inProcNetTCP: tcp), [
            LoopbackListener(address: [127, 0, 0, 1], port: 8190, uid: 1000),
            LoopbackListener(address: [0, 0, 0, 0], port: 80, uid: 0),
            LoopbackListener(address: [127, 0, 1, 1], port: 9000, uid: 1001),
        ], "the connected socket (01) and a line that does not read are passed over")
        XCTAssertEqual(LoopbackListener.listening(inProcNetTCP: tcp6).map(\.address),
                       [loopback6, [UInt8](repeating: 0, count: 16), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 127, 0, 0, 1]])
        XCTAssertEqual(LoopbackListener.listening(inProcNetTCP: ""), [])
    }

    func test_server_isWhoeverCouldTakeTheConnection() throws {
        try XCTSkipUnless(UInt32(1).littleEndian == 1, "the sample is a little-endian host's")
        let table: [(host: String, port: UInt16, uid: UInt32, expected: LoopbackServer)] = [
            ("127.0.0.1", 8190, 1000, .yours),
            ("localhost", 8190, 1000, .yours),
            ("127.0.0.1", 8190, 1001, .anotherUser(uid: 1000)),
            ("127.0.0.1", 80, 1000, .yours),  // root's, on every address: root can read your secrets anyway
            ("127.0.0.1", 9000, 1001, .nobody),  // bound to 127.0.1.1, not to 127.0.0.1
            ("127.0.1.1", 9000, 1001, .yours),
            ("::1", 8000, 1002, .yours),
            ("127.0.0.1", 8000, 1002, .nobody),  // an IPv6 socket on ::1 does not take 127.0.0.1
            ("::1", 10000, 1000, .anotherUser(uid: 1003)),  // on :: it takes IPv6 …
            ("127.0.0.1", 10000, 1003, .yours),  // … and IPv4, dual-stack
            ("127.0.0.1", 11000, 1000, .anotherUser(uid: 1004)),  // the IPv4-mapped address
            ("localhost", 8000, 1000, .anotherUser(uid: 1002)),  // localhost may be ::1
            ("127.0.0.1", 8191, 1000, .nobody),
        ]
        for (host, port, uid, expected) in table {
            XCTAssertEqual(LoopbackServer.of(host: host, port: port, listeners: listeners, uid: uid), expected,
                           "\(host):\(port) for uid \(uid)")
        }
    }

    func test_port_isTheOneWritten_orTheSchemesDefault() {
        let table: [(url: String, port: UInt16?)] = [
            ("http://127.0.0.1:8190/ccmweb/rest", 8190), ("http://localhost", 80), ("https://localhost/x", 443),
            ("http://[::1]:8080/", 8080), ("http://[::1]/", 80), ("http://u@127.0.0.1:81", 81),
            ("http://127.0.0.1:99999", nil), ("http://127.0.0.1:x", nil),
        ]
        for (url, port) in table { XCTAssertEqual(ServerURL.port(of: url), port, url) }
        XCTAssertTrue(ServerURL.isCleartextToThisMachine("http://127.0.0.1:8190"))
        XCTAssertTrue(ServerURL.isCleartextToThisMachine("HTTP://[::1]:8190"))
        XCTAssertFalse(ServerURL.isCleartextToThisMachine("https://127.0.0.1:8190"))
        XCTAssertFalse(ServerURL.isCleartextToThisMachine("http://compass.example.com"))
    }
}
