import ArgumentParser
import TrackwatchApp

// Before anything holds a secret: no crash report may show registers or memory (this may restart the command),
// and no core dump may ever carry the password or a session token.
CrashReports.withoutRegisters()
if !CoreDumps.forbid() {
    Console.error("trackwatch: warning: could not turn core dumps off (prctl/setrlimit refused); a crash could write your password to disk")
}

/// trackwatch: watches the trackers where one engineer's work lives and reports every change once.
struct Trackwatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackwatch",
        abstract: "Watch your trackers for changes to your records and report each change once.",
        discussion: """
            Watches the trackers where your work lives, one table each in $XDG_CONFIG_HOME/trackwatch/config.toml: \
            GitHub ([[github]]), GitLab ([[gitlab]]), Azure DevOps ([[azure_devops]]), Jira ([[jira]]), Qase TestOps \
            ([[qase]]), HCL Compass ([server]) and any JSON list over HTTP ([[json]]); \
            /usr/share/doc/trackwatch/config.example.toml has \
            each, commented. Every poll asks each what is assigned to you or awaits your review, and what someone \
            else changed of yours, compares the answers with the snapshot kept in $XDG_STATE_HOME/trackwatch, \
            and reports every change once, as a desktop notification and a journal entry.

            Exit status: 0 success; 64 usage; 69 a tracker unreachable or failing (retry later); 74 state \
            directory unusable; 75 another trackwatch holds the state directory; 76 unexpected answer from a \
            tracker; 77 login or credential rejected; 78 configuration invalid; 1 internal error.
            """,
        version: trackwatchVersion,
        subcommands: [Check.self, Run.self, Status.self, Log.self, Mute.self, Unmute.self, Doctor.self, Probe.self, NotifyTest.self]
    )
}

Trackwatch.main()
