extension PersistentStore {
    /// Fetches the records a request asks for.
    ///
    /// ```swift
    /// let open = try await store.fetch(FetchRequest<Todo>(predicate: #Predicate { !$0.done }))
    /// ```
    public func fetch<R: Record>(_ request: FetchRequest<R>, as type: R.Type = R.self) async throws -> [R] {
        try await fetch(request.erased, as: R.self)
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
        try fetch(request.erased, as: R.self)
    }

    /// Fetches the rows a dynamic request asks for, inside the transaction.
    public func fetch(_ request: FetchRequest<Row>) throws -> [Row] {
        try fetch(request.erased)
    }
}
