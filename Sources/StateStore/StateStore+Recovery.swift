#if canImport(Glibc)
import Glibc
#endif

extension StateStore {
    /// Opens `<directory>/state.sqlite`; when the file is damaged or not a database at all, moves it (and its
    /// WAL files) aside to `state.sqlite.corrupt-<seconds>` and starts a new one. The caller is told where the
    /// old file went. A new database has no snapshot, so the next poll is a silent baseline, not a flood.
    public static func openRecovering(directory: String, movedAside: (String) -> Void) throws -> StateStore {
        do {
            return try StateStore(directory: directory)
        } catch let error as StoreError where error.isCorrupt {
            let path = directory + "/" + fileName
            let aside = "\(path).corrupt-\(time(nil))"
            for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
                guard rename(path + suffix, aside + suffix) == 0 else { throw error }
            }
            movedAside(aside)
            return try StateStore(directory: directory)
        }
    }
}
