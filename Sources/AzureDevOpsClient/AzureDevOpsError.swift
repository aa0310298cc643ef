import SourceKit
import TrackerHTTP
import TrackwatchCore

/// Why talking to Azure DevOps failed, in words that say what to do next. A poll that meets one of these commits
/// nothing.
public typealias AzureDevOpsError = TrackerError<AzureDevOpsRefusal>

/// What only Azure DevOps refuses.
public enum AzureDevOpsRefusal: TrackerRefusal {
    /// 203 with a sign-in page: how Azure DevOps refuses a token when it redirects to sign in.
    case signInPage
    /// `VS402337`: the work items of mine are more than one WIQL may return.
    case tooManyWorkItems(message: String)

    public static var tracker: String { "Azure DevOps" }
    public static var table: String { AzureDevOpsSettings.table }
    public static var projectNames: String { "names as Azure DevOps shows them, such as Web" }
    public static var newToken: String {
        "personal access token with Work Items (Read) and Code (Read) (User settings, Personal access tokens)"
    }

    public var own: OwnFailure {
        switch self {
        case .signInPage:
            return OwnFailure(
                "Azure DevOps refused the personal access token: it answered with a sign-in page (HTTP 203) instead of "
                    + "data. The token expired, was revoked or is wrong. Make a new \(Self.newToken) and put it in the "
                    + "token_file of [[azure_devops]].",
                kind: .credentials, reason: "HTTP 203: the token was refused (a sign-in page)")
        case .tooManyWorkItems(let message):
            return OwnFailure(
                "Azure DevOps refused to list the work items assigned to you, created by you or followed: more than "
                    + "20,000 match (\(message)). Name fewer projects in projects of [[azure_devops]].",
                kind: .configuration, reason: "VS402337: more than 20,000 work items")
        }
    }
}
