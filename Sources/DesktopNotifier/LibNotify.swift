#if canImport(Glibc)
import Glibc
#endif

/// libnotify, and the GLib, GObject and GIO functions trackwatch calls beside it, opened when a notifier is made
/// rather than linked: linked, every `trackwatch` command loaded and initialised GLib, GIO, GObject and gdk-pixbuf
/// (about 20 libraries, 2.6 MB and 3.5 ms per start, measured) although only the daemon, `doctor` and
/// `notify-test` ever show a bubble. The functions are those of libnotify.so.4's ABI (GLib 2.x), declared here
/// with their C types: pointers to GLib's structures stay opaque, except `GList` and `GError`, whose first fields
/// are read below.
struct LibNotify: @unchecked Sendable {  // function pointers into a library that is never closed
    typealias Bubble = OpaquePointer  // NotifyNotification *
    typealias Variant = OpaquePointer  // GVariant *
    typealias Connection = OpaquePointer  // GDBusConnection *
    /// `gpointer user_data`, as GLib hands it back to a callback.
    typealias Data = UnsafeMutableRawPointer
    typealias SourceFunction = @convention(c) (Data?) -> Int32
    typealias DestroyNotify = @convention(c) (Data?) -> Void
    typealias ActionCallback = @convention(c) (Bubble?, UnsafeMutablePointer<CChar>?, Data?) -> Void
    typealias ClosedCallback = @convention(c) (Bubble?, Data?) -> Void
    typealias ClosureNotify = @convention(c) (Data?, OpaquePointer?) -> Void
    typealias LogFunction = @convention(c) (UnsafePointer<CChar>?, UInt32, UnsafePointer<CChar>?, Data?) -> Void
    typealias NameAppeared = @convention(c) (Connection?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Data?) -> Void
    typealias NameVanished = @convention(c) (Connection?, UnsafePointer<CChar>?, Data?) -> Void

    // GLib's constants, as its headers define them.
    static let logLevelWarning: UInt32 = 1 << 4, logLevelMessage: UInt32 = 1 << 5
    static let sessionBus: Int32 = 2  // G_BUS_TYPE_SESSION
    static let variantClassString: Int32 = 0x73  // G_VARIANT_CLASS_STRING, 's'
    static let sourceRemove: Int32 = 0  // G_SOURCE_REMOVE

