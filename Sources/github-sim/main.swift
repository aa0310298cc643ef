import ArgumentParser

/// github-sim: a local GitHub REST server (github.com, or Enterprise Server under /api/v3) for development, tests
/// and the demo.
struct GitHubSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "github-sim",
        abstract: "A local GitHub REST server (the subset trackwatch uses) with seeded repositories, issues and pull "
            + "requests.",
        subcommands: [Serve.self, Act.self],
        defaultSubcommand: Serve.self)
}

GitHubSim.main()
