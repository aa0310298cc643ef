/// A tracker that answers `doctor` and `probe` itself, read-only: what it is and what a poll will read.
public protocol SurveyedTracker: ActivityTracker {
    /// Adds the survey's findings; an error it throws ends the survey as ✘ with `fix(for:)`.
    func survey(_ findings: inout ProbeReport) async throws
    /// What to do about an error the survey met.
    func fix(for error: any Error) -> String
}

extension TrackerSession {
    /// `tracker` polled, and surveyed.
    public init(_ tracker: some SurveyedTracker) {
        self.init(tracker: tracker, survey: { await .survey(fix: tracker.fix(for:)) { try await tracker.survey(&$0) } })
    }
}
