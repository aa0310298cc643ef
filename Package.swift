// swift-tools-version: 6.0
import PackageDescription

// Layout: a pure core (TrackwatchCore, no I/O), one small adapter per edge (CompassClient, StateStore,
// DesktopNotifier, SystemdIntegration), one thin module per C library (CSQLite, CSystemd; libnotify opened by DesktopNotifier),
// the wiring (TrackwatchApp) and thin executables (trackwatch; the local servers compass-sim, qase-sim, json-sim).
let package = Package(
    name: "trackwatch",
    products: [
        .executable(name: "trackwatch", targets: ["trackwatch"]),
        .executable(name: "compass-sim", targets: ["compass-sim"]),
        .executable(name: "qase-sim", targets: ["qase-sim"]),
        .executable(name: "json-sim", targets: ["json-sim"]),
        .executable(name: "jira-sim", targets: ["jira-sim"]),
        .executable(name: "github-sim", targets: ["github-sim"]),
        .executable(name: "gitlab-sim", targets: ["gitlab-sim"]),
        .executable(name: "forgejo-sim", targets: ["forgejo-sim"]),
        .executable(name: "ado-sim", targets: ["ado-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The tracker's world: records, snapshots, diff, query definitions, config, formatting. No I/O.
        .target(name: "TrackwatchCore"),

        // HTTP for every tracker client: a one-method transport protocol over async-http-client, with bounded
        // answers, timeouts, TLS with a private CA, proxies, and Retry-After.
        .target(
            name: "TrackerHTTP",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The seam every tracker plugs into: a source polls, diffs and commits; its failures have a kind; its
        // HTTP connection, doctor checks and state are wired the same way for all.
        .target(
            name: "SourceKit",
            dependencies: ["TrackwatchCore", "TrackerHTTP", .product(name: "Logging", package: "swift-log")]
        ),

        // The Compass source: its REST client, its queries and diff rules, its configuration tables.
        .target(
            name: "CompassClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // The Qase TestOps source: its REST client, its questions and diff rules, its `[[qase]]` tables.
        .target(
            name: "QaseClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // A JSON list as a source ([[json]]): any REST answer that is a list, read whole, paging and mess handled.
        .target(
            name: "JSONListClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // Jira Cloud and Data Center as a source ([[jira]]): its REST client and its mapping onto the activity shape.
        .target(
            name: "JiraClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // GitHub (github.com, Enterprise Server) as a source ([[github]]): its REST client and its mapping onto the
        // activity shape.
        .target(
            name: "GitHubClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // GitLab (gitlab.com, self-managed) as a source ([[gitlab]]): its REST client and its mapping onto the activity
        // shape.
        .target(
            name: "GitLabClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // Forgejo, Gitea and Codeberg as a source ([[forgejo]]): its REST client and its mapping onto the activity
        // shape.
        .target(
            name: "ForgejoClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // Azure DevOps (Services, Server 2022) as a source ([[azure_devops]]): its REST client and its mapping onto the
        // activity shape.
        .target(
            name: "AzureDevOpsClient",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "SourceKit", .product(name: "Logging", package: "swift-log")]
        ),

        // State adapter: SQLite through the system library.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "StateStore", dependencies: ["TrackwatchCore", "CSQLite"]),

        // Desktop and systemd adapters.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "DesktopNotifier",
            // libnotify is opened when a notifier is made (`LibNotify`), not linked: other commands never load GLib.
            dependencies: ["TrackwatchCore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "SystemdIntegration",
            dependencies: ["TrackwatchCore", "CSystemd", .product(name: "Logging", package: "swift-log")]
        ),

        // prctl(2), a C variadic Swift cannot call (core dumps off at start).
        .systemLibrary(name: "CLinux"),

        // Wiring: configuration loading, credentials, one poll, the daemon.
        .target(
            name: "TrackwatchApp",
            dependencies: [
                "TrackwatchCore", "TrackerHTTP", "SourceKit", "CompassClient", "QaseClient", "JSONListClient", "JiraClient", "GitHubClient", "GitLabClient", "ForgejoClient",
                "AzureDevOpsClient",
                "StateStore", "DesktopNotifier",
                "SystemdIntegration", "CLinux",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "trackwatch",
            dependencies: [
                "TrackwatchApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["VersionFile"]
        ),
        // `trackwatch --version` from the VERSION file, the one place a release's version is written.
        .plugin(name: "VersionFile", capability: .buildTool()),

        // What every local tracker server shares: the HTTP(S) server, the request and response shapes, and the
        // ordered JSON value (with its parser) that the Qase and JSON-list servers build their answers from.
        // zlib for gzip answers (and gzip bombs).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "SimulatorKit",
            dependencies: [
                "CZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // `ActClient`, the client of every simulator's `act` command.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The local Compass server used for development, tests and the demo.
        .target(
            name: "CompassSimulator",
            dependencies: ["SimulatorKit"]
        ),
        .executableTarget(
            name: "compass-sim",
            dependencies: [
                "CompassSimulator", "SimulatorKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `compass-sim act` plays a colleague through the real API.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The local Qase TestOps server used for development, tests and the demo.
        .target(name: "QaseSimulator", dependencies: ["SimulatorKit"]),
        .executableTarget(
            name: "qase-sim",
            dependencies: [
                "QaseSimulator", "SimulatorKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `qase-sim act` plays a colleague through the real API.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The local server of JSON lists: the device tracker, the class directory, a generic list in every shape,
        // paging style, auth, encoding and fault, and GitHub/GitLab/Jira "assigned to me" (docs/json-sim.md).
        .target(name: "JSONListSimulator", dependencies: ["SimulatorKit"]),
        .executableTarget(
            name: "json-sim",
            dependencies: [
                "JSONListSimulator", "SimulatorKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `json-sim act` plays a colleague through the real API.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The local Jira server (Cloud and Data Center flavours) used for development, tests and the demo.
        .target(name: "JiraSimulator", dependencies: ["SimulatorKit"]),
        .executableTarget(
            name: "jira-sim",
            dependencies: [
                "JiraSimulator", "SimulatorKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `jira-sim act` plays a colleague through the real API.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The local GitHub server (github.com's REST API, or Enterprise Server's under /api/v3) for tests and the demo.
        .target(name: "GitHubSimulator", dependencies: ["SimulatorKit"]),
        .executableTarget(
            name: "github-sim",
            dependencies: [
                "GitHubSimulator", "SimulatorKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `github-sim act` plays a colleague through the real API.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The local Forgejo or Gitea server (REST API under /api/v1) for tests and the demo.
        .target(name: "ForgejoSimulator", dependencies: ["SimulatorKit"]),
        .executableTarget(
            name: "forgejo-sim",
            dependencies: [
                "ForgejoSimulator", "SimulatorKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The local GitLab server (REST API v4 under /api/v4) for tests, the demo and the benchmark.
        .target(name: "GitLabSimulator", dependencies: ["SimulatorKit"]),
        .executableTarget(
            name: "gitlab-sim",
            dependencies: [
                "GitLabSimulator", "SimulatorKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `gitlab-sim act` plays a colleague through the real API.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The local Azure DevOps server (Services under /ORG, Server 2022 under /tfs/COLLECTION) for tests and the demo.
        .target(name: "AzureDevOpsSimulator", dependencies: ["SimulatorKit"]),
        .executableTarget(
            name: "ado-sim",
            dependencies: [
                "AzureDevOpsSimulator", "SimulatorKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `ado-sim act` plays a colleague through the control routes.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),

        // The in-process part of a poll at scale (scripts/bench.sh).
        .executableTarget(name: "trackwatch-bench", dependencies: ["TrackwatchCore", "CompassClient", "StateStore"]),

        // libFuzzer targets for the config reader and the response decoding (scripts/fuzz.sh); an ordinary
        // build is their corpus replayer.
        .executableTarget(
            name: "trackwatch-fuzz",
            dependencies: ["TrackwatchCore", "TrackerHTTP", "CompassClient", "JSONListClient", "TrackwatchApp",
                           .product(name: "Logging", package: "swift-log")]
        ),

        .testTarget(name: "TrackwatchCoreTests", dependencies: ["TestSupport", "TrackwatchCore", "CompassClient", "TrackwatchApp"]),
        .testTarget(name: "CompassClientTests", dependencies: ["TestSupport", "CompassClient", "TrackerHTTP", "SourceKit"]),
        .testTarget(name: "QaseClientTests", dependencies: ["TestSupport", "QaseClient", "TrackwatchCore", "TrackerHTTP", "SourceKit"]),
        .testTarget(name: "GitHubClientTests", dependencies: ["TestSupport", "GitHubClient", "TrackwatchCore", "TrackerHTTP", "SourceKit"]),
        .testTarget(name: "GitLabClientTests", dependencies: ["TestSupport", "GitLabClient", "TrackwatchCore", "TrackerHTTP", "SourceKit"]),
        .testTarget(
            name: "AzureDevOpsClientTests", dependencies: ["TestSupport", "AzureDevOpsClient", "TrackwatchCore", "TrackerHTTP", "SourceKit"]),
        .testTarget(name: "JiraClientTests", dependencies: ["TestSupport", "JiraClient", "TrackwatchCore", "TrackerHTTP", "SourceKit"]),
        .testTarget(name: "TrackwatchAppTests", dependencies: ["TestSupport", "TrackwatchApp", "CompassClient", "TrackerHTTP", "SourceKit"]),
        .testTarget(name: "StateStoreTests", dependencies: ["TestSupport", "StateStore"]),
        // The shared activity poller, in process, over scripted trackers and a real state store.
        .testTarget(
            name: "SourceKitTests",
            dependencies: ["TestSupport",
                "SourceKit", "TrackwatchCore", "TrackerHTTP", "StateStore", "TrackwatchApp",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "JSONListClientTests", dependencies: ["TestSupport", "JSONListClient", "TrackwatchCore", "TrackerHTTP", "SourceKit"]),
        .testTarget(name: "SimulatorKitTests", dependencies: ["TestSupport", "SimulatorKit"]),
        .testTarget(name: "CompassSimulatorTests", dependencies: ["TestSupport", "CompassSimulator", "SimulatorKit"]),
        .testTarget(name: "QaseSimulatorTests", dependencies: ["TestSupport", "QaseSimulator", "SimulatorKit"]),
        .testTarget(name: "JiraSimulatorTests", dependencies: ["TestSupport", "JiraSimulator", "SimulatorKit"]),
        .testTarget(name: "GitHubSimulatorTests", dependencies: ["TestSupport", "GitHubSimulator", "SimulatorKit"]),
        .testTarget(name: "GitLabSimulatorTests", dependencies: ["TestSupport", "GitLabSimulator", "SimulatorKit"]),
        // Over real HTTP, through the client trackwatch's own trackers use.
        .testTarget(
            name: "AzureDevOpsSimulatorTests",
            dependencies: ["TestSupport",
                "AzureDevOpsSimulator", "SimulatorKit", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // Handler-level tests, and a few of the built json-sim (so the test build builds it).
        .testTarget(name: "JSONListSimulatorTests", dependencies: ["TestSupport", "JSONListSimulator", "SimulatorKit", "json-sim"]),
        // A private D-Bus session bus with a real notification server (python-dbusmock), for the tests below.
        .target(name: "TestSupport", dependencies: ["TrackerHTTP"], path: "Tests/TestSupport"),
        .testTarget(
            name: "DesktopIntegrationTests",
            dependencies: ["DesktopNotifier", "SystemdIntegration", "TrackwatchCore", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // Runs the built binaries against compass-sim over real HTTP.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["TrackwatchCore", "CompassClient", "TrackerHTTP", "SystemdIntegration", "trackwatch", "compass-sim",
                           "qase-sim", "json-sim", "jira-sim", "github-sim", "gitlab-sim", "forgejo-sim", "ado-sim",
                           "TestSupport",
                           .product(name: "Logging", package: "swift-log")]
        ),
    ]
)
