import CSQLite
import FetchKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A database that cannot be written because its file or directory is not writable — a read-only file system,
/// a write-protected file, a directory where SQLite cannot create its journal — is ``FetchKitError/Code/readOnly``,
/// whatever code SQLite chose for it: `SQLITE_READONLY_*`, or a bare `SQLITE_CANTOPEN` (14) when the file could
/// not even be opened for writing.
extension SQLiteErrorMapping {
    /// The error for (extended) result code `code` on the connection `handle`, with its message; a failure to
    /// open or write its file because the file or its directory is not writable is
    /// ``FetchKitError/Code/readOnly`` naming the file.
    static func error(code: Int32, on handle: OpaquePointer?, sql: String?) -> FetchKitError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        guard isFileAccessFailure(code), let handle, let file = sqlite3_db_filename(handle, "main") else {
            return error(code: code, message: message, sql: sql)
        }
        let path = String(cString: file)
        // An in-memory or temporary database has no file name.
        guard !path.isEmpty else { return error(code: code, message: message, sql: sql) }
        return error(code: code, message: message, sql: sql, path: path, accessError: accessError(writing: path))
    }

    /// The error for `code` and `message` on the database file `path`, whose file or directory cannot be written
    /// for the `errno` `accessError` (`nil` when both are writable, as far as `access(2)` tells).
    ///
    /// `SQLITE_READONLY` and its extended codes are ``FetchKitError/Code/readOnly`` whatever `accessError` says;
    /// `SQLITE_CANTOPEN` is when `accessError` is `EROFS`, `EACCES` or `EPERM` (otherwise, as for any other code,
    /// ``error(code:message:sql:)``: a `CANTOPEN` for another reason, such as too many open files, stays a
    /// transient ``FetchKitError/Code/database`` error). The message names `path` — a file path, never a URL.
    static func error(code: Int32, message: String, sql: String?, path: String, accessError: Int32?) -> FetchKitError {
        let reason = accessError.map { " (\(String(cString: strerror($0))))" } ?? ""
        switch code & 0xFF {
        case SQLITE_READONLY:
            return .readOnly("'\(path)' cannot be written\(reason): \(message)")
        case SQLITE_CANTOPEN where accessError.map(readOnlyErrors.contains) == true:
            return .readOnly("'\(path)' cannot be opened for writing\(reason): \(message)")
        default:
            return error(code: code, message: message, sql: sql)
        }
    }

    /// The `errno` values of `access(2)` that mean a file cannot be written, whoever asks again.
    static let readOnlyErrors: Set<Int32> = [EROFS, EACCES, EPERM]

    /// Whether `code` may mean that the database file (or its journal) cannot be opened or written.
    static func isFileAccessFailure(_ code: Int32) -> Bool {
        [SQLITE_CANTOPEN, SQLITE_READONLY].contains(code & 0xFF)
    }

    /// Why SQLite cannot write the database at `path`: the `errno` of `access(path, W_OK)` for the file or its
    /// write-ahead log and shared-memory files when they exist, else of the directory (where SQLite creates them,
    /// and the file itself); `nil` when all are writable.
    static func accessError(writing path: String) -> Int32? {
        for file in [path, path + "-wal", path + "-shm"] where access(file, F_OK) == 0 {
            if access(file, W_OK) != 0 { return errno }
        }
        let directory = (path as NSString).deletingLastPathComponent
        return access(directory.isEmpty ? "." : directory, W_OK) != 0 ? errno : nil
    }
}
