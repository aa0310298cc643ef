import TrackwatchCore

/// The Work Item Query Language questions trackwatch asks (shared/ado-api.md §3.1). WIQL answers ids only; `@Me` is
/// the token's user, resolved by the server; a time in a date needs `timePrecision=true`, sent with every WIQL.
enum WIQL {
    /// Everything of mine, read on a full read: assigned to me, created by me or followed, in `projects` (all when
    /// `nil`).
    static func mine(projects: [String]?) -> String {
        select("(\(mineClause("= @Me")))" + scope(projects))
    }

    /// What changed since `since` and is, or was, mine: `EVER @Me` keeps an item just assigned away from me.
    static func changed(since: Timestamp, projects: [String]?) -> String {
        select(
            "[System.ChangedDate] > \(literal(AzureDevOpsTime.wiql(since))) AND (\(mineClause("EVER @Me")))"
                + scope(projects))
    }

    /// Which of `ids` I follow.
    static func followed(_ ids: [Int]) -> String {
        select("[System.Id] IN (\(ids.map(String.init).joined(separator: ", "))) AND [System.Id] IN (@Follows)")
    }

    /// A string literal: single quotes, a quote inside doubled.
    static func literal(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }

    private static func mineClause(_ assigned: String) -> String {
        "[System.AssignedTo] \(assigned) OR [System.CreatedBy] = @Me OR [System.Id] IN (@Follows)"
    }

    private static func scope(_ projects: [String]?) -> String {
        guard let projects else { return "" }
        return " AND [System.TeamProject] IN (\(projects.map(literal).joined(separator: ", ")))"
    }

    private static func select(_ condition: String) -> String {
        "SELECT [System.Id] FROM WorkItems WHERE \(condition) ORDER BY [System.ChangedDate] DESC"
    }
}
