/// The incremental path: a store change that names a few rows of the controller's own table is applied by
/// re-reading only those rows, so the database decides their membership, and merging them into the
/// current results by their ``SortKey``s.
///
/// Everything it cannot localise (a change to a related table the request reads, a resync, a whole-table
/// change, more than ``incrementalKeyLimit`` keys, a request with an offset, a limited window that shrank
/// and must be refilled) takes the refetch + diff path, ``refresh(to:transactionID:)``.
extension ResultsController {
    /// The most primary keys one change may name and still be applied incrementally.
    static var incrementalKeyLimit: Int { 1_000 }

    /// What the incremental path reads from the state before it works outside the lock.
    struct IncrementalInput: Sendable {
        var request: FetchRequest
        var keys: Set<Value>
        var order: SortKeyOrder
        var rows: [Row]
        var sortKeys: [SortKey]?
        var snapshot: ResultsSnapshot<Object>
    }

    /// Applies `change` incrementally and publishes its batch; `false` when the change needs the refetch path
    /// (nothing has changed then).
    ///
    /// - Throws: the errors of re-reading the changed rows or of diffing; the results stay as they were.
    func applyIncrementally(_ change: StoreChange) async throws -> Bool {
        guard let input = state.withLock({ Self.incrementalInput(for: change, in: $0) }) else { return false }
        let oldKeys: [SortKey]
        if let cached = input.sortKeys {
            oldKeys = cached
        } else {
            guard let keys = Self.strictlyIncreasingKeys(of: input.rows, order: input.order) else {
                // In-memory order disagrees with the database's here: never try again until the next refetch.
                state.withLock { $0.order = nil }
                return false
            }
            oldKeys = keys
        }

        let effective = input.request.sectionOrdered
        var fresh: [Row] = []
        if !input.keys.isEmpty {
            var reread = effective
            reread.predicate = .and([effective.predicate, .comparison(.init(.object, .in, .list(Array(input.keys))))])
            reread.fetchLimit = nil
            reread.fetchOffset = 0
            fresh = try await store.fetch(reread)
        }
        guard let freshKeys = Self.strictlyIncreasingKeys(of: fresh, order: input.order) else { return false }

        var removed: [Int] = []
        removed.reserveCapacity(input.keys.count)
        for key in input.keys {
            if let index = input.snapshot.indexByKey[key] { removed.append(index) }
        }
        removed.sort()
        guard let plan = ResultsWindowPlan(
            oldKeys: oldKeys, removed: removed, freshKeys: freshKeys, limit: input.request.fetchLimit)
        else { return false }

        let freshObjects = try materializer.make(fresh)
        let rows = plan.splice(old: input.rows, fresh: fresh)
        let sortKeys = plan.splice(old: oldKeys, fresh: freshKeys)
        let objects = plan.splice(old: input.snapshot.fetchedObjects, fresh: freshObjects)
        let primaryKey = input.order.primaryKey
        let keys = plan.splice(old: input.snapshot.keys, fresh: fresh.map { $0[primaryKey] ?? .null })
        let (sectionNames, sectionStarts) = Self.sections(of: rows, sectionKey: effective.sectionNameKeyPath)
        let snapshot = ResultsSnapshot(
            objects: objects, keys: keys, sectionNames: sectionNames, sectionStarts: sectionStarts)
        let changeset = try ResultsDiff.changeset(
            from: input.snapshot, previousRows: input.rows, to: snapshot, rows: rows,
            isOrderedBefore: { oldKeys[$0] < sortKeys[$1] })

        publish(snapshot, previous: input.snapshot, changeset: changeset, transactionID: change.transactionID) {
            state in
            state.rows = rows
            state.sortKeys = sortKeys
            state.incrementalUpdates += 1
        }
        return true
    }

    /// The input of the incremental path, or `nil` when `change` must take the refetch path.
    private static func incrementalInput(for change: StoreChange, in state: State) -> IncrementalInput? {
        guard state.isIncrementalEnabled, state.hasFetched, !change.isResync, let order = state.order, state.request.fetchOffset == 0,
            state.request.fetchLimit.map({ $0 > 0 }) ?? true,
            let table = change.tables[state.entityTable], !table.isWholeTable
        else { return nil }
        // Any other table the request reads (a related table) may change rows the change does not name.
        for name in change.tables.keys where name != state.entityTable && state.tables.contains(name) {
            return nil
        }
        let keys = table.allKeys
        guard keys.count <= incrementalKeyLimit else { return nil }
        return IncrementalInput(
            request: state.request, keys: keys, order: order, rows: state.rows, sortKeys: state.sortKeys,
            snapshot: state.snapshot)
    }

    /// The sort keys of `rows`, or `nil` when they are not strictly increasing (the database ordered them
    /// differently from ``SortKey``, so the incremental path must not be trusted with them).
    static func strictlyIncreasingKeys(of rows: [Row], order: SortKeyOrder) -> [SortKey]? {
        var encoder = SortKeyEncoder()
        var keys: [SortKey] = []
        keys.reserveCapacity(rows.count)
        for row in rows {
            let key = order.key(row, using: &encoder)
            if let last = keys.last, !(last < key) { return nil }
            keys.append(key)
        }
        return keys
    }

    /// The section names and starts of rows in order, as ``SnapshotLayout`` makes them.
    static func sections(of rows: [Row], sectionKey: String?) -> (names: [String], starts: [Int]) {
        guard let sectionKey else { return ([""], [0]) }
        var names: [String] = []
        var starts: [Int] = []
        for (index, row) in rows.enumerated() {
            let name = (row[sectionKey] ?? .null).sectionName
            if index == 0 || names.last != name {
                names.append(name)
                starts.append(index)
            }
        }
        return (names, starts)
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
