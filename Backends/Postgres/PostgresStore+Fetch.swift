import FetchKitBackendKit

extension PostgresStore {
    /// Fetches the rows matching `request`, in its order, on a reader connection.
    ///
    /// A reader whose connection the server closed (idle timeout, pooler, `pg_terminate_backend`) is opened
    /// again before use; a read that meets a broken connection runs once more on a fresh one.
    ///
    /// Rows name their columns as ``CompiledFetch/columns`` does: the primary key, the attributes, then each
    /// sort or section key path not already selected.
    public func fetch(_ request: AnyFetchRequest) async throws -> [Row] {
        let fetch = try compiler.fetch(request)
        return try await read { connection in try connection.fetchRows(fetch) }
    }

    /// Fetches the records matching `request`.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` when `request` is for another entity or a
    ///   row does not fit `R`.
    public func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) async throws -> [R] {
        let fetch = try compiler.compileFetch(request, as: R.self)
        return try await read { connection in try connection.fetchRecords(fetch, as: R.self) }
    }

    /// Counts the objects matching `request` (its limit and offset apply).
    public func count(_ request: AnyFetchRequest) async throws -> Int {
        let statement = try compiler.count(request)
        return try await read { connection in try connection.count(statement) }
    }

    /// Runs `body` on a reader, once more on a fresh connection if it meets a broken one; with the logical feed,
    /// after the server shows every transaction the feed has published (``VisibilityGate``): a fetch started
    /// on a change's receipt sees it. On a read replica, after the standby has replayed the log past them.
    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        let gate = logicalFeed?.visibility
        let logger = logger
        let replicaLimit = options.readReplica == nil ? nil : options.replicaWaitLimit
        readCount.add(1, ordering: .relaxed)
        return try await readers.run { connection in
            try connection.retryingOnce {
                if let replicaLimit {
                    try gate?.awaitReplayed(on: connection, limit: replicaLimit)
                } else {
                    try gate?.awaitVisible(on: connection, logger: logger)
                }
                return try body(connection)
            }
        }
    }
}
