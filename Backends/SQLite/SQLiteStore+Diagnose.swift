import CSQLite
import FetchKit
import Foundation

extension SQLiteStore {
    /// Checks whether a store can open the database file at `path`: the file (or, when it does not exist yet,
    /// its folder) readable and writable — a store writes the file and its `-wal` and `-shm` companions beside
    /// it — and the SQLite library. It changes nothing.
    public static func diagnose(path: String) -> [DiagnosticCheck] {
        let files = FileManager.default
        let folder =
            (path as NSString).deletingLastPathComponent.isEmpty
            ? "." : (path as NSString).deletingLastPathComponent
        var checks: [DiagnosticCheck] = []
        if files.fileExists(atPath: path) {
            checks.append(
                files.isReadableFile(atPath: path) && files.isWritableFile(atPath: path)
                    ? DiagnosticCheck("file", .ok, "\(path) is readable and writable")
                    : DiagnosticCheck(
                        "file", .failure, "\(path) is not readable and writable by this user",
                        fix: "change its owner or mode"))
        } else {
            checks.append(DiagnosticCheck("file", .ok, "\(path) does not exist yet: a store creates it"))
        }
        checks.append(
            files.isWritableFile(atPath: folder)
                ? DiagnosticCheck("folder", .ok, "\(folder) is writable (for the -wal and -shm files)")
                : DiagnosticCheck(
                    "folder", .failure, "\(folder) is not writable: SQLite cannot keep its -wal and -shm files there",
                    fix: "make the folder writable by this user"))
        checks.append(DiagnosticCheck("sqlite", .ok, "SQLite \(String(cString: sqlite3_libversion()))"))
        return checks
    }
}
