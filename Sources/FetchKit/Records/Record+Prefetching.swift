extension Record {
    /// The records `rows` hold, each with the related records its row carries prefetched (an
    /// ``EntityRecord``'s ``EntityRecord/toOneRelationships``).
    static func records(from rows: [Row]) throws -> [Self] {
        let decoder = RecordDecoder(Self.self)
        var records = try rows.map { try decoder.decode(from: $0) }
        if let entityType = Self.self as? any EntityRecord.Type {
            try entityType.attachPrefetched(to: &records, from: rows)
        }
        return records
    }
}

extension FetchRequest where Result: EntityRecord {
    /// The same request, each fetched record carrying its related records across the to-one relationships at
    /// `keyPaths` (as Core Data's `relationshipKeyPathsForPrefetching`), kept live as those records change.
    ///
    /// ```swift
    /// let todos = try FetchRequest<Todo>(sortBy: [SortDescriptor(\.position)]).prefetching(\.category)
    /// for todo in try await store.fetch(todos) { print(todo.title, todo.category?.name ?? "-") }
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` naming a key path that is not a to-one relationship the
    ///   record lists in ``EntityRecord/toOneRelationships``.
    public func prefetching(_ keyPaths: PartialKeyPath<Result>...) throws -> FetchRequest {
        var request = self
        for keyPath in keyPaths {
            guard case .toOne(let name, _) = Result.storedMember(for: keyPath),
                Result.toOneRelationships.contains(where: { $0.name == name })
            else {
                throw FetchKitError.unknownKey(
                    "\(keyPath) (not a to-one relationship the record can prefetch)", entity: Result.entityName,
                    offset: nil)
            }
            if !request.relationshipKeyPathsForPrefetching.contains(name) {
                request.relationshipKeyPathsForPrefetching.append(name)
            }
        }
        return request
    }
}
