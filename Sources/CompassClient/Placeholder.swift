// Placeholder: filled in by the CompassClient work.
