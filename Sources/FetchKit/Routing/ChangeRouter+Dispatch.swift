extension ChangeRouter {
    /// What one entity table's routes need read for a change.
    struct ReadSpec: Sendable {
        let entityName: String
        let primaryKey: String
        /// The changed keys of the table itself.
        var keys: Set<Value>
        /// Changed related rows to follow: table, the foreign keys into it, its changed keys.
        var follow: [(table: String, foreignKeys: Set<String>, keys: Set<Value>)]
        let relatedColumns: Set<String>
    }

    /// Hands `change` to every route it can affect, then records it as routed.
    func route(_ change: StoreChange) async {
        let (directIDs, specs) = state.withLock { state in
            state.dispatchPlan(for: change, schema: store.schema, keyLimit: ResultsController<Row>.incrementalKeyLimit)
        }
        var reread: [String: RereadRows] = [:]
        var unread: Set<String> = []
        for (table, spec) in specs {
            do {
                reread[table] = try await read(spec)
            } catch {
                logger.debug(
                    "re-reading changed rows failed; their controllers read for themselves",
                    metadata: ["table": "\(table)", "error": "\(error)"])
                unread.insert(table)
            }
        }
        let item = RoutedChange(change: change, rows: reread)
        // The keys the change names in a table (`nil`: unknown), as a busy route's pending keys count them.
        var named: [String: Set<Value>?] = [:]
        func keys(in table: String) -> Set<Value>? {
            if let known = named[table] { return known }
            var keys: Set<Value>?
            if change.isResync {
                keys = nil
            } else if let own = change.tables[table] {
                keys = own.isWholeTable ? nil : own.allKeys.union(reread[table]?.keys ?? [])
            } else {
                keys = reread[table]?.keys ?? []
            }
            named[table] = .some(keys)
            return keys
        }
        // The routes to consider, copied under the lock with the busy ones that may hold a row the change names
        // (read together: a route that stops being busy has its held keys in the copy); the predicates are
        // evaluated outside it.
        let (busy, routes, readers) = state.withLock { state in
            (
                state.busy.filter { id in
                    guard let entry = state.entries[id] else { return false }
                    return entry.needsWhileBusy(entry.plan.flatMap { keys(in: $0.entityTable) })
                },
                reread.keys.compactMap { table in state.entities[table].map { (table, $0) } },
                unread.flatMap { state.readers[$0] ?? [] }
            )
        }
        var ids = directIDs.union(busy).union(readers)
        for (table, entityRoutes) in routes {
            if let rows = reread[table] { entityRoutes.candidates(for: rows, into: &ids) }
        }
        let targets = state.withLock { state -> [any RouteTarget] in
            var targets: [any RouteTarget] = []
            targets.reserveCapacity(ids.count)
            for id in ids {
                guard var entry = state.entries[id], let target = entry.target else { continue }
                entry.pending += 1
                if let plan = entry.plan, plan.isKeyBounded { entry.handed(keys(in: plan.entityTable)) }
                state.entries[id] = entry
                state.busy.insert(id)
                targets.append(target)
            }
            return targets
        }
        for target in targets { target.receive(item) }
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.routedThrough = max(state.routedThrough, change.transactionID)
            let through = state.routedThrough
            let ready = state.waiters.filter { $0.transactionID <= through }.map(\.continuation)
            state.waiters.removeAll { $0.transactionID <= through }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    /// Re-reads a table's changed rows once, following changed related rows to the rows pointing at them;
    /// one retry after a failure.
    private func read(_ spec: ReadSpec) async throws -> RereadRows {
        do {
            return try await readOnce(spec)
        } catch {
            try await Task.sleep(for: .milliseconds(20))
            return try await readOnce(spec)
        }
    }

    private func readOnce(_ spec: ReadSpec) async throws -> RereadRows {
        var keys = spec.keys
        var followed: [String: Set<String>] = [:]
        if !spec.follow.isEmpty {
            var alternatives: [FetchPredicate] = []
            for (table, foreignKeys, related) in spec.follow {
                followed[table] = foreignKeys
                for foreignKey in foreignKeys {
                    alternatives.append(.comparison(.init(.key(.init(foreignKey)), .in, .list(Array(related)))))
                }
            }
            let pointing = try await store.fetch(
                FetchRequest(
                    entity: spec.entityName, predicate: .or(alternatives), propertiesToFetch: [spec.primaryKey]))
            for row in pointing { keys.insert(row[spec.primaryKey] ?? .null) }
        }
        var rows: [Value: Row] = [:]
        if !keys.isEmpty {
            let fetched = try await store.fetch(
                FetchRequest(
                    entity: spec.entityName, predicate: .comparison(.init(.object, .in, .list(Array(keys)))),
                    sortDescriptors: spec.relatedColumns.sorted().map { .ascending($0) }))
            rows.reserveCapacity(fetched.count)
            for row in fetched { rows[row[spec.primaryKey] ?? .null] = row }
        }
        return RereadRows(keys: keys, rows: rows, relatedColumns: spec.relatedColumns, followed: followed)
    }
}

extension ChangeRouter.State {
    /// The routes `change` goes to whatever the rows say, and what to re-read for the others.
    func dispatchPlan(
        for change: StoreChange, schema: Schema, keyLimit: Int
    ) -> (direct: Set<Int>, reads: [String: ChangeRouter.ReadSpec]) {
        if change.isResync { return (Set(entries.keys), [:]) }
        var ids: Set<Int> = []
        for (table, tableChange) in change.tables {
            ids.formUnion(direct[table] ?? [])
            if tableChange.isWholeTable || tableChange.allKeys.count > keyLimit { ids.formUnion(readers[table] ?? []) }
        }
        var reads: [String: ChangeRouter.ReadSpec] = [:]
        for (table, routes) in entities {
            let own = change.tables[table]
            if own?.isWholeTable == true { continue }
            var spec: ChangeRouter.ReadSpec?
            func make() -> ChangeRouter.ReadSpec? {
                guard let entity = schema.entity(forTable: table) else { return nil }
                return ChangeRouter.ReadSpec(
                    entityName: entity.name, primaryKey: entity.primaryKey.name, keys: own?.allKeys ?? [], follow: [],
                    relatedColumns: Set(routes.relatedColumns.keys))
            }
            if own != nil { spec = make() }
            for (related, foreignKeys) in routes.foreignKeys {
                guard let relatedChange = change.tables[related] else { continue }
                if relatedChange.isWholeTable || !relatedChange.deleted.isEmpty
                    || relatedChange.allKeys.count > keyLimit
                {
                    // Deletions (and what foreign-key actions did) and unnamed rows: the readers refetch.
                    ids.formUnion(readers[related] ?? [])
                    continue
                }
                if spec == nil { spec = make() }
                spec?.follow.append((related, Set(foreignKeys.keys), relatedChange.allKeys))
            }
            guard let spec else { continue }
            if spec.keys.count > keyLimit {
                ids.formUnion(readers[table] ?? [])
                continue
            }
            reads[table] = spec
        }
        return (ids, reads)
    }

}

extension ChangeRouter.EntityRoutes {
    /// Adds to `ids` the routes that the re-read `rows` can affect: those holding a changed key, those
    /// indexed by a value a row has (when the row matches), and the unindexed ones a row matches.
    ///
    /// - Complexity: O(k · (c + u)) for k rows, c indexed columns and u unindexed routes, plus the holders.
    func candidates(for rows: RereadRows, into ids: inout Set<Int>) {
        for key in rows.keys {
            switch holders[key] {
            case .one(let id)?: ids.insert(id)
            case .many(let held)?: ids.formUnion(held)
            case nil: break
            }
        }
        for row in rows.rows.values {
            for (column, byValue) in equality {
                guard let indexed = byValue[row[column] ?? .null] else { continue }
                for id in indexed where !ids.contains(id) {
                    if self.indexed[id]?.matches(row) == true { ids.insert(id) }
                }
            }
        }
        if unindexed.isEmpty { return }
        let changed = Array(rows.rows.values)
        for (id, predicate) in unindexed where !ids.contains(id) {
            for row in changed where predicate.matches(row) {
                ids.insert(id)
                break
            }
        }
    }
}
