/// The incremental path: a store change that names a few rows of the controller's own table is applied by
/// re-reading only those rows, so the database decides their membership, and moving them in a copy of the
/// snapshot's persistent tree by their ``SortKey``s: O(k log n) for k changed rows of n, and a changeset
/// found from the k rows alone (``LocalChangeset``).
///
/// Everything it cannot localise (a change to a related table the request reads, a resync, a whole-table
/// change, more than ``incrementalKeyLimit`` keys, a request with an offset, a limited window that shrank
/// and must be refilled, an order the database and ``SortKey`` disagree on) takes the refetch + diff path,
/// ``refresh(to:transactionID:)``.
extension ResultsController {
    /// The most primary keys one change may name and still be applied incrementally.
    static var incrementalKeyLimit: Int { 1_000 }

    /// What the incremental path reads from the state before it works outside the lock.
    struct IncrementalInput: Sendable {
        var request: FetchRequest
        var keys: Set<Value>
        var snapshot: ResultsSnapshot<Object>
    }

    /// Applies `change` incrementally and publishes its batch; `false` when the change needs the refetch path
    /// (nothing has changed then).
    ///
    /// - Throws: the errors of re-reading the changed rows, or ``IncrementalInconsistency``; the results stay
    ///   as they were.
    /// - Complexity: O(k log n + s) for k changed rows, n rows and s sections, plus the re-read query.
    func applyIncrementally(_ change: StoreChange) async throws -> Bool {
        guard let input = state.withLock({ Self.incrementalInput(for: change, in: $0) }) else { return false }
        let effective = input.request.sectionOrdered
        let old = input.snapshot
        guard var editor = ResultsSnapshotEditor(old, sectionKey: effective.sectionNameKeyPath) else { return false }

        var fresh: [Row] = []
        if !input.keys.isEmpty {
            var reread = effective
            reread.predicate = .and([effective.predicate, .comparison(.init(.object, .in, .list(Array(input.keys))))])
            reread.fetchLimit = nil
            reread.fetchOffset = 0
            fresh = try await store.fetch(reread)
        }
        let objects = try materializer.make(fresh)
        var freshRows: [ResultsSnapshotEditor<Object>.FreshRow] = []
        freshRows.reserveCapacity(fresh.count)
        for (row, object) in zip(fresh, objects) {
            let key = editor.sortKey(of: row)
            // The database ordered these rows differently from SortKey: do not trust the in-memory order.
            if let last = freshRows.last, !(last.sortKey < key) { return false }
            freshRows.append(.init(row: row, object: object, sortKey: key))
        }
        guard let items = try editor.apply(
            removing: input.keys, inserting: freshRows, limit: input.request.fetchLimit, old: old)
        else { return false }
        let snapshot = editor.snapshot()
        let changeset = try LocalChangeset.make(from: old, to: snapshot, items: items)
        publish(snapshot, previous: old, changeset: changeset, transactionID: change.transactionID) { state in
            state.incrementalUpdates += 1
        }
        return true
    }

    /// The input of the incremental path, or `nil` when `change` must take the refetch path.
    private static func incrementalInput(for change: StoreChange, in state: State) -> IncrementalInput? {
        guard state.isIncrementalEnabled, state.hasFetched, !change.isResync, state.snapshot.orderedLocator != nil,
            state.request.fetchOffset == 0, state.request.fetchLimit.map({ $0 > 0 }) ?? true,
            let table = change.tables[state.entityTable], !table.isWholeTable
        else { return nil }
        // Any other table the request reads (a related table) may change rows the change does not name.
        for name in change.tables.keys where name != state.entityTable && state.tables.contains(name) {
            return nil
        }
        let keys = table.allKeys
        guard keys.count <= incrementalKeyLimit else { return nil }
        return IncrementalInput(request: state.request, keys: keys, snapshot: state.snapshot)
    }

    /// The order the incremental path compares `request`'s rows by, or `nil` when the request cannot take it:
    /// it has an offset, or a key path crosses a relationship back into the entity's own table (a change to
    /// one row could then move rows it does not name).
    ///
    /// Case folding applies to text attributes only, as the SQL compiler's `ORDER BY` does.
    static func incrementalOrder(for request: FetchRequest, in schema: Schema) -> SortKeyOrder? {
        guard request.fetchOffset == 0, let entity = try? schema.entity(named: request.entityName) else { return nil }
        var readsOwnTableThroughRelationship = false
        func check(_ key: FetchPredicate.Key) throws {
            let path = try schema.resolve(key, from: entity)
            if path.hops.contains(where: { $0.destination.table == entity.table }) {
                readsOwnTableThroughRelationship = true
            }
        }
        var components: [SortKeyOrder.Component] = []
        do {
            let effective = request.sectionOrdered
            for descriptor in effective.sortDescriptors {
                let key = FetchPredicate.Key(descriptor.key)
                try check(key)
                let isText = try schema.resolve(key, from: entity).attribute.type == .text
                components.append(SortKeyOrder.Component(
                    column: descriptor.key, ascending: descriptor.ascending,
                    caseInsensitive: descriptor.caseInsensitive && isText))
            }
            if let section = effective.sectionNameKeyPath { try check(FetchPredicate.Key(section)) }
            try effective.predicate.forEachKey(check)
        } catch {
            return nil
        }
        guard !readsOwnTableThroughRelationship else { return nil }
        return SortKeyOrder(components: components, primaryKey: entity.primaryKey.name)
    }
}

extension ResultsController {
    /// Whether store changes may take the incremental path (`true`, the default) or always refetch, so that a
    /// benchmark can measure both on one controller.
    @_spi(Benchmarks)
    public var usesIncrementalPath: Bool {
        get { state.withLock { $0.isIncrementalEnabled } }
        set { state.withLock { $0.isIncrementalEnabled = newValue } }
    }
}
