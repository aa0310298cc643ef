// Placeholder: filled in by the SystemdIntegration work.
