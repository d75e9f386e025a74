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
final class VisibilityGate: Sendable {
    private let ledger = Mutex(PublishedVisibility())

    /// Records that the feed published `transactionIDs`.
    func published(_ transactionIDs: [UInt32]) {
        guard !transactionIDs.isEmpty else { return }
        let now = ContinuousClock.now
        ledger.withLock { $0.publish(transactionIDs, at: now) }
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
