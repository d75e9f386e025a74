import FetchKitBackendKit

/// Polls `PRAGMA data_version` on the writer connection so commits by other connections or processes
/// (another store on the same file, the `sqlite3` command-line tool) reach the change feed as a resync.
///
/// A task sleeps for the interval, then runs one short job on the writer thread (the pragma runs
/// between write transactions, never inside one). The writer's own commits do not change its
/// `data_version`, so they never cause a resync. Each poll first checks that the database file is still the
/// one opened (``SQLiteFileWatch``): once it is deleted or replaced, the poll publishes a resync (so live
/// controllers re-read, and fail) and stops. The task ends when stopped or when the writer closes.
final class DataVersionPoller: Sendable {
    private let task: Task<Void, Never>

    /// Starts polling every `interval`; each poll also checks that `fileWatch`'s file is still in place.
    init(
        interval: Duration, writer: ConnectionPool<SQLiteConnection>, collector: SQLiteChangeCollector,
        fileWatch: SQLiteFileWatch?
    ) {
        task = Task.detached(priority: .utility) {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                    try await writer.run { connection in
                        try fileWatch?.verify(feed: collector.feed)
                        try collector.checkDataVersion(on: connection)
                    }
                } catch is CancellationError {
                    return
                } catch let error as FetchKitError where error.code == .storeFileMissing {
                    // Told to the change feed: nothing left to watch.
                    return
                } catch {
                    // The writer closed (FetchKitError.closed): nothing left to watch.
                    if writer.isClosed { return }
                }
            }
        }
    }

    /// Stops polling (a poll already running finishes).
    func stop() {
        task.cancel()
    }
}
