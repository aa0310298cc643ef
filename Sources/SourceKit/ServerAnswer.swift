import TrackwatchCore

/// A time a tracker's answer gives in ISO 8601 (`2026-01-17T12:34:56Z`, GitHub's and GitLab's), read into
/// trackwatch's normal form; anything else, or longer than any such time, is `nil`, never a failed read.
public enum ServerTime {
    public static func parse(_ text: String?) -> Timestamp? {
        guard let text, text.utf8.count <= 64 else { return nil }
        return Timestamp.parse(text)?.timestamp
    }
}

extension Actor {
    /// A forge's user (GitHub, GitLab): a numeric id, named by the login (bounded, one line), or by the id where
    /// the answer has no login; `nil` without an id.
    /// Named by `name` (the display name) where the answer gives one, else by the login (issue 32.4: people are
    /// named one way, as Jira names them).
    public static func user(id: Int64?, login: String?, name: String? = nil, isApp: Bool) -> Actor? {
        guard let id else { return nil }
        let login = login.map { SafeText.oneLine($0, limit: 60) } ?? String(id)
        let shown = name.map { SafeText.oneLine($0, limit: 60) }.flatMap { $0.isEmpty ? nil : $0 } ?? login
        return Actor(id: String(id), name: shown, login: login, isApp: isApp)
    }
}
