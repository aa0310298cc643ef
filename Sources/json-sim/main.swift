import ArgumentParser

/// json-sim: a local server of JSON lists for trackwatch's `[[json]]` source, its tests, recipes and demo.
struct JSONSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json-sim",
        abstract: "A local server of JSON lists: a device tracker, a class directory, a generic list in every shape, "
            + "paging style, auth, encoding and fault, and GitHub/GitLab/Jira issue searches (docs/json-sim.md).",
        subcommands: [Serve.self, Act.self],
        defaultSubcommand: Serve.self)
}

JSONSim.main()
