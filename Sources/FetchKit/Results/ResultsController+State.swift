
extension ResultsController {
    /// Everything the controller's lock protects.
    struct State {
        var request: FetchRequest
        var snapshot = ResultsSnapshot<Object>()
        var hasFetched = false
        /// The tables the request reads (its entity's, and those its key paths cross).
        var tables: Set<String> = []
        var primaryKeyName = "id"
        weak var delegate: (any ResultsControllerDelegate<Object>)?
        var subscribers: [Int: AsyncStream<ResultsUpdate<Object>>.Continuation] = [:]
        var awaitingInitial: Set<Int> = []
        var nextSubscriberID = 0
        /// The last store transaction the controller has applied (or found irrelevant).
        var processedTransactionID: UInt64 = 0
        /// Callers of `sync()`, waiting for a transaction ID to be processed.
        var syncWaiters: [(transactionID: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        /// The table of the request's entity.
        var entityTable = ""
        /// Related tables whose changes the incremental path localises, with the entity's foreign key into each.
        var relatedForeignKeys: [String: String] = [:]
        /// How many store changes were applied incrementally (re-reading only the changed keys).
        var incrementalUpdates = 0
        /// How many full windows the incremental path refilled with a keyset query.
        var keysetRefills = 0
        /// How many store changes were applied by refetching the whole request.
        var fullRefreshes = 0
        /// `false` sends every store change through the refetch path (for benchmarks and tests).
        var isIncrementalEnabled = true

        init(request: FetchRequest) {
            self.request = request
        }
    }

    /// The work the controller's task does, one at a time.
    enum Command: Sendable {
        case storeChange(StoreChange)
        case performFetch(CheckedContinuation<Void, any Error>)
        case setRequest(FetchRequest, CheckedContinuation<Void, any Error>)
        case moveObject(MoveTarget, CheckedContinuation<Void, any Error>)
    }
}

/// Turns fetched rows into the controller's object type and finds an object's primary key.
struct Materializer<Object: Sendable>: Sendable {
    let make: @Sendable ([Row]) throws -> [Object]
    let key: @Sendable (Object, String) -> Value?
}

extension Materializer where Object == Row {
    static var rows: Materializer<Row> {
        Materializer(make: { $0 }, key: { row, name in row[name] })
    }
}

extension Materializer {
    static func records<R: Record>(_ type: R.Type) -> Materializer<R> {
        Materializer<R>(
            make: { rows in
                let decoder = RecordDecoder(R.self)
                return try rows.map { try decoder.decode(from: $0) }
            },
            key: { record, name in (try? RecordCoding.encode(record))?[name] })
    }
}
