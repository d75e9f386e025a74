import FetchKitBackendKit
import Synchronization

extension PostgresStore {
    /// Runs `body` in one transaction, as ``write(_:)`` does, and returns with its result the commit's token: a
    /// log position at or past the end of its commit record, which any instance of the app can wait for
    /// (``ResultsController/sync(after:)``) before it reads.
    ///
    /// ```swift
    /// let (todo, token) = try await store.writeReturningToken { tx in try tx.insert(Todo(title: "Ship it")) }
    /// ```
    ///
    /// - Throws: what ``write(_:)`` throws; after the commit, the error of reading the log's position (the write
    ///   has committed: a caller that retries must not write again).
    public func writeReturningToken<T: Sendable>(
        _ body: @escaping @Sendable (any WriteTransaction) throws -> T
    ) async throws -> (value: T, token: CommitToken) {
        let value = try await write(body)
        let position = try await writer.run { connection in try connection.retryingOnce { try connection.logEnd() } }
        return (value, CommitToken(position: position.value))
    }

    /// Waits until the feed has published every transaction committed through `token`, whoever wrote it.
    ///
    /// With the logical feed nothing is asked of the server but the log's end (a token past it is refused): the
    /// wait ends once the feed has handed the log on past the token. With the triggers, an empty write's
    /// notification marks the point: notifications arrive in commit order, so once it is published, so is every
    /// transaction committed before the token was handed out. The wait is bounded as ``waitForPublication()``'s.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a token past the end of the database's log (a token of
    ///   another database, or made up); the errors of reading it.
    public func waitForPublication(through token: CommitToken) async throws {
        guard let source else { return }
        let end = try await writer.run { connection in try connection.retryingOnce { try connection.logEnd() } }
        guard token.position <= end.value else {
            throw FetchKitError.invalidValue(
                "commit token \(token) is past the end of the database's log (\(end)): not a token of this database")
        }
        if let feed = source as? LogicalFeed {
            let marker = feed.completions.nextMarker()
            feed.completions.expect(marker)
            feed.completions.committed(marker, before: LogPosition(value: token.position))
        } else {
            // An empty write notifies its transaction's end like any write: published after every earlier commit.
            try await write { _ in }
        }
        await waitForPublication()
    }
}

extension PostgresConnection {
    /// The end of the server's log: where the last record inserted ends (a commit under `synchronous_commit =
    /// off` included, visible before it is flushed).
    func logEnd() throws -> LogPosition {
        let result = try execute("SELECT pg_current_wal_insert_lsn()::text AS position")
        guard case .text(let text) = try result.value(row: 0, column: 0), let position = LogPosition(text) else {
            throw FetchKitError.inconsistency("the server's log position could not be read")
        }
        return position.lastRecordEnd
    }
}
