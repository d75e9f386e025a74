/// The incremental path: a store change that names a few rows of the controller's own table is applied by
/// re-reading only those rows, so the database decides their membership, and moving them in a copy of the
/// snapshot's persistent tree by their ``SortKey``s: O(k log n) for k changed rows of n, and a changeset
/// found from the k rows alone (``LocalChangeset``).
///
/// `fetchLimit` holds live: rows pushed past the limit are deletes; a full window that shrank is refilled
/// by a keyset query for the rows after its old last row (``KeysetPredicate``), which are inserts.
///
/// A change to a related table the request reaches through a to-one relationship of its entity (a section
/// or sort key or predicate on `category.name`) is localised to the entity rows whose foreign key points at
/// a changed row: one query finds them, and they are re-read like named rows.
///
/// A change to a to-many related table the request reads (`ANY todos.priority > 3` on Category) is localised to
/// the entity rows its changed rows pointed at before or after the change (``TableChange/references``): they are
/// re-read with the request's predicate, so the database decides their membership.
///
/// Everything it cannot localise (a change to a table reached further away, a to-many change whose references
/// the store does not know, a deletion in a related table, a resync, a whole-table change, a request with an offset, a
/// refill of a window sorted case-insensitively, an order the database and ``SortKey`` disagree on) takes the
/// refetch + diff path, ``refresh(to:transactionID:)``. So does a change naming so many keys, against so few
/// results, that refetching is predicted to cost less: the store's ``ApplyCostModel`` decides, from what
/// each path has cost its controllers, not from a fixed count.
extension ResultsController {
    /// The most keys one re-read statement of a controller names.
    static var readChunk: Int { ChangeRouter.readChunk }

    /// What the incremental path reads from the state before it works outside the lock.
    struct IncrementalInput: Sendable {
        var request: AnyFetchRequest
        /// The keys of the entity's rows the change names.
        var keys: Set<Value>
        /// Changed rows of localisable related tables: the entity's foreign key into each, and their keys.
        var related: [(foreignKey: String, keys: Set<Value>)]
        /// The related tables of ``related``, in the same order.
        var relatedTables: [String]
        var snapshot: ResultsSnapshot<Object>
    }

    /// Applies `change` incrementally and publishes its batch; `nil` when the change needs the refetch path
    /// (nothing has changed then).
    ///
    /// `reread` are the rows the change router re-read for the change; when they carry what the request needs,
    /// membership is decided in memory and nothing is queried, otherwise the controller re-reads the changed
    /// keys with its own predicate.
    ///
    /// - Returns: the keys that entered and left the results.
    /// - Throws: the errors of re-reading the changed rows, or ``IncrementalInconsistency``; the results stay
    ///   as they were.
    /// - Complexity: O(k log n + s) for k changed rows, n rows and s sections, plus the re-read query.
    func applyIncrementally(_ change: StoreChange, reread: RereadRows?) async throws -> MembershipDelta? {
        guard let input = state.withLock({ Self.incrementalInput(for: change, in: $0) }) else { return nil }
        let effective = input.request.sectionOrdered
        let old = input.snapshot
        guard var editor = ResultsSnapshotEditor(old, sectionKey: effective.sectionNameKeyPath) else { return nil }
        var keys = input.keys
        var fresh: [ResultsSnapshotEditor<Object>.FreshRow]
        if let reread, let rows = matchingRows(reread, related: input.related, relatedTables: input.relatedTables) {
            // The router's rows: membership decided in memory, no query.
            keys = reread.keys
            guard !prefersRefetch(keys: keys.count, rows: old.count) else { return nil }
            let objects = try materializer.make(rows)
            fresh = zip(rows, objects).map { .init(row: $0, object: $1, sortKey: editor.sortKey(of: $0)) }
            fresh.sort { $0.sortKey < $1.sortKey }
            send(.counted(.routed))
        } else {
            if !input.related.isEmpty {
                // The entity rows that point at a changed related row (now; a row that pointed there before and
                // no longer does changed its foreign key, so the change names it).
                let pointing = try await store.fetch(
                    AnyFetchRequest(
                        entity: effective.entityName,
                        predicate: .or(
                            input.related.map {
                                .comparison(.init(.key(.init($0.foreignKey)), .in, .list(Array($0.keys))))
                            }),
                        propertiesToFetch: [editor.primaryKeyName]))
                for row in pointing { keys.insert(row[editor.primaryKeyName] ?? .null) }
            }
            guard !prefersRefetch(keys: keys.count, rows: old.count) else { return nil }
            fresh = []
            let named = Array(keys)
            for start in stride(from: 0, to: named.count, by: Self.readChunk) {
                let chunk = Array(named[start..<min(start + Self.readChunk, named.count)])
                var query = effective
                query.predicate = .and([effective.predicate, .comparison(.init(.object, .in, .list(chunk)))])
                query.fetchLimit = nil
                query.fetchOffset = 0
                guard let ordered = try freshRows(try await store.fetch(query), editor: &editor) else { return nil }
                fresh += ordered
            }
            // Each chunk came in the request's order; together they are not.
            if named.count > Self.readChunk { fresh.sort { $0.sortKey < $1.sortKey } }
        }
        var pending = try editor.apply(
            removing: keys, inserting: fresh, limit: input.request.fetchLimit, old: old)
        var usedKeyset = false
        if pending.missing > 0 {
            // The full window shrank: read the rows that follow its old last row (a keyset query).
            guard let boundary = pending.boundary, let after = KeysetPredicate.after(boundary, in: editor.order)
            else { return nil }
            var refill = effective
            refill.predicate = .and([effective.predicate, after])
            refill.fetchLimit = pending.missing
            refill.fetchOffset = 0
            guard let rows = try freshRows(try await store.fetch(refill), editor: &editor) else { return nil }
            let boundaryKey = editor.sortKey(of: boundary)
            guard rows.allSatisfy({ boundaryKey < $0.sortKey }) else { return nil }
            try editor.refill(&pending, with: rows)
            usedKeyset = true
        }
        let items = try editor.items(of: pending, old: old)
        let snapshot = editor.snapshot()
        let changeset = try LocalChangeset.make(from: old, to: snapshot, items: items)
        await publish(
            snapshot, previous: old, changeset: changeset, transactionID: change.transactionID,
            events: [.counted(.incremental(keysetRefill: usedKeyset))]
        )?.perform()
        var delta = MembershipDelta(applied: keys.count)
        for key in pending.newPositions.keys where pending.oldPositions[key] == nil { delta.entered.append(key) }
        for key in pending.oldPositions.keys where pending.newPositions[key] == nil { delta.left.append(key) }
        delta.left += pending.pushedOut
        return delta
    }

