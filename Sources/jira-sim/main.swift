import ArgumentParser

/// jira-sim: a local Jira server (Cloud and Data Center flavours) for development, tests and the demo.
struct JiraSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jira-sim",
        abstract: "A local Jira REST server (Cloud or Data Center, the subset trackwatch uses) with seeded projects.",
        subcommands: [Serve.self, Act.self],
        defaultSubcommand: Serve.self)
}

JiraSim.main()