    let notify_init: @convention(c) (UnsafePointer<CChar>?) -> Int32
    let notify_uninit: @convention(c) () -> Void
    let notify_get_server_caps: @convention(c) () -> UnsafeMutableRawPointer?
    let notify_get_server_info: @convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> Int32
    let notify_notification_new: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Bubble?
    let notify_notification_update: @convention(c) (Bubble?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let notify_notification_clear_actions: @convention(c) (Bubble?) -> Void
    let notify_notification_set_urgency: @convention(c) (Bubble?, UInt32) -> Void
    let notify_notification_set_category: @convention(c) (Bubble?, UnsafePointer<CChar>?) -> Void
    let notify_notification_set_hint: @convention(c) (Bubble?, UnsafePointer<CChar>?, Variant?) -> Void
    let notify_notification_show: @convention(c) (Bubble?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32
    let notify_notification_close: @convention(c) (Bubble?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32
    let notify_notification_add_action: @convention(c) (
        Bubble?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, ActionCallback?, Data?, DestroyNotify?
    ) -> Void
    let notify_notification_get_closed_reason: @convention(c) (Bubble?) -> Int32
    let g_object_unref: @convention(c) (OpaquePointer?) -> Void  // a bubble, a connection
    let g_free: @convention(c) (Data?) -> Void
    let g_error_free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let g_list_free_full: @convention(c) (UnsafeMutableRawPointer?, DestroyNotify?) -> Void
    let g_log_set_handler: @convention(c) (UnsafePointer<CChar>?, UInt32, LogFunction?, Data?) -> UInt32
    let g_signal_connect_data: @convention(c) (Bubble?, UnsafePointer<CChar>?, ClosedCallback?, Data?, ClosureNotify?, UInt32) -> UInt
    let g_main_loop_new: @convention(c) (OpaquePointer?, Int32) -> OpaquePointer?
    let g_main_loop_run: @convention(c) (OpaquePointer?) -> Void
    let g_main_context_invoke: @convention(c) (OpaquePointer?, SourceFunction?, Data?) -> Void
    let g_idle_add: @convention(c) (SourceFunction?, Data?) -> UInt32
    let g_variant_new_string: @convention(c) (UnsafePointer<CChar>?) -> Variant?
    let g_variant_new_tuple: @convention(c) (UnsafePointer<Variant?>?, Int) -> Variant?
    let g_variant_unref: @convention(c) (Variant?) -> Void
    let g_variant_n_children: @convention(c) (Variant?) -> Int
    let g_variant_get_child_value: @convention(c) (Variant?, Int) -> Variant?
    let g_variant_classify: @convention(c) (Variant?) -> Int32
    let g_variant_get_string: @convention(c) (Variant?, UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>?
    let g_bus_get_sync: @convention(c) (Int32, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Connection?
    let g_bus_watch_name_on_connection: @convention(c) (
        Connection?, UnsafePointer<CChar>?, UInt32, NameAppeared?, NameVanished?, Data?, DestroyNotify?
    ) -> UInt32
    let g_bus_unwatch_name: @convention(c) (UInt32) -> Void
    let g_dbus_connection_call_sync: @convention(c) (
        Connection?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        Variant?, OpaquePointer?, UInt32, Int32, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> Variant?

    /// The library's file name: the soname of its ABI, as the package libnotify4 installs it.
    static let soname = "libnotify.so.4"

    /// Opens libnotify (and, as its dependencies, GLib, GObject and GIO) and looks up every function; never
    /// closed, as GLib cannot be unloaded.
    static func open(_ file: String = soname) throws(LibNotifyUnavailable) -> LibNotify {
        guard let library = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            throw LibNotifyUnavailable(description: "\(file) cannot be opened (\(lastError())); install libnotify4")
        }
        // Looked up in the library and its dependencies (dlsym on a handle searches both).
        func symbol<Function>(_ name: String) throws(LibNotifyUnavailable) -> Function {
            guard let address = dlsym(library, name) else {
                throw LibNotifyUnavailable(description: "\(file) has no \(name) (\(lastError())); install libnotify4 0.7 or later")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        return LibNotify(
            notify_init: try symbol("notify_init"), notify_uninit: try symbol("notify_uninit"),
            notify_get_server_caps: try symbol("notify_get_server_caps"),
            notify_get_server_info: try symbol("notify_get_server_info"),
            notify_notification_new: try symbol("notify_notification_new"),
            notify_notification_update: try symbol("notify_notification_update"),
            notify_notification_clear_actions: try symbol("notify_notification_clear_actions"),
            notify_notification_set_urgency: try symbol("notify_notification_set_urgency"),
            notify_notification_set_category: try symbol("notify_notification_set_category"),
            notify_notification_set_hint: try symbol("notify_notification_set_hint"),
            notify_notification_show: try symbol("notify_notification_show"),
            notify_notification_close: try symbol("notify_notification_close"),
            notify_notification_add_action: try symbol("notify_notification_add_action"),
            notify_notification_get_closed_reason: try symbol("notify_notification_get_closed_reason"),
            g_object_unref: try symbol("g_object_unref"), g_free: try symbol("g_free"),
            g_error_free: try symbol("g_error_free"), g_list_free_full: try symbol("g_list_free_full"),
            g_log_set_handler: try symbol("g_log_set_handler"), g_signal_connect_data: try symbol("g_signal_connect_data"),
            g_main_loop_new: try symbol("g_main_loop_new"), g_main_loop_run: try symbol("g_main_loop_run"),
            g_main_context_invoke: try symbol("g_main_context_invoke"), g_idle_add: try symbol("g_idle_add"),
            g_variant_new_string: try symbol("g_variant_new_string"), g_variant_new_tuple: try symbol("g_variant_new_tuple"),
            g_variant_unref: try symbol("g_variant_unref"), g_variant_n_children: try symbol("g_variant_n_children"),
            g_variant_get_child_value: try symbol("g_variant_get_child_value"),
            g_variant_classify: try symbol("g_variant_classify"), g_variant_get_string: try symbol("g_variant_get_string"),
            g_bus_get_sync: try symbol("g_bus_get_sync"),
            g_bus_watch_name_on_connection: try symbol("g_bus_watch_name_on_connection"),
            g_bus_unwatch_name: try symbol("g_bus_unwatch_name"),
            g_dbus_connection_call_sync: try symbol("g_dbus_connection_call_sync"))
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "no reason given"
    }

    /// The strings of a `GList` of `gchar *` (`struct _GList { gpointer data; GList *next; GList *prev; }`).
    static func strings(of list: UnsafeMutableRawPointer) -> [String] {
        var strings: [String] = []
        var node: UnsafeMutableRawPointer? = list
        while let current = node {
            if let data = current.load(as: UnsafePointer<CChar>?.self) { strings.append(String(cString: data)) }
            node = current.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeMutableRawPointer?.self)
        }
        return strings
    }

    /// A `GError`'s message (`struct _GError { GQuark domain; gint code; gchar *message; }`).
    static func message(of error: UnsafeMutableRawPointer) -> String {
        // 4 bytes of GQuark and 4 of gint: the pointer after them is at 8 on every ABI GLib builds for.
        error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? "unknown error"
    }
}

/// libnotify cannot be opened (not installed, or not the ABI trackwatch calls): what, and what to do.
public struct LibNotifyUnavailable: Error, CustomStringConvertible {
    public let description: String
}
