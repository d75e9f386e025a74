/// One check of whether a database is ready for FetchKit, with what to do when it is not: what `fetchkit doctor`
/// prints, one line per check.
///
/// ```swift
/// for check in await PostgresStore.diagnose(url: url) where check.status != .ok {
///     print("\(check.name): \(check.detail) — \(check.fix ?? "")")
/// }
/// ```
public struct DiagnosticCheck: Sendable, Hashable, CustomStringConvertible {
    /// How a check came out.
    public enum Status: String, Sendable, Hashable {
        /// Ready.
        case ok
        /// FetchKit works, without what this check is about (the logical feed, say).
        case warning
        /// FetchKit cannot work with the database as it is.
        case failure
    }

    /// What was checked (`connection`, `wal_level`, `replication slots`, …).
    public var name: String
    /// How it came out.
    public var status: Status
    /// What the check found.
    public var detail: String
    /// What to do, when the status is not ``Status/ok``.
    public var fix: String?

    public init(_ name: String, _ status: Status, _ detail: String, fix: String? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
    }

    /// `ok      name: detail`, with `— fix` after a warning or a failure.
    public var description: String {
        let label = status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        return "\(label)\(name): \(detail)" + (fix.map { " — \($0)" } ?? "")
    }
}
