// The GitHub source: see docs/github.md.
