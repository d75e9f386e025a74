import Foundation

/// The file a ``ResumeStore`` saves its kept lists in, and restores them from in the next process:
///
/// ```
/// "FKRESUME" | format version (4 bytes) | CRC-32 of the payload (4 bytes) | payload length (8 bytes) | payload
/// payload: when it was written (µs since 1970, 8 bytes) | session count | each session
/// ```
///
/// Integers are little-endian, counts LEB128 (see ``ArchiveWriter``). A file of another version, with another
/// checksum, or that ends early or late is refused whole.
struct ResumeArchive: Sendable {
    /// The format version this build writes and reads.
    static let version: UInt32 = 1
    private static let magic = Array("FKRESUME".utf8)

    /// When the archive was written (the wall clock: it is read by another process).
    var savedAt: Date
    var sessions: [ArchivedSession]

    init(savedAt: Date, sessions: [ArchivedSession]) {
        self.savedAt = savedAt
        self.sessions = sessions
    }

    /// The archive's bytes.
    func encoded() -> [UInt8] {
        var payload = ArchiveWriter()
        payload.fixed(savedAt.microsecondsSince1970)
        payload.count(sessions.count)
        for session in sessions { payload.session(session) }
        var file = ArchiveWriter()
        for byte in Self.magic { file.byte(byte) }
        file.fixed(Self.version)
        file.fixed(CRC32.checksum(payload.bytes))
        file.fixed(UInt64(payload.bytes.count))
        return file.bytes + payload.bytes
    }

    /// The archive `bytes` hold, all of it or nothing.
    init(decoding bytes: [UInt8]) throws(ResumeArchiveError) {
        guard bytes.starts(with: Self.magic) else {
            throw Self.magic.starts(with: bytes) ? .truncated : .notAnArchive
        }
        var header = ArchiveReader(bytes, from: Self.magic.count)
        let version = try header.fixed32()
        guard version == Self.version else { throw .version(version) }
        let checksum = try header.fixed32()
        let length = try header.fixed()
        let payload = Array(header.rest)
        guard UInt64(payload.count) == length else {
            throw UInt64(payload.count) < length ? .truncated : .invalid("length")
        }
        guard CRC32.checksum(payload) == checksum else { throw .checksum }
        var reader = ArchiveReader(payload)
        savedAt = Date(microsecondsSince1970: try reader.fixedInt64())
        sessions = []
        for _ in 0..<(try reader.count()) { sessions.append(try reader.session()) }
        guard reader.isAtEnd else { throw .invalid("ending") }
    }
}
