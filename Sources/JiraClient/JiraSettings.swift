// The Jira source: see ARCHITECTURE.md.
