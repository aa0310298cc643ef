// Placeholder: filled in by the CompassSimulator work.
