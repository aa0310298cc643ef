extension RetryAfter {
    /// `seconds` with 10 to 30 % added, so that clients told to wait alike do not come back in step (Atlassian's and
    /// GitHub's advice).
    public static func jittered(_ seconds: Double) -> Double { seconds * Double.random(in: 1.1...1.3) }
}