    /// Whether refetching `rows` results is predicted to cost less than applying `keys` changed keys.
    private func prefersRefetch(keys: Int, rows: Int) -> Bool {
        router.costs.withLock { $0.prefersRefetch(keys: keys, rows: rows) }
    }

    /// `rows` as the controller's objects with their sort keys, or `nil` when the database ordered them
    /// differently from ``SortKey`` (the in-memory order must not be trusted then).
    private func freshRows(
        _ rows: [Row], editor: inout ResultsSnapshotEditor<Object>
    ) throws -> [ResultsSnapshotEditor<Object>.FreshRow]? {
        let objects = try materializer.make(rows)
        var fresh: [ResultsSnapshotEditor<Object>.FreshRow] = []
        fresh.reserveCapacity(rows.count)
        for (row, object) in zip(rows, objects) {
            let key = editor.sortKey(of: row)
            if let last = fresh.last, !(last.sortKey < key) { return nil }
            fresh.append(.init(row: row, object: object, sortKey: key))
        }
        return fresh
    }

    /// The input of the incremental path, or `nil` when `change` must take the refetch path.
    private static func incrementalInput(for change: StoreChange, in state: State) -> IncrementalInput? {
        guard state.isIncrementalEnabled, state.hasFetched, !change.isResync, state.snapshot.orderedLocator != nil,
            state.request.fetchOffset == 0, state.request.fetchLimit.map({ $0 > 0 }) ?? true
        else { return nil }
        var keys: Set<Value> = []
        if let table = change.tables[state.entityTable] {
            guard !table.isWholeTable else { return nil }
            keys = table.allKeys
        }
        // A related table's changed rows can only change the entity rows pointing at them, when the request
        // reaches it through a to-one relationship of the entity; deletions (and whatever foreign-key actions
        // did) and anything else refetch.
        var related: [(foreignKey: String, keys: Set<Value>)] = []
        var relatedTables: [String] = []
        for (name, table) in change.tables where name != state.entityTable && state.tables.contains(name) {
            if let foreignKey = state.childForeignKeys[name] {
                // A to-many related table: its changed rows can only change the entity rows they pointed at.
                guard !table.isWholeTable, let referenced = table.references[foreignKey] else { return nil }
                for key in referenced { keys.insert(state.primaryKeyType.coerce(key) ?? key) }
                continue
            }
            guard let foreignKey = state.relatedForeignKeys[name], !table.isWholeTable, table.deleted.isEmpty
            else { return nil }
            related.append((foreignKey, table.allKeys))
            relatedTables.append(name)
        }
        return IncrementalInput(
            request: state.request, keys: keys, related: related, relatedTables: relatedTables, snapshot: state.snapshot
        )
    }

    /// The order the incremental path compares `request`'s rows by, or `nil` when the request cannot take it:
    /// it has an offset, or a key path crosses a relationship back into the entity's own table (a change to
    /// one row could then move rows it does not name).
    ///
    /// Case folding applies to text attributes only, as the SQL compiler's `ORDER BY` does.
    static func incrementalOrder(for request: AnyFetchRequest, in schema: Schema) -> SortKeyOrder? {
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
                components.append(
                    SortKeyOrder.Component(
                        column: descriptor.key, ascending: descriptor.ascending,
                        caseInsensitive: descriptor.caseInsensitive && isText))
            }
            if let section = effective.sectionNameKeyPath { try check(FetchPredicate.Key(section)) }
            try effective.predicate.forEachKey(check)
        } catch {
            return nil
        }
        guard !readsOwnTableThroughRelationship else { return nil }
        return SortKeyOrder(components: components, primaryKey: entity.primaryKey.name).interned()
    }
}

extension ResultsController {
    /// Whether store changes may take the incremental path (`true`, the default) or always refetch, so that the
    /// conformance suite can compare both, and a benchmark measure both, on one controller.
    package var usesIncrementalPath: Bool {
        get { state.withLock { $0.isIncrementalEnabled } }
        set { send(.incrementalPathEnabled(newValue)) }
    }
}

#if BenchmarkHooks
    extension ResultsController {
        /// ``usesIncrementalPath`` for FetchKit's benchmarks, which live in a package of their own (compiled only
        /// with the BenchmarkHooks trait).
        @_spi(Benchmarks)
        public var benchmarkUsesIncrementalPath: Bool {
            get { usesIncrementalPath }
            set { usesIncrementalPath = newValue }
        }
    }
#endif
