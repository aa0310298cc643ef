// Placeholder: filled in by the StateStore work.
