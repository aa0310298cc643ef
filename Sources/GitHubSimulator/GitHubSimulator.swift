import SimulatorKit
// github-sim: see docs/github-sim.md.
