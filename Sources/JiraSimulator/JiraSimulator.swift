import SimulatorKit
// jira-sim: see docs/jira-sim.md.
