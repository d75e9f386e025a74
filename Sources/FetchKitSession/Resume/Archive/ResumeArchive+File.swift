import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ResumeArchive {
    /// Writes the archive to `url` atomically: into a new file beside it, readable and writable by this user alone
    /// (0600: it holds every user's rows), synced, then renamed over `url` — a reader finds the old archive or the
    /// new one, never part of one.
    func save(to url: URL) throws {
        let bytes = encoded()
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appending(path: ".\(url.lastPathComponent).\(ResumeToken.newSession()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.lastError() }
        var written = 0
        var failure: POSIXError?
        while failure == nil, written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if count > 0 {
                written += count
            } else if count == 0 || errno != EINTR {
                failure = count == 0 ? POSIXError(.EIO) : Self.lastError()
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Self.lastError() }
        if close(descriptor) != 0, failure == nil { failure = Self.lastError() }
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = Self.lastError() }
        if let failure {
            unlink(temporary.path)
            throw failure
        }
    }

    /// The archive at `url`; `nil` when there is no file there.
    ///
    /// - Throws: ``ResumeArchiveError`` when the file is not a whole archive of this version, or the error of
    ///   reading it.
    static func load(from url: URL) throws -> ResumeArchive? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        return try ResumeArchive(decoding: Array(data))
    }

    private static func lastError() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
