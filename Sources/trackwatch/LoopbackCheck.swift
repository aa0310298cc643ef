import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SourceKit
import TrackwatchCore

/// doctor's word on a plain `http://` URL to this machine (issue 36.15): nothing authenticates the server, so the
/// token or password goes to whichever process listens on the port — another user's, if theirs is bound while
/// the real server is down. ✔ when every socket that could take the connection is yours (or root's); ⚠ otherwise.
enum LoopbackCheck {
    static func run(_ source: any SourceSettings, report: inout DoctorReport) {
        let url = source.url
        guard ServerURL.isCleartextToThisMachine(url), let host = ServerURL.host(of: url),
            let port = ServerURL.port(of: url)
        else { return }
        let listeners = ["/proc/net/tcp", "/proc/net/tcp6"].flatMap { path in
            LoopbackListener.listening(inProcNetTCP: (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
        }
        let fix = "use https:// (with ca_file for a self-signed certificate): a server then proves who it is"
        switch LoopbackServer.of(host: host, port: port, listeners: listeners, uid: getuid()) {
        case .yours:
            report.pass("\(source.label): plain http:// to port \(port) of this machine, served by a process of yours")
        case .nobody:
            report.warn("\(source.label): plain http:// to port \(port) of this machine, where nothing listens now: "
                        + "another user who binds it answers the next poll and receives its token or password; \(fix)")
        case .anotherUser(let uid):
            report.warn("\(source.label): plain http:// to port \(port) of this machine, which \(userName(uid)) "
                        + "listens on, not you: they answer every poll and receive its token or password; \(fix)")
        }
    }

    /// `user alice (uid 1001)`, or `uid 1001` for a user without a name here.
    static func userName(_ uid: UInt32) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "user \(String(cString: name)) (uid \(uid))"
    }
}
