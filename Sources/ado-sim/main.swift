import ArgumentParser

/// ado-sim: a local Azure DevOps server (Services under /ORG, Server under /tfs/COLLECTION) for development, tests
/// and the demo.
struct AzureDevOpsSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ado-sim",
        abstract: "A local Azure DevOps REST server (the subset trackwatch uses) with seeded work items and pull "
            + "requests.",
        subcommands: [Serve.self, Act.self],
        defaultSubcommand: Serve.self)
}

AzureDevOpsSim.main()
