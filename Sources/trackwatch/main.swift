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
            Asks each configured source its questions — on an HCL Compass server, records assigned to you and \
            records you own that someone else changed; likewise on Qase TestOps; or the items of any JSON list — \
            compares the answers with the snapshot kept in $XDG_STATE_HOME/trackwatch and reports every change \
            as a desktop notification and a journal entry.

            Exit status: 0 success; 64 usage; 69 a tracker unreachable or failing (retry later); 74 state \
            directory unusable; 75 another trackwatch holds the state directory; 76 unexpected answer from a \
            tracker; 77 login or credential rejected; 78 configuration invalid; 1 internal error.
            """,
        version: trackwatchVersion,
        subcommands: [Check.self, Run.self, Status.self, Log.self, Mute.self, Unmute.self, Doctor.self, Probe.self, NotifyTest.self]
    )
}

Trackwatch.main()
