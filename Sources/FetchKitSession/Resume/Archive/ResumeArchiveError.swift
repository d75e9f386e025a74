/// Why a resume archive was not read: each makes ``ResumeStore`` start empty (with a warning), never with part
/// of an archive.
enum ResumeArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It ends before what it announces.
    case truncated
    /// It is not a resume archive.
    case notAnArchive
    /// It was written in another format version.
    case version(UInt32)
    /// Its bytes are not the ones written (the checksum differs).
    case checksum
    /// It holds something no archive holds.
    case invalid(String)

    var description: String {
        switch self {
        case .truncated: "the archive is truncated"
        case .notAnArchive: "the file is not a resume archive"
        case .version(let version): "the archive is of format version \(version), not \(ResumeArchive.version)"
        case .checksum: "the archive is corrupt (its checksum differs)"
        case .invalid(let what): "the archive holds an invalid \(what)"
        }
    }
}
