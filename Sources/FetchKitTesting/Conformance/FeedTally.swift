import FetchKit
import Synchronization

/// What a store's change feed published, as a check reads it beside its controllers: the resyncs (the feed lost
/// its connection or could not read a change, and every controller refetches — a batch no write caused) and the
/// delivery changes, by transaction ID. A check that bounds the batches by the transactions it committed counts
/// the resyncs too.
final class FeedTally: Sendable {
    /// One published change, as the failure messages list it.
    struct Entry: Sendable, CustomStringConvertible {
        let id: UInt64
        let isResync: Bool
        let delivery: FeedDelivery?
        let tables: [String]

        var description: String {
            if isResync { return "\(id): resync" }
            if let delivery { return "\(id): \(delivery)" }
            return "\(id): \(tables.joined(separator: ", "))"
        }
    }

    /// The entries read so far, in order.
    private final class Log: Sendable {
        let entries = Mutex<[Entry]>([])
    }

    private let log = Log()
    private let reader: Task<Void, Never>

    /// Starts reading `store`'s changes.
    init(_ store: any PersistentStore) {
        let changes = store.changes()
        let log = log
        reader = Task {
            for await change in changes {
                let entry = Entry(
                    id: change.transactionID, isResync: change.isResync, delivery: change.delivery,
                    tables: change.tables.keys.sorted())
                log.entries.withLock { $0.append(entry) }
            }
        }
    }

    deinit { reader.cancel() }

    /// The changes published after transaction `after` through `through`, once the tally has read that far (it
    /// reads beside the controllers, maybe behind them); what it has read when that takes longer than 10 s.
    func entries(after: UInt64, through: UInt64) async -> [Entry] {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while log.entries.withLock({ ($0.last?.id ?? 0) < through }), clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return log.entries.withLock { $0.filter { $0.id > after && $0.id <= through } }
    }
}
