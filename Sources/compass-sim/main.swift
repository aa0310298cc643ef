import ArgumentParser

/// compass-sim: a local HCL Compass REST server for development, tests and the demo.
struct CompassSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compass-sim",
        abstract: "A local HCL Compass REST server (the API subset trackwatch uses) with a SAMPL database.",
        subcommands: [Serve.self, Act.self],
        defaultSubcommand: Serve.self)
}

CompassSim.main()
