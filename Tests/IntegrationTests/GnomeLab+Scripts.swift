extension GnomeLab {
    /// The test-only extension (written into the lab's HOME, never installed anywhere else): unsafe mode, so that
    /// Eval and Screenshot answer any caller; no overview; and none of the shell's own banners ("Logged in as a
    /// privileged user"), which would stand in the queue before the bubbles under test.
    static let unsafeExtension = """
        const { GLib } = imports.gi;
        const Main = imports.ui.main;
        const MessageTray = imports.ui.messageTray;
        class Ext {
            enable() {
                global.context.unsafe_mode = true;
                const drop = s => { if (s instanceof MessageTray.SystemNotificationSource) s.destroy(); };
                this._id = Main.messageTray.connect('source-added',
                    (t, s) => GLib.idle_add(GLib.PRIORITY_DEFAULT, () => drop(s)));
                GLib.timeout_add(GLib.PRIORITY_DEFAULT, 500, () => {
                    Main.overview.hide();
                    Main.messageTray.getSources().forEach(drop);
                    return GLib.SOURCE_REMOVE;
                });
            }
            disable() { Main.messageTray.disconnect(this._id); global.context.unsafe_mode = false; }
        }
        function init() { return new Ext(); }
        """

    /// Read-back and a virtual pointer, installed once through Eval as `global._tw`. Text "as drawn" is the part
    /// before GNOME's ellipsis (measured with the label's own Pango layout) or the wrapped lines of an expanded
    /// banner (at most six: GNOME's limit); a line's direction is the one Pango resolved for its paragraph.
    static let script = """
        (() => {
            const { Clutter, GLib, Gio, Pango, St } = imports.gi;
            const Main = imports.ui.main;
            const tw = {};
            tw.pointer = Clutter.get_default_backend().get_default_seat()
                .create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
            tw.move = (x, y) => tw.pointer.notify_absolute_motion(GLib.get_monotonic_time(), x, y);
            tw.click = () => [Clutter.ButtonState.PRESSED, Clutter.ButtonState.RELEASED].forEach(
                s => tw.pointer.notify_button(GLib.get_monotonic_time(), Clutter.BUTTON_PRIMARY, s));
            tw.box = a => {
                const [x, y] = a.get_transformed_position(), [w, h] = a.get_transformed_size();
                return [Math.round(x), Math.round(y), Math.round(w), Math.round(h)];
            };
            tw.center = a => { const [x, y, w, h] = tw.box(a); return [Math.round(x + w / 2), Math.round(y + h / 2)]; };
            tw.rtl = (layout, index) => layout.get_direction(index) === Pango.Direction.RTL;
            tw.visible = label => {
                const text = label.clutter_text, layout = text.get_layout();
                if (!layout.is_ellipsized()) return text.text;
                const probe = layout.copy();
                probe.set_ellipsize(Pango.EllipsizeMode.NONE);
                probe.set_width(-1);
                const chars = Array.from(text.text), max = layout.get_width() / Pango.SCALE;
                let lo = 0, hi = chars.length;
                while (lo < hi) {
                    const mid = Math.ceil((lo + hi) / 2);
                    probe.set_text(chars.slice(0, mid).join('') + '…', -1);
                    if (probe.get_pixel_size()[0] <= max) lo = mid; else hi = mid - 1;
                }
                return chars.slice(0, lo).join('') + '…';
            };
            // Which line each character is drawn on (GJS cannot read PangoLayoutLine's bit fields).
            tw.lines = (label, limit) => {
                const text = label.clutter_text, layout = text.get_layout(), encoder = new TextEncoder();
                const lines = [];
                let index = 0;
                for (const character of Array.from(layout.get_text())) {
                    const [line] = layout.index_to_line_x(index, false);
                    while (lines.length <= line) lines.push({ start: index, text: '' });
                    lines[line].text += character;
                    index += encoder.encode(character).length;
                }
                const shown = lines.slice(0, limit)
                    .map(l => ({ text: l.text.replace(/\\n$/, ''), rtl: tw.rtl(layout, l.start) }));
                // A line GNOME cut short holds the rest of the text: only up to its first line break is drawn.
                let cut = layout.is_ellipsized() || lines.length > limit;
                for (const line of shown) {
                    if (!line.text.includes('\\n')) continue;
                    line.text = line.text.split('\\n')[0] + '…';
                    cut = true;
                }
                return { lines: shown, cut };
            };
            tw.oneLine = label => {
                const layout = label.clutter_text.get_layout();
                return { lines: [{ text: tw.visible(label), rtl: tw.rtl(layout, 0) }], cut: layout.is_ellipsized() };
            };
            tw.resolvable = icon => {
                if (!icon) return false;
                if (icon instanceof Gio.FileIcon) return icon.get_file().query_exists(null);
                return St.TextureCache.get_default().load_gicon(null, icon, 48, 1, 1) !== null;
            };
            tw.buttons = message => (message._buttonBox ? message._buttonBox.get_children() : [])
                .filter(b => b.mapped && b.get_transformed_size()[0] > 0)
                .map(b => ({ label: b.label, at: tw.center(b) }));
            tw.banner = () => {
                const tray = Main.messageTray, b = tray._banner;
                if (!b || tray._notificationState !== 2) return null;
                const n = b.notification;
                const bodyShown = b.expanded && b._expandedLabel ? tw.lines(b._expandedLabel,
                                                                            6) : tw.oneLine(b.bodyLabel);
                return { title: n.title, titleShown: tw.visible(b.titleLabel), body: n.bannerBodyText, bodyShown,
                         expanded: b.expanded, urgency: n.urgency, buttons: tw.buttons(b), at: tw.center(b),
                         box: tw.box(b), icon: n.gicon ? n.gicon.to_string() : null, iconFound: tw.resolvable(n.gicon),
                         titleRTL: tw.rtl(b.titleLabel.clutter_text.get_layout(), 0) };
            };
            tw.tray = () => ({ state: Main.messageTray._notificationState,
                showing: Main.messageTray._notification ? Main.messageTray._notification.title : null,
                queued: Main.messageTray._notificationQueue.map(n => n.title),
                sources: Main.messageTray.getSources().map(s => ({
                    title: s.title, app: s.app ? s.app.get_id() : null,
                    notifications: s.notifications.map(n => ({
                        title: n.title, body: n.bannerBodyText, urgency: n.urgency,
                        actions: n.actions.map(a => a.label),
                        icon: n.gicon ? n.gicon.to_string() : null, iconFound: tw.resolvable(n.gicon) })) })) });
            tw.list = () => Main.panel.statusArea.dateMenu._messageList._notificationSection._messages.map(m => ({
                title: m.titleLabel.clutter_text.text, titleShown: tw.visible(m.titleLabel),
                bodyShown: tw.visible(m.bodyLabel), box: tw.box(m) }));
            global._tw = tw;
            return 'ok';
        })()
        """
}
