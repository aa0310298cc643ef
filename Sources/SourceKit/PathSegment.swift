/// A segment of a name from the configuration or a server that goes into a URL's path (a GitHub repository's
/// owner, a GitLab group): checked so that it cannot leave its place in the path.
public enum PathSegment {
    /// Letters, digits, `-`, `_` and `.`, and neither empty nor `.` nor `..`.
    public static func isPlain(_ segment: Substring) -> Bool {
        !segment.isEmpty && segment != "." && segment != ".."
            && segment.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                    || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E
            }
    }
}
