/// `etc/config.example.toml` with one tracker's minimal table uncommented, as its comments tell a person to do:
/// the line `# <header>` and the `# key = value` lines right after it.
func uncommentingMinimalTable(_ header: String, in example: String) -> String {
    var lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard var index = lines.firstIndex(of: "# \(header)") else { return example }
    lines[index].removeFirst(2)
    index += 1
    while index < lines.count, lines[index].firstMatch(of: #/^# [a-z_]+ = /#) != nil {
        lines[index].removeFirst(2)
        index += 1
    }
    return lines.joined(separator: "\n")
}
