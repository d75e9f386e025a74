import FetchKitBackendKit
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database file a store opened, and whether it is still the file at its path.
///
/// A SQLite connection keeps writing into the file it opened even after that file is deleted, or after another
/// file is renamed over its path: the writes succeed and no one will ever read them. The store records the file's
/// device and inode when it opens and compares them with `stat(2)` of the path on every data-version poll and
/// before every write transaction. Once the path is missing or names another file, the failure is kept: every
/// later write and read throws it (``FetchKitError/Code/storeFileMissing``), and the one that notices it tells
/// the change feed, so live controllers fail rather than stay silently stale.
final class SQLiteFileWatch: Sendable {
    /// The file's absolute path (relative paths resolved against the working directory at open).
    let path: String
    private let device: UInt64
    private let inode: UInt64
    /// The failure once noticed; it never clears.
    private let noticed = Mutex<FetchKitError?>(nil)

    /// Records the file at `path` as it is now.
    ///
    /// - Throws: ``FetchKitError/Code/storeFileMissing`` when there is no file at `path`.
    init(path: String) throws {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        self.path = absolute
        guard let identity = Self.identity(of: absolute) else {
            throw FetchKitError.storeFileMissing("'\(absolute)' is gone: the store cannot watch it")
        }
        (device, inode) = identity
    }

    /// The failure noticed so far, or `nil` while the file is in place (no `stat`).
    var failure: FetchKitError? { noticed.withLock { $0 } }

    /// Compares the file at the path with the one opened: the failure when it is gone or replaced (kept for
    /// later), with whether this call noticed it first.
    ///
    /// - Complexity: one `stat(2)` until the failure is noticed, none after.
    func check() -> (failure: FetchKitError, isNew: Bool)? {
        if let failure { return (failure, false) }
        let found = Self.identity(of: path)
        if let found, found.device == device, found.inode == inode { return nil }
        // A stat that fails for another reason than a missing file (EACCES, EIO) tells nothing: ask again later.
        if found == nil, errno != ENOENT, errno != ENOTDIR { return nil }
        let failure = FetchKitError.storeFileMissing(
            "'\(path)' "
                + (found == nil ? "was deleted or moved away" : "was replaced by another file")
                + " while the store had it open; writes are refused, as they would go to a file no one can open "
                + "again: close the store and open it anew")
        return noticed.withLock { kept in
            if let kept { return (kept, false) }
            kept = failure
            return (failure, true)
        }
    }

    /// Throws the failure when the file is gone or replaced; the call that notices it first publishes a resync on
    /// `feed`, so live controllers re-read and fail with it.
    ///
    /// - Throws: ``FetchKitError/Code/storeFileMissing``.
    func verify(feed: ChangeFeed) throws {
        guard let noticed = check() else { return }
        if noticed.isNew { feed.publishResync() }
        throw noticed.failure
    }

    /// The device and inode of the file at `path` (following symbolic links, as SQLite does), or `nil` when
    /// there is none.
    static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        // `dev_t` is unsigned on Linux and a signed 32-bit integer on macOS: kept as its bits, never trapping.
        return (UInt64(truncatingIfNeeded: status.st_dev), UInt64(truncatingIfNeeded: status.st_ino))
    }
}
