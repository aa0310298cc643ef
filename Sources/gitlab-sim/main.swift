import ArgumentParser

/// gitlab-sim: a local GitLab REST API v4 server (placeholder until the server lands).
struct GitLabSim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gitlab-sim", abstract: "A local GitLab REST API v4 server.")
}

GitLabSim.main()
