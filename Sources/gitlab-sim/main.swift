import ArgumentParser

/// gitlab-sim: a local GitLab server (REST API v4 under /api/v4) for development, tests, the demo and the benchmark.
struct GitLabSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gitlab-sim",
        abstract: "A local GitLab REST API v4 server (the subset trackwatch uses) with seeded projects, issues and "
            + "merge requests.",
        subcommands: [Serve.self, Act.self],
        defaultSubcommand: Serve.self)
}

GitLabSim.main()
