extension PersistentStore {
    /// Fetches the records a request asks for.
    ///
    /// ```swift
    /// let open = try await store.fetch(FetchRequest<Todo>(predicate: #Predicate { !$0.done }))
    /// ```
    ///
    /// A request that prefetches relationships (``FetchRequest/prefetching(_:)``) reads rows, then decodes each
    /// record with its related records.
    public func fetch<R: Record>(_ request: FetchRequest<R>, as type: R.Type = R.self) async throws -> [R] {
        guard request.relationshipKeyPathsForPrefetching.isEmpty else {
            return try R.records(from: await fetch(request.erased))
        }
        return try await fetch(request.erased, as: R.self)
    }

    /// Fetches the rows a dynamic request asks for.
    public func fetch(_ request: FetchRequest<Row>) async throws -> [Row] {
        try await fetch(request.erased)
    }

    /// Counts the objects a request would fetch (its limit and offset applied).
    public func count<R>(_ request: FetchRequest<R>) async throws -> Int {
        try await count(request.erased)
    }
}

extension WriteTransaction {
    /// Fetches the records a request asks for, inside the transaction (sees its uncommitted writes).
    public func fetch<R: Record>(_ request: FetchRequest<R>, as type: R.Type = R.self) throws -> [R] {
        guard request.relationshipKeyPathsForPrefetching.isEmpty else {
            return try R.records(from: fetch(request.erased))
        }
        return try fetch(request.erased, as: R.self)
    }

    /// Fetches the rows a dynamic request asks for, inside the transaction.
    public func fetch(_ request: FetchRequest<Row>) throws -> [Row] {
        try fetch(request.erased)
    }
}
