import FetchKit
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Holds the store's reads until the server shows every transaction the logical feed published before them
/// (``PublishedVisibility``): the feed records what it publishes without a query, and a read that starts while
/// a published transaction is unconfirmed reads snapshots on its own connection until one sees it.
///
/// A store that reads from a hot standby waits instead until the standby has replayed the log past the last
/// commit the feed published (``awaitReplayed(on:limit:)``): a replayed commit is visible there.
final class VisibilityGate: Sendable {
    private let ledger = Mutex(PublishedVisibility())
    /// Where the last commit the feed published ends in the log.
    private let publishedThrough = Mutex(LogPosition.zero)

    /// Records that the feed published `transactionIDs`, the last of them committing before `end`.
    func published(_ transactionIDs: [UInt32], through end: LogPosition?) {
        if let end { publishedThrough.withLock { $0 = max($0, end) } }
        guard !transactionIDs.isEmpty else { return }
        let now = ContinuousClock.now
        ledger.withLock { $0.publish(transactionIDs, at: now) }
    }

    /// Returns once the standby `connection` reaches has replayed the log past every commit the feed has
    /// published: a read there shows no state older than what the store's controllers hold. Polls
    /// `pg_last_wal_replay_lsn()` (every millisecond, only while the standby is behind).
    ///
    /// - Throws: ``FetchKitError/Code/busy`` (a transient error: a controller retries) when the standby is still
    ///   behind after `limit`; the query's error.
    func awaitReplayed(on connection: PostgresConnection, limit: Duration) throws {
        let required = publishedThrough.withLock { $0 }
        guard required > .zero else { return }
        let deadline = ContinuousClock.now + limit
        while true {
            let result = try connection.execute("SELECT pg_last_wal_replay_lsn()::text AS position")
            // NULL: not a standby; it shows every commit.
            guard case .text(let text) = try result.value(row: 0, column: 0) else { return }
            guard let replayed = LogPosition(text) else {
                throw FetchKitError.inconsistency("the standby's replay position could not be read")
            }
            if replayed >= required { return }
            if ContinuousClock.now >= deadline {
                throw FetchKitError.busy(
                    "the read replica has replayed the log to \(replayed), behind \(required), which the store's "
                        + "results already show, for longer than \(limit)")
            }
            usleep(1_000)
        }
    }

    /// The number of published transactions no read has confirmed yet.
    var unconfirmedCount: Int { ledger.withLock { $0.unconfirmedCount } }

    /// Returns once a snapshot read on `connection` sees every transaction published so far, or when the last
    /// of them was published more than a second ago (a server that does not show a committed transaction within
    /// a second is not one a read can wait on forever; `logger` says so at warning).
    ///
    /// - Throws: the snapshot query's error (the read fails as it would have).
    func awaitVisible(on connection: PostgresConnection, logger: Logger) throws {
        let now = ContinuousClock.now
        guard var check = ledger.withLock({ $0.check(at: now) }) else { return }
        while true {
            let snapshot = try connection.serverSnapshot()
            check.transactionIDs.removeAll(where: snapshot.sees)
            if check.transactionIDs.isEmpty {
                ledger.withLock { [through = check.through] in $0.confirm(through: through) }
                return
            }
            if ContinuousClock.now >= check.deadline {
                logger.warning(
                    "a read did not wait any longer for transactions the log delivered to be visible",
                    metadata: ["transactions": "\(check.transactionIDs.count)"])
                return
            }
            usleep(50)
        }
    }
}

extension PostgresConnection {
    /// Which transactions a new snapshot on this connection sees.
    func serverSnapshot() throws -> ServerSnapshot {
        let result = try execute("SELECT txid_current_snapshot()::text AS snapshot")
        guard case .text(let text) = try result.value(row: 0, column: 0), let snapshot = ServerSnapshot(text) else {
            throw FetchKitError.inconsistency("the server's snapshot could not be read")
        }
        return snapshot
    }
}
