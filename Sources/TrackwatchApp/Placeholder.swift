// Placeholder: filled in by the TrackwatchApp work.
