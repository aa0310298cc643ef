/// The page of recent changes: where a summary bubble's "Show all" goes, and what `trackwatch log --html`
/// prints. One self-contained HTML file, newest change first: each record linked to its tracker's web page,
/// who did what and when, every changed field old → new.
///
/// Server text is hostile: every value is cleaned like bubble text (`Markup.plain`), bounded, escaped for HTML,
/// and isolated in its own writing direction (`Markup.isolated`: a right-to-left value reorders nothing around
/// it); a link is written only for an http(s) URL. The Content-Security-Policy allows nothing but the page's
/// own style sheet (by its hash): no script, image, font, frame or form, should anything slip through.
public enum ChangesPage {
    public struct Entry: Sendable {
        public var change: Change
        /// When trackwatch detected it, in local time (`2026-11-22 10:05`).
        public var detected: String
        /// The source's label (`SourceSettings.label`), when there are several.
        public var server: String?
        /// The record's web page (`SourceSettings.link(for:)`); not linked unless http(s).
        public var url: String
        /// A mute kept it off the desktop.
        public var muted: Bool

        public init(change: Change, detected: String, server: String? = nil, url: String, muted: Bool = false) {
            self.change = change
            self.detected = detected
            self.server = server
            self.url = url
            self.muted = muted
        }
    }

    /// The file name in the state directory.
    public static let fileName = "changes.html"
    /// How many changes the daemon's page shows.
    public static let defaultLimit = 200
    static let textLimit = 500
    static let valueLimit = 200
    /// The most field changes one row shows, and about the most bytes of them.
    static let fieldsShown = 10
    static let fieldsBytes = 12_000

