// Placeholder: filled in by the DesktopNotifier work.
