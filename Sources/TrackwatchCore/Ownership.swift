/// Who besides you could change a file or a directory, judged from its owner and mode bits (`stat`): the
/// rule trackwatch applies to its configuration, the directories above it, and the directories above its state.
public enum Ownership {
    /// `nil` when only you and root can change the entry; otherwise what is wrong and the command that fixes it.
    ///
    /// - Write access for the group is harmless when the group is the owner's own (a user private group with
    ///   no other member, as Debian and Ubuntu create for every user and pair with umask 002): `groupIsOwnersAlone`.
    /// - A directory others may write is fine with the sticky bit (like /tmp) when it belongs to you or root:
    ///   nobody else can then rename or delete what is yours inside it.
    public static func problem(path: String, owner: UInt32, mode: UInt32, isDirectory: Bool, you: UInt32,
                               groupIsOwnersAlone: Bool) -> (problem: String, fix: String)? {
        if owner != you && owner != 0 {
            return ("belongs to uid \(owner), not to you (uid \(you)) or root",
                    "chown \(you) \(path) (as root), or use a \(isDirectory ? "directory" : "file") of your own")
        }
        if isDirectory && mode & 0o1000 != 0 { return nil }
        let writableByOthers = mode & (groupIsOwnersAlone ? 0o002 : 0o022)
        guard writableByOthers != 0 else { return nil }
        let who = writableByOthers == 0o022 ? "group and others" : writableByOthers == 0o020 ? "group" : "others"
        return ("can be written by \(who) (mode \(String(mode & 0o7777, radix: 8)))",
                "chmod \(writableByOthers == 0o002 ? "o" : "go")-w \(path)")
    }
}
