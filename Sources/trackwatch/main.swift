import ArgumentParser
import TrackwatchApp

// Before anything holds a secret: no core dump may ever carry the password or a session token.
if !CoreDumps.forbid() {
    Console.error("trackwatch: warning: could not turn core dumps off (prctl/setrlimit refused); a crash could write your password to disk")
}

/// trackwatch: watches an HCL Compass server for one engineer and reports every change once.
struct Trackwatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackwatch",
        abstract: "Watch HCL Compass for changes to your records and report each change once.",
        discussion: """
            Reruns two queries on your Compass server (records assigned to you, and records you own that \
            someone else changed), compares them with the snapshot kept in $XDG_STATE_HOME/trackwatch and \
            reports every change.

            Exit status: 0 success; 64 usage; 69 Compass unreachable or failing (retry later); 74 state \
            directory unusable; 75 another trackwatch holds the state directory; 76 unexpected answer from Compass; 77 login or credential rejected; \
            78 configuration invalid; 1 internal error.
            """,
        version: trackwatchVersion,
        subcommands: [Check.self, Run.self, Status.self, Log.self, Mute.self, Unmute.self, Doctor.self, Probe.self, NotifyTest.self]
    )
}

Trackwatch.main()
