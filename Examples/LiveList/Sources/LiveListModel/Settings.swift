import Foundation

/// Where the example's server listens, what it serves and which database it opens — from the environment.
///
/// `LIVE_LIST_STORE` (default `sqlite:live-list.sqlite`; or `postgres://…`), `LIVE_LIST_HOST` (127.0.0.1),
/// `LIVE_LIST_PORT` (8080), `LIVE_LIST_PUBLIC` (the page's folder, `Examples/LiveList/Public`),
/// `LIVE_LIST_TABLE_PREFIX` (none), `LIVE_LIST_RESUME_ARCHIVE` (where a graceful shutdown keeps what each page
/// holds, so that pages resume after the restart: `live-list.resume`).
public struct Settings: Sendable {
    public var store: String
    public var host: String
    public var port: Int
    public var publicDirectory: String
    public var tablePrefix: String
    public var resumeArchive: URL

    public init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        store = environment["LIVE_LIST_STORE"] ?? "sqlite:live-list.sqlite"
        host = environment["LIVE_LIST_HOST"] ?? "127.0.0.1"
        port = environment["LIVE_LIST_PORT"].flatMap(Int.init) ?? 8080
        publicDirectory = environment["LIVE_LIST_PUBLIC"] ?? "Examples/LiveList/Public"
        tablePrefix = environment["LIVE_LIST_TABLE_PREFIX"] ?? ""
        resumeArchive = URL(fileURLWithPath: environment["LIVE_LIST_RESUME_ARCHIVE"] ?? "live-list.resume")
    }
}
