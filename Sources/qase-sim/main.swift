import ArgumentParser

/// qase-sim: a local Qase TestOps REST server for development, tests and the demo.
struct QaseSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qase-sim",
        abstract: "A local Qase TestOps REST server (API v1, the subset trackwatch uses) with seeded projects.",
        subcommands: [Serve.self, Act.self],
        defaultSubcommand: Serve.self)
}

QaseSim.main()