    /// - Parameters:
    ///   - entries: newest first.
    ///   - updated: when the page was made, in local time.
    ///   - limited: the page shows only the latest `entries.count` changes (says where the rest are).
    ///   - tracker: what the changes' tracker is called, when they all come from one kind (`Recent … changes`).
    public static func render(_ entries: [Entry], updated: String, limited: Bool, tracker: String? = nil) -> String {
        let heading = "ecent " + (tracker.map { Markup.escape(NotificationPlan.bounded(Markup.plain($0), 40)) + " " } ?? "")
            + "changes"
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>trackwatch: r\(heading)</title>
            <style>\(styleSheet)</style>
            </head>
            <body>
            <header><h1>R\(heading)</h1>
            <p id="updated">Updated \(text(updated, 40)) · newest first\(limited ? olderOnes(entries.count) : "")</p></header>

            """
        guard !entries.isEmpty else {
            return html + "<p id=\"empty\">No changes yet.</p>\n</body>\n</html>\n"
        }
        html += "<table>\n<thead><tr><th>When</th><th>Record</th><th>What</th><th>Changes</th></tr></thead>\n<tbody>\n"
        for entry in entries { html += row(entry) }
        return html + "</tbody>\n</table>\n</body>\n</html>\n"
    }

    static func olderOnes(_ count: Int) -> String { " · the latest \(count); older ones: <code>trackwatch log</code>" }

    static func row(_ entry: Entry) -> String {
        let change = entry.change
        let reason = NotificationPlan.criticalReason(change)
        var html = reason == nil ? "<tr>" : "<tr class=\"critical\">"
        html += "<td class=\"when\">\(text(entry.detected, 40))"
        if let server = entry.server { html += "<br><span class=\"server\">\(isolated(server, 80))</span>" }
        html += "</td><td class=\"record\">"
        // A list's item by its title or as `Item 3`, never by a bare key that reads as a count.
        let id = change.naming == nil ? text(change.record.rawValue, 80) : change.name(isolating: { isolated($0, 80) })
        html += isWebURL(entry.url) ? "<a href=\"\(text(entry.url, 2_000))\" rel=\"noreferrer noopener\">\(id)</a>" : id
        html += "</td><td class=\"what\"><strong>\(text(NotificationPlan.event(change), 300))</strong>"
        if let reason { html += " <span class=\"badge\">critical: \(isolated(reason, 120))</span>" }
        if entry.muted { html += " <span class=\"badge muted\">muted</span>" }
        html += "<br><span class=\"headline\">\(isolated(change.headline, textLimit))</span>"
        let facts = NotificationPlan.facts(change)
        if !facts.isEmpty, [.assigned, .entered].contains(change.kind) {
            html += "<br><span class=\"facts\">\(text(facts, textLimit))</span>"
        }
        html += "</td><td class=\"changes\">"
        if !change.changes.isEmpty {
            html += fieldList(change)
        } else if change.kind == .modified, change.by != nil {
            html += "<span class=\"facts\">\(NotificationPlan.unknownFields)</span>"
        }
        return html + "</td></tr>\n"
    }

    /// The first `fieldsShown` field changes (fewer past `fieldsBytes` of HTML), then `and N more fields`: one
    /// change of 100,000 fields is one row of a few kilobytes.
    static func fieldList(_ change: Change) -> String {
        var html = "<ul>", shown = 0, bytes = 0, more = 0
        for field in change.changes {
            guard !field.isMore, shown < fieldsShown, bytes <= fieldsBytes else {
                more += field.count
                continue
            }
            let item = fieldItem(field, change.kind)
            html += item
            bytes += item.utf8.count
            shown += 1
        }
        if more > 0 { html += "<li>and \(more) more fields</li>" }
        return html + "</ul>"
    }

    static func fieldItem(_ field: FieldChange, _ kind: ChangeKind) -> String {
        // The new headline is the row's headline: once is enough.
        if field.field == "Headline" { return "<li>Headline was: <del>\(value(field.old))</del></li>" }
        if field.old == nil, [.modified, .changed].contains(kind) {
            // Something added (a note), or a change whose values the source did not keep.
            return field.new.map { "<li>\(isolated(field.field, 80)): <ins>\(value($0))</ins></li>" }
                ?? "<li>\(isolated(field.field, 80)) changed</li>"
        }
        // A value set where there was none, or taken away: only the side that has one (no struck-through ∅).
        let (old, new) = (field.old.flatMap { $0.isEmpty ? nil : $0 }, field.new.flatMap { $0.isEmpty ? nil : $0 })
        switch (old, new) {
        case (nil, let new?): return "<li>\(isolated(field.field, 80)): <ins>\(value(new))</ins></li>"
        case (let old?, nil): return "<li>\(isolated(field.field, 80)): <del>\(value(old))</del></li>"
        default: return "<li>\(isolated(field.field, 80)): <del>\(value(old))</del> → <ins>\(value(new))</ins></li>"
        }
    }

    static func value(_ value: String?) -> String { value.map { isolated($0, valueLimit) } ?? "∅" }

    /// Server text as HTML text or attribute value: cleaned (no control characters, no bidirectional
    /// overrides, one line; trackwatch's own isolates kept), bounded, and every character that HTML gives a
    /// meaning escaped.
    static func text(_ raw: String, _ limit: Int) -> String {
        Markup.escape(NotificationPlan.bounded(Markup.oneLine(raw), limit))
    }

    /// `text`, isolated in its own writing direction (the isolates do not count towards `limit`).
    static func isolated(_ raw: String, _ limit: Int) -> String { text(Markup.isolated(raw), limit + 2) }

    /// Only a web address becomes a link: never `javascript:`, `file:` or `data:`.
    static func isWebURL(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// The page's only style sheet, allowed by its hash (no `'unsafe-inline'`). Change it together with
    /// `styleHash` (`ChangesPageTests` recomputes the hash).
    static let styleSheet = """
        :root{color-scheme:light dark;font-family:system-ui,sans-serif}\
        body{margin:1.5em;line-height:1.4}\
        h1{font-size:1.3em;margin:0}\
        header p{color:GrayText;margin:.2em 0 1em}\
        table{border-collapse:collapse;width:100%}\
        th,td{text-align:left;vertical-align:top;padding:.4em .6em;\
        border-bottom:1px solid color-mix(in srgb,CanvasText 20%,transparent)}\
        td{overflow-wrap:break-word}\
        .when{white-space:nowrap;width:9em}\
        .what,.changes{width:40%}\
        .record{white-space:nowrap}\
        .server,.facts{color:GrayText}\
        tr.critical td:first-child{border-left:4px solid #c00}\
        .badge{display:inline-block;color:#fff;background:#c00;border-radius:3px;padding:0 .3em;font-size:.85em}\
        .badge.muted{background:GrayText}\
        ul{margin:0;padding-left:1.1em}\
        del{color:#a33}\
        ins{color:#181;text-decoration:none}
        """
    static let styleHash = "sha256-RBfjdy+Ex6VqoAszad3yKPurn9Q2ilDntgqLG38wZK0="
    static let contentSecurityPolicy =
        "default-src 'none'; style-src '\(styleHash)'; base-uri 'none'; form-action 'none'"
}
