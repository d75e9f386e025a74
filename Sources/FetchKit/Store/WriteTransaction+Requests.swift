extension WriteTransaction {
    /// Changes every record `request` fetches with `change`, and writes back the attributes it changed; returns
    /// how many rows changed.
    ///
    /// ```swift
    /// try await store.write { tx in
    ///     try tx.update(FetchRequest<Todo>(predicate: #Predicate { $0.title == "Ship it" })) { $0.done = true }
    /// }
    /// ```
    ///
    /// The records are fetched inside the transaction (its own writes included), in the request's order, with
    /// its limit and offset. Only the attributes whose values `change` altered are written, so a concurrent
    /// writer's change to another attribute of the same row is kept.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when `change` alters a record's primary key; any error of
    ///   `change` or of the update. Either way the transaction then rolls back whole.
    @discardableResult
    public func update<R: Record>(_ request: FetchRequest<R>, _ change: (inout R) throws -> Void) throws -> Int {
        let key = try schema.entity(named: request.entityName).primaryKey.name
        var changed = 0
        for var record in try fetch(request) {
            let before = try RecordCoding.encode(record)
            try change(&record)
            let after = try RecordCoding.encode(record)
            guard let id = before[key], after[key] == id else {
                throw FetchKitError(
                    .invalidValue, message: "an update may not change a record's primary key \(SafeText.quoted(key))",
                    entity: request.entityName)
            }
            let values = Row(zip(after.names, after.values).filter { name, value in before[name] != value })
            guard !values.names.isEmpty else { continue }
            if try update(request.entityName, key: id, set: values) { changed += 1 }
        }
        return changed
    }

    /// Sets `values` on every row `request` fetches; returns how many rows changed.
    ///
    /// ```swift
    /// try await store.write { tx in
    ///     try tx.update(FetchRequest<Row>(entity: "Todo", predicate: .key("title") == "Ship it"), set: ["done": true])
    /// }
    /// ```
    @discardableResult
    public func update(_ request: FetchRequest<Row>, set values: Row) throws -> Int {
        guard request.fetchLimit != nil || request.fetchOffset > 0 else {
            return try update(request.entityName, where: request.predicate, set: values)
        }
        var changed = 0
        for id in try keys(of: request.erased) where try update(request.entityName, key: id, set: values) {
            changed += 1
        }
        return changed
    }

    /// Deletes every row `request` fetches; returns how many.
    ///
    /// ```swift
    /// try await store.write { tx in try tx.delete(FetchRequest<Todo>(predicate: #Predicate { $0.done })) }
    /// ```
    ///
    /// A request with a limit or an offset deletes the rows it fetches in its order: the oldest ten, say.
    @discardableResult
    public func delete<R>(_ request: FetchRequest<R>) throws -> Int {
        guard request.fetchLimit != nil || request.fetchOffset > 0 else {
            return try delete(request.entityName, where: request.predicate)
        }
        var deleted = 0
        for id in try keys(of: request.erased) where try delete(request.entityName, key: id) { deleted += 1 }
        return deleted
    }

    /// The primary keys of the rows `request` fetches, in its order.
    private func keys(of request: AnyFetchRequest) throws -> [Value] {
        let key = try schema.entity(named: request.entityName).primaryKey.name
        var keysOnly = request
        keysOnly.propertiesToFetch = [key]
        keysOnly.relationshipKeyPathsForPrefetching = []
        return try fetch(keysOnly).compactMap { $0[key] }
    }
}
